package routing

import (
	"testing"

	"netsim/topologies"
)

func TestRingNoDatelinePaths(t *testing.T) {
	tests := []struct {
		name               string
		switches, width, c int
		vls                int
	}{
		{"3 switches", 3, 1, 1, 1},
		{"5 switches width 2", 5, 2, 2, 2},
		{"6 switches (ties) width 3", 6, 3, 2, 3},
		{"8 switches", 8, 1, 3, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, err := topologies.Build(topologies.Spec{Kind: "ring", Switches: tc.switches, Widths: []int{tc.width}, HostsPerSwitch: tc.c})
			if err != nil {
				t.Fatal(err)
			}
			r, err := New(Spec{Algorithm: "dor-nodateline", VLs: tc.vls}, net)
			if err != nil {
				t.Fatal(err)
			}
			if r.Name() != "dor-nodateline" || r.VLs() != 1 {
				t.Fatalf("Name %q VLs %d", r.Name(), r.VLs())
			}
			n := tc.switches
			for src := range net.Hosts {
				for dst := range net.Hosts {
					s, d := src/tc.c, dst/tc.c
					fwd := (d - s + n) % n // hops the + way
					want, step := fwd, 1
					if 2*fwd > n {
						want, step = n-fwd, n-1
					}
					for pick := range tc.width {
						hops := walk(t, net, r, tc.vls, src, dst, pick, n/2)
						if len(hops) != want {
							t.Fatalf("%d→%d: %d hops, want %d", src, dst, len(hops), want)
						}
						for _, h := range hops {
							if h.to != (h.from+step)%n || h.dim != 0 {
								t.Fatalf("%d→%d: hop %d→%d, want direction %+d", src, dst, h.from, h.to, step)
							}
							dlid, sl, vl := r.Source(src, dst)
							cands := r.Route(h.from, 0, vl, sl, dlid, nil)
							if len(cands) != tc.width {
								t.Fatalf("%d→%d at %d: %d candidates, want all %d parallel links", src, dst, h.from, len(cands), tc.width)
							}
							candidatePeers(t, net, h.from, cands)
						}
					}
				}
			}
		})
	}
}

func TestRingNoDatelineRejectsBrokenNetworks(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*topologies.Network)
		want   string
	}{
		{"dims", func(n *topologies.Network) { n.Dims = []int{4} },
			"routing dor-nodateline: network is not a ring: dims [4] and widths [2] do not describe a ring of 5 switches"},
		{"widths", func(n *topologies.Network) { n.Widths = []int{2, 1} },
			"routing dor-nodateline: network is not a ring: dims [5] and widths [2 1] do not describe a ring of 5 switches"},
		{"coord repeated", func(n *topologies.Network) { n.Switches[3].Coord = []int32{1} },
			"routing dor-nodateline: network is not a ring: switch 3 has coordinates [1], want a distinct position in [0,5)"},
		{"coord missing", func(n *topologies.Network) { n.Switches[0].Coord = nil },
			"routing dor-nodateline: network is not a ring: switch 0 has coordinates [], want a distinct position in [0,5)"},
		{"coords permuted", func(n *topologies.Network) { n.Switches[1].Coord, n.Switches[2].Coord = []int32{2}, []int32{1} },
			"routing dor-nodateline: network is not a ring: switch 0 port 1 goes to switch 1, not a ring neighbour"},
		{"width", func(n *topologies.Network) { n.Widths = []int{1} },
			"routing dor-nodateline: network is not a ring: switch 0 has 2 links to its +1 and 2 to its -1 neighbour, want width 1 each"},
		{"asymmetric", func(n *topologies.Network) { n.Switches[0].Ports[1].Peer = 2 },
			"routing dor-nodateline: switch 0 port 1: link to switch 2 port 3 is not symmetric"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, err := topologies.Build(topologies.Spec{Kind: "ring", Switches: 5, Widths: []int{2}, HostsPerSwitch: 1})
			if err != nil {
				t.Fatal(err)
			}
			tc.mutate(net)
			_, err = New(Spec{Algorithm: "dor-nodateline", VLs: 1}, net)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error\n got %v\nwant %s", err, tc.want)
			}
		})
	}
}

func TestRingNoDatelineNonContiguousParallelPorts(t *testing.T) {
	net, err := topologies.Build(topologies.Spec{Kind: "ring", Switches: 4, Widths: []int{2}, HostsPerSwitch: 1})
	if err != nil {
		t.Fatal(err)
	}
	ports := net.Switches[0].Ports // 1,2: +1 neighbour; 3,4: −1 neighbour
	ports[2], ports[3] = ports[3], ports[2]
	for _, p := range []int{2, 3} {
		q := ports[p]
		net.Switches[q.Peer].Ports[q.PeerPort].PeerPort = int32(p)
	}
	if err := net.Validate(); err != nil {
		t.Fatal(err)
	}
	_, err = New(Spec{Algorithm: "dor-nodateline", VLs: 1}, net)
	const want = "routing dor-nodateline: network is not a ring: switch 0: parallel ports 1 and 3 to switch 1 are not contiguous"
	if err == nil || err.Error() != want {
		t.Fatalf("error\n got %v\nwant %s", err, want)
	}
}
