package experiments

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"netsim/fabric"
	"netsim/internal/numfmt"
	"netsim/kernel"
	"netsim/results"
)

func TestFormatDecimal(t *testing.T) {
	tests := []struct {
		v      float64
		places int
		want   string
	}{
		{0.5, 6, "0.5"},
		{1, 6, "1"},
		{0.0078125, -1, "0.0078125"},
		{0.0078125, 6, "0.007812"},
		{123.45678, 3, "123.457"},
		{-0.0000001, 3, "0"},
		{100, 3, "100"},
		{0.1, -1, "0.1"},
	}
	for _, tc := range tests {
		if got := numfmt.Decimal(tc.v, tc.places); got != tc.want {
			t.Errorf("numfmt.Decimal(%v, %d) = %q, want %q", tc.v, tc.places, got, tc.want)
		}
	}
}

// sampleRecords returns one record of each kind for a parsed experiment.
func sampleRecords(t *testing.T) []Record {
	e := mustParse(t, "small.toml", base)
	st := fabric.Stats{Offered: 0.5, Measures: results.Measures{Generated: 0.4999999, Accepted: 0.49123456, LatencyAvg: 40.12345, LatencyP99: 99, HopsAvg: 1.5, HopsMedium: 0.125, HopsLow: 0.375, MeasuredPackets: 10, Delivered: 9, Cycles: 2100}}
	return []Record{
		{Kind: KindPoint, Experiment: e, Pattern: "uniform", Offered: 0.5, Seed: 42, Stats: st, Stable: true},
		{Kind: KindSaturation, Experiment: e, Pattern: "uniform", Seed: 7, Saturation: 0.6015625},
		{Kind: KindError, Experiment: e, Pattern: "complement", Offered: 0.75, Seed: 43,
			Err: errors.Join(errors.New("experiment small, pattern complement, load 0.75"), &kernel.DeadlockError{At: 20, LastProgress: 10})},
	}
}

func TestWriteJSON(t *testing.T) {
	want := []string{
		`{"kind":"point","experiment":"small","topology":"crossbar h16","routing":"dor","pattern":"uniform","flow_control":"credit","switching":"cut-through","vls":2,"packet_flits":8,"seed":42,"variant":"","point":"small||uniform|0.5","config":"96eb11f04415c5d9","offered":0.5,"generated":0.5,"accepted":0.491235,"latency_avg":40.123,"latency_p99":99,"hops_avg":1.5,"hops_medium":0.125,"hops_low":0.375,"delivered":9,"measured_packets":10,"cycles":2100,"stable":true}`,
		`{"kind":"saturation","experiment":"small","topology":"crossbar h16","routing":"dor","pattern":"uniform","flow_control":"credit","switching":"cut-through","vls":2,"packet_flits":8,"seed":7,"variant":"","point":"small||uniform|saturation 1/128","config":"96eb11f04415c5d9","saturation":0.6015625,"resolution":128,"tolerance":0.02}`,
		`{"kind":"error","experiment":"small","topology":"crossbar h16","routing":"dor","pattern":"complement","flow_control":"credit","switching":"cut-through","vls":2,"packet_flits":8,"seed":43,"variant":"","point":"small||complement|0.75","config":"96eb11f04415c5d9","offered":0.75,"deadlock":true,"error":"experiment small, pattern complement, load 0.75\ndeadlock: no progress for 10 cycles (last progress at cycle 10, detected at cycle 20) with flits in flight"}`,
	}
	for i, r := range sampleRecords(t) {
		var b bytes.Buffer
		if err := WriteJSON(&b, r); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(b.String(), "\n"); got != want[i] {
			t.Errorf("%s line:\n got %s\nwant %s", r.Kind, got, want[i])
		}
		var m map[string]any
		if err := json.Unmarshal(b.Bytes(), &m); err != nil {
			t.Errorf("%s line is not valid JSON: %v", r.Kind, err)
		}
	}
	if err := WriteJSON(&bytes.Buffer{}, Record{Kind: "bogus", Experiment: sampleRecords(t)[0].Experiment}); err == nil {
		t.Error("unknown kind: no error")
	}
}

func TestTextWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewTextWriter(&b)
	recs := sampleRecords(t)
	old := recs[0] // as read back from a line written before verdicts
	recs[0].Verdict = results.Verdict{Outcome: results.VerdictUndecided, AcceptedCI: 0.0031, LatencyCI: 1.25}
	recs[0].Stats.Window = 4000
	doubt := recs[1]
	doubt.Undecided, doubt.Contrary = 1, 1
	capped := recs[1] // a search [sweep] bound capped
	capped.Bound = 0.625
	for _, r := range append([]Record{old}, append(recs, doubt, capped)...) {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	want := "small: crossbar h16, dor, credit 2 VL × 32 flits, cut-through, 8-flit packets\n" +
		"  pattern        offered  accepted    ±95%   lat avg    ±95%   lat p99    hops  medium     low  verdict   window\n" +
		"  uniform         0.5000    0.4912       —      40.1       —      99.0   1.500   0.125   0.375  stable    —\n" +
		"  uniform         0.5000    0.4912  0.0031      40.1     1.2      99.0   1.500   0.125   0.375  undecided 4000\n" +
		"  uniform      saturation 0.6015625 (60.2% of link bandwidth, resolution 1/128)\n" +
		"  uniform      saturation 0.6015625 (60.2% of link bandwidth, resolution 1/128); 1 load(s) undecided at max_measure, counted as not stable; verdicts not monotone: the load two steps above is stable\n" +
		"  uniform      saturation 0.6015625 (60.2% of link bandwidth, resolution 1/128); channel-load bound 62.5%: no load above it tested\n"
	if b.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestTextNoDelivered: a point with no measured packet delivered shows
// "—" for its latencies and hops on stdout, as table.md does, not 0.
func TestTextNoDelivered(t *testing.T) {
	e := testExperiments(t)[0]
	var b strings.Builder
	w := NewTextWriter(&b)
	rec := Record{Kind: KindPoint, Experiment: e, Pattern: e.Traffic.Patterns[0], Offered: 0.9,
		Stats: fabric.Stats{Offered: 0.9}, Verdict: results.Verdict{Outcome: results.VerdictUnstable}}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	last := strings.Fields(lines[len(lines)-1])
	// pattern offered accepted ±95% lat-avg ±95% lat-p99 hops medium low verdict window
	for i, want := range map[int]string{4: "—", 6: "—", 7: "—", 8: "—", 9: "—"} {
		if last[i] != want {
			t.Errorf("field %d = %q, want %q in %q", i, last[i], want, lines[len(lines)-1])
		}
	}
}
