package topologies

import "testing"

func TestClos(t *testing.T) {
	tests := []struct {
		name        string
		ports, host int
		over        string
		want        treeWant
		routes      int // shortest routes between the first and the last leaf
	}{
		// Seed 001 §5.1: 32 leaf crossbars with 16 hosts and 16 links to
		// the spine of 16 crossbars; 16 routes between two leaves (§2.3:
		// (n/2)^⌊p/2⌋ for p = 3 stages).
		{"myrinet 512", 32, 512, "", treeWant{levels: []int{32, 16}, down: []int{16, 32}, up: []int{16, 0}, par: []int{1, 0},
			hosts: 512, links: 512, radix: 32}, 16},
		// Fewer leaves: 4 parallel links from each of 8 leaves to each of 4
		// spines (16 up ports, 4 spines × 4 links each way per route).
		{"8 leaves", 32, 128, "", treeWant{levels: []int{8, 4}, down: []int{16, 32}, up: []int{16, 0}, par: []int{4, 0},
			hosts: 128, links: 128, radix: 32}, 64},
		// 9 leaves: p = 2 (the largest divisor of 16 with 9p ≤ 32), 8
		// spines of which 18 ports are used.
		{"9 leaves", 32, 144, "", treeWant{levels: []int{9, 8}, down: []int{16, 18}, up: []int{16, 0}, par: []int{2, 0},
			hosts: 144, links: 144, radix: 32}, 32},
		{"3 leaves", 32, 48, "", treeWant{levels: []int{3, 2}, down: []int{16, 24}, up: []int{16, 0}, par: []int{8, 0},
			hosts: 48, links: 48, radix: 32}, 128},
		{"2 leaves of a 4-port crossbar", 4, 4, "", treeWant{levels: []int{2, 1}, down: []int{2, 4}, up: []int{2, 0}, par: []int{2, 0},
			hosts: 4, links: 4, radix: 4}, 4},
		// 3:1 oversubscription: 24 hosts and 8 uplinks per leaf, 16 leaves,
		// 2 links to each of 4 spines.
		{"3:1", 32, 384, "3:1", treeWant{levels: []int{16, 4}, down: []int{24, 32}, up: []int{8, 0}, par: []int{2, 0},
			hosts: 384, links: 128, radix: 32}, 16},
		// 1:3: 8 hosts and 24 uplinks per leaf, 8 leaves, 4 links to each
		// of 6 spines.
		{"1:3", 32, 64, "1:3", treeWant{levels: []int{8, 6}, down: []int{8, 32}, up: []int{24, 0}, par: []int{4, 0},
			hosts: 64, links: 192, radix: 32}, 96},
		{"1:1 given", 32, 512, "1:1", treeWant{levels: []int{32, 16}, down: []int{16, 32}, up: []int{16, 0}, par: []int{1, 0},
			hosts: 512, links: 512, radix: 32}, 16},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, err := Build(Spec{Kind: "clos", Ports: tc.ports, Hosts: tc.host, Oversubscription: tc.over})
			if err != nil {
				t.Fatal(err)
			}
			checkTree(t, net, tc.want)
			if net.Kind != "clos" || net.HostsPerSwitch != tc.want.down[0] || net.Dims != nil {
				t.Errorf("kind %q C %d dims %v, want clos, %d, nil", net.Kind, net.HostsPerSwitch, net.Dims, tc.want.down[0])
			}
			leaves := tc.want.levels[0]
			if d, n := shortestPaths(net, 0, leaves-1); d != 2 || n != tc.routes {
				t.Errorf("leaf 0 to leaf %d: %d routes of %d hops, want %d of 2", leaves-1, n, d, tc.routes)
			}
			// Every leaf reaches every spine.
			for l := range leaves {
				seen := map[int32]bool{}
				for _, p := range net.Switches[l].Ports {
					if p.Kind == SwitchPort {
						seen[p.Peer] = true
					}
				}
				if len(seen) != tc.want.levels[1] {
					t.Fatalf("leaf %d reaches %d spines, want all %d", l, len(seen), tc.want.levels[1])
				}
			}
		})
	}
}

func TestClosPortOrder(t *testing.T) {
	net, err := Clos(32, 128, "")
	if err != nil {
		t.Fatal(err)
	}
	// Leaf 5's up port 16 + j·4 + r goes to spine j (switch 8 + j), whose
	// down port 5·4 + r comes back.
	for j := range 4 {
		for r := range 4 {
			p := net.Switches[5].Ports[16+j*4+r]
			if want := (Port{Kind: SwitchPort, Peer: int32(8 + j), PeerPort: int32(5*4 + r), Dim: 0}); p != want {
				t.Fatalf("leaf 5 port %d = %+v, want %+v", 16+j*4+r, p, want)
			}
		}
	}
	if h := net.Hosts[37]; h.Switch != 2 || h.Port != 5 {
		t.Errorf("host 37 at switch %d port %d, want 2 and 5", h.Switch, h.Port)
	}
}
