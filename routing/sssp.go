package routing

import (
	"netsim/internal/indexheap"
	"netsim/keyerr"
	"netsim/topologies"
)

// MaxP2SSSPHosts bounds the hosts of a network p2sssp routes: it runs one
// Dijkstra search per pair of hosts (seed 000 §III-C: not feasible for
// large networks).
const MaxP2SSSPHosts = 1024

// hopWeight is the weight of a hop in the SSSP routings: larger than any
// sum of loads along a path, so that Dijkstra always prefers fewer hops and
// the paths are minimal (the seed initialises the weights with P² for the
// same purpose), and among minimal paths the least loaded one.
const hopWeight = int64(1) << 40

// ssspState holds the link loads and search buffers of the SSSP routings.
// The weight of channel c is hopWeight plus the routes over its link in
// both directions (the load of the cable): with this weight the seed's
// examples of Fig. 2 and 3 come out as stated.
type ssspState struct {
	g     *graph
	cable []int64 // routes over each channel's link, both directions
	dist  []int64
	done  []bool
	order []int32 // switches in the order Dijkstra settled them
	// queue holds the switches reached and not settled by (dist, index),
	// so that the searches are deterministic; a shorter distance moves a
	// switch up in place, and a search allocates nothing once the queue
	// has grown to the switch count.
	queue indexheap.Heap[int64]
}

func newSSSPState(g *graph) *ssspState {
	st := &ssspState{
		g:     g,
		cable: make([]int64, g.channels()),
		dist:  make([]int64, g.n),
		done:  make([]bool, g.n),
		order: make([]int32, 0, g.n),
	}
	pos := make([]int32, g.n)
	for i := range pos {
		pos[i] = -1
	}
	st.queue = indexheap.New(st.dist, pos, indexheap.Ascending)
	return st
}

// weight returns the weight of channel c.
func (st *ssspState) weight(c int32) int64 {
	return hopWeight + st.cable[c]
}

// addLoad adds n routes to channel c: to the load of its link.
func (st *ssspState) addLoad(c int32, n int64) {
	st.cable[c] += n
	st.cable[st.g.chRev[c]] += n
}

// toward runs Dijkstra toward switch t: dist[u] becomes the least weight
// of a path from u to t, order the switches by increasing distance.
func (st *ssspState) toward(t int32) {
	g := st.g
	for i := range st.dist {
		st.dist[i], st.done[i] = -1, false
	}
	st.order = st.order[:0]
	st.dist[t] = 0
	st.queue.Update(t)
	for st.queue.Len() > 0 {
		v := st.queue.Pop()
		st.done[v] = true
		st.order = append(st.order, v)
		dv := st.dist[v]
		for c := g.chStart[v]; c < g.chStart[v+1]; c++ {
			u := g.chTo[c]
			nd := dv + st.weight(g.chRev[c]) // channel u→v
			if !st.done[u] && (st.dist[u] < 0 || nd < st.dist[u]) {
				st.dist[u] = nd
				st.queue.Update(u)
			}
		}
	}
}

// newSSSP builds P-SSSP routing (seed 000 §III-A, seed 002 Algorithm 1):
// for each destination host in index order, a shortest-path tree toward
// its switch by Dijkstra over the weighted channels (each switch takes
// the lowest port on a shortest path), then every channel's load grows by
// the source hosts whose path to the destination crosses it. Paths are
// minimal (hopWeight). One layer; see dfsssp for the deadlock-free
// version.
func newSSSP(name string, net *topologies.Network, vls int) (*Tables, error) {
	g := newGraph(net)
	t := newTables(name, net, vls)
	st := newSSSPState(g)
	hostsAt := make([]int64, g.n)
	for _, a := range net.Hosts {
		hostsAt[a.Switch]++
	}
	flow := make([]int64, g.n)
	next := make([]int32, g.n)
	for d, a := range net.Hosts {
		st.toward(a.Switch)
		if len(st.order) < g.n {
			for s := range g.n {
				if st.dist[s] < 0 {
					return nil, keyerr.New("algorithm", "routing %s: network is disconnected (switch %d cannot reach switch %d)", name, s, a.Switch)
				}
			}
		}
		for _, s := range st.order[1:] {
			next[s] = -1
			for c := g.chStart[s]; c < g.chStart[s+1]; c++ {
				if st.dist[g.chTo[c]]+st.weight(c) == st.dist[s] {
					next[s] = c
					break
				}
			}
			t.lft[int(s)*t.hosts+d] = uint16(g.chPort[next[s]])
		}
		// Loads: sources at or behind each switch, farthest first.
		copy(flow, hostsAt)
		flow[a.Switch]--
		for i := len(st.order) - 1; i > 0; i-- {
			s := st.order[i]
			c := next[s]
			st.addLoad(c, flow[s])
			flow[g.chTo[c]] += flow[s]
		}
	}
	return t, nil
}

// newP2SSSP builds P²-SSSP routing (seed 000 §III-B): for each pair of
// hosts (source-major, in index order) a shortest path by Dijkstra from
// the source's switch, constrained by the destination-based tables built
// so far (a switch that already forwards the destination somewhere only
// offers that port), whose entries it then fills; each routed pair adds 1
// to the load of every channel it crosses. The result is still one
// forwarding table per switch (DLID → port), so the simulator runs it like
// every other engine. It runs P(P−1) searches and so accepts at most
// MaxP2SSSPHosts hosts.
func newP2SSSP(net *topologies.Network, vls int) (*Tables, error) {
	if len(net.Hosts) > MaxP2SSSPHosts {
		return nil, keyerr.New("algorithm", "routing p2sssp runs one search per pair of hosts and supports at most %d hosts, network has %d (use sssp)",
			MaxP2SSSPHosts, len(net.Hosts))
	}
	g := newGraph(net)
	t := newTables("p2sssp", net, vls)
	st := newSSSPState(g)
	parent := make([]int32, g.n) // channel into each switch on its best path
	for u, ua := range net.Hosts {
		for v, va := range net.Hosts {
			if u != v && ua.Switch != va.Switch {
				if err := st.routePair(t, parent, ua.Switch, v, va.Switch, true); err != nil {
					return nil, err
				}
			}
		}
	}
	// Switches no pair's path crossed get entries the same way, loads unchanged.
	for v, va := range net.Hosts {
		for x := range g.n {
			if t.lft[x*t.hosts+v] == noPort {
				if err := st.routePair(t, parent, int32(x), v, va.Switch, false); err != nil {
					return nil, err
				}
			}
		}
	}
	return t, nil
}

// routePair finds the least-weight path from switch src to host v (on
// switch dst) by Dijkstra, where a switch that already forwards v only
// offers that port, fills the missing entries along it and, if count,
// adds 1 to the load of each channel of the path.
func (st *ssspState) routePair(t *Tables, parent []int32, src int32, v int, dst int32, count bool) error {
	g := st.g
	for i := range st.dist {
		st.dist[i], st.done[i], parent[i] = -1, false, -1
	}
	st.dist[src] = 0
	st.queue.Update(src)
	for st.queue.Len() > 0 {
		x := st.queue.Pop()
		st.done[x] = true
		if x == dst {
			break
		}
		lo, hi := g.chStart[x], g.chStart[x+1]
		if p := t.lft[int(x)*t.hosts+v]; p != noPort {
			lo = g.chOf[x][p]
			hi = lo + 1
		}
		for c := lo; c < hi; c++ {
			y := g.chTo[c]
			nd := st.dist[x] + st.weight(c)
			if !st.done[y] && (st.dist[y] < 0 || nd < st.dist[y]) {
				st.dist[y], parent[y] = nd, c
				st.queue.Update(y)
			}
		}
	}
	st.queue.Clear()
	if !st.done[dst] {
		return keyerr.New("algorithm", "routing p2sssp: switch %d cannot reach switch %d", src, dst)
	}
	for y := dst; y != src; {
		c := parent[y]
		x := g.chTo[g.chRev[c]]
		t.lft[int(x)*t.hosts+v] = uint16(g.chPort[c])
		if count {
			st.addLoad(c, 1)
		}
		y = x
	}
	return nil
}
