package results

import (
	"flag"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated part of docs/results.md")

// TestSchema checks the declaration of Line: every field has a doc, names
// are unique, and the values tables show are in order and carry a label.
func TestSchema(t *testing.T) {
	if _, err := newSchema(reflect.TypeFor[Line]()); err != nil {
		t.Fatal(err)
	}
	want := []string{"saturation", "accepted", "latency_avg", "latency_p99", "hops_avg", "hops_medium", "hops_low", "avg", "min", "max",
		"completion", "completion_us", "bandwidth", "efficiency", "rtt_avg"}
	if got := Values(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Values() = %q, want %q", got, want)
	}
	for _, name := range Values() {
		f, _ := FieldNamed(name)
		if f.Label == "" || !f.Outcome || len(f.Kinds) != 1 {
			t.Errorf("value %s: label %q, outcome %v, kinds %q: want a label, an outcome of one kind", name, f.Label, f.Outcome, f.Kinds)
		}
	}
	if _, ok := FieldNamed("nope"); ok {
		t.Error(`FieldNamed("nope") found a field`)
	}
}

// TestRoundTrip encodes lines of every kind, decodes them and encodes
// them again: the bytes are the same, and the fields a kind does not carry
// are left out.
func TestRoundTrip(t *testing.T) {
	thr, prob := 4, 0.5
	id := Line{Experiment: "e", Topology: "flatfly 4x4 w1,1 c4", Routing: "dor", Pattern: "uniform",
		FlowControl: "credit", Switching: "cut-through", Selection: "credits", VLs: 2, PacketFlits: 16,
		Seed: 1<<64 - 1, Variant: "", Point: "e||uniform|0.5", Config: "abc"}
	point := id
	point.Kind, point.Offered, point.Stable = KindPoint, 0.5, true
	point.Measures = Measures{Generated: 0.5, Accepted: 0.4912, LatencyAvg: math.NaN(), LatencyP99: 99.125,
		HopsAvg: 2.5, HopsMedium: math.NaN(), HopsLow: math.NaN(), Delivered: 9, MeasuredPackets: 10, Cycles: 3000}
	point.Verdict = NoVerdict() // as written before netsim gave verdicts
	point.Distribution = NoDistribution()
	judged := point
	judged.Window = 2000
	judged.Verdict = Verdict{Outcome: VerdictStable, Batches: 32, AcceptedCI: 0.0031, LatencyCI: 1.5,
		Growth: -0.0004, GrowthCI: 0.0009, GrowthLimit: 0.01}
	judged.Distribution = Distribution{LatencyP50: 30, LatencyP90: 60, LatencyP999: 95, SourceAvg: 2.5, NetworkAvg: 37.75,
		LatencyCDF: []byte(`[[20,0.5],[99,1]]`)}
	sat := id
	sat.Kind, sat.Saturation, sat.Resolution, sat.Tolerance, sat.Selection = KindSaturation, 0.8125, 128, 0.02, "idle"
	sat.Offered = 0.5 // not carried by saturation lines
	ebb := id
	ebb.Kind, ebb.Hosts, ebb.Dispersion, ebb.Threshold, ebb.Probability = KindEBB, 16, "adaptive", &thr, &prob
	ebb.Exchange = Exchange{Patterns: 3, Min: 0.25, Avg: 0.5, Max: 0.75, Packets: 100, OutOfOrder: 3}
	ebb.Params = []byte(`{ "nic.threshold": 4 }`)
	fail := id
	fail.Kind, fail.Offered, fail.Deadlock, fail.Error = KindError, math.NaN(), true, "deadlock <here>"
	tests := []struct {
		l    Line
		want string
	}{
		{point, `{"kind":"point","experiment":"e","topology":"flatfly 4x4 w1,1 c4","routing":"dor","pattern":"uniform","flow_control":"credit","switching":"cut-through","vls":2,"packet_flits":16,"seed":18446744073709551615,"variant":"","point":"e||uniform|0.5","config":"abc","offered":0.5,"generated":0.5,"accepted":0.4912,"latency_avg":null,"latency_p99":99.125,"hops_avg":2.5,"delivered":9,"measured_packets":10,"cycles":3000,"stable":true}`},
		{judged, `{"kind":"point","experiment":"e","topology":"flatfly 4x4 w1,1 c4","routing":"dor","pattern":"uniform","flow_control":"credit","switching":"cut-through","vls":2,"packet_flits":16,"seed":18446744073709551615,"variant":"","point":"e||uniform|0.5","config":"abc","offered":0.5,"generated":0.5,"accepted":0.4912,"latency_avg":null,"latency_p99":99.125,"hops_avg":2.5,"delivered":9,"measured_packets":10,"cycles":3000,"window":2000,"latency_p50":30,"latency_p90":60,"latency_p999":95,"latency_source_avg":2.5,"latency_network_avg":37.75,"latency_cdf":[[20,0.5],[99,1]],"stable":true,"verdict":"stable","batches":32,"accepted_ci":0.0031,"latency_ci":1.5,"growth":-0.0004,"growth_ci":0.0009,"growth_limit":0.01}`},
		{sat, `{"kind":"saturation","experiment":"e","topology":"flatfly 4x4 w1,1 c4","routing":"dor","pattern":"uniform","flow_control":"credit","switching":"cut-through","selection":"idle","vls":2,"packet_flits":16,"seed":18446744073709551615,"variant":"","point":"e||uniform|0.5","config":"abc","saturation":0.8125,"resolution":128,"tolerance":0.02}`},
		{ebb, `{"kind":"ebb","experiment":"e","topology":"flatfly 4x4 w1,1 c4","routing":"dor","pattern":"uniform","flow_control":"credit","switching":"cut-through","vls":2,"packet_flits":16,"seed":18446744073709551615,"variant":"","params":{"nic.threshold":4},"point":"e||uniform|0.5","config":"abc","hosts":16,"dispersion":"adaptive","threshold":4,"probability":0.5,"patterns":3,"min":0.25,"avg":0.5,"max":0.75,"packets":100,"out_of_order":3,"max_displacement":0,"route_changes":0,"probes":0}`},
		{fail, `{"kind":"error","experiment":"e","topology":"flatfly 4x4 w1,1 c4","routing":"dor","pattern":"uniform","flow_control":"credit","switching":"cut-through","vls":2,"packet_flits":16,"seed":18446744073709551615,"variant":"","point":"e||uniform|0.5","config":"abc","deadlock":true,"error":"deadlock \u003chere\u003e"}`},
	}
	for _, tc := range tests {
		b, err := tc.l.AppendJSON(nil)
		if err != nil || string(b) != tc.want {
			t.Errorf("%s: AppendJSON =\n%s, %v; want\n%s", tc.l.Kind, b, err, tc.want)
			continue
		}
		d, err := Decode(b)
		if err != nil {
			t.Errorf("%s: Decode: %v", tc.l.Kind, err)
			continue
		}
		if b2, _ := d.AppendJSON(nil); string(b2) != tc.want {
			t.Errorf("%s: decoded and encoded again:\n%s, want\n%s", tc.l.Kind, b2, tc.want)
		}
	}
}

// TestDecodeFields checks what a decoded line says of each field: the
// default of an absent text, null and absent floats, and Text and Number.
func TestDecodeFields(t *testing.T) {
	l, err := Decode([]byte(`{"kind":"point","topology":"t","routing":"r","pattern":"p","offered":0.25,"accepted":null,"hops_avg":2,"vls":4}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		field  string
		text   string
		ok     bool
		number float64
		isNum  bool
	}{
		{"selection", "credits", true, 0, false},
		{"offered", "0.25", true, 0.25, true},
		{"accepted", "", false, 0, false},
		{"generated", "", false, 0, false},
		{"hops_avg", "2", true, 2, true},
		{"vls", "4", true, 4, true},
		{"routing", "r", true, 0, false},
		{"experiment", "", false, 0, false},
		{"saturation", "", false, 0, false},
	}
	for _, tc := range tests {
		f, _ := FieldNamed(tc.field)
		if s, ok := f.Text(&l); s != tc.text || ok != tc.ok {
			t.Errorf("%s: Text = %q, %v; want %q, %v", tc.field, s, ok, tc.text, tc.ok)
		}
		if n, ok := f.Number(&l); n != tc.number || ok != tc.isNum {
			t.Errorf("%s: Number = %v, %v; want %v, %v", tc.field, n, ok, tc.number, tc.isNum)
		}
	}
	if f, _ := FieldNamed("accepted"); !f.Holds(&l) || !math.IsNaN(l.Accepted) {
		t.Errorf("accepted null: holds %v, value %v; want held, NaN", f.Holds(&l), l.Accepted)
	}
	if !math.IsNaN(l.HopsMedium) {
		t.Errorf("hops_medium absent: %v, want NaN", l.HopsMedium)
	}
}

// TestDecodeErrors checks that every kind of bad line is refused with a
// message naming the field.
func TestDecodeErrors(t *testing.T) {
	const base = `"topology":"t","routing":"r","pattern":"p"`
	tests := []struct {
		name, line, want string
	}{
		{"not JSON", `oops`, "not a JSON object"},
		{"array", `[1]`, "not a JSON object"},
		{"null", `null`, "not a JSON object"},
		{"no kind", `{` + base + `}`, `no "kind" text field`},
		{"kind not text", `{"kind":1,` + base + `}`, `no "kind" text field`},
		{"unknown kind", `{"kind":"points",` + base + `}`, `kind "points": unknown`},
		{"kind list", `{"kind":"point|error",` + base + `}`, `kind "point|error": unknown`},
		{"missing required", `{"kind":"saturation","topology":"t","pattern":"p","saturation":0.5}`, `saturation line lacks "routing"`},
		{"point without offered", `{"kind":"point",` + base + `}`, `point line lacks "offered"`},
		{"text not text", `{"kind":"saturation",` + base + `,"saturation":"0.5"}`, `field saturation: expected a number from 0 to 1, got "0.5"`},
		{"out of range", `{"kind":"point",` + base + `,"offered":1.5}`, `field offered: expected a number from 0 to 1, got 1.5`},
		{"negative latency", `{"kind":"point",` + base + `,"offered":0.5,"latency_avg":-1}`, `field latency_avg: expected a finite number ≥ 0 or null, got -1`},
		{"null not allowed", `{"kind":"point",` + base + `,"offered":0.5,"hops_low":null}`, `field hops_low: expected a finite number ≥ 0, got null`},
		{"integer fraction", `{"kind":"saturation",` + base + `,"saturation":0.5,"resolution":12.5}`, `field resolution: expected an integer ≥ 1, got 12.5`},
		{"bool", `{"kind":"point",` + base + `,"offered":0.5,"stable":"yes"}`, `field stable: expected true or false, got "yes"`},
		{"routing a number", `{"kind":"point","topology":"t","routing":3,"pattern":"p","offered":0.5}`, `field routing: expected text, got 3`},
		{"params not object", `{"kind":"point",` + base + `,"offered":0.5,"params":[1]}`, `field params: expected an object, got [1]`},
		{"cdf not array", `{"kind":"point",` + base + `,"offered":0.5,"latency_cdf":{}}`, `field latency_cdf: expected an array, got {}`},
		{"seed negative", `{"kind":"point",` + base + `,"offered":0.5,"seed":-1}`, `field seed: expected an integer, got -1`},
		{"hosts zero", `{"kind":"ebb",` + base + `,"hosts":0,"dispersion":"static","min":0,"avg":0,"max":0}`, `field hosts: expected an integer ≥ 1, got 0`},
	}
	for _, tc := range tests {
		_, err := Decode([]byte(tc.line))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Decode = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestQuantize checks that Quantize rounds each float to its field's
// decimals and leaves NaN alone.
func TestQuantize(t *testing.T) {
	m := Measures{Generated: 0.12345678, LatencyAvg: 40.12345, HopsAvg: 1.234567, HopsLow: math.NaN(), Delivered: 3}
	Quantize(&m)
	if m.Generated != 0.123457 || m.LatencyAvg != 40.123 || m.HopsAvg != 1.2346 || !math.IsNaN(m.HopsLow) || m.Delivered != 3 {
		t.Errorf("Quantize: %+v", m)
	}
	x := Exchange{Avg: 0.1234567}
	Quantize(&x)
	if x.Avg != 0.123457 {
		t.Errorf("Quantize(Exchange): avg %v, want 0.123457", x.Avg)
	}
}

// TestReference checks that docs/results.md holds the reference the
// schema generates (-update rewrites it).
func TestReference(t *testing.T) {
	const path = "../docs/results.md"
	const begin, end = "<!-- generated by results.Reference", "<!-- end of generated text -->"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no generated section (%q ... %q)", path, begin, end)
	}
	i += strings.IndexByte(doc[i:], '\n') + 1
	want := "\n" + Reference() + "\n"
	if doc[i:j] == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(doc[:i]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is not what results.Reference generates: run go test ./results -run TestReference -update", path)
}

// TestCommittedFiles decodes every line of every results file in the
// repository and encodes it again: the bytes must not change, so a run
// resumed from a committed file writes it again as it was.
func TestCommittedFiles(t *testing.T) {
	var files, lines int
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || !strings.HasSuffix(path, ".jsonl") {
			return err // directories, and the hostile corpus's link to /dev/zero
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		for n, text := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			if strings.TrimSpace(text) == "" {
				continue
			}
			l, err := Decode([]byte(text))
			if err != nil {
				if !strings.Contains(filepath.ToSlash(path), "/testdata/") {
					t.Errorf("%s:%d: %v", path, n+1, err)
				}
				continue // test data may hold bad lines on purpose
			}
			lines++
			if got, _ := l.AppendJSON(nil); string(got) != text {
				t.Errorf("%s:%d: encoded again:\n%s\nwant\n%s", path, n+1, got, text)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 1 || lines < 2000 {
		t.Errorf("read %d lines in %d files: the repository's results files are missing", lines, files)
	}
	t.Logf("%d lines in %d files", lines, files)
}
