package fabric

import (
	"context"
	"math"
	"reflect"
	"testing"
)

// TestTimeline: a run's timeline has one window per Timeline cycles up to
// its end (the last as long as it ran), its windows add up to every flit
// the run generated and delivered, it marks the measurement window, and
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
	n := int((off.Cycles + 127) / 128)
	if tl.Window != 128 || tl.Warmup != 300 || tl.End != 1300 || len(tl.Accepted) != n || len(tl.Generated) != n {
		t.Fatalf("timeline %+v, want %d windows of 128 cycles, window 300..1300", tl, n)
	}
	hosts := float64(len(cfg.Net.Hosts))
	var ejected float64
	for k, a := range tl.Accepted {
		ejected += a * hosts * float64(min(128, off.Cycles-int64(k)*128))
	}
	if math.Abs(ejected-float64(off.EjectedFlits)) > 0.5*float64(n) { // rounding: 6 places per window
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
