package routing

import (
	"netsim/internal/indexheap"
	"netsim/keyerr"
	"netsim/topologies"
)

// nueState is the state of Nue routing (newNue): the switch graph, the
// link weights, and per layer the complete channel dependency graph.
type nueState struct {
	g        *graph
	chFrom   []int32
	depStart []int32 // dependencies of channel c: depStart[c]+k, into the k-th channel out of chTo[c]
	// used[e] is 1 when dependency e is on an escape path or a routed
	// path of this layer (the counts topo's dynamic topological order of
	// the used dependencies reads, over the channels of cdg's numbering),
	// blocked[e] when it would close a cycle or is a U-turn.
	used        []int32
	blockedDeps []bool
	cdg         *layerCDG
	topo        *topoOrder
	weight      []int64 // per channel
	hostsAt     []int64
	// search buffers
	dist    []int64 // per channel: weight of the path starting with it
	pos     []int32
	queue   indexheap.Heap[int64]
	settled []bool  // per switch
	out     []int32 // per switch: its channel toward the destination, −1 at it
	added   []int32 // dependencies this destination's search used
	blocked []int32 // and those it blocked
	stack   []int32
	// escape tree of the layer: up[s] the channel from s to its parent
	// (−1 at the root)
	up []int32
	// fallbacks counts destinations routed on their escape paths.
	fallbacks int
}

// newNue builds Nue routing (Domke, Hoefler and Matsuoka, "Routing on the
// Dependency Graph", HPDC 2016), as OpenSM's nue engine without METIS:
// deadlock-free within the vls layers it is given, on any connected
// network, by routing on the complete channel dependency graph.
//
// The destinations (hosts, in OpenSM's order on an import, else by index)
// are dealt round robin to vls layers. In each layer every dependency
// starts unused (U-turns blocked), and the escape paths are entered as
// used: a breadth-first spanning tree of the switches from a root — the
// switch of highest betweenness within the layer's convex subgraph (the
// destinations' switches and every shortest path between them; ties: the
// lowest index) — and every turn between two of its channels (OpenSM's
// nue enters only those toward the layer's destinations and builds the
// tree by Dijkstra; netsim's superset, still acyclic, needed no fallback
// on any network tested, OpenSM's a third of a 6×6×6 torus's
// destinations on 2–8 VLs). Tree paths never close a cycle, so every
// destination stays reachable. Then each destination gets a tree of paths
// by a Dijkstra over channels from its switch: a switch is reached over a
// channel only if the dependency from that channel into the path already
// found does not close a cycle among the used dependencies (kept in a
// dynamic topological order, so most additions need no search); a
// dependency that would is blocked for the rest of the layer. At an
// impasse a reached neighbour may move to another channel (Nue's local
// backtracking, backtrack); if some switch still cannot be reached, the
// destination takes its escape paths (Nue's fallback) and the
// dependencies its search had used or blocked are freed. Channel
// weights start at hosts² and grow by the hosts whose paths cross them,
// so paths are minimal until the load makes a detour cheaper, and
// balanced. Each layer's dependency graph is acyclic by construction:
// deadlock-free on vls VLs, one layer per VL.
func newNue(net *topologies.Network, vls int) (*Tables, error) {
	t, _, err := nueTables(net, vls)
	return t, err
}

// nueTables builds Nue's tables and returns its final state too.
func nueTables(net *topologies.Network, vls int) (*Tables, *nueState, error) {
	g := newGraph(net)
	t := newTables("nue", net, vls)
	if g.n > 1 {
		dist := make([]int32, g.n)
		if !g.bfs(0, dist, nil) {
			return nil, nil, keyerr.New("algorithm", "routing nue: network is disconnected (switch %d cannot reach switch 0)", unreached(dist))
		}
	}
	x := newNueState(g, net)
	order := OpenSMOrder(net)
	layers := min(vls, len(order))
	if layers > 1 {
		t.layer = make([]uint8, t.sws*t.hosts)
	}
	for l := range layers {
		var dests []int32
		for i := l; i < len(order); i += layers {
			dests = append(dests, order[i])
		}
		x.startLayer(net, dests)
		for _, d := range dests {
			dst := net.Hosts[d].Switch
			if !x.route(dst) {
				x.escape(dst)
			}
			for s := range g.n {
				if c := x.out[s]; c >= 0 {
					t.lft[s*t.hosts+int(d)] = uint16(g.chPort[c])
				}
				if t.layer != nil {
					t.layer[s*t.hosts+int(d)] = uint8(l)
				}
			}
			x.addLoad(dst)
		}
	}
	t.layers = max(layers, 1)
	return t, x, nil
}

func newNueState(g *graph, net *topologies.Network) *nueState {
	nc := g.channels()
	x := &nueState{g: g, chFrom: make([]int32, nc), depStart: make([]int32, nc+1),
		weight: make([]int64, nc), hostsAt: make([]int64, g.n), dist: make([]int64, nc), pos: make([]int32, nc),
		settled: make([]bool, g.n), out: make([]int32, g.n), up: make([]int32, g.n), topo: newTopoOrder(nc)}
	h := int64(len(net.Hosts))
	for c := range nc {
		x.chFrom[c] = g.chTo[g.chRev[c]]
		x.depStart[c+1] = x.depStart[c] + g.chStart[g.chTo[c]+1] - g.chStart[g.chTo[c]]
		x.weight[c] = max(h*h, 1)
		x.pos[c] = -1
	}
	x.used = make([]int32, x.depStart[nc])
	x.blockedDeps = make([]bool, x.depStart[nc])
	x.cdg = &layerCDG{g: g, depStart: x.depStart}
	for _, a := range net.Hosts {
		x.hostsAt[a.Switch]++
	}
	x.queue = indexheap.New(x.dist, x.pos, indexheap.Ascending)
	return x
}

// dep returns the dependency from channel c into channel e (out of c's
// head switch).
func (x *nueState) dep(c, e int32) int32 {
	return x.depStart[c] + e - x.g.chStart[x.g.chTo[c]]
}

// free marks dependency e neither used nor blocked.
func (x *nueState) free(e int32) {
	x.used[e], x.blockedDeps[e] = 0, false
}

// startLayer resets the dependency graph for a layer of destinations
// dests and enters its escape paths.
func (x *nueState) startLayer(net *topologies.Network, dests []int32) {
	g := x.g
	for c := range x.topo.ord {
		x.topo.ord[c] = int32(c)
	}
	clear(x.used)
	for c := range int32(g.channels()) {
		for e := g.chStart[g.chTo[c]]; e < g.chStart[g.chTo[c]+1]; e++ {
			x.blockedDeps[x.dep(c, e)] = e == g.chRev[c]
		}
	}
	if g.n <= 1 {
		return
	}
	isDest := make([]bool, g.n)
	for _, d := range dests {
		isDest[net.Hosts[d].Switch] = true
	}
	root := x.centralSwitch(isDest)
	x.spanningTree(root)
	tree := func(c int32) bool {
		a, b := x.chFrom[c], g.chTo[c]
		return x.up[a] == c || x.up[b] == g.chRev[c]
	}
	for c := range int32(g.channels()) {
		if !tree(c) {
			continue
		}
		v := g.chTo[c]
		for e := g.chStart[v]; e < g.chStart[v+1]; e++ {
			if d := x.dep(c, e); e != g.chRev[c] && tree(e) && x.topo.add(x.cdg, x.used, c, d) {
				x.used[d] = 1
			}
		}
	}
}

// centralSwitch returns the switch of highest betweenness centrality
// within the convex subgraph of the switches isDest marks (themselves
// and every switch on a shortest path between two of them), ties to the
// lowest index.
func (x *nueState) centralSwitch(isDest []bool) int32 {
	g := x.g
	n := g.n
	in := make([]bool, n)
	dist := make([]int32, n)
	queue := make([]int32, 0, n)
	mark := make([]bool, n)
	var walk []int32
	for a := range n {
		if !isDest[a] {
			continue
		}
		in[a] = true
		g.bfs(a, dist, queue)
		// Walk back from every destination switch along shortest-path
		// predecessors toward a, marking what it passes.
		clear(mark)
		walk = walk[:0]
		for b := range n {
			if isDest[b] && !mark[b] {
				mark[b] = true
				walk = append(walk, int32(b))
			}
		}
		for len(walk) > 0 {
			v := walk[len(walk)-1]
			walk = walk[:len(walk)-1]
			in[v] = true
			for c := g.chStart[v]; c < g.chStart[v+1]; c++ {
				if u := g.chTo[c]; dist[u] == dist[v]-1 && !mark[u] {
					mark[u] = true
					walk = append(walk, u)
				}
			}
		}
	}
	// Brandes' betweenness over the subgraph (unweighted).
	score := make([]float64, n)
	sigma := make([]float64, n)
	delta := make([]float64, n)
	for s := range n {
		if !in[s] {
			continue
		}
		for i := range n {
			dist[i], sigma[i], delta[i] = -1, 0, 0
		}
		dist[s], sigma[s] = 0, 1
		queue = append(queue[:0], int32(s))
		for head := 0; head < len(queue); head++ {
			v := queue[head]
			for c := g.chStart[v]; c < g.chStart[v+1]; c++ {
				u := g.chTo[c]
				if !in[u] {
					continue
				}
				if dist[u] < 0 {
					dist[u] = dist[v] + 1
					queue = append(queue, u)
				}
				if dist[u] == dist[v]+1 {
					sigma[u] += sigma[v]
				}
			}
		}
		for i := len(queue) - 1; i > 0; i-- {
			w := queue[i]
			for c := g.chStart[w]; c < g.chStart[w+1]; c++ {
				if v := g.chTo[c]; in[v] && dist[v] == dist[w]-1 {
					delta[v] += sigma[v] / sigma[w] * (1 + delta[w])
				}
			}
			score[w] += delta[w]
		}
	}
	// Scores within a relative 1e-9 tie (floating-point sums of shortest
	// path fractions differ in their last bits by the order of the sums,
	// and by platform): the lowest index wins.
	best := int32(-1)
	for s := range n {
		if in[s] && (best < 0 || score[s] > score[best]*(1+1e-9)+1e-12) {
			best = int32(s)
		}
	}
	return best
}

// spanningTree sets up to the escape tree: a breadth-first tree of the
// switch graph from root (each switch's parent the first neighbour one hop
// closer to root it finds, by increasing channel index).
func (x *nueState) spanningTree(root int32) {
	g := x.g
	for s := range x.up {
		x.up[s] = -1
		x.settled[s] = false
	}
	x.settled[root] = true
	queue := append(x.stack[:0], root)
	for head := 0; head < len(queue); head++ {
		v := queue[head]
		for r := g.chStart[v]; r < g.chStart[v+1]; r++ {
			if u := g.chTo[r]; !x.settled[u] {
				x.settled[u] = true
				x.up[u] = g.chRev[r]
				queue = append(queue, u)
			}
		}
	}
	x.stack = queue[:0]
}

// pushInto offers the channels into switch v from unsettled switches,
// each at weight base plus its own.
func (x *nueState) pushInto(v int32, base int64) {
	g := x.g
	for r := g.chStart[v]; r < g.chStart[v+1]; r++ {
		c := g.chRev[r] // into v
		if u := x.chFrom[c]; !x.settled[u] {
			if d := base + x.weight[c]; x.pos[c] < 0 || d < x.dist[c] {
				x.dist[c] = d
				x.queue.Update(c)
			}
		}
	}
}

// route finds the paths of every switch toward switch dst on the used
// dependencies and those it may add without a cycle, setting out; it
// returns false, with the dependencies it added freed, when some switch
// is left unreached even by local backtracking (backtrack).
func (x *nueState) route(dst int32) bool {
	g := x.g
	for s := range x.out {
		x.out[s] = -1
		x.settled[s] = false
	}
	x.added, x.blocked = x.added[:0], x.blocked[:0]
	x.settled[dst] = true
	reached := 1
	x.pushInto(dst, 0)
	for {
		for x.queue.Len() > 0 {
			c := x.queue.Pop()
			u, v := x.chFrom[c], g.chTo[c]
			if x.settled[u] || x.out[v] >= 0 && !x.tryUse(c, x.out[v]) {
				continue
			}
			x.settled[u] = true
			x.out[u] = c
			reached++
			x.pushInto(u, x.dist[c])
		}
		if reached == g.n {
			return true
		}
		u, ok := x.backtrack(dst)
		if !ok {
			break
		}
		reached++
		x.pushInto(u, x.pathWeight(u))
	}
	// Back to the state before the search: its dependencies free again,
	// and those it blocked, which may only have closed a cycle through
	// them.
	x.undoTo(0, 0)
	return false
}

// tryUse makes the dependency from channel c into channel f used, unless
// it is blocked or closes a cycle among the used ones (then it is blocked
// from now on), and reports whether it is used.
func (x *nueState) tryUse(c, f int32) bool {
	e := x.dep(c, f)
	switch {
	case x.used[e] != 0:
		return true
	case x.blockedDeps[e]:
		return false
	case !x.topo.add(x.cdg, x.used, c, e):
		x.blockedDeps[e] = true
		x.blocked = append(x.blocked, e)
		return false
	}
	x.used[e] = 1
	x.added = append(x.added, e)
	return true
}

// undoTo frees the dependencies this search used or blocked after the
// first added and blocked of them.
func (x *nueState) undoTo(added, blocked int) {
	for _, e := range x.added[added:] {
		x.free(e)
	}
	for _, e := range x.blocked[blocked:] {
		x.free(e)
	}
	x.added, x.blocked = x.added[:added], x.blocked[:blocked]
}

// backtrack is Nue's local backtracking at an impasse: it looks for an
// unreached switch u with a reached neighbour a (not the destination's
// switch) that can move to another of its channels, a → b, such that the
// dependencies into a → b from u and from every switch routed through a,
// and out of a → b into b's path, are used or close no cycle (b's path
// must not pass a). It then routes a over a → b and u over u → a, and
// returns u; false when no such move exists.
func (x *nueState) backtrack(dst int32) (int32, bool) {
	g := x.g
	for u := range int32(g.n) {
		if x.settled[u] {
			continue
		}
		for c := g.chStart[u]; c < g.chStart[u+1]; c++ {
			a := g.chTo[c]
			if !x.settled[a] || a == dst {
				continue
			}
			for f := g.chStart[a]; f < g.chStart[a+1]; f++ {
				b := g.chTo[f]
				if f == x.out[a] || !x.settled[b] || x.passes(b, a) {
					continue
				}
				na, nb := len(x.added), len(x.blocked)
				ok := (x.out[b] < 0 || x.tryUse(f, x.out[b])) && x.tryUse(c, f)
				for r := g.chStart[a]; ok && r < g.chStart[a+1]; r++ {
					in := g.chRev[r] // into a
					if w := x.chFrom[in]; x.settled[w] && x.out[w] == in {
						ok = x.tryUse(in, f)
					}
				}
				if !ok {
					x.undoTo(na, nb)
					continue
				}
				x.out[a] = f
				x.settled[u], x.out[u] = true, c
				return u, true
			}
		}
	}
	return -1, false
}

// passes reports whether the path from switch b along out passes switch a.
func (x *nueState) passes(b, a int32) bool {
	for v := b; v >= 0; {
		if v == a {
			return true
		}
		c := x.out[v]
		if c < 0 {
			return false
		}
		v = x.g.chTo[c]
	}
	return false
}

// pathWeight returns the weight of the path from switch u along out.
func (x *nueState) pathWeight(u int32) int64 {
	w := int64(0)
	for c := x.out[u]; c >= 0; c = x.out[x.g.chTo[c]] {
		w += x.weight[c]
	}
	return w
}

// escape routes every switch toward dst along the escape tree.
func (x *nueState) escape(dst int32) {
	g := x.g
	x.fallbacks++
	for s := range x.out {
		x.out[s] = -1
		x.settled[s] = false
	}
	// Breadth-first over tree channels from dst: each switch's channel
	// toward it.
	queue := append(x.stack[:0], dst)
	x.settled[dst] = true
	for head := 0; head < len(queue); head++ {
		v := queue[head]
		for r := g.chStart[v]; r < g.chStart[v+1]; r++ {
			c := g.chRev[r] // u → v
			u := x.chFrom[c]
			if x.settled[u] || !(x.up[u] == c || x.up[v] == r) {
				continue
			}
			x.settled[u] = true
			x.out[u] = c
			queue = append(queue, u)
		}
	}
	x.stack = queue[:0]
}

// addLoad adds to the weight of each channel the hosts whose paths toward
// dst cross it: each switch with hosts walks its path.
func (x *nueState) addLoad(dst int32) {
	for s := range int32(x.g.n) {
		if h := x.hostsAt[s]; h > 0 {
			for v := s; v != dst; v = x.g.chTo[x.out[v]] {
				x.weight[x.out[v]] += h
			}
		}
	}
}
