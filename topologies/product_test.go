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
