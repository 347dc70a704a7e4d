package topologies

import (
	"slices"
	"testing"
)

func TestFlatFlyStructure(t *testing.T) {
	tests := []struct {
		name     string
		dims     []int
		widths   []int // nil: all 1
		c        int
		switches int
		radix    int
		links    int
		diameter int // -1: skip the BFS (large case)
	}{
		{"K1", []int{1}, nil, 3, 1, 3, 0, 0},
		{"K2", []int{2}, nil, 1, 2, 2, 1, 1},
		{"K5 width3", []int{5}, []int{3}, 2, 5, 14, 30, 1},
		{"3x4 widths 1,2", []int{3, 4}, []int{1, 2}, 2, 12, 10, 48, 2},
		{"2x2x3", []int{2, 2, 3}, nil, 1, 12, 5, 24, 3},
		{"hypercube 2^4", []int{2, 2, 2, 2}, []int{2, 2, 2, 2}, 1, 16, 9, 64, 4},
		{"size-1 dims", []int{1, 3, 1, 2}, []int{5, 1, 7, 2}, 1, 6, 5, 12, 2},
		{"seed 004", []int{4, 8, 8, 8}, []int{2, 1, 1, 1}, 8, 2048, 35, 2048 * 27 / 2, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, err := Build(Spec{Kind: "flatfly", Dims: tc.dims, Widths: tc.widths, HostsPerSwitch: tc.c})
			if err != nil {
				t.Fatal(err)
			}
			if err := net.Validate(); err != nil {
				t.Fatal(err)
			}
			widths := tc.widths
			if widths == nil {
				widths = make([]int, len(tc.dims))
				for i := range widths {
					widths[i] = 1
				}
			}
			if net.Kind != "flatfly" || !slices.Equal(net.Dims, tc.dims) || !slices.Equal(net.Widths, widths) || net.HostsPerSwitch != tc.c {
				t.Fatalf("kind %q dims %v widths %v C %d, want flatfly %v %v %d",
					net.Kind, net.Dims, net.Widths, net.HostsPerSwitch, tc.dims, widths, tc.c)
			}
			if got := len(net.Switches); got != tc.switches {
				t.Errorf("switches = %d, want %d", got, tc.switches)
			}
			if got := net.Radix(); got != tc.radix {
				t.Errorf("radix = %d, want %d", got, tc.radix)
			}
			if got := net.Links(); got != tc.links {
				t.Errorf("links = %d, want %d", got, tc.links)
			}
			checkHosts(t, net, tc.c)
			checkMixedRadix(t, net, tc.dims)
			checkFlatFlyLinks(t, net, tc.dims, widths, tc.c)
			if tc.diameter >= 0 {
				if got := diameter(t, net); got != tc.diameter {
					t.Errorf("diameter = %d, want %d", got, tc.diameter)
				}
			}
		})
	}
}

// checkFlatFlyLinks checks the documented port layout port by port, which
// (with Validate's symmetry check) implies that every pair of switches differing in exactly one coordinate
// n has exactly widths[n] links and no other pair has any.
func checkFlatFlyLinks(t *testing.T, net *Network, dims, widths []int, c int) {
	t.Helper()
	for s := range net.Switches {
		own := net.Switches[s].Coord
		ports := net.Switches[s].Ports
		p := c
		for n, k := range dims {
			for v := range k {
				if v == int(own[n]) {
					continue
				}
				want := slices.Clone(own)
				want[n] = int32(v)
				for i := range widths[n] {
					q := ports[p]
					peer := net.Switches[q.Peer].Coord
					if q.Kind != SwitchPort || int(q.Dim) != n || !slices.Equal(peer, want) {
						t.Fatalf("switch %d %v port %d = %+v to %v, want dimension %d link %d to %v", s, own, p, q, peer, n, i, want)
					}
					p++
				}
			}
		}
		if p != len(ports) {
			t.Fatalf("switch %d has %d ports, layout accounts for %d", s, len(ports), p)
		}
	}
}

func TestHyperXAlias(t *testing.T) {
	a, err := Build(Spec{Kind: "hyperx", Dims: []int{3, 2}, HostsPerSwitch: 2})
	if err != nil {
		t.Fatal(err)
	}
	b, err := FlatFly([]int{3, 2}, nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind != "flatfly" {
		t.Errorf("hyperx builds kind %q, want flatfly", a.Kind)
	}
	for s := range a.Switches {
		if !slices.Equal(a.Switches[s].Ports, b.Switches[s].Ports) {
			t.Fatalf("switch %d differs between hyperx and flatfly", s)
		}
	}
}

func TestFlatFlyParallelLinksPairUp(t *testing.T) {
	// Parallel link i on one side is parallel link i on the other.
	net, err := FlatFly([]int{3, 3}, []int{3, 2}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for s := range net.Switches {
		ports := net.Switches[s].Ports
		for p := 1; p+1 < len(ports); p++ {
			a, b := ports[p], ports[p+1]
			if a.Peer == b.Peer && b.PeerPort != a.PeerPort+1 {
				t.Fatalf("switch %d ports %d,%d go to peer ports %d,%d", s, p, p+1, a.PeerPort, b.PeerPort)
			}
		}
	}
}

func TestFlatFlyInputNotAliased(t *testing.T) {
	dims, widths := []int{2, 3}, []int{1, 2}
	net, err := FlatFly(dims, widths, 1)
	if err != nil {
		t.Fatal(err)
	}
	dims[0], widths[0] = 99, 99
	if net.Dims[0] != 2 || net.Widths[0] != 1 {
		t.Fatalf("network shares the caller's slices: dims %v widths %v", net.Dims, net.Widths)
	}
}

func BenchmarkBuildFlatFlySeed004(b *testing.B) {
	s := Spec{Kind: "flatfly", Dims: []int{4, 8, 8, 8}, Widths: []int{2, 1, 1, 1}, HostsPerSwitch: 8}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build(s); err != nil {
			b.Fatal(err)
		}
	}
}
