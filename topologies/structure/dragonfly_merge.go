package structure

import (
	"math"
	"slices"
)

// regrouping is the state of step 7 of MapDragonflyShape: the groups of
// the mapped component, with the link counts the merges need.
type regrouping struct {
	sg      *simpleGraph
	model   DragonflyModel
	w       scoreWeights
	group   []int         // group of every switch, -1 outside the component
	members [][]int32     // switches of every live group
	inside  []int         // links inside every live group
	between []map[int]int // links between every live group and its neighbours
	global  []int         // links from every switch to other groups
	live    []int         // the live groups, increasing
	// limitG and limitGroups are G and the number of groups when given
	// (else 0): invariants that force merges.
	limitG, limitGroups int
	scratch             map[[2]int]bool // pairs already offered by overloadedPairs
}

// newRegrouping sets up step 7 from the groups of steps 1–6: group holds
// the group of every switch (-1 outside the component), numbered 0..n-1;
// it is updated in place. Fields of shape that are set are invariants.
func newRegrouping(sg *simpleGraph, group []int, n int, model DragonflyModel, shape DragonflyShape) *regrouping {
	r := &regrouping{limitG: shape.GlobalPerSwitch, limitGroups: shape.Groups,
		sg: sg, model: model, w: model.weights(), group: group,
		members: make([][]int32, n), inside: make([]int, n), between: make([]map[int]int, n),
		global: make([]int, sg.n), scratch: make(map[[2]int]bool),
	}
	for s, grp := range group {
		if grp >= 0 {
			r.members[grp] = append(r.members[grp], int32(s))
		}
	}
	for grp := range n {
		r.between[grp] = make(map[int]int)
		r.live = append(r.live, grp)
	}
	for _, ends := range sg.ends {
		a, b := group[ends[0]], group[ends[1]]
		if a == b {
			r.inside[a]++
			continue
		}
		r.between[a][b]++
		r.between[b][a]++
		r.global[ends[0]]++
		r.global[ends[1]]++
	}
	return r
}

// repairable reports whether step 7 should run: whether at most half of
// the mapped switches are groups of their own. Step 7 rejoins groups that
// faults split; a graph in which steps 1–5 find no groups to start from
// (a torus, a hypercube) is no Dragonfly, and merging its switches one by
// one would take time quadratic in their number.
func (r *regrouping) repairable() bool {
	alone, mapped := 0, 0
	for _, m := range r.members {
		mapped += len(m)
		if len(m) == 1 {
			alone++
		}
	}
	return 2*alone <= mapped
}

// gain returns how much merging groups a and b alone would raise the
// score of the grouping (DragonflyModel.Score).
func (r *regrouping) gain(a, b int) float64 {
	na, nb := len(r.members[a]), len(r.members[b])
	x := r.between[a][b]
	return r.w.group(na+nb, r.inside[a]+r.inside[b]+x) - r.w.group(na, r.inside[a]) - r.w.group(nb, r.inside[b])
}

// join returns the groups that merging a and b brings together, and how
// much merging them raises the score. Two groups share at most one link,
// so a group linked to both a and b (or, as the set grows, twice to the
// set) is one group with them and joins the set, repeatedly: a group
// whose switches form a ring with no diagonals left is only found whole.
// ok is false when the set would hold more than K switches. Merging only
// turns global links into local ones, so it never makes a switch exceed
// K−1 local or G global links.
func (r *regrouping) join(a, b int) (set []int, gain float64, ok bool) {
	size := len(r.members[a]) + len(r.members[b])
	if size > r.model.GroupSize {
		return nil, 0, false
	}
	set = []int{a, b}
	inside := r.inside[a] + r.inside[b] + r.between[a][b]
	small, large := a, b
	if len(r.between[small]) > len(r.between[large]) {
		small, large = large, small
	}
	shared := false
	for x, c := range r.between[small] {
		if x != large && c+r.between[large][x] > 1 {
			shared = true
			break
		}
	}
	if shared {
		out := make(map[int]int) // links from the set to every other group
		for _, g := range set {
			for x, c := range r.between[g] {
				if !slices.Contains(set, x) {
					out[x] += c
				}
			}
		}
		for {
			next := -1 // the first group sharing two links with the set
			for x, c := range out {
				if c > 1 && (next < 0 || x < next) {
					next = x
				}
			}
			if next < 0 {
				break
			}
			if size += len(r.members[next]); size > r.model.GroupSize {
				return nil, 0, false
			}
			inside += r.inside[next] + out[next]
			delete(out, next)
			set = append(set, next)
			for x, c := range r.between[next] {
				if !slices.Contains(set, x) {
					out[x] += c
				}
			}
		}
	}
	gain = r.w.group(size, inside)
	for _, g := range set {
		gain -= r.w.group(len(r.members[g]), r.inside[g])
	}
	return set, gain, true
}

// merge merges group b into group a.
func (r *regrouping) merge(a, b int) {
	for _, s := range r.members[b] {
		for _, nb := range r.sg.adj[s] {
			if r.group[nb.s] == a {
				r.global[s]--
				r.global[nb.s]--
			}
		}
	}
	for _, s := range r.members[b] {
		r.group[s] = a
	}
	r.members[a] = append(r.members[a], r.members[b]...)
	r.members[b] = nil
	r.inside[a] += r.inside[b] + r.between[a][b]
	delete(r.between[a], b)
	for x, c := range r.between[b] {
		if x == a {
			continue
		}
		r.between[a][x] += c
		r.between[x][a] += c
		delete(r.between[x], b)
	}
	r.between[b] = nil
	r.drop(b)
}

// drop removes the emptied group b from the live groups.
func (r *regrouping) drop(b int) {
	if i := slices.Index(r.live, b); i >= 0 {
		r.live = slices.Delete(r.live, i, i+1)
	}
}

// sharedPairs returns the pairs of groups sharing two or more links,
// which the invariant "two groups share at most one link" says are one
// group.
func (r *regrouping) sharedPairs() [][2]int {
	var pairs [][2]int
	for _, a := range r.live {
		for b, c := range r.between[a] {
			if a < b && c > 1 {
				pairs = append(pairs, [2]int{a, b})
			}
		}
	}
	return pairs
}

// overloadedPairs returns, for every switch with more than G global
// links, the pairs of its group and a neighbour's group: by the invariant
// "a switch has at most G global links", one of these must be one group.
func (r *regrouping) overloadedPairs() [][2]int {
	var pairs [][2]int
	clear(r.scratch)
	for s, out := range r.global {
		if r.limitG <= 0 || out <= r.limitG || r.group[s] < 0 {
			continue
		}
		for _, nb := range r.sg.adj[s] {
			a, b := r.group[s], r.group[nb.s]
			p := [2]int{min(a, b), max(a, b)}
			if a != b && !r.scratch[p] {
				r.scratch[p] = true
				pairs = append(pairs, p)
			}
		}
	}
	return pairs
}

// best returns the merge (see join) of the pair with the largest gain
// among pairs, whatever its sign, and whether there is one; ties go to
// the first pair. It serves the merges an invariant demands.
func (r *regrouping) best(pairs [][2]int) (set []int, ok bool) {
	top := math.Inf(-1)
	for _, p := range pairs {
		if g := r.gain(p[0], p[1]); g > top || !ok {
			if s, _, valid := r.join(p[0], p[1]); valid {
				top, set, ok = g, s, true
			}
		}
	}
	return set, ok
}

// run merges groups until no invariant demands a merge and no merge
// raises the score, then moves single switches between groups while a
// move raises the score, and repeats both while either changes the
// grouping (step 7 of MapDragonflyShape). A merge an invariant demands is
// made even when it lowers the score, most pressing invariant first: two
// groups sharing two or more links, a switch with more than G global
// links, more groups than the model allows. Every other step raises the
// score, so run ends.
func (r *regrouping) run() {
	for {
		merged := r.mergeAll()
		if !r.moveAll() && !merged {
			return
		}
	}
}

// mergeAll merges groups as run describes and reports whether it merged
// any.
func (r *regrouping) mergeAll() bool {
	merged := false
	for {
		set, ok := r.best(r.sharedPairs())
		if !ok {
			set, ok = r.best(r.overloadedPairs())
		}
		if !ok {
			break
		}
		r.mergeSet(set)
		merged = true
	}
	// Merges never add links between groups, global links to a switch or
	// groups, so the invariants above stay kept.
	if r.limitGroups > 0 && len(r.live) > r.limitGroups {
		merged = r.greedy(false, func() bool { return len(r.live) <= r.limitGroups }) || merged
	}
	return r.greedy(true, func() bool { return false }) || merged
}

// mergeSet merges the groups of set into the first.
func (r *regrouping) mergeSet(set []int) {
	for _, g := range set[1:] {
		r.merge(set[0], g)
	}
}

// moveAll moves switches, in switch order, each to the group where it
// raises the score most (see moveGain), and reports whether it moved any.
// Greedy merging can join two switches of different groups that no link
// ties to their own groups before either finds its own; moving undoes
// that. The groups a switch is linked to are tried, and the groups it is
// not linked to the way bestUnlinked tries unlinked pairs.
func (r *regrouping) moveAll() bool {
	moved := false
	links := make([]int, len(r.members)) // links from the switch to every group
	var linked []int                     // the groups it is linked to
	bySize := r.bySize()
	for s := range r.sg.n {
		a := r.group[s]
		if a < 0 || len(r.members[a]) == 1 {
			continue // a switch alone cannot score higher elsewhere than by a merge
		}
		linked = linked[:0]
		for _, nb := range r.sg.adj[s] {
			if b := r.group[nb.s]; links[b] == 0 {
				linked = append(linked, b)
			}
			links[r.group[nb.s]]++
		}
		best, top := -1, 0.0
		for _, b := range linked {
			if g := r.moveGain(s, b, links); b != a && g > top && r.canMove(s, b, links) {
				best, top = b, g
			}
		}
		for n := 1; n < len(bySize)-1; n++ {
			for _, b := range bySize[n] {
				if b == a || links[b] > 0 {
					continue
				}
				if g := r.moveGain(s, b, links); g <= top {
					break // the same for every group of this size
				} else if r.canMove(s, b, links) {
					best, top = b, g
					break
				}
			}
		}
		for _, b := range linked {
			links[b] = 0
		}
		if best >= 0 {
			r.move(s, best)
			bySize = r.bySize()
			moved = true
		}
	}
	return moved
}

// moveGain returns how much moving switch s from its group to group b
// raises the score; links holds s's links to every group.
func (r *regrouping) moveGain(s, b int, links []int) float64 {
	a := r.group[s]
	na, nb := len(r.members[a]), len(r.members[b])
	return r.w.group(na-1, r.inside[a]-links[a]) - r.w.group(na, r.inside[a]) +
		r.w.group(nb+1, r.inside[b]+links[b]) - r.w.group(nb, r.inside[b])
}

// canMove reports whether moving switch s from its group a to group b
// keeps the invariants: b stays within K switches, b with s shares at
// most one link with every other group (a without s included), and,
// when G is given, no switch of a gets more than G global links.
func (r *regrouping) canMove(s, b int, links []int) bool {
	a := r.group[s]
	if len(r.members[b])+1 > r.model.GroupSize {
		return false
	}
	for _, nb := range r.sg.adj[s] {
		switch x := r.group[nb.s]; x {
		case a:
			if r.between[a][b]-links[b]+links[a] > 1 {
				return false
			}
		case b:
		default:
			if r.between[b][x]+links[x] > 1 {
				return false
			}
		}
	}
	if r.limitG > 0 && links[a] > 0 {
		for _, nb := range r.sg.adj[s] {
			if r.group[nb.s] == a && r.global[nb.s]+1 > r.limitG {
				return false
			}
		}
	}
	return true
}

// move moves switch s from its group to group b.
func (r *regrouping) move(s, b int) {
	a := r.group[s]
	for _, nb := range r.sg.adj[s] {
		if x := r.group[nb.s]; x == a {
			r.inside[a]--
		} else {
			r.link(a, x, -1)
		}
	}
	r.members[a] = slices.DeleteFunc(r.members[a], func(v int32) bool { return int(v) == s })
	r.members[b] = append(r.members[b], int32(s))
	r.group[s] = b
	r.global[s] = 0
	for _, nb := range r.sg.adj[s] {
		if x := r.group[nb.s]; x == b {
			r.inside[b]++
			r.global[nb.s]--
		} else {
			r.link(b, x, 1)
			r.global[s]++
			if x == a {
				r.global[nb.s]++
			}
		}
	}
	if len(r.members[a]) == 0 {
		r.drop(a)
	}
}

// link adds d to the links between groups a and b.
func (r *regrouping) link(a, b, d int) {
	for _, p := range [][2]int{{a, b}, {b, a}} {
		if r.between[p[0]][p[1]] += d; r.between[p[0]][p[1]] == 0 {
			delete(r.between[p[0]], p[1])
		}
	}
}

// labels renumbers the groups 0, 1, … in order of their first switch, in
// place, and returns their number.
func (r *regrouping) labels() int {
	index := make(map[int]int)
	for s, grp := range r.group {
		if grp < 0 {
			continue
		}
		i, ok := index[grp]
		if !ok {
			i = len(index)
			index[grp] = i
		}
		r.group[s] = i
	}
	return len(index)
}
