package fabric

import (
	"context"
	"reflect"
	"testing"
)

// TestTimeline: a run's timeline has one window per Timeline cycles that
// ended by the run's end, its windows add up to the flits the run
// delivered (but those of its last, unfinished window), it marks the measurement window, and
// without it nothing else changes.
func TestTimeline(t *testing.T) {
	cfg := testConfig(t, flatfly4x4, "dor", "uniform", 2)
	cfg.Load, cfg.Warmup, cfg.Measure, cfg.Drain = 0.4, 300, 1000, 1000
	off, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Timeline = 128
	on, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	tl := on.Timeline
	on.Timeline = nil
	if tl == nil || !reflect.DeepEqual(on, off) {
		t.Fatalf("timeline %v; the point with it:\n%+v\nwithout:\n%+v", tl, on, off)
	}
	n := int(off.Cycles / 128) // the windows that ended
	if tl.Window != 128 || tl.Warmup != 300 || tl.End != 1300 || len(tl.Accepted) != n || len(tl.Generated) != n {
		t.Fatalf("timeline %+v, want %d windows of 128 cycles, window 300..1300", tl, n)
	}
	hosts := float64(len(cfg.Net.Hosts))
	var ejected float64
	for _, a := range tl.Accepted {
		ejected += a * hosts * 128
	}
	// The windows hold every flit but those of the window the run ended
	// in (a cycle's worth of the hosts' links at most per cycle of it).
	if short := float64(off.EjectedFlits) - ejected; short < -0.5*float64(n) || short > hosts*float64(off.Cycles%128)+0.5*float64(n) {
		t.Errorf("the windows accepted %v flits, the run delivered %d", ejected, off.EjectedFlits)
	}
	cfg.Measure, cfg.Drain, cfg.Timeline = 100000, 0, 10
	if err := cfg.Validate(); err == nil {
		t.Errorf("timeline of 10 cycles: %d windows accepted", (cfg.Warmup+cfg.Measure)/cfg.Timeline)
	}
	cfg.Timeline = 11
	if err := cfg.Validate(); err != nil {
		t.Errorf("timeline of 11 cycles (%d windows): %v", (cfg.Warmup+cfg.Measure)/cfg.Timeline, err)
	}
}
