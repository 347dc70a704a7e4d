package experiments

import (
	"math"
	"testing"

	"netsim/fabric"
	"netsim/nic"
	"netsim/results"
)

// windowOf returns the statistics of a window of 32 bins of 100 cycles
// over 10 hosts in which bin j generates gen(j) and accepts acc(j) flits
// per host per cycle and delivers 50 packets of latency 20 + j%2.
func windowOf(gen, acc func(j int) float64) fabric.Stats {
	var st fabric.Stats
	var g float64
	for j := range 32 {
		st.Bins = append(st.Bins, fabric.Bin{Cycles: 100, Bin: nic.Bin{
			GeneratedFlits: int64(math.Round(gen(j) * 1000)), EjectedFlits: int64(math.Round(acc(j) * 1000)),
			Delivered: 50, LatencySum: int64(50 * (20 + j%2))}})
		g += gen(j)
	}
	st.Generated = g / 32
	st.Delivered = 32 * 50
	return st
}

func TestJudge(t *testing.T) {
	// tol 0.02 at 0.5 flits/host/cycle: the backlog may grow by 0.01 flits
	// per host per cycle, 10 flits per 100-cycle bin over the 10 hosts.
	half := func(j int) float64 { return 0.5 }
	alternate := func(d float64) func(int) float64 {
		return func(j int) float64 { return 0.5 - d*float64(j%2*2-1) }
	}
	tests := []struct {
		name     string
		st       fabric.Stats
		want     string
		growth   float64
		exact    bool // the growth has no interval
		few, bad bool
	}{
		{name: "sustained", st: windowOf(half, half), want: results.VerdictStable, exact: true},
		{name: "below the limit", st: windowOf(half, func(int) float64 { return 0.491 }), want: results.VerdictStable, growth: 0.009, exact: true},
		{name: "at the limit", st: windowOf(half, func(int) float64 { return 0.49 }), want: results.VerdictStable, growth: 0.01, exact: true},
		{name: "above the limit", st: windowOf(half, func(int) float64 { return 0.489 }), want: results.VerdictUnstable, growth: 0.011, exact: true},
		{name: "far above", st: windowOf(half, func(int) float64 { return 0.3 }), want: results.VerdictUnstable, growth: 0.2, exact: true},
		// Accepted alternates around generated: the backlog saws up and
		// down, no growth, a small interval.
		{name: "noisy, sustained", st: windowOf(half, alternate(0.002)), want: results.VerdictStable},
		// The same noise a hundredfold: the interval holds the limit.
		{name: "too noisy", st: windowOf(half, alternate(0.2)), want: results.VerdictUndecided},
		// The warm-up's transient fills the network in the first half, and
		// the verdict reads only the second.
		{name: "transient", st: windowOf(half, func(j int) float64 {
			if j < 16 {
				return 0.3
			}
			return 0.5
		}), want: results.VerdictStable, exact: true},
		{name: "growing late", st: windowOf(half, func(j int) float64 {
			if j < 16 {
				return 0.5
			}
			return 0.4
		}), want: results.VerdictUnstable, growth: 0.1, exact: true},
		{name: "few packets", st: func() fabric.Stats { s := windowOf(half, half); s.Delivered = MinVerdictPackets - 1; return s }(),
			want: results.VerdictUndecided, exact: true, few: true},
		{name: "three bins", st: func() fabric.Stats { s := windowOf(half, half); s.Bins = s.Bins[:3]; return s }(),
			want: results.VerdictUndecided, bad: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := judge(tc.st, 0.02, 10, 3200)
			if v.Outcome != tc.want {
				t.Fatalf("verdict %s (growth %v ± %v, limit %v), want %s", v.Outcome, v.Growth, v.GrowthCI, v.GrowthLimit, tc.want)
			}
			if tc.bad {
				if v.Batches != 0 || !math.IsNaN(v.Growth) {
					t.Errorf("verdict of 3 bins has a basis: %+v", v)
				}
				return
			}
			if v.Batches != 32 || math.Abs(v.GrowthLimit-0.01) > 1e-12 {
				t.Errorf("batches %d, limit %v; want 32, 0.01", v.Batches, v.GrowthLimit)
			}
			if tc.exact && (math.Abs(v.Growth-tc.growth) > 1e-9 || v.GrowthCI > 1e-9) {
				t.Errorf("growth %v ± %v, want %v exactly", v.Growth, v.GrowthCI, tc.growth)
			}
			if !tc.exact && !(v.GrowthCI > 0) {
				t.Errorf("growth %v ± %v, want an interval", v.Growth, v.GrowthCI)
			}
			if v.GrowthPassed() != (tc.want == results.VerdictStable || tc.few) {
				t.Errorf("GrowthPassed %v for a %s point", v.GrowthPassed(), v.Outcome)
			}
			// Latency alternates 20, 21: the batch means' interval is
			// t(31)·0.508/√32.
			if want := 2.0395 * math.Sqrt(8.0/31) / math.Sqrt(32); math.Abs(v.LatencyCI-want) > 1e-3 {
				t.Errorf("latency interval %v, want %v", v.LatencyCI, want)
			}
		})
	}
}

// TestJudgeShortMeasure: with [sim] measure below fabric.BinsPerMeasure
// a window has measure bins per measure cycles, and an extended one is
// judged over as many batches of several bins.
func TestJudgeShortMeasure(t *testing.T) {
	s := windowOf(func(int) float64 { return 0.5 }, func(int) float64 { return 0.5 })
	s.Bins = append(s.Bins, s.Bins[:8]...) // 40 bins: measure 10, window 40
	v := judge(s, 0.02, 10, 10)
	if v.Outcome != results.VerdictStable || v.Batches != 10 {
		t.Errorf("verdict %s over %d batches, want stable over 10", v.Outcome, v.Batches)
	}
}
