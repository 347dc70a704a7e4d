package topologies

import "testing"

func TestRingStructure(t *testing.T) {
	tests := []struct {
		name        string
		spec        Spec
		n, width, c int
		wantDiam    int
	}{
		{"3 switches", Spec{Kind: "ring", Switches: 3, HostsPerSwitch: 1}, 3, 1, 1, 1},
		{"6 switches width 2", Spec{Kind: "ring", Switches: 6, Widths: []int{2}, HostsPerSwitch: 4}, 6, 2, 4, 3},
		{"7 switches width 3", Spec{Kind: "ring", Switches: 7, Widths: []int{3}, HostsPerSwitch: 2}, 7, 3, 2, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, err := Build(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			if err := net.Validate(); err != nil {
				t.Fatal(err)
			}
			if net.Kind != "ring" || len(net.Dims) != 1 || net.Dims[0] != tc.n ||
				len(net.Widths) != 1 || net.Widths[0] != tc.width || net.HostsPerSwitch != tc.c {
				t.Fatalf("kind %q dims %v widths %v C %d", net.Kind, net.Dims, net.Widths, net.HostsPerSwitch)
			}
			if got := len(net.Switches); got != tc.n {
				t.Fatalf("switches = %d, want %d", got, tc.n)
			}
			if got, want := net.Radix(), tc.c+2*tc.width; got != want {
				t.Errorf("radix = %d, want %d", got, want)
			}
			if got, want := net.Links(), tc.n*tc.width; got != want {
				t.Errorf("links = %d, want %d", got, want)
			}
			checkHosts(t, net, tc.c)
			for i, s := range net.Switches {
				if len(s.Coord) != 1 || int(s.Coord[0]) != i {
					t.Fatalf("switch %d coord %v, want [%d]", i, s.Coord, i)
				}
				for j := range tc.width {
					up, down := s.Ports[tc.c+j], s.Ports[tc.c+tc.width+j]
					if up.Kind != SwitchPort || up.Dim != 0 || int(up.Peer) != (i+1)%tc.n || int(up.PeerPort) != tc.c+tc.width+j {
						t.Errorf("switch %d +1 port %d = %+v", i, j, up)
					}
					if down.Kind != SwitchPort || down.Dim != 0 || int(down.Peer) != (i+tc.n-1)%tc.n || int(down.PeerPort) != tc.c+j {
						t.Errorf("switch %d -1 port %d = %+v", i, j, down)
					}
				}
			}
			if got := diameter(t, net); got != tc.wantDiam {
				t.Errorf("diameter = %d, want %d", got, tc.wantDiam)
			}
		})
	}
}

func TestRingConstructorMatchesBuild(t *testing.T) {
	a, err := Ring(5, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(Spec{Kind: "ring", Switches: 5, Widths: []int{2}, HostsPerSwitch: 3})
	if err != nil {
		t.Fatal(err)
	}
	for s := range a.Switches {
		for p := range a.Switches[s].Ports {
			if a.Switches[s].Ports[p] != b.Switches[s].Ports[p] {
				t.Fatalf("switch %d port %d differs", s, p)
			}
		}
	}
}
