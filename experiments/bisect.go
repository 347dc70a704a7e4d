package experiments

// bisect returns the largest k in [1, resolution] for which stable(k)
// holds, or 0 if stable(1) does not, assuming stable is monotone (true up
// to the saturation point, false beyond; k = 0 counts as stable). It
// calls stable about log2(resolution) times and stops at the first error.
func bisect(resolution int, stable func(k int) (bool, error)) (int, error) {
	return bisectIn(0, resolution, stable)
}

// bisectIn is bisect knowing that the answer is in [lo, hi]: stable(lo)
// holds (or lo is 0) and stable(hi+1) does not (or hi is the resolution).
func bisectIn(lo, hi int, stable func(k int) (bool, error)) (int, error) {
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		ok, err := stable(mid)
		if err != nil {
			return 0, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, nil
}

// gallop returns what bisect returns for a monotone stable, starting from
// a guess: it tests hint (clamped to [1, resolution]), then moves away
// from it in the direction the answer lies by 1, 3, 7, … steps until the
// answer is bracketed, and bisects the bracket. A guess d steps off costs
// about 2·log2(d+1)+2 points, an exact one 2 (1 at either end of the
// range), against log2(resolution) for bisect.
//
// For any stable, as for bisect, the answer k was tested stable (or is 0)
// and k+1 was tested unstable (or k is the resolution).
func gallop(resolution, hint int, stable func(k int) (bool, error)) (int, error) {
	h := min(max(hint, 1), resolution)
	up, err := stable(h)
	if err != nil {
		return 0, err
	}
	lo, hi := 0, resolution // stable(lo) holds (or lo is 0); the answer is ≤ hi
	if up {
		lo = h
	} else {
		hi = h - 1
	}
	// Move away from h, up if it was stable, until a verdict turns.
	for off := 1; lo < hi; off = 2*off + 1 {
		k := h - off
		if up {
			k = h + off
		}
		k = min(max(k, lo+1), hi)
		ok, err := stable(k)
		if err != nil {
			return 0, err
		}
		if ok {
			lo = k
		} else {
			hi = k - 1
		}
		if ok != up {
			break
		}
	}
	return bisectIn(lo, hi, stable)
}

// search returns the largest stable k in [0, resolution] by bisect, or by
// gallop from hint if hint ≥ 0.
func search(resolution, hint int, stable func(k int) (bool, error)) (int, error) {
	if hint < 0 {
		return bisect(resolution, stable)
	}
	return gallop(resolution, hint, stable)
}
