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
		{"value not a number", strings.Replace(good, `"saturation":0.5`, `"saturation":"0.5"`, 1), `r.jsonl:2: saturation: expected a number, got "0.5"`},
		{"label not text", strings.Replace(good, `"pattern":"uniform"`, `"pattern":3`, 1), "r.jsonl:2: pattern: expected text, got 3"},
		{"point without offered", strings.Replace(pointLine(ff4, "dor", "uniform", 0.5, 0.5, "1"), `"offered":0.5,`, "", 1), `r.jsonl:2: point line lacks "offered"`},
	}
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
