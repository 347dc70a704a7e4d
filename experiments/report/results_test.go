package report

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	text := satLine(ff4, "dor", "uniform", 0.5) + "\n\n  \n" + pointLine(ff4, "dor", "uniform", 0.25, 0.25, "null") + "\n" + errorLine("uniform", 1)
	rs, notes, err := Read(strings.NewReader(text), "r.jsonl")
	if err != nil || len(notes) != 0 {
		t.Fatalf("err %v, notes %q", err, notes)
	}
	if len(rs) != 3 {
		t.Fatalf("%d results, want 3", len(rs))
	}
	wantKinds := []string{KindSaturation, KindPoint, KindError}
	wantSources := []string{"r.jsonl:1", "r.jsonl:4", "r.jsonl:5"}
	for i, r := range rs {
		if r.Kind != wantKinds[i] || r.Source != wantSources[i] {
			t.Errorf("result %d: kind %q source %q, want %q %q", i, r.Kind, r.Source, wantKinds[i], wantSources[i])
		}
	}
	if v, ok := rs[0].Number("saturation"); !ok || v != 0.5 {
		t.Errorf("saturation = %v, %v", v, ok)
	}
	if s, ok := rs[0].Text("vls"); !ok || s != "2" {
		t.Errorf("vls as text = %q, %v", s, ok)
	}
	if _, ok := rs[1].Number("latency_avg"); ok {
		t.Error("null latency reads as a number")
	}
	if _, ok := rs[1].Text("latency_avg"); ok {
		t.Error("null latency reads as text")
	}
	if _, ok := rs[1].Number("topology"); ok {
		t.Error("text reads as a number")
	}
	if s, _ := rs[2].Text("deadlock"); s != "true" {
		t.Errorf("deadlock = %q", s)
	}
}

func TestReadBadLines(t *testing.T) {
	good := satLine(ff4, "dor", "uniform", 0.5)
	tests := []struct {
		name, line, want string
	}{
		{"not JSON", `{"kind":"point",`, "r.jsonl:2: not a JSON object"},
		{"array", `[1, 2]`, "r.jsonl:2: not a JSON object"},
		{"no kind", `{"topology":"x"}`, `r.jsonl:2: no "kind" text field`},
		{"unknown kind", strings.Replace(good, `"saturation",`, `"sat",`, 1), `r.jsonl:2: kind "sat": unknown`},
		{"missing field", strings.Replace(good, `"routing":"dor",`, "", 1), `r.jsonl:2: saturation line lacks "routing"`},
		{"value not a number", strings.Replace(good, `"saturation":0.5`, `"saturation":"0.5"`, 1), `r.jsonl:2: field saturation: expected a number from 0 to 1, got "0.5"`},
		{"label not text", strings.Replace(good, `"pattern":"uniform"`, `"pattern":3`, 1), "r.jsonl:2: field pattern: expected text, got 3"},
		{"point without offered", strings.Replace(pointLine(ff4, "dor", "uniform", 0.5, 0.5, "1"), `"offered":0.5,`, "", 1), `r.jsonl:2: point line lacks "offered"`},
	}
	tests = append(tests, badValues()...)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Read(strings.NewReader(good+"\n"+tc.line+"\n"+good+"\n"), "r.jsonl")
			var le *LineError
			if !errors.As(err, &le) || le.Line != 2 {
				t.Fatalf("error %v, want a LineError on line 2", err)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %q, want prefix %q", err, tc.want)
			}
		})
	}
}

// badValues are lines with a value of the wrong type or out of range,
// and their errors as line 2 of r.jsonl.
func badValues() []struct{ name, line, want string } {
	point := pointLine(ff4, "dor", "uniform", 0.5, 0.5, "40.25")
	sat := satLine(ff4, "dor", "uniform", 0.5)
	ebb := ebbLine("f", "bisection", "static", 32, -1, 0, 0.6, 0.7, 0.8)
	edit := func(line, field, value string) string {
		i := strings.Index(line, `"`+field+`":`) + len(field) + 3
		j := i + strings.IndexAny(line[i:], ",}")
		return line[:i] + value + line[j:]
	}
	const (
		load    = "expected a number from 0 to 1, got "
		measure = "expected a finite number ≥ 0 or null, got "
	)
	return []struct{ name, line, want string }{
		{"accepted text", edit(point, "accepted", `"high"`), `r.jsonl:2: field accepted: ` + measure + `"high"`},
		{"accepted beyond float64", edit(point, "accepted", "1e999"), "r.jsonl:2: field accepted: " + measure + "1e999"},
		{"accepted negative", edit(point, "accepted", "-5"), "r.jsonl:2: field accepted: " + measure + "-5"},
		{"latency boolean", edit(point, "latency_avg", "true"), "r.jsonl:2: field latency_avg: " + measure + "true"},
		{"latency beyond float64", edit(point, "latency_avg", "-1e400"), "r.jsonl:2: field latency_avg: " + measure + "-1e400"},
		{"p99 negative", edit(point, "latency_p99", "-1"), "r.jsonl:2: field latency_p99: " + measure + "-1"},
		{"hops array", edit(point, "hops_avg", "[2]"), "r.jsonl:2: field hops_avg: " + measure + "[2]"},
		{"hops negative", edit(point, "hops_avg", "-0.5"), "r.jsonl:2: field hops_avg: " + measure + "-0.5"},
		{"offered above 1", edit(point, "offered", "1.5"), "r.jsonl:2: field offered: " + load + "1.5"},
		{"offered null", edit(point, "offered", "null"), "r.jsonl:2: field offered: " + load + "null"},
		{"error offered text", edit(errorLine("uniform", 1), "offered", `"1"`), `r.jsonl:2: field offered: ` + load + `"1"`},
		{"saturation above 1", edit(sat, "saturation", "7"), "r.jsonl:2: field saturation: " + load + "7"},
		{"saturation negative", edit(sat, "saturation", "-0.25"), "r.jsonl:2: field saturation: " + load + "-0.25"},
		{"saturation null", edit(sat, "saturation", "null"), "r.jsonl:2: field saturation: " + load + "null"},
		{"resolution zero", edit(sat, "resolution", "0"), "r.jsonl:2: field resolution: expected an integer ≥ 1, got 0"},
		{"resolution fraction", edit(sat, "resolution", "12.5"), "r.jsonl:2: field resolution: expected an integer ≥ 1, got 12.5"},
		{"tolerance above 1", edit(sat, "tolerance", "2"), "r.jsonl:2: field tolerance: " + load + "2"},
		{"hosts zero", edit(ebb, "hosts", "0"), "r.jsonl:2: field hosts: expected an integer ≥ 1, got 0"},
		{"hosts fraction", edit(ebb, "hosts", "3.5"), "r.jsonl:2: field hosts: expected an integer ≥ 1, got 3.5"},
		{"ebb min negative", edit(ebb, "min", "-0.1"), "r.jsonl:2: field min: " + load + "-0.1"},
		{"ebb avg above 1", edit(ebb, "avg", "1.2"), "r.jsonl:2: field avg: " + load + "1.2"},
		{"ebb max text", edit(ebb, "max", `"0.8"`), `r.jsonl:2: field max: ` + load + `"0.8"`},
		{"packets negative", edit(ebb, "packets", "-1"), "r.jsonl:2: field packets: expected an integer ≥ 0, got -1"},
		{"out of order object", edit(ebb, "out_of_order", "{}"), "r.jsonl:2: field out_of_order: expected an integer ≥ 0, got {}"},
	}
}

func TestReadGoodValues(t *testing.T) {
	point := pointLine(ff4, "dor", "uniform", 0.5, 0.5, "40.25")
	tests := []struct{ name, line string }{
		{"null latency", pointLine(ff4, "dor", "uniform", 1, 0.62, "null")},
		{"null measurements", strings.NewReplacer(`"accepted":0.5`, `"accepted":null`, `"hops_avg":2.5`, `"hops_avg":null`).Replace(point)},
		{"zero", pointLine(ff4, "dor", "uniform", 0, 0, "0")},
		{"saturation 0", satLine(ff4, "dor", "uniform", 0)},
		{"saturation 1", satLine(ff4, "dor", "uniform", 1)},
		{"exchange", ebbLine("f", "bisection", "static", 32, -1, 0, 0, 0.5, 1)},
		{"failed exchange", strings.Replace(errorLine("bisection", 0), `"offered":0,`, "", 1)},
		{"unknown field", strings.Replace(point, `"stable":true`, `"stable":true,"note":-1e999`, 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rs, notes, err := Read(strings.NewReader(tc.line+"\n"), "r.jsonl")
			if err != nil || len(rs) != 1 || len(notes) != 0 {
				t.Fatalf("%d results, notes %q, err %v", len(rs), notes, err)
			}
		})
	}
}

func TestReadTornLastLine(t *testing.T) {
	good := satLine(ff4, "dor", "uniform", 0.5)
	rs, notes, err := Read(strings.NewReader(good+"\n"+good[:40]), "r.jsonl")
	if err != nil || len(rs) != 1 {
		t.Fatalf("%d results, err %v", len(rs), err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "r.jsonl:2: incomplete last line") {
		t.Errorf("notes %q", notes)
	}
	// A complete last line without a newline is kept.
	rs, notes, err = Read(strings.NewReader(good+"\n"+good), "r.jsonl")
	if err != nil || len(rs) != 2 || len(notes) != 0 {
		t.Errorf("%d results, notes %q, err %v", len(rs), notes, err)
	}
	// A complete last line with a bad value is an error, not torn.
	if _, _, err := Read(strings.NewReader(good+"\n"+strings.Replace(good, "0.5", "7", 1)), "r.jsonl"); err == nil || !strings.Contains(err.Error(), "r.jsonl:2: field saturation") {
		t.Errorf("bad last line without a newline: %v", err)
	}
	// The same torn text followed by a newline is an error.
	if _, _, err := Read(strings.NewReader(good[:40]+"\n"+good+"\n"), "r.jsonl"); err == nil {
		t.Error("torn line in the middle: no error")
	}
}

func TestReadFiles(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	b := filepath.Join(dir, "b.jsonl")
	os.WriteFile(a, []byte(satLine(ff4, "dor", "uniform", 0.5)+"\n"), 0o644)
	os.WriteFile(b, []byte(satLine(ff4, "ador", "uniform", 0.5)+"\n"+satLine(ff4, "ador", "complement", 0.5)[:30]), 0o644)
	rs, notes, err := ReadFiles([]string{a, b})
	if err != nil || len(rs) != 2 || len(notes) != 1 {
		t.Fatalf("%d results, notes %q, err %v", len(rs), notes, err)
	}
	if rs[1].Source != b+":1" {
		t.Errorf("source %q", rs[1].Source)
	}
	if _, _, err := ReadFiles([]string{a, filepath.Join(dir, "none.jsonl")}); err == nil || !strings.Contains(err.Error(), "none.jsonl") {
		t.Errorf("missing file: %v", err)
	}
}
