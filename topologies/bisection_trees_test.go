package topologies

import (
	"fmt"
	"testing"
)

// TestTreeBisection checks the bisection formulas of clos and fattree
// against the brute-force optimum on small networks, and against the
// partition estimate (never below the optimum) on larger ones.
func TestTreeBisection(t *testing.T) {
	tests := []struct {
		spec Spec
		want float64 // Network.Bisection; 0: no formula
	}{
		{Spec{Kind: "clos", Ports: 8, Hosts: 12}, 4.0 / 6},  // L = 3: 4 links across
		{Spec{Kind: "clos", Ports: 8, Hosts: 20}, 8.0 / 10}, // L = 5: 8 across
		{Spec{Kind: "clos", Ports: 8, Hosts: 32}, 1},        // L = 8, full
		{Spec{Kind: "clos", Ports: 8, Hosts: 24, Oversubscription: "3:1"}, 4.0 / 12},
		{Spec{Kind: "clos", Ports: 8, Hosts: 8, Oversubscription: "1:3"}, 3},
		{Spec{Kind: "fattree", K: 2, N: 3}, 1},
		{Spec{Kind: "fattree", K: 4, N: 2}, 1},
		{Spec{Kind: "fattree", K: 4, N: 2, Oversubscription: "3:1"}, 2.0 / 6},
		{Spec{Kind: "fattree", K: 3, N: 2}, 0},
		{Spec{Kind: "fattree", K: 2, N: 1}, 0},
		{Spec{Kind: "xgft", M: []int{4, 4}, W: []int{1, 4}}, 0},
		{Spec{Preset: "myrinet512"}, 1},
		{Spec{Kind: "clos", Ports: 32, Hosts: 144}, 64.0 / 72},
		{Spec{Kind: "fattree", K: 4, N: 3, Oversubscription: "3:1"}, 2.0 / 6},
		{Spec{Kind: "fattree", K: 12, N: 2, Oversubscription: "2:1"}, 0.5},
	}
	for _, tc := range tests {
		name := fmt.Sprintf("%s%s ports %d hosts %d k %d n %d m %v w %v %s",
			tc.spec.Preset, tc.spec.Kind, tc.spec.Ports, tc.spec.Hosts, tc.spec.K, tc.spec.N, tc.spec.M, tc.spec.W, tc.spec.Oversubscription)
		t.Run(name, func(t *testing.T) {
			net, err := Build(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			if net.Bisection != tc.want {
				t.Fatalf("Bisection %v, want %v", net.Bisection, tc.want)
			}
			if tc.want == 0 {
				return
			}
			g := switchGraph(net)
			half := float64(len(net.Hosts)) / 2
			if g.order() <= 22 {
				if opt := float64(optimum(t, g)) / half; opt != tc.want {
					t.Fatalf("brute-force optimum %v, formula %v", opt, tc.want)
				}
				return
			}
			if cut, _ := estimateBisection(g); float64(cut)/half < tc.want {
				t.Fatalf("estimate %d links (%v) below the formula %v", cut, float64(cut)/half, tc.want)
			}
		})
	}
}
