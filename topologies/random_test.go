package topologies

import (
	"slices"
	"testing"
)

func TestRandomStructure(t *testing.T) {
	for _, tc := range []struct {
		name                      string
		switches, c, links, ports int
		seed                      uint64
	}{
		{"seed 002", 64, 16, 128, 0, 1},
		{"seed 002 other seed", 64, 16, 128, 0, 2},
		{"32-port switches", 128, 16, 200, 32, 5},
		{"tree", 40, 2, 39, 0, 3},
		{"complete", 9, 1, 36, 0, 4},
		{"tight degree limit", 30, 4, 45, 7, 9}, // every switch has exactly 3 links
		{"two switches", 2, 3, 1, 4, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net, err := Random(tc.switches, tc.c, tc.links, tc.ports, tc.seed)
			if err != nil {
				t.Fatal(err)
			}
			if err := net.Validate(); err != nil {
				t.Fatal(err)
			}
			if net.Kind != "random" || len(net.Switches) != tc.switches || net.Links() != tc.links {
				t.Fatalf("kind %q, %d switches, %d links", net.Kind, len(net.Switches), net.Links())
			}
			checkHosts(t, net, tc.c)
			for s, sw := range net.Switches {
				if tc.ports > 0 && len(sw.Ports) > tc.ports {
					t.Fatalf("switch %d has %d ports, more than %d", s, len(sw.Ports), tc.ports)
				}
				for i, p := range sw.Ports[tc.c:] {
					if p.Kind != SwitchPort || int(p.Peer) == s || i > 0 && sw.Ports[tc.c+i-1].Peer >= p.Peer {
						t.Fatalf("switch %d: port %d = %+v (self-loop, duplicate or out of order)", s, tc.c+i, p)
					}
				}
			}
			if d := diameter(t, net); d < 0 {
				t.Fatal("disconnected")
			}
			again, err := Random(tc.switches, tc.c, tc.links, tc.ports, tc.seed)
			if err != nil {
				t.Fatal(err)
			}
			for s := range net.Switches {
				if !slices.Equal(net.Switches[s].Ports, again.Switches[s].Ports) {
					t.Fatalf("seed %d gives a different network the second time (switch %d)", tc.seed, s)
				}
			}
		})
	}
	a, _ := Random(64, 16, 128, 0, 1)
	b, _ := Random(64, 16, 128, 0, 2)
	same := true
	for s := range a.Switches {
		same = same && slices.Equal(a.Switches[s].Ports, b.Switches[s].Ports)
	}
	if same {
		t.Error("seeds 1 and 2 give the same network")
	}
}
