package experiments

import (
	"context"
	"strings"
	"testing"
)

// TestObservabilityKeys: [sim] latency_distribution = true and [sim]
// timeline = W write their fields into every point line of a real run,
// which resumes as it was written; each changes the configuration hash, so
// a run with it does not resume from one without, and without them the
// lines hold none of their fields.
func TestObservabilityKeys(t *testing.T) {
	off := mustParse(t, "off.toml", base)
	for _, tc := range []struct {
		key    string
		fields []string
	}{
		{"latency_distribution = true", []string{`"latency_p50":`, `"latency_p90":`, `"latency_p999":`, `"latency_source_avg":`, `"latency_network_avg":`, `"latency_cdf":[[`}},
		{"timeline = 50", []string{`"timeline":{"window":50,"warmup":100,"end":`}},
	} {
		on := mustParse(t, "on.toml", edit(t, "measure = 1000", "measure = 1000\n"+tc.key))
		if on.config == off.config {
			t.Errorf("%s does not change the configuration hash", tc.key)
		}
		for _, e := range []*Experiment{on, off} {
			text, _, err := runLines(context.Background(), Runner{Jobs: 2}, []*Experiment{e})
			if err != nil {
				t.Fatal(err)
			}
			want := 4 * btoi(e == on)
			for _, f := range tc.fields {
				if got := strings.Count(text, f); got != want {
					t.Errorf("%s (set %v): %d lines with %s, want %d", tc.key, e == on, got, f, want)
				}
			}
			lines, _, err := ReadResults(strings.NewReader(text), "r")
			if err != nil {
				t.Fatal(err)
			}
			store, err := NewStore([]*Experiment{e}, lines)
			if err != nil {
				t.Fatal(err)
			}
			sim := newFakeSim(1, nil)
			again, _, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: sim.run, Resume: store}, []*Experiment{e})
			if err != nil || again != text || len(sim.calls) != 0 {
				t.Errorf("%s (set %v): resumed with %d simulations, same lines %v (%v)", tc.key, e == on, len(sim.calls), again == text, err)
			}
		}
	}
	// A window splitting the run into too many: the key's error.
	_, err := Parse("f.toml", []byte(edit(t, "measure = 1000", "measure = 100000\ntimeline = 5")))
	if err == nil || !strings.Contains(err.Error(), "[sim] timeline: a window of 5 cycles splits warmup + max_measure + drain (500100 cycles) into more than 10000 windows: give at least 51") {
		t.Errorf("timeline too short: %v", err)
	}
	// A results line whose timeline is not one (not the last line, which
	// would be taken for one cut short by a crash).
	bad := `{"kind":"point","experiment":"small","topology":"crossbar h16","routing":"dor","pattern":"uniform","flow_control":"credit","switching":"cut-through","vls":2,"packet_flits":8,"seed":1,"variant":"","point":"small||uniform|0.5","config":"x","offered":0.5,"generated":0.5,"accepted":0.5,"latency_avg":1,"latency_p99":1,"hops_avg":1,"delivered":1,"measured_packets":1,"cycles":1,"timeline":{"window":0},"stable":true}`
	if _, _, err := ReadResults(strings.NewReader(bad+"\n"+bad+"\n"), "r"); err == nil || !strings.Contains(err.Error(), "field timeline: expected") {
		t.Errorf("bad timeline: %v", err)
	}
}

// btoi is 1 for true.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
