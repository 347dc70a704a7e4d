package topologies

import (
	"math"
	"slices"
	"testing"
)

func TestTorusStructure(t *testing.T) {
	tests := []struct {
		name      string
		dims      []int
		widths    []int // nil: all 1
		c         int
		radix     int
		diameter  int
		bisection float64
	}{
		{"K3", []int{3}, nil, 1, 3, 1, 0},
		{"K2 doubles the links", []int{2}, []int{2}, 1, 5, 1, 4 * 2 / 2.0},
		{"4x2", []int{4, 2}, nil, 2, 6, 3, 0.5},
		{"3x4 widths 2,1", []int{3, 4}, []int{2, 1}, 1, 7, 3, 0},
		{"4x6x2 widths 1,3,2", []int{4, 6, 2}, []int{1, 3, 2}, 4, 16, 6, 0.25},
		{"5x5 C3", []int{5, 5}, []int{3, 3}, 3, 15, 4, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, err := Torus(tc.dims, tc.widths, tc.c)
			if err != nil {
				t.Fatal(err)
			}
			if err := net.Validate(); err != nil {
				t.Fatal(err)
			}
			widths := tc.widths
			if widths == nil {
				widths = slices.Repeat([]int{1}, len(tc.dims))
			}
			switches, links := 1, 0
			for _, k := range tc.dims {
				switches *= k
			}
			for _, l := range widths {
				links += switches * l
			}
			if net.Kind != "torus" || !slices.Equal(net.Dims, tc.dims) || !slices.Equal(net.Widths, widths) || net.HostsPerSwitch != tc.c {
				t.Fatalf("kind %q dims %v widths %v C %d", net.Kind, net.Dims, net.Widths, net.HostsPerSwitch)
			}
			if len(net.Switches) != switches || net.Radix() != tc.radix || net.Links() != links {
				t.Errorf("switches %d radix %d links %d, want %d %d %d", len(net.Switches), net.Radix(), net.Links(), switches, tc.radix, links)
			}
			if math.Abs(net.Bisection-tc.bisection) > 1e-12 {
				t.Errorf("bisection = %v, want %v", net.Bisection, tc.bisection)
			}
			checkHosts(t, net, tc.c)
			checkMixedRadix(t, net, tc.dims)
			checkTorusLinks(t, net, tc.dims, widths, tc.c)
			if got := diameter(t, net); got != tc.diameter {
				t.Errorf("diameter = %d, want %d", got, tc.diameter)
			}
		})
	}
}

// checkTorusLinks checks the documented port layout: per dimension,
// widths[n] ports to the +1 neighbour then widths[n] to the −1 neighbour.
func checkTorusLinks(t *testing.T, net *Network, dims, widths []int, c int) {
	t.Helper()
	for s, sw := range net.Switches {
		p := c
		for n, k := range dims {
			for dir, step := range []int{1, k - 1} {
				for i := range widths[n] {
					port := sw.Ports[p]
					peer := net.Switches[port.Peer].Coord
					for m := range dims {
						want := sw.Coord[m]
						if m == n {
							want = int32((int(want) + step) % k)
						}
						if peer[m] != want {
							t.Fatalf("switch %d %v port %d (dimension %d, direction %d, link %d) reaches %v", s, sw.Coord, p, n, dir, i, peer)
						}
					}
					if port.Kind != SwitchPort || int(port.Dim) != n {
						t.Fatalf("switch %d port %d = %+v, want a link in dimension %d", s, p, port, n)
					}
					p++
				}
			}
		}
		if p != len(sw.Ports) {
			t.Fatalf("switch %d has %d ports, want %d", s, len(sw.Ports), p)
		}
	}
}

func TestHypercubeStructure(t *testing.T) {
	for _, tc := range []struct{ n, width, c int }{{1, 1, 1}, {3, 1, 2}, {4, 2, 3}, {6, 3, 1}} {
		net, err := Hypercube(tc.n, tc.width, tc.c)
		if err != nil {
			t.Fatal(err)
		}
		if err := net.Validate(); err != nil {
			t.Fatal(err)
		}
		dims, widths := slices.Repeat([]int{2}, tc.n), slices.Repeat([]int{tc.width}, tc.n)
		if net.Kind != "hypercube" || !slices.Equal(net.Dims, dims) || !slices.Equal(net.Widths, widths) {
			t.Fatalf("n=%d: kind %q dims %v widths %v", tc.n, net.Kind, net.Dims, net.Widths)
		}
		if len(net.Switches) != 1<<tc.n || net.Radix() != tc.c+tc.n*tc.width || net.Links() != tc.n*tc.width<<(tc.n-1) {
			t.Errorf("n=%d: switches %d radix %d links %d", tc.n, len(net.Switches), net.Radix(), net.Links())
		}
		if want := float64(tc.width) / float64(tc.c); math.Abs(net.Bisection-want) > 1e-12 {
			t.Errorf("n=%d: bisection %v, want %v", tc.n, net.Bisection, want)
		}
		checkHosts(t, net, tc.c)
		checkMixedRadix(t, net, dims)
		checkFlatFlyLinks(t, net, dims, widths, tc.c)
		// Neighbours differ in exactly one bit of the switch index.
		for s, sw := range net.Switches {
			for _, p := range sw.Ports[tc.c:] {
				if d := s ^ int(p.Peer); d != 1<<p.Dim {
					t.Fatalf("n=%d: switch %d port in dimension %d reaches %d", tc.n, s, p.Dim, p.Peer)
				}
			}
		}
		if got := diameter(t, net); got != tc.n {
			t.Errorf("n=%d: diameter %d", tc.n, got)
		}
	}
}

func TestFlatFlyBisection(t *testing.T) {
	tests := []struct {
		dims, widths []int
		c            int
		want         float64
	}{
		{[]int{4, 8, 8, 8}, []int{2, 1, 1, 1}, 8, 0.5},
		{[]int{8, 8}, []int{1, 1}, 8, 0.5},
		{[]int{16}, []int{1}, 8, 1},
		{[]int{1, 4, 1}, []int{9, 3, 9}, 2, 3},
		{[]int{3, 4}, nil, 1, 0}, // odd size: no formula
		{[]int{1}, nil, 1, 0},    // a single switch
	}
	for _, tc := range tests {
		net, err := FlatFly(tc.dims, tc.widths, tc.c)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(net.Bisection-tc.want) > 1e-12 {
			t.Errorf("%v widths %v C %d: bisection %v, want %v", tc.dims, tc.widths, tc.c, net.Bisection, tc.want)
		}
	}
}
