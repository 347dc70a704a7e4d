package fabric

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// TestLatencyDistribution: with LatencyDistribution a point's quantiles
// are ordered, its wait at the source and its network latency add up to
// its latency, and its CDF climbs to 1 through increasing latencies; a
// load near saturation waits longer at its sources than a light one.
// Without it nothing else changes.
func TestLatencyDistribution(t *testing.T) {
	waits := map[float64]float64{}
	for _, load := range []float64{0.1, 0.8} {
		cfg := testConfig(t, flatfly4x4, "dor", "uniform", 2)
		cfg.Load = load
		off, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.LatencyDistribution = true
		on, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		d := on.Distribution
		if d == nil || off.Distribution != nil {
			t.Fatalf("load %v: distribution %v with, %v without", load, d, off.Distribution)
		}
		on.Distribution = nil
		if !reflect.DeepEqual(on, off) {
			t.Errorf("load %v: the distribution changed the point:\n%+v\n%+v", load, on, off)
		}
		if !(d.LatencyP50 <= d.LatencyP90 && d.LatencyP90 <= off.LatencyP99 && off.LatencyP99 <= d.LatencyP999) ||
			math.Abs(d.SourceAvg+d.NetworkAvg-off.LatencyAvg) > 1e-9 || d.SourceAvg < 0 || d.NetworkAvg <= 0 {
			t.Errorf("load %v: p50 %v, p90 %v, p99 %v, p99.9 %v; source %v + network %v vs latency %v", load,
				d.LatencyP50, d.LatencyP90, off.LatencyP99, d.LatencyP999, d.SourceAvg, d.NetworkAvg, off.LatencyAvg)
		}
		var steps [][2]float64
		if err := json.Unmarshal(d.LatencyCDF, &steps); err != nil || len(steps) < 2 {
			t.Fatalf("load %v: CDF %s: %v", load, d.LatencyCDF, err)
		}
		for i := 1; i < len(steps); i++ {
			if steps[i][0] <= steps[i-1][0] || steps[i][1] <= steps[i-1][1] {
				t.Errorf("load %v: CDF steps %v then %v", load, steps[i-1], steps[i])
			}
		}
		if last := steps[len(steps)-1]; last[1] != 1 || steps[0][0] != d.LatencyP50 && steps[0][1] > 0.5 {
			t.Errorf("load %v: CDF %v", load, steps)
		}
		waits[load] = d.SourceAvg
	}
	if waits[0.8] <= waits[0.1] {
		t.Errorf("wait at the source %v at load 0.8, %v at 0.1: want longer near saturation", waits[0.8], waits[0.1])
	}
}
