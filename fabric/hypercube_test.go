package fabric

import (
	"context"
	"fmt"
	"testing"

	"netsim/flowctl"
	"netsim/topologies"
)

// TestHypercubeDORConservation runs uniform traffic over a hypercube with
// dimension-order routing (the FlatFly DOR, reused) below and above
// saturation, and checks that after a flush every injected flit was
// ejected and every measured packet delivered.
func TestHypercubeDORConservation(t *testing.T) {
	cube := topologies.Spec{Kind: "hypercube", Dimension: 4, Width: 2, HostsPerSwitch: 2}
	for _, fc := range []string{"credit", "stopgo"} {
		for _, load := range []float64{0.3, 0.95} {
			name := fmt.Sprintf("%s/load=%.2f", fc, load)
			cfg := testConfig(t, cube, "dor", "uniform", 2)
			cfg.FlowControl, cfg.Load = flowctl.Kind(fc), load
			cfg.Warmup, cfg.Measure, cfg.Drain = 200, 1500, 500
			st, err := RunFlushed(context.Background(), cfg)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if st.InjectedFlits == 0 || st.InjectedFlits != st.EjectedFlits {
				t.Errorf("%s: injected %d flits, ejected %d", name, st.InjectedFlits, st.EjectedFlits)
			}
			if st.MeasuredPackets == 0 || st.Delivered != st.MeasuredPackets {
				t.Errorf("%s: %d of %d measured packets delivered", name, st.Delivered, st.MeasuredPackets)
			}
		}
	}
}
