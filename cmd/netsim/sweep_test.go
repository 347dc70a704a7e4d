package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"netsim/experiments"
	"netsim/fabric"
)

// xsweep sweeps routing and buffers on a 16-host crossbar: 4 variants × 2
// patterns × (one listed load + a saturation search at 1/8).
const xsweep = `name = "xsweep"
seed = 3
[topology]
kind = "crossbar"
hosts = 16
[routing]
algorithm = ["dor", "distance"]
[flow_control]
buffer_flits = [16, 32]
[traffic]
patterns = ["uniform", "complement"]
packet_flits = 8
[sim]
warmup = 200
measure = 800
[sweep]
mode = "saturation"
resolution = 8
loads = [0.3]
`

// netsimEnv runs the CLI with args in an environment whose simulator is
// sim, and returns its exit status and output.
func netsimEnv(t *testing.T, ctx context.Context, sim experiments.Simulator, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runEnv(ctx, env{stdout: &out, stderr: &errb, simulate: sim}, args)
	return code, out.String(), errb.String()
}

// readFile returns the contents of path or fails the test.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// interrupter is a Simulator running fabric.Run that cancels the run once
// k simulations have completed.
type interrupter struct {
	k      int
	cancel context.CancelFunc
	mu     sync.Mutex
	done   int
}

func (in *interrupter) run(ctx context.Context, c fabric.Config) (fabric.Stats, error) {
	st, err := fabric.Run(ctx, c)
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.done++; in.done == in.k {
		in.cancel()
	}
	return st, err
}

// TestRunInterruptResume interrupts a sweep after k points, damages the
// last line of its results as a crash would, runs the same command again
// and compares with an uninterrupted run: results.jsonl and stdout are
// byte for byte the same, at any -j.
func TestRunInterruptResume(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "xsweep.toml", xsweep)
	full := filepath.Join(dir, "full")
	code, wantOut, errs := netsim(t, "run", file, "-o", full, "-j", "1", "--json")
	if code != exitOK {
		t.Fatalf("uninterrupted run: exit %d: %s", code, errs)
	}
	want := readFile(t, filepath.Join(full, "results.jsonl"))
	if n := strings.Count(want, `"kind":"saturation"`); n != 8 || !strings.Contains(want, `"variant":"routing.algorithm=distance;flow_control.buffer_flits=32"`) {
		t.Fatalf("%d saturation lines, or a variant is missing:\n%s", n, want)
	}
	for _, k := range []int{3, 11} {
		out := filepath.Join(dir, "resumed", string(rune('a'+k)))
		ctx, cancel := context.WithCancel(context.Background())
		in := &interrupter{k: k, cancel: cancel}
		code, _, errs := netsimEnv(t, ctx, in.run, "run", file, "-o", out, "-j", "2", "--json")
		cancel()
		if code != exitFailed || !strings.Contains(errs, "netsim: interrupted; the finished points are in "+filepath.Join(out, "results.jsonl")) {
			t.Fatalf("k=%d: interrupted run: exit %d: %s", k, code, errs)
		}
		kept := readFile(t, filepath.Join(out, "results.jsonl"))
		if n := strings.Count(kept, "\n"); n < k {
			t.Errorf("k=%d: %d lines kept after %d points", k, n, k)
		}
		// A crash while writing leaves half a line.
		half := `{"kind":"point","experiment":"xsweep","topology":"crossbar h16","rout`
		if err := os.WriteFile(filepath.Join(out, "results.jsonl"), []byte(kept+half), 0o644); err != nil {
			t.Fatal(err)
		}
		code, gotOut, errs := netsim(t, "run", file, "-o", out, "-j", "3", "--json")
		if code != exitOK {
			t.Fatalf("k=%d: resumed run: exit %d: %s", k, code, errs)
		}
		if !strings.Contains(errs, "cut off a half-written last line") || !strings.Contains(errs, "resuming from") {
			t.Errorf("k=%d: stderr does not tell about the torn line and the resume:\n%s", k, errs)
		}
		if got := readFile(t, filepath.Join(out, "results.jsonl")); got != want {
			t.Errorf("k=%d: resumed results.jsonl differs:\n%s\nwant\n%s", k, got, want)
		}
		if gotOut != wantOut {
			t.Errorf("k=%d: resumed stdout differs", k)
		}
		// Once complete, a rerun simulates nothing.
		code, again, errs := netsimEnv(t, context.Background(), func(context.Context, fabric.Config) (fabric.Stats, error) {
			t.Error("a complete run simulated a point again")
			return fabric.Stats{}, nil
		}, "run", file, "-o", out, "--json")
		if code != exitOK || again != wantOut {
			t.Errorf("k=%d: rerun of a complete run: exit %d, %s", k, code, errs)
		}
	}
}

// TestRunResumeChangedFile: results of an edited experiment are not
// mixed with new ones.
func TestRunResumeChangedFile(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "x.toml", small)
	out := filepath.Join(dir, "out")
	if code, _, errs := netsim(t, "run", file, "-o", out, "-q"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	writeFile(t, dir, "x.toml", strings.Replace(small, "measure = 1000", "measure = 1200", 1))
	code, stdout, errs := netsim(t, "run", file, "-o", out)
	if code != exitUsage || stdout != "" || !strings.Contains(errs, "results.jsonl:1: 11 result(s) of xbar, from point xbar||uniform|0.3 on, were computed with another configuration") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, stdout, errs)
	}
}

func TestValidate(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "base.toml", "[topology]\nkind = \"crossbar\"\nhosts = 16\n[flow_control]\nvls = 3\n")
	good := writeFile(t, dir, "good.toml", xsweep)
	incl := writeFile(t, dir, "incl.toml", "include = [\"base.toml\"]\n[routing]\nalgorithm = \"dor\"\n[traffic]\npattern = \"uniform\"\n[sweep]\nloads = [0.1, 0.2]\n")
	bad := writeFile(t, dir, "bad.toml", strings.Replace(xsweep, `["dor", "distance"]`, `["dor", "valiant"]`, 1))
	badBase := writeFile(t, dir, "badbase.toml", "include = [\"base.toml\"]\n[routing]\nalgorithm = \"dor\"\n[traffic]\npattern = \"uniform\"\n[flow_control]\nvls = 0\n")
	dup := writeFile(t, dir, "dup.toml", xsweep)
	search := writeFile(t, dir, "search.toml", "include = [\"base.toml\"]\n[routing]\nalgorithm = \"dor\"\n[traffic]\npattern = \"uniform\"\n[sweep]\nmode = \"saturation\"\n")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{"good files", []string{good, incl}, exitOK,
			[]string{good + ": ok (8 points, 8 saturation searches, 4 variants)", incl + ": ok (2 points)"}, nil},
		{"a search is not a point", []string{search}, exitOK, []string{search + ": ok (1 saturation search)\n"}, nil},
		{"a bad sweep value", []string{good, bad}, exitUsage, []string{good + ": ok"},
			[]string{bad + `:7: [routing] algorithm: sweep value 2 (valiant): unknown routing "valiant" for topology crossbar`}},
		{"a bad value over an included one", []string{badBase}, exitUsage, nil,
			[]string{badBase + ":7: [flow_control] vls: 0 is out of range (expected 1..16)"}},
		{"the same name twice", []string{good, dup}, exitUsage, []string{good + ": ok", dup + ": ok"},
			[]string{dup + `:1: name: experiment name "xsweep" is also used by ` + good}},
		{"no file", nil, exitUsage, nil, []string{"netsim validate: no experiment file given"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := netsimEnv(t, context.Background(), func(context.Context, fabric.Config) (fabric.Stats, error) {
				t.Error("validate simulated a point")
				return fabric.Stats{}, nil
			}, append([]string{"validate"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, errs)
			}
			for _, w := range tc.stdout {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.stderr {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
			if tc.stderr == nil && errs != "" {
				t.Errorf("unexpected stderr:\n%s", errs)
			}
		})
	}
}

func TestDryRun(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "xsweep.toml", xsweep)
	never := func(context.Context, fabric.Config) (fabric.Stats, error) {
		t.Error("--dry-run simulated a point")
		return fabric.Stats{}, nil
	}
	code, out, errs := netsimEnv(t, context.Background(), never, "run", "--dry-run", file)
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 16 {
		t.Fatalf("%d lines, want 16:\n%s", len(lines), out)
	}
	for i, want := range map[int]string{
		0:  "xsweep  routing.algorithm=dor;flow_control.buffer_flits=16       uniform     0.3",
		1:  "xsweep  routing.algorithm=dor;flow_control.buffer_flits=16       uniform     saturation search",
		15: "xsweep  routing.algorithm=distance;flow_control.buffer_flits=32  complement  saturation search",
	} {
		if lines[i] != want {
			t.Errorf("line %d:\n got %q\nwant %q", i, lines[i], want)
		}
	}
	// Shard 1/3 takes units 1, 4 and 7: each a pattern's load and search.
	_, out, _ = netsimEnv(t, context.Background(), never, "run", "--dry-run", "--shard", "1/3", file)
	shard := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(shard) != 6 || shard[0] != lines[2] || shard[1] != lines[3] || shard[5] != lines[15] {
		t.Errorf("shard 1/3:\n%s", out)
	}
	// With -o, points already computed are marked.
	outDir := filepath.Join(dir, "out")
	if code, _, errs := netsim(t, "run", "-q", "--shard", "0/2", "-o", outDir, file); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	_, out, _ = netsimEnv(t, context.Background(), never, "run", "--dry-run", "-o", outDir, file)
	marked := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, l := range marked {
		if done := strings.HasSuffix(l, "  done"); done != (i/2%2 == 0) {
			t.Errorf("line %d: %q (shard 0/2 ran units 0, 2, …)", i, l)
		}
	}
	if code, _, errs := netsim(t, "run", "--shard", "3/3", file); code != exitUsage || !strings.Contains(errs, `"3/3" is not a shard`) {
		t.Errorf("bad shard: exit %d: %s", code, errs)
	}
}

// TestShardMerge runs a sweep in three shards and merges them: with
// --check the result is the unsharded run's results.jsonl byte for byte,
// without it the same lines; a missing shard is reported.
func TestShardMerge(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "xsweep.toml", xsweep)
	if code, _, errs := netsim(t, "run", "-q", "-o", filepath.Join(dir, "all"), file); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := readFile(t, filepath.Join(dir, "all", "results.jsonl"))
	var shards []string
	for _, s := range []string{"0/3", "1/3", "2/3"} {
		out := filepath.Join(dir, "shard"+s[:1])
		if code, _, errs := netsim(t, "run", "-q", "-j", "2", "--shard", s, "-o", out, file); code != exitOK {
			t.Fatalf("shard %s: exit %d: %s", s, code, errs)
		}
		shards = append(shards, filepath.Join(out, "results.jsonl"))
	}
	merged := filepath.Join(dir, "merged.jsonl")
	code, _, errs := netsim(t, append([]string{"merge", "--check", file, "-o", merged}, shards[2], shards[0], shards[1])...)
	if code != exitOK || readFile(t, merged) != want {
		t.Errorf("merge --check: exit %d: %s\n%s\nwant\n%s", code, errs, readFile(t, merged), want)
	}
	code, out, errs := netsim(t, append([]string{"merge"}, shards...)...)
	if code != exitOK || !slices.Equal(sortedLines(out), sortedLines(want)) {
		t.Errorf("merge without --check: exit %d: %s", code, errs)
	}
	// A shard given twice: duplicates, not a problem; a shard left out:
	// missing points.
	code, _, errs = netsim(t, "merge", "--check", file, "-o", merged, shards[0], shards[0], shards[1])
	if code != exitFailed || !strings.Contains(errs, "duplicate line(s) left out") ||
		!strings.Contains(errs, "missing point: xsweep|routing.algorithm=dor;flow_control.buffer_flits=32|uniform|0.3") {
		t.Errorf("missing shard: exit %d:\n%s", code, errs)
	}
	if code, _, errs := netsim(t, "merge", filepath.Join(dir, "none.jsonl")); code != exitUsage || !strings.Contains(errs, "none.jsonl") {
		t.Errorf("unreadable input: exit %d: %s", code, errs)
	}
}

// sortedLines returns the lines of text, sorted.
func sortedLines(text string) []string {
	l := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	slices.Sort(l)
	return l
}
