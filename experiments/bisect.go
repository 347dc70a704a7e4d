package experiments

// bisect returns the largest k in [1, resolution] for which stable(k)
// holds, or 0 if stable(1) does not, assuming stable is monotone (true up
// to the saturation point, false beyond; k = 0 counts as stable). It
// calls stable about log2(resolution) times and stops at the first error.
func bisect(resolution int, stable func(k int) (bool, error)) (int, error) {
	lo, hi := 0, resolution // stable(lo) holds; the answer is ≤ hi
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
