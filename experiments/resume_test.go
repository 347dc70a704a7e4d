package experiments

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"netsim/fabric"
)

func TestReadResults(t *testing.T) {
	e := mustParse(t, "small.toml", base)
	var full bytes.Buffer
	for _, r := range sampleRecords(t) {
		r.Experiment = e
		if err := WriteJSON(&full, r); err != nil {
			t.Fatal(err)
		}
	}
	text := full.String()
	ls := strings.SplitAfter(text, "\n")
	// A point line as netsim wrote it before it measured hops by priority.
	old := regexp.MustCompile(`"hops_medium":[0-9.]+,"hops_low":[0-9.]+,`).ReplaceAllString(ls[0], "")
	if old == ls[0] {
		t.Fatalf("point line without hops_medium and hops_low: %s", ls[0])
	}
	tests := []struct {
		name  string
		text  string
		lines int
		torn  int64
		err   string
	}{
		{"complete", text, 3, -1, ""},
		{"written before hops by priority", old + ls[1], 2, -1, ""},
		{"empty", "", 0, -1, ""},
		{"blank lines", ls[0] + "\n" + ls[1], 2, -1, ""},
		{"last line cut", ls[0] + ls[1] + ls[2][:40], 2, int64(len(ls[0] + ls[1])), ""},
		{"last line without newline", ls[0] + strings.TrimSuffix(ls[1], "\n"), 1, int64(len(ls[0])), ""},
		{"garbage last line", ls[0] + "{\"kind\":\n", 1, int64(len(ls[0])), ""},
		{"garbage in the middle", ls[0] + "oops\n" + ls[1], 0, -1, "r.jsonl:2: not a results line"},
		{"no point field", `{"kind":"point","experiment":"x","topology":"t","routing":"r","pattern":"p","offered":0.5}` + "\n" + ls[0], 0, -1, "r.jsonl:1: not a results line: no point or experiment field"},
		{"no topology field", strings.Replace(ls[0], `"topology":`, `"topologie":`, 1) + ls[1], 0, -1, `r.jsonl:1: not a results line: point line lacks "topology"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lines, torn, err := ReadResults(strings.NewReader(tc.text), "r.jsonl")
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(lines) != tc.lines || torn != tc.torn {
				t.Errorf("%d lines, torn at %d; want %d, %d", len(lines), torn, tc.lines, tc.torn)
			}
			for _, l := range lines {
				// A line read back writes out as it was.
				var b bytes.Buffer
				if err := WriteJSON(&b, l.record(e)); err != nil || strings.TrimSuffix(b.String(), "\n") != string(l.Text) {
					t.Errorf("line %d rewritten as\n%s\nwas\n%s", l.Line, b.String(), l.Text)
				}
			}
		})
	}
}

// cancellingSim wraps a Simulator: it cancels the run's context once k
// simulations have completed, and counts the simulations of every point.
type cancellingSim struct {
	inner  Simulator
	k      int
	cancel context.CancelFunc
	mu     sync.Mutex
	done   int
	calls  map[string]int
}

func (c *cancellingSim) run(ctx context.Context, cfg fabric.Config) (fabric.Stats, error) {
	st, err := c.inner(ctx, cfg)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err == nil {
		c.calls[fmt.Sprintf("%p %s %v", cfg.Net, cfg.Pattern.Name(), cfg.Load)]++
		if c.done++; c.done == c.k && c.cancel != nil {
			c.cancel()
		}
	}
	return st, err
}

// runLines runs exps and returns the emitted JSON lines and the lines the
// Finished hook received, in completion order.
func runLines(ctx context.Context, r Runner, exps []*Experiment) (emitted, finished string, err error) {
	var em, fin bytes.Buffer
	r.Finished = func(rec Record) error { return WriteJSON(&fin, rec) }
	err = r.Run(ctx, exps, func(rec Record) error { return WriteJSON(&em, rec) })
	return em.String(), fin.String(), err
}

// TestRunnerResume interrupts a run after k simulations, resumes it from
// the lines its Finished hook received, and compares with an uninterrupted
// run: the same records in the same order, no point simulated twice over
// the two runs (saturation searches resume from the loads they tested),
// and the finished lines of both runs together are the run's lines once.
func TestRunnerResume(t *testing.T) {
	exps := testExperiments(t)
	thr := map[string]float64{"uniform": 0.3, "complement": 0.6}
	want, wantFinished, err := runLines(context.Background(), Runner{Jobs: 3, Simulate: newFakeSim(1, thr).run}, exps)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, 5, 17} {
		t.Run(fmt.Sprint("k=", k), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			first := &cancellingSim{inner: newFakeSim(uint64(k), thr).run, k: k, cancel: cancel, calls: map[string]int{}}
			_, fin1, err := runLines(ctx, Runner{Jobs: 3, Simulate: first.run}, exps)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("interrupted run: %v", err)
			}
			lines, torn, err := ReadResults(strings.NewReader(fin1), "first")
			if err != nil || torn != -1 || len(lines) < k {
				t.Fatalf("%d lines (torn %d) after %d simulations: %v", len(lines), torn, k, err)
			}
			store, err := NewStore(exps, lines)
			if err != nil {
				t.Fatal(err)
			}
			second := &cancellingSim{inner: newFakeSim(uint64(k+1), thr).run, calls: map[string]int{}}
			var prog []Progress
			r := Runner{Jobs: 2, Simulate: second.run, Resume: store, Progress: func(p Progress) { prog = append(prog, p) }}
			got, fin2, err := runLines(context.Background(), r, exps)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("resumed output differs:\n%s\nwant\n%s", got, want)
			}
			for key, n := range second.calls {
				if n+first.calls[key] != 1 {
					t.Errorf("%s simulated %d + %d times", key, first.calls[key], n)
				}
			}
			all := sortedLines(fin1 + fin2)
			if w := sortedLines(wantFinished); !slices.Equal(all, w) {
				t.Errorf("finished lines of both runs:\n%s\nwant\n%s", strings.Join(all, "\n"), strings.Join(w, "\n"))
			}
			last := prog[len(prog)-1]
			if last.Done != last.Total || last.Resumed != len(lines)-strings.Count(fin1, `"kind":"saturation"`) || last.Running != 0 {
				t.Errorf("final progress %+v with %d lines resumed", last, len(lines))
			}
		})
	}
}

// sortedLines returns the lines of text, sorted.
func sortedLines(text string) []string {
	l := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	slices.Sort(l)
	return l
}

func TestNewStoreProblems(t *testing.T) {
	exps := testExperiments(t)
	_, fin, err := runLines(context.Background(), Runner{Jobs: 1, Simulate: newFakeSim(1, map[string]float64{"uniform": 0.3}).run}, exps[:1])
	if err != nil {
		t.Fatal(err)
	}
	lines, _, err := ReadResults(strings.NewReader(fin), "r.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// The same line twice is kept once.
	s, err := NewStore(exps, append(slices.Clone(lines), lines[0]))
	if err != nil || s.Len() != len(lines) {
		t.Errorf("duplicate line: %v, %d results", err, s.Len())
	}
	// A changed experiment makes its old lines an error.
	changed := mustParse(t, "loads.toml", edit(t, `name = "small"`, `name = "loads"`,
		"loads = [0.25, 0.5]", "loads = [0.75, 0.125, 0.5, 0.25]", "measure = 1000", "measure = 2000"))
	_, err = NewStore([]*Experiment{changed}, lines)
	if err == nil || !strings.HasPrefix(err.Error(), "r.jsonl:1: 8 result(s) of loads, from point loads||uniform|0.75 on, were computed with another configuration") {
		t.Errorf("changed configuration: %v", err)
	}
	// Two different lines for one point are an error.
	other := lines[1]
	other.Text = bytes.Replace(other.Text, []byte(`"cycles":0`), []byte(`"cycles":1`), 1)
	_, err = NewStore(exps, append(slices.Clone(lines), other))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("point %s differs from its line 2", other.Point)) {
		t.Errorf("conflicting lines: %v", err)
	}
}

// TestResultsFileResume: a results file with a torn last line is cut,
// appended to and rewritten in canonical order, equal to an uninterrupted
// run's.
func TestResultsFileResume(t *testing.T) {
	exps := testExperiments(t)
	thr := map[string]float64{"uniform": 0.3, "complement": 0.6}
	want, _, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: newFakeSim(1, thr).run}, exps)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "results.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	sim := &cancellingSim{inner: newFakeSim(2, thr).run, k: 6, cancel: cancel, calls: map[string]int{}}
	runFile := func(ctx context.Context, sim Simulator) ([]Record, *ResultsFile, error) {
		rf, err := OpenResults(path, exps)
		if err != nil {
			t.Fatal(err)
		}
		var recs []Record
		err = Runner{Jobs: 2, Simulate: sim, Resume: rf.Store, Finished: rf.Append}.Run(ctx, exps,
			func(r Record) error { recs = append(recs, r); return nil })
		return recs, rf, err
	}
	_, rf, err := runFile(ctx, sim.run)
	if !errors.Is(err, context.Canceled) || rf.Close() != nil {
		t.Fatalf("interrupted run: %v", err)
	}
	// A crash in the middle of a write leaves half a line.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := bytes.Count(data, []byte("\n"))
	half := `{"kind":"point","experiment":"loads","topo`
	if err := os.WriteFile(path, append(data, half...), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, rf, err := runFile(context.Background(), newFakeSim(3, thr).run)
	if err != nil {
		t.Fatal(err)
	}
	if string(rf.Torn) != half || rf.Store.Len() != n {
		t.Errorf("torn %q, %d stored; want %q and %d", rf.Torn, rf.Store.Len(), half, n)
	}
	if err := rf.Finish(recs); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("resumed results file:\n%s\nwant\n%s", got, want)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("rewritten file mode %v, %v", fi.Mode(), err)
	}
}
