package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// clos64 is a congestion study on a 64-host two-level Clos comparing two
// routings.
const clos64 = `name = "cg"
seed = 3
[topology]
kind = "clos"
ports = 16
hosts = 64
[routing]
algorithm = ["distance", "distance+1"]
[congestion]
patterns = ["bisect", "gather"]
metrics = ["hist_acc_band", "sum_max_cong"]
runs = 300
paths = "dest"
`

func TestCongestionJSON(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "cg.toml", clos64)
	code, out, errs := netsim(t, "congestion", file, "--json", "-j", "1", "-o", filepath.Join(dir, "out"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2*2*2 {
		t.Fatalf("%d lines, want 8 (2 routings × 2 patterns × 2 metrics):\n%s", len(lines), out)
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"routing", "pattern", "metric", "mean", "min", "max", "runs", "layers", "forwarding_index", "topology"} {
		if _, ok := first[k]; !ok {
			t.Errorf("missing %q in %s", k, lines[0])
		}
	}
	if first["routing"] != "distance" || first["pattern"] != "bisect" || first["metric"] != "hist_acc_band" || first["runs"] != 300.0 {
		t.Errorf("first line %s", lines[0])
	}
	if m := first["mean"].(float64); !(m > 0.5 && m < 1) {
		t.Errorf("Λ = %v, want between 0.5 and 1 on a full-bisection Clos", m)
	}
	// gather: the root's link carries 63 streams, every run.
	var g map[string]any
	json.Unmarshal([]byte(lines[3]), &g)
	if g["pattern"] != "gather" || g["metric"] != "sum_max_cong" || g["mean"] != 63.0 {
		t.Errorf("gather line %s", lines[3])
	}
	// -j does not change results.
	_, out4, _ := netsim(t, "congestion", file, "--json", "-j", "4")
	if out4 != out {
		t.Errorf("-j 4 differs from -j 1")
	}
	for _, f := range []string{"cable-distance-bisect.dot", "cable-distance+1-gather.dot", "hist_acc_band-bisect.png"} {
		if st, err := os.Stat(filepath.Join(dir, "out", f)); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
}

func TestCongestionText(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "cg.toml", clos64)
	code, out, errs := netsim(t, "congestion", file, "--runs", "20")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"clos p16 h64, routing distance: π = ", "hist_acc_band", "gather", "20"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCongestionErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, text string
		args       []string
		want       string
	}{
		{"unknown key", strings.Replace(clos64, "runs = 300", "runz = 300", 1), nil,
			"cg.toml:12: [congestion] runz: unknown key"},
		{"unknown pattern", strings.Replace(clos64, `"gather"]`, `"alltoall"]`, 1), nil,
			"cg.toml:10: [congestion] patterns: unknown pattern \"alltoall\""},
		{"commsize", strings.Replace(clos64, "runs = 300", "commsize = 65", 1), nil,
			"cg.toml:12: [congestion] commsize: 65 is out of range"},
		{"bad metric", strings.Replace(clos64, `"sum_max_cong"`, `"max"`, 1), nil,
			"cg.toml:11: [congestion] metrics: unknown metric \"max\""},
		{"no section", small, nil, "no [congestion] section"},
		{"bad runs flag", clos64, []string{"--runs", "-1"}, "--runs: -1 is out of range (expected 1..1048576)"},
		{"zero runs flag", clos64, []string{"--runs", "0"}, "--runs: 0 is out of range"},
		{"huge runs flag", clos64, []string{"--runs", "99999999999999"}, "--runs: 99999999999999 is out of range"},
		{"too many runs", strings.Replace(clos64, "runs = 300", "runs = 1073741824", 1), nil, "cg.toml:12: [congestion] runs: 1073741824 is out of range (expected 1..1048576)"},
		{"output directory under a file", clos64, []string{"-o", filepath.Join(dir, "cg.toml", "out")}, "netsim congestion: mkdir"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := writeFile(t, dir, "cg.toml", tt.text)
			code, _, errs := netsim(t, append([]string{"congestion", file}, tt.args...)...)
			if code != exitUsage || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, tt.want)
			}
		})
	}
}

func TestRunRejectsCongestionOnly(t *testing.T) {
	file := writeFile(t, t.TempDir(), "cg.toml", clos64)
	if code, out, _ := netsim(t, "validate", file); code != exitOK || out != file+": ok (a congestion study for netsim congestion; no [traffic] for netsim run)\n" {
		t.Errorf("validate: exit %d, stdout %q", code, out)
	}
	code, _, errs := netsim(t, "run", file, "-q")
	if code != exitUsage || !strings.Contains(errs, "no [traffic] section to simulate") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestCongestionLevelOutOfRange(t *testing.T) {
	file := writeFile(t, t.TempDir(), "cg.toml", strings.Replace(clos64, "runs = 300", "level = 7", 1))
	code, _, errs := netsim(t, "congestion", file)
	if code != exitUsage || !strings.Contains(errs, "cg.toml:12: [congestion] level: 7 is out of range: pattern bisect has 1 levels on 64 hosts") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}
