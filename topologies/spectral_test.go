package topologies

import (
	"math"
	"slices"
	"testing"
)

// laplacianEigenvalues returns the eigenvalues of the switch graph's
// Laplacian (parallel links counted), in increasing order, by cyclic
// Jacobi rotations. It is for small networks only (O(n³) per sweep).
func laplacianEigenvalues(t testing.TB, net *Network) []float64 {
	t.Helper()
	n := len(net.Switches)
	a := make([]float64, n*n)
	for s := range net.Switches {
		for _, p := range net.Switches[s].Ports {
			if p.Kind == SwitchPort {
				a[s*n+s]++
				a[s*n+int(p.Peer)]--
			}
		}
	}
	for sweep := 0; sweep < 100; sweep++ {
		off := 0.0
		for i := range n {
			for j := i + 1; j < n; j++ {
				off += a[i*n+j] * a[i*n+j]
			}
		}
		if off < 1e-22 {
			break
		}
		for p := range n {
			for q := p + 1; q < n; q++ {
				apq := a[p*n+q]
				if math.Abs(apq) < 1e-300 {
					continue
				}
				theta := (a[q*n+q] - a[p*n+p]) / (2 * apq)
				tt := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(tt*tt+1)
				s := tt * c
				for k := range n { // columns p, q
					akp, akq := a[k*n+p], a[k*n+q]
					a[k*n+p], a[k*n+q] = c*akp-s*akq, s*akp+c*akq
				}
				for k := range n { // rows p, q
					apk, aqk := a[p*n+k], a[q*n+k]
					a[p*n+k], a[q*n+k] = c*apk-s*aqk, s*apk+c*aqk
				}
			}
		}
	}
	ev := make([]float64, n)
	for i := range n {
		ev[i] = a[i*n+i]
	}
	slices.Sort(ev)
	return ev
}

func TestLaplacianEigenvaluesKnownGraphs(t *testing.T) {
	// K_5: 0 and 5 (four times); the 4-cycle: 0, 2, 2, 4.
	k5, err := FlatFly([]int{5}, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	c4, err := Ring(4, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		net  *Network
		want []float64
	}{{k5, []float64{0, 5, 5, 5, 5}}, {c4, []float64{0, 2, 2, 4}}} {
		got := laplacianEigenvalues(t, tc.net)
		for i := range got {
			if math.Abs(got[i]-tc.want[i]) > 1e-9 {
				t.Fatalf("%s: eigenvalues %v, want %v", tc.net.Kind, got, tc.want)
			}
		}
	}
}
