package experiments

// bisect returns the largest k in [1, resolution] for which stable(k)
// holds, or 0 if stable(1) does not, assuming stable is monotone (true up
// to the saturation point, false beyond; k = 0 counts as stable). It
// calls stable about log2(resolution) times and stops at the first error.
func bisect(resolution int, stable func(k int) (bool, error)) (int, error) {
	b := bracket{lo: 0, hi: resolution, stable: stable}
	return b.bisect()
}

// bracket is a search's interval [lo, hi] holding the answer: stable(lo)
// holds (or lo is 0) and stable(hi+1) does not (or hi is the resolution).
type bracket struct {
	lo, hi int
	stable func(k int) (bool, error)
}

// bisect returns the answer, bisecting the bracket.
func (b *bracket) bisect() (int, error) {
	for b.lo < b.hi {
		if _, err := b.test(b.lo + (b.hi-b.lo+1)/2); err != nil {
			return 0, err
		}
	}
	return b.lo, nil
}

// test tests load k, lo < k ≤ hi, and narrows the bracket by its verdict.
func (b *bracket) test(k int) (bool, error) {
	ok, err := b.stable(k)
	if err != nil {
		return false, err
	}
	if ok {
		b.lo = k
	} else {
		b.hi = k - 1
	}
	return ok, nil
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
	b := bracket{lo: 0, hi: resolution, stable: stable}
	up, err := b.test(h)
	if err != nil {
		return 0, err
	}
	// Move away from h, up if it was stable, until a verdict turns.
	for off := 1; b.lo < b.hi; off = 2*off + 1 {
		k := h - off
		if up {
			k = h + off
		}
		ok, err := b.test(min(max(k, b.lo+1), b.hi))
		if err != nil {
			return 0, err
		}
		if ok != up {
			break
		}
	}
	return b.bisect()
}

// search returns the largest stable k in [0, resolution] by bisect, or by
// gallop from hint if hint ≥ 0.
func search(resolution, hint int, stable func(k int) (bool, error)) (int, error) {
	if hint < 0 {
		return bisect(resolution, stable)
	}
	return gallop(resolution, hint, stable)
}
