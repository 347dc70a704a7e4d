package routing

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"netsim/topologies"
)

// networkX builds network X of seed 000 Fig. 2: switches A–E (0–4), hosts
// 0, 1, 2 on A, E, C, and links A–B, A–D, C–B, C–D, E–B, E–D (B's links
// before D's on every switch).
func networkX() *topologies.Network {
	net := &topologies.Network{Kind: "file", Switches: make([]topologies.Switch, 5)}
	const A, B, C, D, E = 0, 1, 2, 3, 4
	for h, s := range []int32{A, E, C} {
		net.Hosts = append(net.Hosts, topologies.Host{Switch: s, Port: 0})
		net.Switches[s].Ports = append(net.Switches[s].Ports, topologies.Port{Kind: topologies.HostPort, Peer: int32(h), Dim: -1})
	}
	for _, l := range [][2]int32{{A, B}, {A, D}, {C, B}, {C, D}, {E, B}, {E, D}} {
		a, b := &net.Switches[l[0]], &net.Switches[l[1]]
		pa, pb := int32(len(a.Ports)), int32(len(b.Ports))
		a.Ports = append(a.Ports, topologies.Port{Kind: topologies.SwitchPort, Peer: l[1], PeerPort: pb, Dim: -1})
		b.Ports = append(b.Ports, topologies.Port{Kind: topologies.SwitchPort, Peer: l[0], PeerPort: pa, Dim: -1})
	}
	return net
}

// routeNames returns the path from host src to host dst as in the seed:
// "0,A,B,E,1".
func routeNames(t *testing.T, tab *Tables, net *topologies.Network, src, dst int) string {
	t.Helper()
	path, err := tab.Path(net, int(net.Hosts[src].Switch), dst, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := fmt.Sprint(src)
	for _, sw := range path {
		s += "," + string(rune('A'+sw))
	}
	return s + "," + fmt.Sprint(dst)
}

// forwardingIndex returns π(G, R) of seed 000: the largest number of
// (source host, destination host) routes over one switch-to-switch channel.
func forwardingIndex(t *testing.T, tab *Tables, net *topologies.Network) int {
	t.Helper()
	load := map[[2]int32]int{}
	pi := 0
	for src, a := range net.Hosts {
		for dst := range net.Hosts {
			if src == dst {
				continue
			}
			path, err := tab.Path(net, int(a.Switch), dst, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i < len(path); i++ {
				k := [2]int32{path[i-1], path[i]}
				load[k]++
				pi = max(pi, load[k])
			}
		}
	}
	return pi
}

func TestSSSPSeedNetworkX(t *testing.T) {
	net := networkX()
	tests := []struct {
		alg    string
		routes [][3]any // src, dst, route
		pi     int
	}{
		// Seed 000 Fig. 2: rounds 1 and 2 (round 3 of the figure is not
		// reproduced by any weighting of its text; π is 2 either way).
		{"sssp", [][3]any{{1, 0, "1,E,B,A,0"}, {2, 0, "2,C,B,A,0"}, {0, 1, "0,A,D,E,1"}, {2, 1, "2,C,D,E,1"}}, 2},
		// Seed 000 Fig. 3(a)-(b): all six routes, π = 1.
		{"p2sssp", [][3]any{{0, 1, "0,A,B,E,1"}, {0, 2, "0,A,D,C,2"}, {1, 0, "1,E,D,A,0"},
			{1, 2, "1,E,B,C,2"}, {2, 0, "2,C,B,A,0"}, {2, 1, "2,C,D,E,1"}}, 1},
	}
	for _, tc := range tests {
		r, err := New(Spec{Algorithm: tc.alg, VLs: 1}, net)
		if err != nil {
			t.Fatalf("%s: %v", tc.alg, err)
		}
		tab := r.(*Tables)
		for _, rt := range tc.routes {
			if got := routeNames(t, tab, net, rt[0].(int), rt[1].(int)); got != rt[2] {
				t.Errorf("%s: route %v→%v = %s, want %s", tc.alg, rt[0], rt[1], got, rt[2])
			}
		}
		if pi := forwardingIndex(t, tab, net); pi != tc.pi {
			t.Errorf("%s: forwarding index %d, want %d", tc.alg, pi, tc.pi)
		}
	}
}

// TestDFSSSPRings checks seed 002 Fig. 2: SSSP on a 5-switch ring has a
// cyclic channel dependency graph that DFSSSP breaks with 2 layers, while
// a 3-switch ring needs 1; with 1 VL the 5-ring is an error naming vls.
func TestDFSSSPRings(t *testing.T) {
	for _, tc := range []struct{ switches, layers int }{{5, 2}, {3, 1}, {6, 2}} {
		net := mustBuild(t, topologies.Spec{Kind: "ring", Switches: tc.switches, HostsPerSwitch: 1})
		sssp, err := New(Spec{Algorithm: "sssp", VLs: 1}, net)
		if err != nil {
			t.Fatal(err)
		}
		if cyc := dependencyCycle(t, net, sssp, 1); (cyc != nil) != (tc.layers > 1) {
			t.Errorf("ring %d: sssp dependency cycle %v, want cyclic %v", tc.switches, cyc, tc.layers > 1)
		}
		r, err := New(Spec{Algorithm: "dfsssp", VLs: 4}, net)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.(*Tables).Layers(); got != tc.layers {
			t.Errorf("ring %d: dfsssp uses %d layers, want %d", tc.switches, got, tc.layers)
		}
		if cyc := dependencyCycle(t, net, r, 4); cyc != nil {
			t.Errorf("ring %d: dfsssp dependency cycle %v", tc.switches, cyc)
		}
		if tc.layers > 1 {
			want := fmt.Sprintf("vls: routing dfsssp needs %d virtual layers on this network", tc.layers)
			if _, err := New(Spec{Algorithm: "dfsssp", VLs: 1}, net); err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("ring %d: dfsssp on 1 VL: error %v, want one starting %q", tc.switches, err, want)
			}
		}
	}
}

// TestDFSSSPRandomLayers routes seed 002's random topologies (64 switches,
// 1,024 hosts, 128 links) over 20 seeds; the seed saw 3–5 layers.
func TestDFSSSPRandomLayers(t *testing.T) {
	if testing.Short() {
		t.Skip("20 networks of 1,024 hosts")
	}
	var layers []int
	for seed := range uint64(20) {
		net := mustBuild(t, topologies.Spec{Kind: "random", Switches: 64, HostsPerSwitch: 16, Links: 128, Seed: seed + 1})
		r, err := New(Spec{Algorithm: "dfsssp", VLs: 15}, net)
		if err != nil {
			t.Fatalf("seed %d: %v", seed+1, err)
		}
		layers = append(layers, r.(*Tables).Layers())
	}
	slices.Sort(layers)
	t.Logf("dfsssp layers over 20 random topologies: %v", layers)
	if layers[0] < 2 || layers[len(layers)-1] > 6 {
		t.Errorf("dfsssp layers %v, want within 2–6 (seed 002: 3–5)", layers)
	}
}
