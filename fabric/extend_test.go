package fabric

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// TestExtend checks that a window Extend doubles, up to MaxMeasure, is the
// window of a run configured that long from the start: the same
// measurements, its bins those of the longer window (grouped in twos,
// fours, ...), and that the bins add up to the window's counts.
func TestExtend(t *testing.T) {
	for _, tc := range []struct {
		load   float64
		factor int64 // MaxMeasure / Measure
		asks   int   // Extend calls that say yes
	}{
		{0.3, 2, 1}, {0.3, 3, 2}, {0.9, 4, 2}, {0.9, 4, 1}, {0.3, 4, 0},
	} {
		name := fmt.Sprintf("load=%v/max=%d×/asks=%d", tc.load, tc.factor, tc.asks)
		cfg := testConfig(t, flatfly4x4, "dor", "uniform", 2)
		cfg.Load, cfg.Measure, cfg.Drain = tc.load, 1000, 1000
		cfg.MaxMeasure = tc.factor * cfg.Measure
		var windows []int64
		asks := tc.asks
		cfg.Extend = func(w Stats) bool {
			windows = append(windows, w.Window)
			asks--
			return asks >= 0
		}
		got, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// The window doubles, the last time to MaxMeasure.
		want := int64(cfg.Measure)
		for range min(tc.asks, len(windows)) {
			want = min(2*want, cfg.MaxMeasure)
		}
		if got.Window != want {
			t.Fatalf("%s: window %d cycles (Extend saw %v), want %d", name, got.Window, windows, want)
		}
		long := cfg
		long.Measure, long.MaxMeasure, long.Extend = want, 0, nil
		ref, err := Run(context.Background(), long)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.Measures != ref.Measures || got.QueueStart != ref.QueueStart || got.QueueEnd != ref.QueueEnd ||
			got.FlitHops != ref.FlitHops || got.DrainSkipped != ref.DrainSkipped {
			t.Errorf("%s: extended run differs from a run of %d measured cycles:\n%+v\n%+v", name, want, got.Measures, ref.Measures)
		}
		var sum Bin
		for _, b := range got.Bins {
			sum.GeneratedFlits += b.GeneratedFlits
			sum.EjectedFlits += b.EjectedFlits
			sum.Delivered += b.Delivered
			sum.Cycles += b.Cycles
		}
		hosts := float64(len(cfg.Net.Hosts))
		if n := int64(len(got.Bins)); n != BinsPerMeasure*want/cfg.Measure || sum.Cycles != want ||
			math.Abs(float64(sum.GeneratedFlits)-got.Generated*hosts*float64(want)) > 1e-6 ||
			math.Abs(float64(sum.EjectedFlits)-got.Accepted*hosts*float64(want)) > 1e-6 || sum.Delivered != got.Delivered {
			t.Errorf("%s: %d bins summing to %+v; window of %d cycles: generated %v, accepted %v, delivered %d",
				name, n, sum, want, got.Generated, got.Accepted, got.Delivered)
		}
	}
}
