package structure

import (
	"cmp"
	"container/heap"
	"slices"
)

// greedy merges groups, the pair with the largest gain first (see join),
// until enough says so or no merge is left; with positive set, only
// merges that raise the score, third groups taken in included. Pairs are
// ranked by the gain of merging the two groups alone — the evidence for
// that pair — since a merge that takes third groups in is only as sure
// as its pair; ties go to the first pair in group order, and to a linked
// pair over an unlinked one. It reports whether it merged any.
//
// Linked pairs wait in a heap, dropped once either group has changed
// (merging only changes the merged group's pairs, which are pushed
// anew); unlinked pairs come from bestUnlinked. Within one call groups
// only grow, so a pair found invalid stays invalid.
func (r *regrouping) greedy(positive bool, enough func() bool) bool {
	version := make([]int, len(r.members))
	h := &pairHeap{}
	entry := func(x, y int) (pairEntry, bool) {
		x, y = min(x, y), max(x, y)
		e := pairEntry{x: x, y: y, vx: version[x], vy: version[y]}
		if len(r.members[x])+len(r.members[y]) > r.model.GroupSize {
			return e, false // too large to merge
		}
		e.gain = r.gain(x, y)
		return e, true
	}
	for _, x := range r.live {
		for y := range r.between[x] {
			if x > y {
				continue
			}
			if e, ok := entry(x, y); ok {
				*h = append(*h, e)
			}
		}
	}
	heap.Init(h)
	buckets := r.unlinkedGains()
	invalid := make(map[[2]int]bool)
	merged := false
	for !enough() {
		for h.Len() > 0 && ((*h)[0].vx != version[(*h)[0].x] || (*h)[0].vy != version[(*h)[0].y]) {
			heap.Pop(h)
		}
		linked := h.Len() > 0 && (!positive || (*h)[0].gain > 0)
		worth := func(g float64) bool {
			switch {
			case linked:
				return g > (*h)[0].gain
			case positive:
				return g > 0
			}
			return true
		}
		set, ok := r.bestUnlinked(buckets, worth, positive, invalid)
		if !ok && linked {
			e := heap.Pop(h).(pairEntry)
			var total float64
			set, total, ok = r.join(e.x, e.y)
			if !ok || positive && total <= 0 {
				continue
			}
		}
		if !ok {
			return merged
		}
		r.mergeSet(set)
		merged = true
		for _, g := range set {
			version[g]++
		}
		for x := range r.between[set[0]] {
			if e, ok := entry(set[0], x); ok {
				heap.Push(h, e)
			}
		}
	}
	return merged
}

// bucket is a pair of group sizes and the gain of merging two unlinked
// groups of those sizes.
type bucket struct {
	na, nb int
	gain   float64
}

// unlinkedGains returns the sizes of groups a single switch can join,
// with the gain of merging the switch into an unlinked group of that size
// — which depends on the size alone — largest first.
func (r *regrouping) unlinkedGains() []bucket {
	var bs []bucket
	for nb := 1; nb < r.model.GroupSize; nb++ {
		bs = append(bs, bucket{1, nb, r.w.group(nb+1, 0) - r.w.group(1, 0) - r.w.group(nb, 0)})
	}
	slices.SortStableFunc(bs, func(a, b bucket) int { return cmp.Compare(b.gain, a.gain) })
	return bs
}

// bestUnlinked returns the merge (see join) of a single switch and a
// group it has no link to with the largest gain that worth accepts, and
// whether there is one; with positive set, the merge must raise the
// score, third groups included. A switch that kept no local link has no
// other way back into its group (two larger parts of a group with no link
// between them are too unlikely to look for). Looking at every pair would
// take time quadratic in the number of groups, so the sizes are taken
// largest gain first, and for each the pairs in group order until one is
// valid; pairs found invalid are remembered (within one call of greedy
// groups only grow, which keeps them invalid).
func (r *regrouping) bestUnlinked(buckets []bucket, worth func(gain float64) bool, positive bool, invalid map[[2]int]bool) (set []int, ok bool) {
	bySize := r.bySize()
	for _, b := range buckets {
		if !worth(b.gain) {
			return nil, false
		}
		for _, x := range bySize[b.na] {
			for _, y := range bySize[b.nb] {
				p := [2]int{min(x, y), max(x, y)}
				if x == y || b.na == b.nb && y < x || r.between[x][y] > 0 || invalid[p] {
					continue
				}
				s, total, valid := r.join(p[0], p[1])
				if !valid {
					invalid[p] = true
				} else if !positive || total > 0 {
					return s, true
				}
			}
		}
	}
	return nil, false
}

// bySize returns the live groups by size (0..K), each list in group
// order.
func (r *regrouping) bySize() [][]int {
	by := make([][]int, r.model.GroupSize+1)
	for _, x := range r.live {
		if n := len(r.members[x]); n < len(by) {
			by[n] = append(by[n], x)
		}
	}
	return by
}

// pairEntry is a linked pair of groups waiting in greedy's heap, with
// the groups' versions when it was pushed.
type pairEntry struct {
	gain   float64
	x, y   int
	vx, vy int
}

// pairHeap orders pairs by gain, largest first, then in group order.
type pairHeap []pairEntry

func (h pairHeap) Len() int { return len(h) }
func (h pairHeap) Less(i, j int) bool {
	if h[i].gain != h[j].gain {
		return h[i].gain > h[j].gain
	}
	return h[i].x < h[j].x || h[i].x == h[j].x && h[i].y < h[j].y
}
func (h pairHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }

// Push appends x (heap.Interface).
func (h *pairHeap) Push(x any) { *h = append(*h, x.(pairEntry)) }

// Pop removes the last entry (heap.Interface).
func (h *pairHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}
