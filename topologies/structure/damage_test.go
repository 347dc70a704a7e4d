package structure

import (
	"testing"

	"netsim/kernel"
	"netsim/topologies"
)

// TestDamage checks what Damage removes: the given share of switches,
// every link of a removed switch and their hosts, and about the given
// share of the other links.
func TestDamage(t *testing.T) {
	spec := topologies.Spec{Kind: "flatfly", Dims: []int{8, 8}, HostsPerSwitch: 2}
	tests := []struct {
		switchFrac, linkFrac float64
		alive                int
		linksLo, linksHi     int // of the 448 links, left
	}{
		{0, 0, 64, 448, 448},
		{0.25, 0, 48, 200, 300},
		{0, 0.5, 64, 180, 270},
	}
	for _, tc := range tests {
		g := FromNetwork(build(t, spec))
		rng := kernel.NewRNG(1, 7)
		alive := g.Damage(tc.switchFrac, tc.linkFrac, &rng)
		if len(alive) != tc.alive {
			t.Errorf("%v, %v: %d switches left, want %d", tc.switchFrac, tc.linkFrac, len(alive), tc.alive)
		}
		if n := len(g.Links); n < tc.linksLo || n > tc.linksHi {
			t.Errorf("%v, %v: %d links left, want %d to %d", tc.switchFrac, tc.linkFrac, n, tc.linksLo, tc.linksHi)
		}
		left := map[int]bool{}
		for _, s := range alive {
			left[s] = true
		}
		for s := range g.Switches() {
			if !left[s] && g.Hosts[s] != 0 {
				t.Errorf("removed switch %d keeps %d hosts", s, g.Hosts[s])
			}
		}
		for _, l := range g.Links {
			if !left[l.A] || !left[l.B] {
				t.Errorf("link %d–%d of a removed switch kept", l.A, l.B)
			}
		}
	}
}
