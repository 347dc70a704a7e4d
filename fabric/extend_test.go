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

// TestDecided checks the interim looks (Config.Decided): they come at
// InterimLooks, and a window Decided ends at a look is the window of a
// run configured that long from the start (the same measurements, drain
// and flit-hops), its bins the longer window's first ones; a Decided that
// never says yes changes nothing, bins included.
func TestDecided(t *testing.T) {
	if got, want := fmt.Sprint(InterimLooks(1000)), "[250 375 500 625 750 875]"; got != want {
		t.Errorf("InterimLooks(1000) = %s, want %s", got, want)
	}
	if got := InterimLooks(BinsPerMeasure - 1); got != nil {
		t.Errorf("InterimLooks(%d) = %v, want none", BinsPerMeasure-1, got)
	}
	base := testConfig(t, flatfly4x4, "dor", "uniform", 2)
	base.Load, base.Measure, base.Drain = 0.6, 1000, 1000
	base.MaxMeasure = 2 * base.Measure
	base.Extend = func(Stats) bool { return false }
	plain, err := Run(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	for _, stopAt := range []int{-1, 0, 2, 5} { // the look that says yes (-1: none)
		name := fmt.Sprintf("stop at look %d", stopAt)
		cfg := base
		var seen []int64
		cfg.Decided = func(w Stats) bool {
			seen = append(seen, w.Window)
			if int64(len(w.Bins)) != BinsPerMeasure*w.Window/cfg.Measure {
				t.Errorf("%s: look at %d cycles with %d bins", name, w.Window, len(w.Bins))
			}
			return len(seen)-1 == stopAt
		}
		extended := false
		cfg.Extend = func(Stats) bool { extended = true; return false }
		got, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		looks := InterimLooks(cfg.Measure)
		if stopAt < 0 {
			if fmt.Sprint(seen) != fmt.Sprint(looks) || !extended {
				t.Errorf("%s: looks at %v, extension asked %v; want %v, asked", name, seen, extended, looks)
			}
			if got.Measures != plain.Measures || got.FlitHops != plain.FlitHops || fmt.Sprint(got.Bins) != fmt.Sprint(plain.Bins) {
				t.Errorf("%s: differs from a run without looks:\n%+v\n%+v", name, got.Measures, plain.Measures)
			}
			continue
		}
		at := looks[stopAt]
		if fmt.Sprint(seen) != fmt.Sprint(looks[:stopAt+1]) || extended || got.Window != at {
			t.Fatalf("%s: looks at %v, extension asked %v, window %d; want looks %v, no extension, window %d",
				name, seen, extended, got.Window, looks[:stopAt+1], at)
		}
		short := base
		short.Measure, short.MaxMeasure, short.Extend = at, 0, nil
		ref, err := Run(context.Background(), short)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.Measures != ref.Measures || got.QueueEnd != ref.QueueEnd || got.FlitHops != ref.FlitHops {
			t.Errorf("%s: differs from a run of %d measured cycles:\n%+v\n%+v", name, at, got.Measures, ref.Measures)
		}
		if n := len(got.Bins); int64(n) != BinsPerMeasure*at/cfg.Measure || fmt.Sprint(got.Bins) != fmt.Sprint(plain.Bins[:n]) {
			t.Errorf("%s: %d bins, not the first of the whole window's", name, n)
		}
	}
}
