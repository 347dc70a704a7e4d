package topologies

import (
	"math"
	"slices"
	"testing"
)

func TestProductStructure(t *testing.T) {
	tests := []struct {
		name      string
		factors   []Spec
		c         int
		dims      []int
		widths    []int
		diameter  int
		bisection float64
	}{
		{"slimfly q3 x flatfly 3", []Spec{{Kind: "slimfly", Q: 3}, {Kind: "flatfly", Dims: []int{3}}}, 2,
			[]int{18}, nil, 3, 0}, // dims/widths filled below
		{"flatfly 2x3 widths 2,1 x slimfly q4 width 2", []Spec{{Kind: "flatfly", Dims: []int{2, 3}, Widths: []int{2, 1}}, {Kind: "slimfly", Q: 4, Width: 2}}, 1,
			[]int{2, 3, 32}, []int{2, 1, 2}, 4, 0},
		{"slimfly q4 x hypercube 2 width 3", []Spec{{Kind: "slimfly", Q: 4}, {Kind: "hypercube", Dimension: 2, Width: 3}}, 4,
			[]int{32, 2, 2}, []int{1, 3, 3}, 4, 0.5},
		{"slimfly q4 x slimfly q3", []Spec{{Kind: "slimfly", Q: 4}, {Kind: "slimfly", Q: 3}}, 1,
			[]int{32, 18}, []int{1, 1}, 4, 0},
	}
	tests[0].dims, tests[0].widths = []int{18, 3}, []int{1, 1}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, err := Product(tc.factors, tc.c)
			if err != nil {
				t.Fatal(err)
			}
			if err := net.Validate(); err != nil {
				t.Fatal(err)
			}
			if net.Kind != "product" || !slices.Equal(net.Dims, tc.dims) || !slices.Equal(net.Widths, tc.widths) || net.HostsPerSwitch != tc.c {
				t.Fatalf("kind %q dims %v widths %v C %d, want %v %v", net.Kind, net.Dims, net.Widths, net.HostsPerSwitch, tc.dims, tc.widths)
			}
			if math.Abs(net.Bisection-tc.bisection) > 1e-12 {
				t.Errorf("bisection %v, want %v", net.Bisection, tc.bisection)
			}
			checkHosts(t, net, tc.c)
			checkMixedRadix(t, net, tc.dims)
			checkProductLinks(t, net, tc.factors, tc.c)
			if got := diameter(t, net); got != tc.diameter {
				t.Errorf("diameter %d, want %d", got, tc.diameter)
			}
		})
	}
}

// checkProductLinks checks, for every switch, that its ports after the
// hosts are exactly each factor switch's inter-switch ports in turn, each
// leading to the switch that differs only in that factor, with the
// factor's dimension offset added to Dim.
func checkProductLinks(t *testing.T, net *Network, factors []Spec, c int) {
	t.Helper()
	var nets []*Network
	for _, f := range factors {
		f.HostsPerSwitch = 1
		fn, err := Build(f)
		if err != nil {
			t.Fatal(err)
		}
		nets = append(nets, fn)
	}
	radix := c
	for _, f := range nets {
		radix += len(f.Switches[0].Ports) - 1
	}
	for s, sw := range net.Switches {
		if len(sw.Ports) != radix {
			t.Fatalf("switch %d has %d ports, want %d", s, len(sw.Ports), radix)
		}
		p, stride, dimOff := c, 1, 0
		for _, f := range nets {
			n := len(f.Switches)
			i := s / stride % n
			for _, fp := range f.Switches[i].Ports[1:] {
				got := sw.Ports[p]
				if want := s + (int(fp.Peer)-i)*stride; int(got.Peer) != want || got.Dim != fp.Dim+int16(dimOff) {
					t.Fatalf("switch %d port %d = %+v, want peer %d Dim %d", s, p, got, want, fp.Dim+int16(dimOff))
				}
				p++
			}
			stride *= n
			dimOff += len(factorDims(f))
		}
	}
}

func TestKautzStructure(t *testing.T) {
	for _, tc := range []struct{ b, n, c int }{{2, 1, 1}, {3, 1, 2}, {2, 2, 1}, {2, 3, 2}, {3, 3, 1}, {4, 2, 3}, {2, 6, 1}} {
		net, err := Kautz(tc.b, tc.n, tc.c)
		if err != nil {
			t.Fatal(err)
		}
		if err := net.Validate(); err != nil {
			t.Fatal(err)
		}
		b, n := tc.b, tc.n
		switches := b + 1
		for range n - 1 {
			switches *= b
		}
		if net.Kind != "kautz" || len(net.Switches) != switches {
			t.Fatalf("K(%d,%d): kind %q, %d switches, want %d", b, n, net.Kind, len(net.Switches), switches)
		}
		checkHosts(t, net, tc.c)
		// The words, all distinct and Kautz words.
		index := make(map[string]int)
		for s, sw := range net.Switches {
			w := sw.Coord
			if len(w) != n {
				t.Fatalf("K(%d,%d): switch %d word %v", b, n, s, w)
			}
			for i, x := range w {
				if x < 0 || int(x) > b || i > 0 && w[i-1] == x {
					t.Fatalf("K(%d,%d): switch %d word %v is not a Kautz word", b, n, s, w)
				}
			}
			index[string(rune(s))] = s
			key := ""
			for _, x := range w {
				key += string(rune('a' + x))
			}
			if _, dup := index[key]; dup {
				t.Fatalf("K(%d,%d): word %v twice", b, n, w)
			}
			index[key] = s
		}
		// Every arc is a link, and the links are exactly the arcs' pairs.
		arcs := make(map[[2]int]bool)
		for s, sw := range net.Switches {
			for x := range b + 1 {
				if int32(x) == sw.Coord[n-1] {
					continue
				}
				key := ""
				for _, y := range sw.Coord[1:] {
					key += string(rune('a' + y))
				}
				key += string(rune('a' + x))
				v := index[key]
				arcs[[2]int{min(s, v), max(s, v)}] = true
			}
		}
		if got := net.Links(); got != len(arcs) {
			t.Errorf("K(%d,%d): %d links, want %d (one per adjacent pair)", b, n, got, len(arcs))
		}
		deficient := 0
		for s, sw := range net.Switches {
			peers := make(map[int32]bool)
			for _, p := range sw.Ports[tc.c:] {
				if p.Kind != SwitchPort || int(p.Peer) == s || peers[p.Peer] || !arcs[[2]int{min(s, int(p.Peer)), max(s, int(p.Peer))}] {
					t.Fatalf("K(%d,%d): switch %d port %+v is a self-loop, a duplicate or not an arc", b, n, s, p)
				}
				peers[p.Peer] = true
			}
			switch d := len(peers); {
			case n == 1 && d == b, n > 1 && d == 2*b:
			case n > 1 && d == 2*b-1:
				deficient++
			default:
				t.Fatalf("K(%d,%d): switch %d has %d links", b, n, s, d)
			}
		}
		if n > 1 && deficient != (b+1)*b {
			t.Errorf("K(%d,%d): %d switches with 2b−1 links, want the %d alternating words", b, n, deficient, (b+1)*b)
		}
		if d := diameter(t, net); d < 1 || d > n {
			t.Errorf("K(%d,%d): diameter %d, want 1..%d", b, n, d, n)
		}
	}
}

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
