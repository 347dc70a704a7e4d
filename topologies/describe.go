package topologies

import (
	"fmt"
	"math/bits"
)

// Summary holds the size and the main graph metrics of a network, as
// `netsim topo describe` prints them.
type Summary struct {
	// Kind is the network's family.
	Kind string
	// Switches and Hosts count the switches and the hosts.
	Switches, Hosts int
	// Links counts the bidirectional inter-switch links, parallel links
	// included.
	Links int
	// Radix is the largest number of used ports on a switch (host ports
	// included), as Network.Radix.
	Radix int
	// Diameter is the largest distance, in switch-to-switch hops, between
	// two switches: the number of inter-switch links on a shortest path;
	// the links from and to the hosts do not count. 0 for one switch.
	Diameter int
	// AvgDistance is the mean distance, in switch-to-switch hops, between
	// the switches of a source host and a destination host, over all
	// ordered pairs of distinct hosts; two hosts on the same switch are 0
	// hops apart. 0 when there are fewer than two hosts.
	AvgDistance float64
	// Bisection is the relative bisection bandwidth: the inter-switch
	// links crossing the narrowest balanced cut of the network divided by
	// half the hosts (0.5 = 50 % of the hosts' injection bandwidth can
	// cross). A cut splits the switches in two sides, each switch with its
	// hosts; it is balanced when the sides' host counts differ by at most
	// the largest number of hosts on one switch. When at most one switch
	// has hosts no traffic crosses a link between switches, and Bisection
	// is 1.
	Bisection float64
	// BisectionExact reports whether Bisection comes from the family's
	// formula (Network.Bisection) or is otherwise known exactly; when false
	// it is an estimate by graph partitioning: the cut found is balanced,
	// so the estimate is never below the true value.
	BisectionExact bool
	// CutLinks is the number of links crossing the balanced cut the
	// estimate found; 0 when BisectionExact.
	CutLinks int
}

// Describe computes the Summary of n. Distances come from a breadth-first
// search from every switch, 64 sources at a time on bitsets: the cost is
// about switches·(distinct neighbour pairs)·(diameter+1)/64 word
// operations. The bisection comes from n.Bisection when it is positive,
// else from estimateBisection, a deterministic multilevel graph-partition
// heuristic.
//
// Describe fails when n is not valid (see Network.Validate) or its switch
// graph is disconnected, where diameter and distances are undefined.
func Describe(n *Network) (Summary, error) {
	if err := n.Validate(); err != nil {
		return Summary{}, fmt.Errorf("describe: %w", err)
	}
	g := switchGraph(n)
	s := Summary{
		Kind:     n.Kind,
		Switches: len(n.Switches),
		Hosts:    len(n.Hosts),
		Links:    n.Links(),
		Radix:    n.Radix(),
	}
	diam, sum, err := g.distances()
	if err != nil {
		return Summary{}, fmt.Errorf("describe: %w", err)
	}
	s.Diameter = diam
	if h := int64(s.Hosts); h > 1 {
		s.AvgDistance = float64(sum) / float64(h*(h-1))
	}
	switch {
	case n.Bisection > 0:
		s.Bisection, s.BisectionExact = n.Bisection, true
	case hostSwitches(g) <= 1:
		s.Bisection, s.BisectionExact = 1, true
	default:
		cut, _ := estimateBisection(g)
		s.Bisection = float64(cut) / (float64(s.Hosts) / 2)
		s.CutLinks = cut
	}
	return s, nil
}

// hostSwitches returns the number of vertices of g with positive weight.
func hostSwitches(g *graph) int {
	k := 0
	for _, w := range g.vw {
		if w > 0 {
			k++
		}
	}
	return k
}

// distances returns the diameter of g in hops and the sum, over ordered
// pairs of vertices (s, t), of vw[s]·vw[t]·d(s, t). It runs a breadth-first
// search from 64 sources at once: bit i of reached[v] says whether source
// i has reached v; a level ORs the frontier words of each vertex's
// neighbours. It fails when g is disconnected.
func (g *graph) distances() (diam int, sum int64, err error) {
	n := g.order()
	reached := make([]uint64, n)
	frontier := make([]uint64, n)
	next := make([]uint64, n)
	for base := 0; base < n; base += 64 {
		k := min(64, n-base)
		full := ^uint64(0) >> (64 - k)
		clear(reached)
		clear(frontier)
		for i := range k {
			reached[base+i] = 1 << i
			frontier[base+i] = 1 << i
		}
		for level := 1; ; level++ {
			grew := false
			for v := range n {
				var in uint64
				for _, u := range g.adj[g.start[v]:g.start[v+1]] {
					in |= frontier[u]
				}
				in &^= reached[v]
				next[v] = in
				if in == 0 {
					continue
				}
				reached[v] |= in
				grew = true
				var w int64
				for b := in; b != 0; b &= b - 1 {
					w += int64(g.vw[base+bits.TrailingZeros64(b)])
				}
				sum += w * int64(g.vw[v]) * int64(level)
			}
			if !grew {
				break
			}
			diam = max(diam, level)
			frontier, next = next, frontier
		}
		for v, r := range reached {
			if r != full {
				src := base + bits.TrailingZeros64(^r&full)
				return 0, 0, fmt.Errorf("switch graph is disconnected: switch %d cannot reach switch %d", src, v)
			}
		}
	}
	return diam, sum, nil
}
