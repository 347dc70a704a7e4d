package topologies

import (
	"fmt"
	"testing"
)

func TestFatTree(t *testing.T) {
	tests := []struct {
		k, n int
		over string
		want treeWant
	}{
		{2, 1, "", treeWant{levels: []int{1}, down: []int{2}, up: []int{0}, par: []int{0}, hosts: 2, links: 0, radix: 2}},
		{4, 2, "", treeWant{levels: []int{4, 4}, down: []int{4, 4}, up: []int{4, 0}, par: []int{1, 0}, hosts: 16, links: 16, radix: 8}},
		{4, 3, "", treeWant{levels: []int{16, 16, 16}, down: []int{4, 4, 4}, up: []int{4, 4, 0}, par: []int{1, 1, 0}, hosts: 64, links: 128, radix: 8}},
		{2, 4, "", treeWant{levels: []int{8, 8, 8, 8}, down: []int{2, 2, 2, 2}, up: []int{2, 2, 2, 0}, par: []int{1, 1, 1, 0}, hosts: 16, links: 48, radix: 4}},
		// The k-ary n-trees of seed 002's Table I (36-port switches):
		// k^n hosts, n·k^(n−1) switches of 2k ports, (n−1)·k^n links.
		{6, 2, "", treeWant{levels: []int{6, 6}, down: []int{6, 6}, up: []int{6, 0}, par: []int{1, 0}, hosts: 36, links: 36, radix: 12}},
		{10, 2, "", treeWant{levels: []int{10, 10}, down: []int{10, 10}, up: []int{10, 0}, par: []int{1, 0}, hosts: 100, links: 100, radix: 20}},
		{16, 2, "", treeWant{levels: []int{16, 16}, down: []int{16, 16}, up: []int{16, 0}, par: []int{1, 0}, hosts: 256, links: 256, radix: 32}},
		{6, 3, "", treeWant{levels: []int{36, 36, 36}, down: []int{6, 6, 6}, up: []int{6, 6, 0}, par: []int{1, 1, 0}, hosts: 216, links: 432, radix: 12}},
		{10, 3, "", treeWant{levels: []int{100, 100, 100}, down: []int{10, 10, 10}, up: []int{10, 10, 0}, par: []int{1, 1, 0}, hosts: 1000, links: 2000, radix: 20}},
		{14, 3, "", treeWant{levels: []int{196, 196, 196}, down: []int{14, 14, 14}, up: []int{14, 14, 0}, par: []int{1, 1, 0}, hosts: 2744, links: 5488, radix: 28}},
		{18, 3, "", treeWant{levels: []int{324, 324, 324}, down: []int{18, 18, 18}, up: []int{18, 18, 0}, par: []int{1, 1, 0}, hosts: 5832, links: 11664, radix: 36}},
		// 3:1 at the leaves: 6 hosts and 2 uplinks of 8 ports; upper levels
		// of u·k^(n−2) = 8 switches.
		{4, 3, "3:1", treeWant{levels: []int{16, 8, 8}, down: []int{6, 4, 4}, up: []int{2, 4, 0}, par: []int{1, 1, 0}, hosts: 96, links: 64, radix: 8}},
		// Seed 000's fat trees of 24-port crossbars, here 2:1.
		{12, 2, "2:1", treeWant{levels: []int{12, 8}, down: []int{16, 12}, up: []int{8, 0}, par: []int{1, 0}, hosts: 192, links: 96, radix: 24}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d-ary %d-tree %s", tc.k, tc.n, tc.over), func(t *testing.T) {
			net, err := Build(Spec{Kind: "fattree", K: tc.k, N: tc.n, Oversubscription: tc.over})
			if err != nil {
				t.Fatal(err)
			}
			checkTree(t, net, tc.want)
			if net.Kind != "fattree" || net.HostsPerSwitch != tc.want.down[0] {
				t.Errorf("kind %q C %d, want fattree and %d", net.Kind, net.HostsPerSwitch, tc.want.down[0])
			}
		})
	}
}

// TestFatTreePetrini checks the wiring rule of Petrini and Vanneschi on
// every pair of switches: the switch at level l with digits w is joined to
// the level-(l+1) switch with digits w' iff w and w' differ at most in
// digit l, through its up port k + w'_l and that switch's down port w_l.
func TestFatTreePetrini(t *testing.T) {
	for _, kn := range [][2]int{{3, 3}, {4, 3}, {2, 4}} {
		k, n := kn[0], kn[1]
		net, err := FatTree(k, n, "")
		if err != nil {
			t.Fatal(err)
		}
		per := len(net.Switches) / n
		digit := func(w, i int) int {
			for range i {
				w /= k
			}
			return w % k
		}
		for l := range n - 1 {
			for a := range per {
				for b := range per {
					joined := true
					for i := range n - 1 {
						if i != l && digit(a, i) != digit(b, i) {
							joined = false
						}
					}
					lo, hi := l*per+a, (l+1)*per+b
					links := 0
					for _, p := range net.Switches[lo].Ports {
						if p.Kind == SwitchPort && int(p.Peer) == hi {
							links++
						}
					}
					if want := map[bool]int{true: 1, false: 0}[joined]; links != want {
						t.Fatalf("%d-ary %d-tree: level %d switch %d and level %d switch %d share %d links, want %d", k, n, l, a, l+1, b, links, want)
					}
					if !joined {
						continue
					}
					p := net.Switches[lo].Ports[k+digit(b, l)]
					if int(p.Peer) != hi || int(p.PeerPort) != digit(a, l) {
						t.Fatalf("%d-ary %d-tree: level %d switch %d port %d = %+v, want switch %d port %d", k, n, l, a, k+digit(b, l), p, hi, digit(a, l))
					}
				}
			}
		}
	}
}

// TestFatTreeRoutes checks seed 001 §4.4.1: a fat tree of 32-port
// crossbars with 5 stages (the 16-ary 3-tree) has (n/2)^⌊5/2⌋ = 256 routes
// between hosts whose nearest common ancestors are the top switches.
func TestFatTreeRoutes(t *testing.T) {
	net, err := FatTree(16, 3, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(net.Hosts) != 4096 || len(net.Switches) != 768 {
		t.Fatalf("%d hosts and %d switches, want 4096 and 768", len(net.Hosts), len(net.Switches))
	}
	if d, n := shortestPaths(net, 0, 255); d != 4 || n != 256 {
		t.Errorf("leaf 0 to leaf 255: %d routes of %d hops, want 256 of 4", n, d)
	}
	// Leaves 0 and 15 share their level-1 parents: 16 routes of 2 hops.
	if d, n := shortestPaths(net, 0, 15); d != 2 || n != 16 {
		t.Errorf("leaf 0 to leaf 15: %d routes of %d hops, want 16 of 2", n, d)
	}
}
