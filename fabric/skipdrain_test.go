package fabric

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"netsim/flowctl"
)

// TestSkipDrain checks that the statistics SkipDrain sees at the end of the
// window are those a full run reports, that a run it stops ends with the
// window, and that a run it lets go on is the full run, below and above
// saturation, for both flow controls.
func TestSkipDrain(t *testing.T) {
	for _, fc := range []string{"credit", "stopgo"} {
		for _, load := range []float64{0.3, 0.95} {
			name := fmt.Sprintf("%s/load=%v", fc, load)
			cfg := testConfig(t, flatfly4x4, "dor", "uniform", 2)
			cfg.FlowControl, cfg.Load = flowctl.Kind(fc), load
			full, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if full.DrainSkipped || full.Cycles <= cfg.Warmup+cfg.Measure {
				t.Fatalf("%s: full run skipped its drain (%d cycles)", name, full.Cycles)
			}
			for _, skip := range []bool{false, true} {
				var seen Stats
				c := cfg
				c.SkipDrain = func(w Stats) bool { seen = w; return skip }
				st, err := Run(context.Background(), c)
				if err != nil {
					t.Fatalf("%s skip=%v: %v", name, skip, err)
				}
				window := func(s Stats) [6]float64 {
					return [6]float64{s.Offered, s.Generated, s.Accepted, float64(s.MeasuredPackets),
						float64(s.QueueStart), float64(s.QueueEnd)}
				}
				if got, want := window(seen), window(full); got != want {
					t.Errorf("%s skip=%v: SkipDrain saw window %v, the full run reports %v", name, skip, got, want)
				}
				if got, want := window(st), window(full); got != want {
					t.Errorf("%s skip=%v: run reports window %v, the full run %v", name, skip, got, want)
				}
				switch {
				case skip && (!st.DrainSkipped || st.Cycles != cfg.Warmup+cfg.Measure):
					t.Errorf("%s: skipped run: DrainSkipped %v after %d cycles, want true after %d",
						name, st.DrainSkipped, st.Cycles, cfg.Warmup+cfg.Measure)
				case !skip && (st.DrainSkipped || !reflect.DeepEqual(st, full)):
					t.Errorf("%s: run not skipped differs from the full run:\n%+v\n%+v", name, st, full)
				}
			}
		}
	}
}
