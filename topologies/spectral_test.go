package topologies

import (
	"math"
	"testing"
)

// secondEigenvalueAtLeast reports whether the second-smallest eigenvalue
// λ₂ of the switch graph's Laplacian L (parallel links counted) is at
// least lambda − 1e-6: whether L − lambda·(I − J/n) + 1e-6·I, whose
// eigenvalues are those of L on the vectors orthogonal to 1 less lambda,
// plus 1e-6, has a Cholesky factorization. O(n³), for small networks.
func secondEigenvalueAtLeast(net *Network, lambda float64) bool {
	n := len(net.Switches)
	m := make([]float64, n*n)
	for i := range m {
		m[i] = lambda / float64(n)
	}
	for s := range net.Switches {
		m[s*n+s] += 1e-6 - lambda
		for _, p := range net.Switches[s].Ports {
			if p.Kind == SwitchPort {
				m[s*n+s]++
				m[s*n+int(p.Peer)]--
			}
		}
	}
	for j := range n { // in place: the lower triangle becomes the factor
		d := m[j*n+j]
		for k := range j {
			d -= m[j*n+k] * m[j*n+k]
		}
		if d <= 0 {
			return false
		}
		d = math.Sqrt(d)
		m[j*n+j] = d
		for i := j + 1; i < n; i++ {
			v := m[i*n+j]
			for k := range j {
				v -= m[i*n+k] * m[j*n+k]
			}
			m[i*n+j] = v / d
		}
	}
	return true
}

func TestSecondEigenvalueKnownGraphs(t *testing.T) {
	// λ₂ of K_5 is 5, of the 4-cycle 2, of the 6-cycle 1, of the 3-cube 2.
	k5, err := FlatFly([]int{5}, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	c4, err := Ring(4, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	c6, err := Ring(6, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	q3, err := Hypercube(3, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		net    *Network
		lambda float64
	}{{k5, 5}, {c4, 2}, {c6, 1}, {q3, 2}} {
		if !secondEigenvalueAtLeast(tc.net, tc.lambda) || secondEigenvalueAtLeast(tc.net, tc.lambda+0.01) {
			t.Errorf("%s of %d switches: λ₂ is not %v", tc.net.Kind, len(tc.net.Switches), tc.lambda)
		}
	}
}

// TestBisectionExact checks that Network.Bisection is the narrowest
// balanced cut where the docs claim a formula is exact: an explicit
// balanced cut crosses Bisection·hosts/2 links, and the spectral bound
// (any balanced cut crosses at least λ₂·switches/4 links, λ₂ the
// Laplacian's second eigenvalue) is the same number.
func TestBisectionExact(t *testing.T) {
	half := func(i, k int) bool { return i < k/2 }
	tests := []struct {
		name string
		spec Spec
		side func(net *Network, s int) bool // the explicit cut
	}{
		{"flatfly 4x2 widths 1,3", Spec{Kind: "flatfly", Dims: []int{4, 2}, Widths: []int{1, 3}, HostsPerSwitch: 2},
			func(net *Network, s int) bool { return half(int(net.Switches[s].Coord[0]), 4) }},
		{"flatfly 4x6 widths 3,1", Spec{Kind: "flatfly", Dims: []int{4, 6}, Widths: []int{3, 1}, HostsPerSwitch: 3},
			func(net *Network, s int) bool { return half(int(net.Switches[s].Coord[1]), 6) }},
		{"hypercube 5 width 2", Spec{Kind: "hypercube", Dimension: 5, Width: 2, HostsPerSwitch: 3},
			func(net *Network, s int) bool { return s&1 == 0 }},
		{"slimfly q4 width 2", Spec{Kind: "slimfly", Q: 4, Width: 2, HostsPerSwitch: 3},
			func(net *Network, s int) bool { return half(int(net.Switches[s].Coord[1]), 4) }},
		{"slimfly q8", Spec{Kind: "slimfly", Q: 8, HostsPerSwitch: 8},
			func(net *Network, s int) bool { return half(int(net.Switches[s].Coord[1]), 8) }},
		{"slimfly q16 width 3", Spec{Kind: "slimfly", Q: 16, Width: 3, HostsPerSwitch: 5},
			func(net *Network, s int) bool { return half(int(net.Switches[s].Coord[1]), 16) }},
		{"slimfly q4 x flatfly 2x2", Spec{Kind: "product", HostsPerSwitch: 2, Factors: []Spec{{Kind: "slimfly", Q: 4}, {Kind: "flatfly", Dims: []int{2, 2}}}},
			func(net *Network, s int) bool { return half(int(net.Switches[s].Coord[1]), 2) }},
		{"slimfly q4 width 2 x flatfly 4", Spec{Kind: "product", HostsPerSwitch: 4, Factors: []Spec{{Kind: "slimfly", Q: 4, Width: 2}, {Kind: "flatfly", Dims: []int{4}}}},
			func(net *Network, s int) bool { return half(int(net.Switches[s].Coord[1]), 4) }},
		{"slimfly q4 x hypercube 2 width 3", Spec{Kind: "product", HostsPerSwitch: 4, Factors: []Spec{{Kind: "slimfly", Q: 4}, {Kind: "hypercube", Dimension: 2, Width: 3}}},
			func(net *Network, s int) bool { return half(int(net.Switches[s].Coord[0])/4%4, 4) }}, // x of (t, x, y)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, err := Build(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			n := len(net.Switches)
			if net.Bisection <= 0 {
				t.Fatalf("no bisection formula")
			}
			want := net.Bisection * float64(len(net.Hosts)) / 2 // links
			if lambda := want * 4 / float64(n); !secondEigenvalueAtLeast(net, lambda) {
				t.Errorf("λ₂ < %v: the spectral bound is below the formula's %v links", lambda, want)
			}
			in, cut := 0, 0
			for s, sw := range net.Switches {
				if !tc.side(net, s) {
					continue
				}
				in++
				for _, p := range sw.Ports {
					if p.Kind == SwitchPort && !tc.side(net, int(p.Peer)) {
						cut++
					}
				}
			}
			if in != n/2 || math.Abs(float64(cut)-want) > 1e-9 {
				t.Errorf("cut of %d of %d switches crosses %d links, formula %v", in, n, cut, want)
			}
		})
	}
}
