package topologies

import (
	"math"
	"testing"
)

func TestDragonflyStructure(t *testing.T) {
	for _, arr := range []string{"absolute", "relative", "palmtree"} {
		for _, tc := range []struct {
			k, g, c int
			omit    bool
		}{{1, 3, 1, false}, {2, 1, 1, false}, {4, 2, 2, false}, {3, 3, 1, false}, {4, 2, 2, true}, {2, 3, 1, true}, {1, 2, 1, true}} {
			net, err := Dragonfly(tc.k, tc.g, tc.c, arr, tc.omit)
			if err != nil {
				t.Fatal(err)
			}
			checkDragonfly(t, net, arr, tc.k, tc.g, tc.c, tc.omit)
		}
	}
}

// checkDragonfly checks the counts, the complete graph inside every group,
// one global link per pair of groups on the documented ports, and the
// arrangement's rule for the ends of each global link.
func checkDragonfly(t *testing.T, net *Network, arr string, k, g, c int, omit bool) {
	t.Helper()
	groups := k*g + 1
	if omit {
		groups--
	}
	if err := net.Validate(); err != nil {
		t.Fatal(err)
	}
	if net.Kind != "dragonfly" || len(net.Switches) != groups*k || net.HostsPerSwitch != c {
		t.Fatalf("%s k%d g%d: kind %q, %d switches, want %d", arr, k, g, net.Kind, len(net.Switches), groups*k)
	}
	if got, want := net.Links(), groups*k*(k-1)/2+groups*(groups-1)/2; got != want {
		t.Errorf("%s k%d g%d: %d links, want %d", arr, k, g, got, want)
	}
	radix := c + k - 1 + g
	if omit && k == 1 { // the only switch of each group has the unused port
		radix--
	}
	if got := net.Radix(); got != radix {
		t.Errorf("%s k%d g%d: radix %d, want %d", arr, k, g, got, radix)
	}
	want := min(float64(k)/float64(4*c), float64(g)/float64(2*c))
	if k == 1 {
		want = 0
	}
	if math.Abs(net.Bisection-want) > 1e-12 {
		t.Errorf("bisection %v, want %v", net.Bisection, want)
	}
	checkHosts(t, net, c)
	pair := make(map[[2]int]int)
	for s, sw := range net.Switches {
		i, r := s/k, s%k
		if len(sw.Coord) != 2 || int(sw.Coord[0]) != i || int(sw.Coord[1]) != r {
			t.Fatalf("switch %d coord %v, want [%d %d]", s, sw.Coord, i, r)
		}
		for v := range k {
			if v == r {
				continue
			}
			p := sw.Ports[c+slot(v, r)]
			if p.Kind != SwitchPort || int(p.Peer) != i*k+v || p.Dim != 0 {
				t.Fatalf("switch %d local port to index %d = %+v", s, v, p)
			}
		}
		for gp := range g {
			p, j := sw.Ports[c+k-1+gp], r*g+gp
			if j >= groups-1 {
				if p.Kind != Unused {
					t.Fatalf("switch %d global port %d (index %d of %d groups) = %+v, want unused", s, gp, j, groups, p)
				}
				continue
			}
			if p.Kind != SwitchPort || p.Dim != 1 {
				t.Fatalf("switch %d global port %d = %+v", s, gp, p)
			}
			tg := int(p.Peer) / k
			jj := int(p.Peer)%k*g + int(p.PeerPort) - (c + k - 1)
			wantT, wantJJ := 0, groups-2-j
			switch arr {
			case "absolute":
				wantT = j
				if j >= i {
					wantT++
				}
				wantJJ = i
				if i > wantT {
					wantJJ--
				}
			case "relative":
				wantT = (i + j + 1) % groups
			case "palmtree":
				wantT = ((i-j-1)%groups + groups) % groups
				if !omit && (int(p.Peer)%k != k-1-r || int(p.PeerPort)-(c+k-1) != g-1-gp) {
					t.Fatalf("palmtree: switch (%d,%d) port %d reaches index %d port %d, want %d and %d",
						i, r, gp, int(p.Peer)%k, int(p.PeerPort)-(c+k-1), k-1-r, g-1-gp)
				}
			}
			if tg != wantT || jj != wantJJ {
				t.Fatalf("%s: group %d global port %d reaches group %d port %d, want %d port %d", arr, i, j, tg, jj, wantT, wantJJ)
			}
			pair[[2]int{min(i, tg), max(i, tg)}]++
		}
	}
	for a := range groups {
		for b := a + 1; b < groups; b++ {
			if n := pair[[2]int{a, b}]; n != 2 { // counted from both ends
				t.Fatalf("%s k%d g%d: groups %d and %d joined by %d global links, want 1", arr, k, g, a, b, n/2)
			}
		}
	}
	diam := 3
	if k == 1 {
		diam = 1
	}
	if got := diameter(t, net); got != diam {
		t.Errorf("%s k%d g%d: diameter %d, want %d", arr, k, g, got, diam)
	}
}
