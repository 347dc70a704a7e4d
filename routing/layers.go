package routing

import (
	"fmt"
	"slices"

	"netsim/keyerr"
	"netsim/topologies"
)

// layerCDG is the channel dependency graph of the paths of destination-based
// tables, split into virtual layers. The nodes are the switch-to-switch
// channels; the dependencies of a channel c into switch v are the channels
// out of v, numbered depStart[c] + k for the k-th channel of v, so no map
// is needed. A path is (source switch s, destination host d), numbered
// s·hosts + d; it induces a dependency between every two consecutive
// channels it crosses.
type layerCDG struct {
	g        *graph
	t        *Tables
	net      *topologies.Network
	depStart []int32
	// cnt[l][e] is the number of paths of layer l inducing dependency e.
	cnt   [][]int32
	layer []uint8 // layer of each path (t.layer)
	max   int     // layers available
	deps  []int32 // buffer: the dependencies of one path
}

// newLayerCDG prepares the dependency graph of t's paths with max layers.
func newLayerCDG(t *Tables, net *topologies.Network, g *graph, max int) *layerCDG {
	x := &layerCDG{g: g, t: t, net: net, depStart: make([]int32, g.channels()+1), max: max}
	for c := range g.channels() {
		v := g.chTo[c]
		x.depStart[c+1] = x.depStart[c] + g.chStart[v+1] - g.chStart[v]
	}
	t.layer = make([]uint8, t.sws*t.hosts)
	x.layer = t.layer
	return x
}

// target returns the channel dependency e leads to.
func (x *layerCDG) target(c, e int32) int32 {
	return x.g.chStart[x.g.chTo[c]] + e - x.depStart[c]
}

// pathDeps sets x.deps to the dependencies of path (s, d).
func (x *layerCDG) pathDeps(s, d int) {
	x.deps = x.deps[:0]
	g, t := x.g, x.t
	prev := int32(-1)
	for sw := int32(s); sw != t.hostSw[d]; {
		c := g.chOf[sw][t.lft[int(sw)*t.hosts+d]]
		if prev >= 0 {
			x.deps = append(x.deps, x.depStart[prev]+c-g.chStart[sw])
		}
		prev, sw = c, g.chTo[c]
	}
}

// counts returns the dependency counts of layer l, allocating them.
func (x *layerCDG) counts(l int) []int32 {
	for len(x.cnt) <= l {
		x.cnt = append(x.cnt, make([]int32, x.depStart[len(x.depStart)-1]))
	}
	return x.cnt[l]
}

// used returns the number of layers that hold a path (at least 1).
func (x *layerCDG) used() int {
	n := 1
	for _, l := range x.layer {
		n = max(n, int(l)+1)
	}
	return n
}

// maxLayers is the most layers dfsssp and lash compute (a layer is a
// byte); they compute every layer they need up to it, so that too few VLs
// are reported with the number needed.
const maxLayers = 255

// errLayers reports that name's paths need more layers than the vls
// configured: need layers, or more than maxLayers when need is 0.
func errLayers(name string, need, vls int) error {
	count := fmt.Sprintf("%d virtual layers", need)
	if need == 0 {
		count = fmt.Sprintf("more than %d virtual layers", maxLayers)
	}
	hint := "configure vls = " + fmt.Sprint(need)
	if need == 0 || need > MaxVLs {
		hint = fmt.Sprintf("more than the %d virtual lanes a link has; use a routing that needs fewer (updn, or dor on its topology)", MaxVLs)
	}
	return keyerr.New("vls", "routing %s needs %s on this network (one per acyclic part of its channel dependency graph), %d configured; %s",
		name, count, vls, hint)
}

// dfLayers is the offline layer assignment of DFSSSP (seed 002 Algorithm
// 2): all paths start on layer 0; a depth-first search of each layer's
// dependency graph in turn stops at a cycle, moves every path inducing the
// cycle's weakest dependency (the one fewest paths induce) to the next
// layer, and resumes where it stopped, so each layer needs one search.
// Paths that must leave the last available layer are an error naming vls.
func (x *layerCDG) dfLayers(name string) error {
	t := x.t
	// Paths of each dependency, as CSR lists.
	nd := int(x.depStart[len(x.depStart)-1])
	start := make([]int32, nd+1)
	cnt := x.counts(0)
	for s := range t.sws {
		for d := range t.hosts {
			x.pathDeps(s, d)
			for _, e := range x.deps {
				start[e+1]++
				cnt[e]++
			}
		}
	}
	for e := range nd {
		start[e+1] += start[e]
	}
	paths := make([]int32, start[nd])
	fill := append([]int32(nil), start[:nd]...)
	for s := range t.sws {
		for d := range t.hosts {
			x.pathDeps(s, d)
			for _, e := range x.deps {
				paths[fill[e]] = int32(s*t.hosts + d)
				fill[e]++
			}
		}
	}
	for l := 0; l < len(x.cnt); l++ {
		if err := x.breakCycles(name, l, start, paths); err != nil {
			return err
		}
	}
	t.layers = x.used()
	return nil
}

// frame is one node of the depth-first search stack: channel c and its
// next dependency to scan.
type frame struct{ c, next int32 }

// breakCycles makes layer l acyclic (see dfLayers).
func (x *layerCDG) breakCycles(name string, l int, start, paths []int32) error {
	g := x.g
	cnt := x.cnt[l]
	const white, gray, black = 0, 1, 2
	color := make([]uint8, g.channels())
	pos := make([]int32, g.channels())
	var stack []frame
	for root := range int32(g.channels()) {
		if color[root] != white {
			continue
		}
		color[root], pos[root] = gray, 0
		stack = append(stack[:0], frame{root, x.depStart[root]})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == x.depStart[top.c+1] {
				color[top.c] = black
				stack = stack[:len(stack)-1]
				continue
			}
			e := top.next
			top.next++
			if cnt[e] == 0 {
				continue
			}
			d := x.target(top.c, e)
			switch color[d] {
			case white:
				color[d], pos[d] = gray, int32(len(stack))
				stack = append(stack, frame{d, x.depStart[d]})
			case gray:
				// The cycle is stack[pos[d]:], each frame's last scanned dependency.
				kw := len(stack) - 1
				for k := int(pos[d]); k < len(stack); k++ {
					if cnt[stack[k].next-1] < cnt[stack[kw].next-1] {
						kw = k
					}
				}
				if err := x.move(name, l, stack[kw].next-1, start, paths); err != nil {
					return err
				}
				for _, f := range stack[kw+1:] {
					color[f.c] = white
				}
				stack = stack[:kw+1]
			}
		}
	}
	return nil
}

// move moves every path of layer l inducing dependency e to layer l+1.
func (x *layerCDG) move(name string, l int, e int32, start, paths []int32) error {
	if l+1 >= x.max {
		return errLayers(name, 0, x.max)
	}
	next := x.counts(l + 1)
	cur := x.cnt[l]
	for _, p := range paths[start[e]:start[e+1]] {
		if int(x.layer[p]) != l {
			continue
		}
		x.pathDeps(int(p)/x.t.hosts, int(p)%x.t.hosts)
		for _, f := range x.deps {
			cur[f]--
			next[f]++
		}
		x.layer[p] = uint8(l + 1)
	}
	return nil
}

// lashLayers is the online layer assignment of LASH: each path in turn
// (source switch major) goes to the first layer whose dependency graph
// stays acyclic with it; a path fitting no available layer is an error
// naming vls. Each layer keeps a topological order of its channels,
// updated by the dynamic algorithm of Pearce and Kelly, so a new
// dependency that agrees with the order costs O(1) and only the others
// search, within the affected part of the order.
func (x *layerCDG) lashLayers(name string) error {
	t := x.t
	var orders []*topoOrder
	// dead[l] marks the dependencies that close a cycle with the paths
	// already on layer l: layers only grow, so they always will, and a
	// path inducing one skips the layer without a search (most searches
	// otherwise fail on such dependencies, again and again).
	var dead [][]uint64
	for s := range t.sws {
		for d := range t.hosts {
			x.pathDeps(s, d)
			if len(x.deps) == 0 {
				continue
			}
			placed := false
			for l := 0; l < x.max && !placed; l++ {
				cnt := x.counts(l)
				for len(orders) <= l {
					orders = append(orders, newTopoOrder(x.g.channels()))
					dead = append(dead, make([]uint64, (len(cnt)+63)/64))
				}
				if x.anyDead(dead[l]) {
					continue
				}
				ok, grown := true, false
				for i, e := range x.deps {
					if cnt[e] == 0 {
						if !orders[l].add(x, cnt, x.tail(e), e) {
							if !grown { // the cycle is in the layer without this path
								dead[l][e/64] |= 1 << (e % 64)
							}
							for _, f := range x.deps[:i] {
								cnt[f]--
							}
							ok = false
							break
						}
						grown = true
					}
					cnt[e]++
				}
				if ok {
					x.layer[s*t.hosts+d] = uint8(l)
					placed = true
				}
			}
			if !placed {
				return errLayers(name, 0, x.max)
			}
		}
	}
	t.layers = x.used()
	return nil
}

// anyDead reports whether one of x.deps is marked in the bitset dead.
func (x *layerCDG) anyDead(dead []uint64) bool {
	for _, e := range x.deps {
		if dead[e/64]&(1<<(e%64)) != 0 {
			return true
		}
	}
	return false
}

// topoOrder is a topological order of the channels of one layer's
// dependency graph (Pearce and Kelly's dynamic topological sort).
type topoOrder struct {
	ord   []int32 // position of each channel
	seen  []int32 // search stamps
	stamp int32
	fwd   []int32 // channels reached forward from the new head
	back  []int32 // channels reached backward from the new tail
	stack []int32
	slots []int32
	keys  []int64 // position << 32 | channel, of back then fwd
}

func newTopoOrder(n int) *topoOrder {
	o := &topoOrder{ord: make([]int32, n), seen: make([]int32, n)}
	for i := range o.ord {
		o.ord[i] = int32(i)
	}
	return o
}

// add reports whether dependency e (from channel a) keeps the layer with
// counts cnt acyclic, and if so reorders the channels so that a comes
// before e's target. cnt does not yet count e.
func (o *topoOrder) add(x *layerCDG, cnt []int32, a, e int32) bool {
	b := x.target(a, e)
	lb, ub := o.ord[b], o.ord[a]
	if lb > ub {
		return true
	}
	if a == b {
		return false
	}
	g := x.g
	// Forward from b through channels ordered at most ub; reaching a is a cycle.
	o.stamp++
	o.fwd = o.fwd[:0]
	o.stack = append(o.stack[:0], b)
	o.seen[b] = o.stamp
	for len(o.stack) > 0 {
		c := o.stack[len(o.stack)-1]
		o.stack = o.stack[:len(o.stack)-1]
		o.fwd = append(o.fwd, c)
		for f := x.depStart[c]; f < x.depStart[c+1]; f++ {
			if cnt[f] == 0 {
				continue
			}
			n := x.target(c, f)
			if n == a {
				return false
			}
			if o.seen[n] != o.stamp && o.ord[n] < ub {
				o.seen[n] = o.stamp
				o.stack = append(o.stack, n)
			}
		}
	}
	// Backward from a through channels ordered at least lb: the channels
	// into a's tail switch u are the reverses of u's out channels.
	o.back = o.back[:0]
	o.stack = append(o.stack[:0], a)
	o.seen[a] = o.stamp
	for len(o.stack) > 0 {
		c := o.stack[len(o.stack)-1]
		o.stack = o.stack[:len(o.stack)-1]
		o.back = append(o.back, c)
		u := g.chTo[g.chRev[c]]
		for c2 := g.chStart[u]; c2 < g.chStart[u+1]; c2++ {
			p := g.chRev[c2] // channel into u
			if cnt[x.depStart[p]+c-g.chStart[u]] == 0 {
				continue
			}
			if o.seen[p] != o.stamp && o.ord[p] > lb {
				o.seen[p] = o.stamp
				o.stack = append(o.stack, p)
			}
		}
	}
	// The back set goes before the forward set, each in its order, in the
	// slots both held. Sorting (position, channel) packed in one integer
	// is faster than sorting channels by looking their positions up.
	o.keys = o.keys[:0]
	for _, c := range o.back {
		o.keys = append(o.keys, int64(o.ord[c])<<32|int64(c))
	}
	nb := len(o.keys)
	for _, c := range o.fwd {
		o.keys = append(o.keys, int64(o.ord[c])<<32|int64(c))
	}
	slices.Sort(o.keys[:nb])
	slices.Sort(o.keys[nb:])
	o.slots = o.slots[:0]
	for _, k := range o.keys {
		o.slots = append(o.slots, int32(k>>32))
	}
	slices.Sort(o.slots)
	for i, k := range o.keys {
		o.ord[int32(k)] = o.slots[i]
	}
	return true
}

// tail returns the channel dependency e starts from.
func (x *layerCDG) tail(e int32) int32 {
	lo, hi := 0, len(x.depStart)-1
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if x.depStart[m] <= e {
			lo = m
		} else {
			hi = m
		}
	}
	return int32(lo)
}

// newLayered builds dfsssp (SSSP tables, offline layers) or lash (minhop
// tables, online layers). It computes up to maxLayers layers and fails,
// naming vls and the layers needed, when they are more than vls.
func newLayered(name string, net *topologies.Network, vls int) (*Tables, error) {
	var t *Tables
	var err error
	if name == "lash" {
		t, err = newMinHop(net, vls)
	} else {
		t, err = newSSSP(name, net, vls)
	}
	if err != nil {
		return nil, err
	}
	t.name = name
	x := newLayerCDG(t, net, newGraph(net), maxLayers)
	if name == "lash" {
		err = x.lashLayers(name)
	} else {
		err = x.dfLayers(name)
	}
	if err != nil {
		return nil, err
	}
	if t.layers > vls {
		return nil, errLayers(name, t.layers, vls)
	}
	return t, nil
}
