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

// dragonflyGraph returns the link list of a Dragonfly with groups of k
// switches (a full graph inside), g global links per switch and groups
// joined as a full graph by one global link per pair, and the group of
// every switch. With omitOne there are k·g groups (one global port per
// group unused), else k·g+1. Global port p of a group (0 ≤ p < k·g) is on
// switch p/g. Arrangement "absolute": port p of group i goes to group p
// when p < i, else p+1; "relative": to group i+p+1 mod the number of
// groups.
func dragonflyGraph(k, g int, arrangement string, omitOne bool) (*Graph, []int) {
	m := k*g + 1
	if omitOne {
		m = k * g
	}
	gr := &Graph{}
	group := make([]int, m*k)
	for s := range group {
		group[s] = s / k
		gr.Names = append(gr.Names, "s"+itoa(s))
	}
	for i := range m {
		for a := range k {
			for b := a + 1; b < k; b++ {
				gr.Links = append(gr.Links, Link{A: i*k + a, B: i*k + b, PortA: -1, PortB: -1})
			}
		}
	}
	for i := range m {
		for p := range m - 1 {
			var j, q int
			switch arrangement {
			case "absolute":
				j = p
				if p >= i {
					j = p + 1
				}
				q = i
				if i > j {
					q = i - 1
				}
			case "relative":
				j = (i + p + 1) % m
				q = m - 2 - p
			}
			if i < j {
				gr.Links = append(gr.Links, Link{A: i*k + p/g, B: j*k + q/g, PortA: -1, PortB: -1})
			}
		}
	}
	return gr, group
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}
