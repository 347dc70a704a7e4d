package structure

import (
	"testing"

	"netsim/topologies"
)

// dragonfly builds a Dragonfly and returns it with the group of every
// switch (its first coordinate).
func dragonfly(t *testing.T, k, g int, arrangement string, omit bool) (*topologies.Network, []int) {
	t.Helper()
	net := build(t, topologies.Spec{Kind: "dragonfly", GroupSize: k, GlobalPerSwitch: g, HostsPerSwitch: 2,
		Arrangement: arrangement, OmitOneGlobal: &omit})
	group := make([]int, len(net.Switches))
	for s := range group {
		group[s] = int(net.Switches[s].Coord[0])
	}
	return net, group
}

var arrangements = []string{"absolute", "relative", "palmtree"}

func TestMapDragonflyComplete(t *testing.T) {
	tests := []struct {
		k, g int
		omit bool
	}{
		{3, 1, false}, {4, 2, false}, {4, 2, true}, {6, 3, false}, {8, 4, true}, {16, 8, true},
	}
	for _, tc := range tests {
		for _, arr := range arrangements {
			net, group := dragonfly(t, tc.k, tc.g, arr, tc.omit)
			g := FromNetwork(net)
			d, err := MapDragonfly(g)
			if err != nil {
				t.Fatal(err)
			}
			groups := tc.k*tc.g + 1
			if tc.omit {
				groups--
			}
			if err := checkDragonfly(d, g, identity(len(net.Switches)), group, 0); err != nil {
				t.Errorf("K=%d G=%d %s omit=%v: %v", tc.k, tc.g, arr, tc.omit, err)
			}
			if d.Groups != groups || d.GroupSize != tc.k || d.GlobalPerSwitch != tc.g {
				t.Errorf("K=%d G=%d %s omit=%v: %d groups, K = %d, G = %d", tc.k, tc.g, arr, tc.omit, d.Groups, d.GroupSize, d.GlobalPerSwitch)
			}
		}
	}
}
