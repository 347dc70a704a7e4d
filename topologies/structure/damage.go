package structure

import "netsim/kernel"

// Damage removes from g the fraction switchFrac of its switches (with
// their hosts and links) and then the fraction linkFrac of the remaining
// links, drawn from rng: the faults of a real fabric that recovery must
// tolerate. It returns the indices of the switches left; removed switches
// keep their index, with no host and no link.
func (g *Graph) Damage(switchFrac, linkFrac float64, rng *kernel.RNG) (alive []int) {
	gone := make([]bool, g.Switches())
	for range int(switchFrac * float64(len(gone))) {
		i := rng.IntN(len(gone))
		for gone[i] {
			i = rng.IntN(len(gone))
		}
		gone[i] = true
	}
	for s, x := range gone {
		if x {
			g.Hosts[s] = 0
		} else {
			alive = append(alive, s)
		}
	}
	var kept []Link
	for _, l := range g.Links {
		if !gone[l.A] && !gone[l.B] && rng.Float64() >= linkFrac {
			kept = append(kept, l)
		}
	}
	g.Links = kept
	return alive
}
