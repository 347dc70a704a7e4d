package experiments

import (
	"context"
	"strings"
	"testing"
)

// TestLatencyDistributionKey: [sim] latency_distribution = true writes the
// distribution into every point line of a real run, which resumes as it
// was written; its configuration hash differs from the file without the
// key, whose lines hold none, so neither resumes from the other.
func TestLatencyDistributionKey(t *testing.T) {
	on := mustParse(t, "on.toml", edit(t, "measure = 1000", "measure = 1000\nlatency_distribution = true"))
	off := mustParse(t, "off.toml", base)
	if on.config == off.config {
		t.Error("latency_distribution does not change the configuration hash")
	}
	for _, tc := range []struct {
		e    *Experiment
		want bool
	}{{on, true}, {off, false}} {
		text, _, err := runLines(context.Background(), Runner{Jobs: 2}, []*Experiment{tc.e})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{`"latency_p50":`, `"latency_p90":`, `"latency_p999":`, `"latency_source_avg":`, `"latency_network_avg":`, `"latency_cdf":[[`} {
			if got := strings.Count(text, f); got != 4*btoi(tc.want) {
				t.Errorf("latency_distribution %v: %d lines with %s, want %d", tc.want, got, f, 4*btoi(tc.want))
			}
		}
		lines, _, err := ReadResults(strings.NewReader(text), "r")
		if err != nil {
			t.Fatal(err)
		}
		store, err := NewStore([]*Experiment{tc.e}, lines)
		if err != nil {
			t.Fatal(err)
		}
		sim := newFakeSim(1, nil)
		again, _, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: sim.run, Resume: store}, []*Experiment{tc.e})
		if err != nil || again != text || len(sim.calls) != 0 {
			t.Errorf("latency_distribution %v: resumed with %d simulations, same lines %v (%v)", tc.want, len(sim.calls), again == text, err)
		}
	}
}

// btoi is 1 for true.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
