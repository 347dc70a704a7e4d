package experiments

import "math"

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

// guided returns what bisect returns for a monotone stable, guided by the
// load each unstable point accepted: past saturation a network delivers
// about its saturation load whatever it is offered, so after an unstable
// point it guesses the answer is that point's accepted load in steps
// (rounded down, kept inside the bracket), tests it, and if it is stable
// tests the step above it. Before the first unstable point it bisects, or
// tests hint ≥ 0 as a guess and moves up from it by 1, 3, 7, … steps as
// gallop does. A guess misses when it tests unstable (the next guess is
// read from it) or stable with the step above it stable too (the search
// bisects until the next unstable point). After three misses every
// unstable point is followed by bisection, and so is one whose accepted
// load is no reading (NaN, outside [0, 1]): a network whose accepted load
// misleads costs at most about twice bisection (TestGuidedFindsThreshold:
// 2·bits.Len(resolution) + 3, 19 at 1/128 against 8), not a step per
// point.
//
// probe tests load k/resolution and returns its verdict and its accepted
// load as a fraction of the link bandwidth (read only when unstable). For
// any probe, as for bisect, the answer k was tested stable (or is 0) and
// k+1 was tested unstable (or k is the resolution).
func guided(resolution, hint int, probe func(k int) (stable bool, accepted float64, err error)) (int, error) {
	return guidedTo(resolution, resolution, hint, probe)
}

// guidedTo is guided with the answer known to lie in [0, ceil], ceil ≤
// resolution: loads above ceil are never tested, and a bisection's
// first middle is ceil's half.
func guidedTo(resolution, ceil, hint int, probe func(k int) (stable bool, accepted float64, err error)) (int, error) {
	const maxMisses = 3
	var accepted float64
	b := bracket{lo: 0, hi: ceil, stable: func(k int) (bool, error) {
		ok, a, err := probe(k)
		accepted = a
		return ok, err
	}}
	// What the load tested was: a bisection's middle, a guess, the step
	// above a stable guess, or a step up from the hint (base+off).
	const (
		middle = iota
		guess
		check
		up
	)
	k, kind := (ceil+1)/2, middle
	if hint >= 0 {
		k, kind = hint, guess
	}
	base, off, misses, unstable := 0, 0, 0, false
	for b.lo < b.hi {
		ok, err := b.test(min(max(k, b.lo+1), b.hi))
		if err != nil {
			return 0, err
		}
		if kind == guess && !ok || kind == check && ok {
			misses++
		}
		unstable = unstable || !ok
		a := accepted * float64(resolution)
		switch {
		case !ok && misses < maxMisses && a >= 0 && a <= float64(resolution):
			k, kind = int(math.Floor(a)), guess
		case ok && kind == guess:
			base, off = b.lo, 1
			k, kind = base+off, check
		case ok && !unstable && (kind == check || kind == up):
			// Above the hint, with no unstable point to read yet.
			off = 2*off + 1
			k, kind = base+off, up
		default:
			k, kind = b.lo+(b.hi-b.lo+1)/2, middle
		}
	}
	return b.lo, nil
}

// search returns the largest stable k in [0, resolution]: by bisect, or
// by gallop from hint if hint ≥ 0; with guide, by guided (from hint if
// hint ≥ 0). probe is as for guided. With ceil < resolution the answer
// is known to be at most ceil (the channel-load bound): loads above it
// are not tested, and without a hint the search tests ceil first (where
// a routing's saturation is its bound, the whole search), then, if it is
// unstable, guided searches read its accepted load as they read any
// unstable point's and the others bisect below it.
func search(resolution, ceil, hint int, guide bool, probe func(k int) (bool, float64, error)) (int, error) {
	ceil = min(max(ceil, 0), resolution)
	capped := ceil < resolution
	if capped && ceil == 0 {
		return 0, nil // no load is stable
	}
	if capped && hint > ceil {
		hint = ceil
	}
	if guide {
		if capped && hint < 0 {
			hint = ceil
		}
		return guidedTo(resolution, ceil, hint, probe)
	}
	stable := func(k int) (bool, error) {
		ok, _, err := probe(k)
		return ok, err
	}
	switch {
	case capped && hint < 0:
		b := bracket{lo: 0, hi: ceil, stable: stable}
		if _, err := b.test(ceil); err != nil {
			return 0, err
		}
		return b.bisect()
	case hint < 0:
		return bisect(resolution, stable)
	}
	return gallop(ceil, hint, stable)
}
