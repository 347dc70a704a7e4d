package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seed001Scaled are the scaled seed-001 experiment files.
func seed001Scaled(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(studyPath("seed001", "scaled", "*.toml"))
	if err != nil || len(files) != 3 {
		t.Fatalf("scaled seed-001 files %v: %v", files, err)
	}
	return files
}

// TestSeed001Scaled runs the scaled seed-001 experiments end to end: the
// results file, its table of the parameter study and the Figure 6 charts;
// a run interrupted (a torn last line, lines missing) and resumed, and a
// run in shards merged, give the same results file byte for byte.
func TestSeed001Scaled(t *testing.T) {
	files := seed001Scaled(t)
	dir := t.TempDir()
	code, _, errOut := netsim(t, append([]string{"run", "-q", "-j", "2", "-o", dir}, files...)...)
	if code != exitOK {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	results := filepath.Join(dir, "results.jsonl")
	want := readFile(t, results)
	lines := strings.Split(strings.TrimSpace(want), "\n")
	if len(lines) != 32 { // fig6: 3 hosts × 3 dispersions × 2 patterns; probing 3 × 2; params 8
		t.Fatalf("%d results lines, want 32", len(lines))
	}
	avg := map[string]float64{} // parameter study: "threshold/probability" → avg
	for _, l := range lines {
		var r struct {
			Kind, Experiment, Dispersion string
			Hosts, Threshold             int
			Probability, Min, Avg, Max   float64
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Kind != "ebb" || !(0 < r.Min && r.Min <= r.Avg && r.Avg <= r.Max && r.Max <= 1) {
			t.Errorf("bad line %s", l)
		}
		if r.Experiment == "seed001-scaled-params" {
			avg[fmt.Sprintf("%d/%v", r.Threshold, r.Probability)] = r.Avg
		}
	}
	if len(avg) != 8 {
		t.Fatalf("parameter study: %d results, want 8", len(avg))
	}
	for _, name := range []string{"table.md", "table.csv", "ebb-bisection.png", "ebb-bisection.svg", "ebb-bridge.png"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() < 100 {
			t.Errorf("%s: %v", name, err)
		}
	}
	if md := readFile(t, filepath.Join(dir, "table.md")); !strings.Contains(md, "## Effective bisection bandwidth") {
		t.Errorf("table.md:\n%s", md)
	}

	// The parameter study as seed 001 §5.3 lays it out.
	params := filepath.Join(dir, "params.jsonl")
	var pl []string
	for _, l := range lines {
		if strings.Contains(l, `"experiment":"seed001-scaled-params"`) {
			pl = append(pl, l)
		}
	}
	writeFile(t, dir, "params.jsonl", strings.Join(pl, "\n")+"\n")
	code, csv, errOut := netsim(t, "table", params, "--format", "csv", "--rows", "threshold", "--cols", "probability", "--value", "avg")
	if code != exitOK {
		t.Fatalf("table: exit %d: %s", code, errOut)
	}
	wantCSV := "threshold,0.5,1\n"
	for _, th := range []int{0, 4, 8, 16} {
		wantCSV += fmt.Sprintf("%d,%s,%s\n", th, pct(avg[fmt.Sprint(th, "/0.5")]), pct(avg[fmt.Sprint(th, "/1")]))
	}
	if csv != wantCSV {
		t.Errorf("parameter table\n%s\nwant\n%s", csv, wantCSV)
	}
	code, md, _ := netsim(t, "table", params)
	if code != exitOK || !strings.Contains(md, "| pattern | dispersion | threshold | 0.5 | 1 |") {
		t.Errorf("default table (exit %d):\n%s", code, md)
	}
	plots := t.TempDir()
	code, out, errOut := netsim(t, "plot", results, "-o", plots)
	if code != exitOK || !strings.Contains(out, "ebb-bisection.png") {
		t.Errorf("plot: exit %d: %s %s", code, out, errOut)
	}

	t.Run("resume", func(t *testing.T) {
		dir2 := t.TempDir()
		torn := strings.Join([]string{lines[5], lines[0], lines[20], lines[31][:40]}, "\n")
		writeFile(t, dir2, "results.jsonl", torn)
		code, _, errOut := netsim(t, append([]string{"run", "-j", "1", "-o", dir2}, files...)...)
		if code != exitOK || !strings.Contains(errOut, "resuming from 3 exchanges") || !strings.Contains(errOut, "half-written") {
			t.Fatalf("resume: exit %d: %s", code, errOut)
		}
		if got := readFile(t, filepath.Join(dir2, "results.jsonl")); got != want {
			t.Errorf("resumed results differ:\n%s\nwant\n%s", got, want)
		}
		code, out, _ := netsim(t, append([]string{"run", "--dry-run", "-o", dir2}, files...)...)
		if code != exitOK || strings.Count(out, "exchange  done\n") != 32 {
			t.Errorf("dry run (exit %d):\n%s", code, out)
		}
	})

	t.Run("shards", func(t *testing.T) {
		var parts []string
		for i := range 3 {
			d := t.TempDir()
			code, _, errOut := netsim(t, append([]string{"run", "-q", "--shard", fmt.Sprint(i, "/3"), "-o", d}, files...)...)
			if code != exitOK {
				t.Fatalf("shard %d: exit %d: %s", i, code, errOut)
			}
			parts = append(parts, filepath.Join(d, "results.jsonl"))
		}
		args := []string{"merge", parts[2], parts[0], parts[1]}
		for _, f := range files {
			args = append(args, "--check", f)
		}
		code, got, errOut := netsim(t, args...)
		if code != exitOK || got != want {
			t.Errorf("merge: exit %d: %s\n%s\nwant\n%s", code, errOut, got, want)
		}
	})
}

// pct renders a fraction in % as netsim table --format csv does.
func pct(v float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", 100*v), "0"), ".")
}
