package fabric

import (
	"context"
	"math"
	"testing"

	"netsim/topologies"
)

// TestTreesUniform runs a uniform-load point through the core on every
// tree family with minimal distance routing and one VL per hop of the
// diameter (deadlock-free, see routing.New): every flit is delivered
// exactly once, the accepted load follows the offered load, and packets
// cross 1 + the average switch distance between hosts (Describe), as
// minimal routing must.
func TestTreesUniform(t *testing.T) {
	tests := []struct {
		name     string
		topo     topologies.Spec
		diameter int
	}{
		{"clos", topologies.Spec{Kind: "clos", Ports: 8, Hosts: 32}, 2},
		{"clos 3:1", topologies.Spec{Kind: "clos", Ports: 8, Hosts: 24, Oversubscription: "3:1"}, 2},
		{"fattree", topologies.Spec{Kind: "fattree", K: 4, N: 3}, 4},
		{"fattree 3:1", topologies.Spec{Kind: "fattree", K: 4, N: 3, Oversubscription: "3:1"}, 4},
		{"xgft", topologies.Spec{Kind: "xgft", M: []int{6, 6}, W: []int{3, 3}, Hosts: 100}, 4},
		{"deimos", topologies.Spec{Kind: "deimos", Ports: 8, BoxHosts: []int{28, 24, 28}, ChainLinks: 4}, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t, tc.topo, "distance", "uniform", tc.diameter)
			cfg.Load = 0.1
			cfg.Warmup, cfg.Measure, cfg.Drain = 300, 2000, 3000
			st, err := RunFlushed(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if st.InjectedFlits == 0 || st.InjectedFlits != st.EjectedFlits {
				t.Errorf("injected %d flits, ejected %d", st.InjectedFlits, st.EjectedFlits)
			}
			if st.MeasuredPackets == 0 || st.Delivered != st.MeasuredPackets {
				t.Errorf("%d of %d measured packets delivered", st.Delivered, st.MeasuredPackets)
			}
			if math.Abs(st.Accepted-cfg.Load) > 0.1*cfg.Load {
				t.Errorf("accepted %.4f flits/host/cycle at offered %.2f", st.Accepted, cfg.Load)
			}
			sum, err := topologies.Describe(cfg.Net)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Diameter != tc.diameter {
				t.Fatalf("diameter %d, want %d", sum.Diameter, tc.diameter)
			}
			// HopsAvg counts switches: switch hops + 1.
			if want := 1 + sum.AvgDistance; math.Abs(st.HopsAvg-want) > 0.05*want {
				t.Errorf("%.3f switches per packet, want %.3f", st.HopsAvg, want)
			}
		})
	}
}
