package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cheaperFile is a 4×4 FlatFly with 2 hosts per switch under DOR, whose
// complement traffic its links bound at 1/2 and whose shuffle their
// bound does not cap, searched at 1/8.
const cheaperFile = `name = "cs"
[topology]
kind = "flatfly"
dims = [4, 4]
hosts_per_switch = 2
[routing]
algorithm = "dor"
[flow_control]
vls = 2
[traffic]
patterns = ["complement", "shuffle"]
[sim]
warmup = 500
measure = 1000
[sweep]
resolution = 8
guide = "accepted"
`

// TestRunCheaperSearch: [sweep] bound, set from the command line, caps
// the search at the channel-load bound (the text output and the
// saturation line say so; no load above 1/2 is tested), and [sim]
// stop_early ends a clearly unstable point's window at its first look;
// a bad value is refused.
func TestRunCheaperSearch(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "cs.toml", cheaperFile)
	out := filepath.Join(dir, "out")
	code, stdout, errs := netsim(t, "run", file, "-o", out, "--set", "sweep.bound=true", "--set", "sim.stop_early=true")
	if code != exitOK {
		t.Fatalf("run: exit %d, %s", code, errs)
	}
	if !strings.Contains(stdout, "channel-load bound 50.0%: no load above it tested") {
		t.Errorf("text output names no bound:\n%s", stdout)
	}
	b, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := string(b)
	if !strings.Contains(lines, `"bound":0.5`) {
		t.Errorf("no bound in the saturation line:\n%s", lines)
	}
	for _, l := range results(t, out) {
		if load := l.Point[strings.LastIndex(l.Point, "|")+1:]; l.Kind == "point" && strings.Contains(l.Point, "|complement|") && load > "0.5" {
			t.Errorf("a load above the bound was tested: %s", l.Point)
		}
	}
	// Complement at twice its bound: its backlog grows at 25 times the
	// limit, and the window ends at the first look, a quarter of it.
	loads := writeFile(t, dir, "cl.toml", strings.Replace(cheaperFile, "resolution = 8\nguide = \"accepted\"\n", "mode = \"loads\"\nloads = [1.0]\n", 1))
	outLoads := filepath.Join(dir, "loads")
	if code, _, errs := netsim(t, "run", "-q", loads, "-o", outLoads, "--set", "sim.stop_early=true"); code != exitOK {
		t.Fatalf("run: exit %d, %s", code, errs)
	}
	for _, l := range results(t, outLoads) {
		if l.Kind == "point" && strings.Contains(l.Point, "|complement|") && (l.Window != 250 || l.Verdict != "unstable" || !l.DrainSkipped) {
			t.Errorf("%s: window %d, %s, drain skipped %v; want 250, unstable, true", l.Point, l.Window, l.Verdict, l.DrainSkipped)
		}
	}
	if code, _, errs := netsim(t, "run", "-q", file, "-o", filepath.Join(dir, "bad"), "--set", "sweep.bound=yes"); code != exitUsage || !strings.Contains(errs, "[sweep] bound") {
		t.Errorf("bound = yes: exit %d, %s", code, errs)
	}
}

// resultLine is what TestRunCheaperSearch reads of a results line.
type resultLine struct {
	Kind, Point, Verdict string
	Window               int64
	DrainSkipped         bool `json:"drain_skipped"`
}

// results reads the lines of DIR/results.jsonl.
func results(t *testing.T, dir string) []resultLine {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var ls []resultLine
	for _, text := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var l resultLine
		if err := json.Unmarshal([]byte(text), &l); err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
	}
	return ls
}
