package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// netsim runs the CLI with args and returns its exit status and output.
func netsim(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// cliCase is a command line and what it should print and return.
type cliCase struct {
	name           string
	args           []string
	code           int
	stdout, stderr string // stdout exactly; stderr contains it ("": empty)
}

// runCLICases runs each case as a subtest.
func runCLICases(t *testing.T, tests []cliCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := netsim(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errs)
			}
			if out != tc.stdout {
				t.Errorf("stdout\n%s\nwant\n%s", out, tc.stdout)
			}
			if !strings.Contains(errs, tc.stderr) || (tc.stderr == "" && errs != "") {
				t.Errorf("stderr %q, want it to contain %q", errs, tc.stderr)
			}
		})
	}
}

// readOut returns the file name that a run wrote in its output directory
// dir.
func readOut(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeFile writes text to name in dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// small is a quick experiment on a 16-host crossbar.
const small = `name = "xbar"
seed = 3
[topology]
kind = "crossbar"
hosts = 16
[routing]
algorithm = "dor"
[traffic]
patterns = ["uniform", "complement"]
packet_flits = 8
[sim]
warmup = 200
measure = 1000
[sweep]
mode = "saturation"
resolution = 8
loads = [0.3]
`

func TestCommands(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     string
		stderr     string
		emptyOther bool
	}{
		{"no command", nil, exitUsage, "", "Usage:", true},
		{"help", []string{"help"}, exitOK, "netsim run [FILE.toml ...] [-o DIR] [-j N] [--threads N|auto] [--json]", "", true},
		{"-h", []string{"-h"}, exitOK, "netsim version", "", true},
		{"--help", []string{"--help"}, exitOK, "Exit status", "", true},
		{"help run", []string{"help", "run"}, exitOK, "-o DIR", "", true},
		{"help version", []string{"help", "version"}, exitOK, "Prints netsim's version", "", true},
		{"help unknown", []string{"help", "fly"}, exitUsage, "", `unknown help topic "fly"`, true},
		{"run -h", []string{"run", "-h"}, exitOK, "--json", "", true},
		{"version", []string{"version"}, exitOK, "netsim " + version + " (go", "", true},
		{"version with argument", []string{"version", "x"}, exitUsage, "", "version takes no arguments", true},
		{"unknown command", []string{"fly"}, exitUsage, "", `unknown command "fly"`, true},
		{"unknown flag", []string{"run", "--fast"}, exitUsage, "", "unknown flag --fast", true},
		{"bad -j", []string{"run", "-j", "x"}, exitUsage, "", `invalid value "x" for flag -j`, true},
		{"negative -j", []string{"run", "-j", "-1"}, exitUsage, "", "-j: -1 is not a valid number of jobs", true},
		{"empty -o", []string{"run", "-o", "", "x.toml"}, exitUsage, "", "netsim run: -o: empty value (expected DIR)", true},
		{"empty --rows", []string{"table", "--rows=", "r.jsonl"}, exitUsage, "", "netsim table: --rows: empty value (expected KEYS)", true},
		{"empty --format", []string{"table", "--format", "", "r.jsonl"}, exitUsage, "", "netsim table: --format: empty value (expected md or csv)", true},
		{"empty --check", []string{"merge", "r.jsonl", "--check="}, exitUsage, "", `invalid value "" for flag --check: empty value (expected FILE.toml)`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := netsim(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errs)
			}
			if !strings.Contains(out, tc.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tc.stdout, out)
			}
			if !strings.Contains(errs, tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, errs)
			}
			if tc.emptyOther && ((tc.stdout == "" && out != "") || (tc.stderr == "" && errs != "")) {
				t.Errorf("unexpected output: stdout %q stderr %q", out, errs)
			}
		})
	}
}

func TestRunBadInput(t *testing.T) {
	dir := t.TempDir()
	rep := func(old, new string) string { return strings.Replace(small, old, new, 1) }
	tests := []struct {
		name, text, want string
	}{
		{"malformed TOML", rep("[routing]", "[routing"), "bad.toml:6: invalid TOML"},
		{"unknown key", rep("packet_flits = 8", "packet_flitz = 8"), "bad.toml:10: [traffic] packet_flitz: unknown key (did you mean packet_flits? accepted: patterns, pattern, packet_flits, kind, messages, message_bytes, mtu_bytes, flit_bytes, bisections, ranks, placement, placement_file, halo_grid, trace, repeat, link_gbps, hotspot_fraction, hotspot_hosts, burst, idle, message_size, outstanding, reply_flits, matrix)"},
		{"wrong type", rep("hosts = 16", `hosts = "16"`), `bad.toml:5: [topology] hosts: expected an integer, got string "16"`},
		{"unknown topology", rep(`kind = "crossbar"`, `kind = "butterfly"`), `bad.toml:4: [topology] kind: unknown topology "butterfly"`},
		{"unknown routing", rep(`algorithm = "dor"`, `algorithm = "valiant"`), `bad.toml:7: [routing] algorithm: unknown routing "valiant"`},
		{"unknown pattern", rep(`"complement"]`, `"bitrev"]`), `bad.toml:9: [traffic] patterns: unknown pattern "bitrev"`},
		{"bit pattern on 12 hosts", rep("hosts = 16", "hosts = 12"), `bad.toml:9: [traffic] patterns: pattern "complement" needs a power-of-two host count, got 12 hosts`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			good := writeFile(t, dir, "good.toml", small)
			bad := writeFile(t, dir, "bad.toml", tc.text)
			code, out, errs := netsim(t, "run", good, bad)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if out != "" {
				t.Errorf("something ran: %s", out)
			}
			if !strings.Contains(errs, filepath.Join(dir, tc.want)) {
				t.Errorf("stderr lacks %q:\n%s", filepath.Join(dir, tc.want), errs)
			}
		})
	}
	code, _, errs := netsim(t, "run", filepath.Join(dir, "none.toml"))
	if code != exitUsage || !strings.Contains(errs, "none.toml: cannot read") {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
}

func TestRunJSONAndOutDir(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "xbar.toml", small)
	outDir := filepath.Join(dir, "out", "nested")
	// Flags after the file, as in the documented usage.
	code, out, errs := netsim(t, "run", file, "-o", outDir, "-j", "2", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	kinds := map[string]int{}
	pointKeys := []string{"kind", "experiment", "topology", "routing", "pattern", "offered", "accepted",
		"latency_avg", "latency_p99", "hops_avg", "hops_medium", "hops_low", "stable", "generated", "flow_control", "switching", "vls",
		"packet_flits", "seed", "delivered", "measured_packets", "cycles"}
	satKeys := []string{"kind", "experiment", "topology", "routing", "pattern", "saturation"}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not JSON: %q: %v", l, err)
		}
		kind, _ := m["kind"].(string)
		kinds[kind]++
		keys := pointKeys
		if kind == "saturation" {
			keys = satKeys
			if s, ok := m["saturation"].(float64); !ok || s < 0 || s > 1 {
				t.Errorf("saturation %v not a fraction in [0, 1]", m["saturation"])
			}
		}
		for _, k := range keys {
			if _, ok := m[k]; !ok {
				t.Errorf("%s line lacks %q: %s", kind, k, l)
			}
		}
		if m["experiment"] != "xbar" || m["topology"] != "crossbar h16" || m["routing"] != "dor" {
			t.Errorf("identity fields wrong: %s", l)
		}
	}
	if kinds["saturation"] != 2 || kinds["point"] < 4 || len(kinds) != 2 {
		t.Errorf("record kinds %v, want 2 saturation and points only", kinds)
	}
	results, err := os.ReadFile(filepath.Join(outDir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if string(results) != out {
		t.Errorf("results.jsonl differs from stdout:\n%s\nvs\n%s", results, out)
	}
	table, err := os.ReadFile(filepath.Join(outDir, "table.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Points", "## Saturation", "| crossbar h16 | dor |", "| xbar | crossbar h16 | dor | uniform | 0.3 |"} {
		if !strings.Contains(string(table), want) {
			t.Errorf("table.md lacks %q:\n%s", want, table)
		}
	}
	// table.md and table.csv hold what netsim table prints from results.jsonl.
	resultsPath := filepath.Join(outDir, "results.jsonl")
	code, md, errs := netsim(t, "table", resultsPath)
	if code != exitOK || !strings.Contains(string(table), "## Saturation\n\n"+md) {
		t.Errorf("table.md lacks netsim table's output (exit %d, %s):\n%s", code, errs, md)
	}
	csv, err := os.ReadFile(filepath.Join(outDir, "table.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if code, out, _ := netsim(t, "table", "--format", "csv", resultsPath); code != exitOK || out != string(csv) || !strings.HasPrefix(out, "topology,routing,uniform,complement\n") {
		t.Errorf("table.csv:\n%s\nnetsim table --format csv:\n%s", csv, out)
	}
	for _, name := range []string{"throughput-crossbar_h16-uniform", "latency-crossbar_h16-complement", "saturation-crossbar_h16"} {
		for _, ext := range []string{".png", ".svg"} {
			if st, err := os.Stat(filepath.Join(outDir, name+ext)); err != nil || st.Size() == 0 {
				t.Errorf("plot %s%s: %v", name, ext, err)
			}
		}
	}
}

func TestRunTextOutput(t *testing.T) {
	file := writeFile(t, t.TempDir(), "xbar.toml", small)
	code, out, errs := netsim(t, "run", "-j", "1", file)
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"xbar: crossbar h16, dor, credit 1 VL × 64 flits, cut-through, 8-flit packets",
		"  pattern        offered  accepted", "  uniform         0.3000", "  complement   saturation "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestRunQuickStart(t *testing.T) {
	code, out, errs := netsim(t, "run", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if n := strings.Count(out, `"kind":"saturation"`); n != 2 {
		t.Errorf("%d saturation lines, want 2:\n%s", n, out)
	}
}

// TestRunDeterministicAcrossJobs checks that -j 1 and -j 2 write the same
// results.jsonl for the example experiment (testdata), with the
// measurement window cut from 10,000 to 1,000 cycles and warm-up from 2,000
// to 500 to keep the test in seconds.
func TestRunDeterministicAcrossJobs(t *testing.T) {
	text, err := os.ReadFile("../../experiments/testdata/ff8x8-dor.toml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(text), "measure = 10000", "measure = 1000", 1)
	s = strings.Replace(s, "warmup = 2000", "warmup = 500", 1)
	dir := t.TempDir()
	file := writeFile(t, dir, "ff8x8-dor.toml", s)
	var results [2][]byte
	for i, jobs := range []string{"1", "2"} {
		outDir := filepath.Join(dir, "j"+jobs)
		code, _, errs := netsim(t, "run", "-j", jobs, "-o", outDir, file)
		if code != exitOK {
			t.Fatalf("-j %s: exit %d: %s", jobs, code, errs)
		}
		if results[i], err = os.ReadFile(filepath.Join(outDir, "results.jsonl")); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(results[0], results[1]) {
		t.Errorf("results.jsonl differ between -j 1 and -j 2:\n%s\nvs\n%s", results[0], results[1])
	}
	if !bytes.Contains(results[0], []byte(`"kind":"saturation"`)) {
		t.Errorf("no saturation result:\n%s", results[0])
	}
}

// ring is a ring under routing without a dateline, with one VL and small
// buffers: at heavy load it deadlocks.
const ring = `name = "ring-deadlock"
[topology]
kind = "ring"
switches = 8
hosts_per_switch = 1
[routing]
algorithm = "dor-nodateline"
[flow_control]
vls = 1
buffer_flits = 4
[switch]
switching = "wormhole"
[traffic]
pattern = "uniform"
packet_flits = 16
[sim]
warmup = 500
measure = 2000
deadlock_window = 1000
[sweep]
loads = [0.9]
`

func TestRunDeadlock(t *testing.T) {
	file := writeFile(t, t.TempDir(), "ring.toml", ring)
	code, out, errs := netsim(t, "run", "--json", file)
	if code != exitFailed {
		t.Errorf("exit %d, want %d", code, exitFailed)
	}
	if !strings.Contains(errs, "netsim: failed point: experiment ring-deadlock, pattern uniform, load 0.9: deadlock:") ||
		!strings.Contains(errs, "1 point(s) failed, 1 of them by deadlock") {
		t.Errorf("stderr does not report the deadlocked point:\n%s", errs)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("stdout is not one JSON line: %q", out)
	}
	if m["kind"] != "error" || m["deadlock"] != true || m["offered"] != 0.9 || m["pattern"] != "uniform" {
		t.Errorf("error line: %s", out)
	}
}

// TestSearchFails: searches whose points cannot give a saturation end
// with status 1, the reason on stderr and no saturation line:
//   - runs shorter than deadlock_window (3,000 measured cycles, the
//     default window of 10,000): the deadlocked points are reported as
//     deadlocks, with their cycle of waiting round the ring, not as
//     unstable points of a saturation;
//   - points that deliver no measured packet (packets of 65,535 flits,
//     1,200 cycles): they have no verdict, and the search stops at the
//     first of them saying why.
func TestSearchFails(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		stderr     []string // all of them on stderr
		stdout     string   // on stdout ("" : nothing asked)
		noStable   bool     // no point may be stable
	}{
		{"short deadlock", `name = "ring-short"
[topology]
kind = "ring"
switches = 8
hosts_per_switch = 1
[routing]
algorithm = "dor-nodateline"
[flow_control]
vls = 1
[traffic]
pattern = "uniform"
[sim]
measure = 3000
[sweep]
mode = "saturation"
resolution = 32
`, []string{"by deadlock", "cycle of waiting (8 input buffers"}, `"deadlock":true`, false},
		{"no packets", `name = "huge"
[topology]
kind = "crossbar"
hosts = 8
[routing]
algorithm = "dor"
[flow_control]
buffer_flits = 4
[switch]
switching = "wormhole"
[traffic]
pattern = "uniform"
packet_flits = 65535
[sim]
warmup = 200
measure = 1000
[sweep]
mode = "saturation"
resolution = 16
`, []string{"no verdict: 0 measured packets delivered", "lengthen [sim] measure"}, "", true},
	} {
		file := writeFile(t, t.TempDir(), "search.toml", tc.file)
		code, out, errs := netsim(t, "run", "--json", file)
		if code != exitFailed {
			t.Errorf("%s: exit %d, want %d", tc.name, code, exitFailed)
		}
		for _, want := range tc.stderr {
			if !strings.Contains(errs, want) {
				t.Errorf("%s: stderr does not say %q:\n%s", tc.name, want, errs)
			}
		}
		if !strings.Contains(out, tc.stdout) || strings.Contains(out, `"kind":"saturation"`) || tc.noStable && strings.Contains(out, `"stable":true`) {
			t.Errorf("%s: results: want %q and no saturation (no stable point: %v):\n%s", tc.name, tc.stdout, tc.noStable, out)
		}
	}
}

// failingWriter fails every write, like a closed pipe.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestRunFailuresExitOne: an interrupted run and output that cannot be
// written end with status 1, not 0 or 2.
func TestRunFailuresExitOne(t *testing.T) {
	file := writeFile(t, t.TempDir(), "small.toml", small)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	if code := run(ctx, []string{"run", file}, &out, &errb); code != exitFailed {
		t.Errorf("interrupted run: status %d, want %d (stderr %q)", code, exitFailed, errb.String())
	}
	errb.Reset()
	if code := run(context.Background(), []string{"run", "--json", file}, failingWriter{}, &errb); code != exitFailed {
		t.Errorf("unwritable output: status %d, want %d (stderr %q)", code, exitFailed, errb.String())
	}
	if !strings.Contains(errb.String(), "broken pipe") {
		t.Errorf("stderr %q does not say why the output failed", errb.String())
	}
}

// TestRunDoubleDash: after "--" every argument is a file, even one that
// looks like a flag.
func TestRunDoubleDash(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "-j.toml", small)
	t.Chdir(dir)
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"run", "--json", "--", "-j.toml"}, &out, &errb); code != exitOK {
		t.Fatalf("status %d, stderr %q", code, errb.String())
	}
	if !strings.Contains(out.String(), `"experiment":"xbar"`) {
		t.Fatalf("the file after -- was not run: %q", out.String())
	}
}

// TestRunFollowSearch runs a file sweeping the buffer with [sweep] search
// = "follow" and with bisection: the same saturation values, the
// variants after the first in fewer points.
func TestRunFollowSearch(t *testing.T) {
	dir := t.TempDir()
	base := strings.Replace(small, "resolution = 8", "resolution = 32", 1)
	base = strings.Replace(base, "[traffic]", "[flow_control]\nbuffer_flits = [16, 24, 32]\n[traffic]", 1)
	sats := map[string][]string{}
	points := map[string]int{}
	for _, search := range []string{"bisect", "follow"} {
		file := writeFile(t, dir, search+".toml", base+"search = \""+search+"\"\n")
		code, out, errs := netsim(t, "run", "--json", "-j", "2", file)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", search, code, errs)
		}
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatal(err)
			}
			switch m["kind"] {
			case "saturation":
				sats[search] = append(sats[search], fmt.Sprint(m["variant"], " ", m["pattern"], " ", m["saturation"]))
			case "point":
				points[search]++
			}
		}
	}
	if !slices.Equal(sats["follow"], sats["bisect"]) || len(sats["follow"]) != 6 {
		t.Errorf("saturations with follow:\n%s\nwith bisect:\n%s", strings.Join(sats["follow"], "\n"), strings.Join(sats["bisect"], "\n"))
	}
	if points["follow"] >= points["bisect"] {
		t.Errorf("follow simulated %d points, bisect %d", points["follow"], points["bisect"])
	}
}
