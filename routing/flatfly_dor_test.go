package routing

import (
	"testing"

	"netsim/topologies"
)

func TestFlatFlyDORPaths(t *testing.T) {
	tests := []struct {
		name string
		spec topologies.Spec
		vls  []int
	}{
		{"3x4 C2 widths 1,2", topologies.Spec{Kind: "flatfly", Dims: []int{3, 4}, Widths: []int{1, 2}, HostsPerSwitch: 2}, []int{1, 2, 3}},
		{"2x2x3 C1", topologies.Spec{Kind: "flatfly", Dims: []int{2, 2, 3}, HostsPerSwitch: 1}, []int{1, 4}},
		{"hyperx 1x3x2 C3 widths 2,3,1", topologies.Spec{Kind: "hyperx", Dims: []int{1, 3, 2}, Widths: []int{2, 3, 1}, HostsPerSwitch: 3}, []int{2, 8}},
		{"K1 C4", topologies.Spec{Kind: "flatfly", Dims: []int{1}, HostsPerSwitch: 4}, []int{3}},
		{"hypercube 3 width 2 C2", topologies.Spec{Kind: "hypercube", Dimension: 3, Width: 2, HostsPerSwitch: 2}, []int{1, 2}},
		{"hypercube 4 C1", topologies.Spec{Kind: "hypercube", Dimension: 4, HostsPerSwitch: 1}, []int{1}},
	}
	for _, tc := range tests {
		net, err := topologies.Build(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, vls := range tc.vls {
			t.Run(tc.name, func(t *testing.T) {
				r, err := New(Spec{Algorithm: "dor", VLs: vls}, net)
				if err != nil {
					t.Fatal(err)
				}
				if r.Name() != "dor" || r.VLs() != 1 {
					t.Fatalf("Name %q VLs %d, want dor 1", r.Name(), r.VLs())
				}
				nh := len(net.Hosts)
				for src := range nh {
					for dst := range nh {
						checkDORPath(t, net, r, vls, src, dst)
					}
				}
			})
		}
	}
}

// checkDORPath walks src→dst, once per parallel-link choice, and checks the
// path is dimension-ordered and minimal, and that every candidate set is
// the full set of parallel links in the first differing dimension.
func checkDORPath(t *testing.T, net *topologies.Network, r Routing, vls, src, dst int) {
	t.Helper()
	dsw := int(net.Hosts[dst].Switch)
	want := 0
	for n := range net.Dims {
		if net.Switches[net.Hosts[src].Switch].Coord[n] != net.Switches[dsw].Coord[n] {
			want++
		}
	}
	for pick := range 3 {
		hops := walk(t, net, r, vls, src, dst, pick, len(net.Dims))
		if len(hops) != want {
			t.Fatalf("%d→%d: %d hops, want %d (differing coordinates)", src, dst, len(hops), want)
		}
		for _, h := range hops {
			from, to, goal := net.Switches[h.from].Coord, net.Switches[h.to].Coord, net.Switches[dsw].Coord
			first := firstDiff(from, goal)
			if h.dim != first || to[first] != goal[first] {
				t.Fatalf("%d→%d: hop %v→%v in dimension %d, want dimension %d to value %d", src, dst, from, to, h.dim, first, goal[first])
			}
			dlid, sl, vl := r.Source(src, dst)
			cands := r.Route(h.from, 0, vl, sl, dlid, nil)
			if len(cands) != net.Widths[first] {
				t.Fatalf("%d→%d at %v: %d candidates, want all %d parallel links", src, dst, from, len(cands), net.Widths[first])
			}
			if p := candidatePeers(t, net, h.from, cands); p != h.to {
				t.Fatalf("%d→%d at %v: candidates lead to switch %d, want %d", src, dst, from, p, h.to)
			}
		}
	}
}

func firstDiff(a, b []int32) int {
	for n := range a {
		if a[n] != b[n] {
			return n
		}
	}
	return -1
}

func TestFlatFlyDORRejectsBrokenNetworks(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*topologies.Network)
		want   string
	}{
		{"widths count", func(n *topologies.Network) { n.Widths = n.Widths[:1] },
			"routing dor: network is not a FlatFly: 2 dims and 1 widths"},
		{"dims product", func(n *topologies.Network) { n.Dims = []int{3, 3} },
			"routing dor: network is not a FlatFly: dims [3 3] give 9 switches, network has 12"},
		{"zero dim", func(n *topologies.Network) { n.Dims = []int{0, 4} },
			"routing dor: network is not a FlatFly: dims [0 4] and widths [1 2] do not match 12 switches"},
		{"repeated coordinates", func(n *topologies.Network) { n.Switches[1].Coord = n.Switches[0].Coord },
			"routing dor: network is not a FlatFly: switch 1 repeats coordinates [0 0]"},
		{"coordinate range", func(n *topologies.Network) { n.Switches[1].Coord = []int32{7, 0} },
			"routing dor: network is not a FlatFly: switch 1 coordinate 0 is 7, outside [0,3)"},
		{"missing coordinates", func(n *topologies.Network) { n.Switches[2].Coord = nil },
			"routing dor: network is not a FlatFly: switch 2 has 0 coordinates, want 2"},
		{"wrong dim label", func(n *topologies.Network) {
			for i := range n.Switches {
				for p := range n.Switches[i].Ports {
					if n.Switches[i].Ports[p].Kind == topologies.SwitchPort {
						n.Switches[i].Ports[p].Dim = 1 - n.Switches[i].Ports[p].Dim
					}
				}
			}
		}, "routing dor: network is not a FlatFly: switch 0 [0 0] port 2 (dimension 1) goes to switch 1 [1 0]"},
		{"dim out of range", func(n *topologies.Network) { n.Switches[0].Ports[2].Dim = 5 },
			"routing dor: network is not a FlatFly: switch 0 port 2 has dimension 5, want [0,2)"},
		{"width mismatch", func(n *topologies.Network) { n.Widths = []int{1, 3} },
			"routing dor: network is not a FlatFly: switch 0 [0 0] has 2 links to its neighbour with coordinate 1 in dimension 1, want width 3"},
		{"asymmetric", func(n *topologies.Network) { n.Switches[0].Ports[2].PeerPort = 3 },
			"routing dor: switch 0 port 2: link to switch 1 port 3 is not symmetric"},
		{"irregular", func(n *topologies.Network) { n.HostsPerSwitch = 0 },
			"routing dor: network flatfly has no fixed number of hosts per switch (got 0)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, err := topologies.Build(topologies.Spec{Kind: "flatfly", Dims: []int{3, 4}, Widths: []int{1, 2}, HostsPerSwitch: 2})
			if err != nil {
				t.Fatal(err)
			}
			tc.mutate(net)
			_, err = New(Spec{Algorithm: "dor", VLs: 1}, net)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error\n got %v\nwant %s", err, tc.want)
			}
		})
	}
}

func TestFlatFlyDORNonContiguousParallelPorts(t *testing.T) {
	// Swap a port of the first parallel pair with a port to another
	// neighbour (and fix up the peers) so the network stays valid but the
	// parallel links are no longer adjacent.
	net, err := topologies.Build(topologies.Spec{Kind: "flatfly", Dims: []int{3}, Widths: []int{2}, HostsPerSwitch: 1})
	if err != nil {
		t.Fatal(err)
	}
	ports := net.Switches[0].Ports
	ports[2], ports[3] = ports[3], ports[2]
	for _, p := range []int{2, 3} {
		q := ports[p]
		net.Switches[q.Peer].Ports[q.PeerPort].PeerPort = int32(p)
	}
	if err := net.Validate(); err != nil {
		t.Fatal(err)
	}
	_, err = New(Spec{Algorithm: "dor", VLs: 1}, net)
	const want = "routing dor: network is not a FlatFly: switch 0: parallel ports 1 and 3 to switch 1 are not contiguous"
	if err == nil || err.Error() != want {
		t.Fatalf("error\n got %v\nwant %s", err, want)
	}
}
