package fabric

import (
	"context"
	"testing"

	"netsim/topologies"
)

// TestTableEnginesConservation runs uniform traffic with the table
// engines on a small network of each family they apply to and checks that
// every injected flit is ejected and every measured packet delivered after
// a flush. Engines that are not deadlock-free in general (minhop, sssp,
// p2sssp) run at low load only; the deadlock-free ones also near
// saturation.
func TestTableEnginesConservation(t *testing.T) {
	nets := []struct {
		name    string
		spec    topologies.Spec
		engines []string
	}{
		{"ring6", topologies.Spec{Kind: "ring", Switches: 6, HostsPerSwitch: 2}, []string{"minhop", "updn", "sssp", "dfsssp", "lash"}},
		{"torus4x4", topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 1}, []string{"updn", "dfsssp", "lash", "p2sssp"}},
		{"flatfly3x3", topologies.Spec{Kind: "flatfly", Dims: []int{3, 3}, HostsPerSwitch: 2}, []string{"minhop", "sssp", "dfsssp"}},
		{"hypercube3", topologies.Spec{Kind: "hypercube", Dimension: 3, HostsPerSwitch: 2}, []string{"updn", "dfsssp"}},
		{"fattree4x2", topologies.Spec{Kind: "fattree", K: 4, N: 2}, []string{"ftree", "dmodk", "updn", "sssp"}},
		{"xgft", topologies.Spec{Kind: "xgft", M: []int{3, 2}, W: []int{2, 2}, Hosts: 12}, []string{"dmodk", "ftree"}},
		{"clos", topologies.Spec{Kind: "clos", Ports: 8, Hosts: 32}, []string{"ftree", "dmodk"}},
		{"random", topologies.Spec{Kind: "random", Switches: 10, HostsPerSwitch: 2, Links: 16, Seed: 2}, []string{"updn", "dfsssp", "lash"}},
		{"dragonfly", topologies.Spec{Kind: "dragonfly", GroupSize: 2, GlobalPerSwitch: 1, HostsPerSwitch: 1}, []string{"dfsssp", "updn"}},
	}
	safe := map[string]bool{"updn": true, "dfsssp": true, "lash": true, "ftree": true, "dmodk": true}
	for _, n := range nets {
		for _, alg := range n.engines {
			loads := []float64{0.3}
			if safe[alg] {
				loads = append(loads, 0.9)
			}
			for _, load := range loads {
				cfg := testConfig(t, n.spec, alg, "uniform", 4)
				cfg.Load = load
				cfg.Warmup, cfg.Measure, cfg.Drain = 200, 1000, 4000
				st, err := RunFlushed(context.Background(), cfg)
				if err != nil {
					t.Fatalf("%s %s load %.1f: %v", n.name, alg, load, err)
				}
				if st.InjectedFlits == 0 || st.InjectedFlits != st.EjectedFlits {
					t.Errorf("%s %s load %.1f: injected %d flits, ejected %d", n.name, alg, load, st.InjectedFlits, st.EjectedFlits)
				}
				if st.MeasuredPackets == 0 || st.Delivered != st.MeasuredPackets {
					t.Errorf("%s %s load %.1f: %d of %d measured packets delivered", n.name, alg, load, st.Delivered, st.MeasuredPackets)
				}
			}
		}
	}
}
