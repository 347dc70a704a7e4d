package structure

import (
	"netsim/kernel"
)

// faulty returns a copy of g without a random fraction switchFrac of its
// switches (and their links) and then a random fraction linkFrac of the
// remaining links, and the surviving switches' indices in g. Names keep
// the original switch index, so the checkers can find the truth.
func faulty(g *Graph, switchFrac, linkFrac float64, seed uint64) (*Graph, []int) {
	rng := kernel.NewRNG(seed, 1)
	n := g.Switches()
	gone := make([]bool, n)
	for _, s := range pick(&rng, n, int(switchFrac*float64(n)+0.5)) {
		gone[s] = true
	}
	newIndex := make([]int, n)
	var orig []int
	out := &Graph{}
	for s := range n {
		newIndex[s] = -1
		if gone[s] {
			continue
		}
		newIndex[s] = len(orig)
		orig = append(orig, s)
		out.Names = append(out.Names, g.Names[s])
		if g.Hosts != nil {
			out.Hosts = append(out.Hosts, g.Hosts[s])
		}
	}
	var kept []Link
	for _, l := range g.Links {
		if !gone[l.A] && !gone[l.B] {
			kept = append(kept, Link{A: newIndex[l.A], B: newIndex[l.B], PortA: l.PortA, PortB: l.PortB})
		}
	}
	drop := make([]bool, len(kept))
	for _, i := range pick(&rng, len(kept), int(linkFrac*float64(len(kept))+0.5)) {
		drop[i] = true
	}
	for i, l := range kept {
		if !drop[i] {
			out.Links = append(out.Links, l)
		}
	}
	return out, orig
}

// pick returns k distinct random indices in [0, n) (partial Fisher–Yates).
func pick(rng *kernel.RNG, n, k int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := range k {
		j := i + rng.IntN(n-i)
		p[i], p[j] = p[j], p[i]
	}
	return p[:k]
}
