package experiments

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"netsim/fabric"
)

// fakeExchange is an ExchangeSimulator whose results follow from the
// configuration's seed and host count; it counts its calls and fails the
// kinds in fail.
type fakeExchange struct {
	mu    sync.Mutex
	calls int
	fail  string
}

func (f *fakeExchange) run(_ context.Context, cfg fabric.Config, kind string, patterns int, _ fabric.Exchange) (fabric.EBB, error) {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
	if kind == f.fail {
		return fabric.EBB{}, errors.New("exchange: not finished within the cycle limit")
	}
	if kind == fabric.BridgePattern {
		patterns = 1
	}
	avg := 0.3 + float64(cfg.Seed%1000)/3000 + float64(len(cfg.Net.Hosts))/1e4
	return fabric.EBB{Min: avg - 0.01, Avg: avg, Max: avg + 1.0/3e4, Patterns: patterns, Packets: 1000, OutOfOrder: int64(cfg.Seed % 7)}, nil
}

// exchangeExperiments returns the 3 variants × 2 patterns of exchangeFile.
func exchangeExperiments(t *testing.T) []*Experiment {
	t.Helper()
	exps, err := ParseFile("ebb.toml", []byte(exchangeFile))
	if err != nil {
		t.Fatal(err)
	}
	return exps
}

// TestEBBResume: the real results of a run read back and resumed give the
// same lines, simulating nothing; a partial results file resumes with the
// rest simulated once each; progress counts every exchange.
func TestEBBResume(t *testing.T) {
	exps := exchangeExperiments(t)
	var last Progress
	r := Runner{Jobs: 2, Progress: func(p Progress) { last = p }}
	want, fin, err := runLines(context.Background(), r, exps)
	if err != nil {
		t.Fatal(err)
	}
	if last.Done != 6 || last.Total != 6 || last.Running != 0 {
		t.Errorf("final progress %+v, want 6 of 6 done", last)
	}
	lines, _, err := ReadResults(strings.NewReader(fin), "results.jsonl")
	if err != nil || len(lines) != 6 {
		t.Fatalf("%d lines read back: %v", len(lines), err)
	}
	for _, k := range []int{0, 2, 6} {
		t.Run(fmt.Sprint("k=", k), func(t *testing.T) {
			store, err := NewStore(exps, lines[:k])
			if err != nil {
				t.Fatal(err)
			}
			f := &fakeExchange{}
			sim := ExchangeSimulator(nil) // the real one for the rest
			if k == 6 {
				sim = f.run
			}
			got, _, err := runLines(context.Background(), Runner{Jobs: 1, Resume: store, Exchange: sim}, exps)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("resumed from %d lines:\n%s\nwant\n%s", k, got, want)
			}
			if f.calls != 0 || len(store.Unused()) != 0 {
				t.Errorf("%d exchanges run again, %d lines unused", f.calls, len(store.Unused()))
			}
		})
	}
}

// TestEBBShardsMerge: the shards of an exchange run each run their
// exchanges once, and merging them with the experiments gives the
// unsharded run's lines byte for byte; a missing shard's exchanges are
// reported by key.
func TestEBBShardsMerge(t *testing.T) {
	exps := exchangeExperiments(t)
	f := &fakeExchange{}
	want, _, err := runLines(context.Background(), Runner{Jobs: 2, Exchange: f.run}, exps)
	if err != nil {
		t.Fatal(err)
	}
	var all []ResultLine
	var missing []string
	calls := 0
	for i := 2; i >= 0; i-- {
		f := &fakeExchange{}
		_, fin, err := runLines(context.Background(), Runner{Jobs: 2, Exchange: f.run, Shard: Shard{i, 3}}, exps)
		if err != nil {
			t.Fatal(err)
		}
		calls += f.calls
		lines, _, err := ReadResults(strings.NewReader(fin), fmt.Sprint("shard", i))
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			for _, l := range lines {
				missing = append(missing, l.Point)
			}
			slices.Reverse(missing)
			slices.Sort(missing)
			continue
		}
		all = append(all, lines...)
	}
	if calls != 6 {
		t.Errorf("the shards ran %d exchanges, want 6", calls)
	}
	if len(missing) != 2 || !strings.HasSuffix(missing[0], "|ebb") {
		t.Fatalf("shard 1/3 keys %q, want two ebb keys", missing)
	}
	_, rep, err := Merge(all, exps)
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Clone(rep.Missing)
	slices.Sort(got)
	if !slices.Equal(got, missing) {
		t.Errorf("missing %q, want %q", got, missing)
	}
	// Add shard 1 back.
	_, fin, err := runLines(context.Background(), Runner{Jobs: 1, Exchange: (&fakeExchange{}).run, Shard: Shard{1, 3}}, exps)
	if err != nil {
		t.Fatal(err)
	}
	lines, _, err := ReadResults(strings.NewReader(fin), "shard1")
	if err != nil {
		t.Fatal(err)
	}
	merged, rep, err := Merge(append(all, lines...), exps)
	if err != nil || rep.Problems() {
		t.Fatalf("merge: %v, %+v", err, rep)
	}
	var b strings.Builder
	for _, l := range merged {
		b.Write(l)
		b.WriteByte('\n')
	}
	if b.String() != want {
		t.Errorf("merged:\n%s\nwant\n%s", b.String(), want)
	}
}

// TestEBBFailed: a failed exchange is an error line under the exchange's
// key, without an offered load; it is read back and resumed, not run
// again.
func TestEBBFailed(t *testing.T) {
	exps := exchangeExperiments(t)
	f := &fakeExchange{fail: fabric.BridgePattern}
	want, fin, err := runLines(context.Background(), Runner{Jobs: 2, Exchange: f.run}, exps)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(want), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d lines, want 6", len(lines))
	}
	bad := lines[1]
	for _, s := range []string{`"kind":"error"`, `"pattern":"bridge"`, `|bridge|ebb"`, `"error":"experiment ebb [nic.dispersion=static], exchange bridge: exchange: not finished`} {
		if !strings.Contains(bad, s) {
			t.Errorf("error line lacks %s: %s", s, bad)
		}
	}
	if strings.Contains(bad, `"offered"`) || !strings.Contains(lines[0], `"kind":"ebb"`) {
		t.Errorf("lines:\n%s", want)
	}
	read, _, err := ReadResults(strings.NewReader(fin), "results.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	store, err := NewStore(exps, read)
	if err != nil {
		t.Fatal(err)
	}
	again := &fakeExchange{}
	got, _, err := runLines(context.Background(), Runner{Jobs: 2, Exchange: again.run, Resume: store}, exps)
	if err != nil {
		t.Fatal(err)
	}
	if got != want || again.calls != 0 {
		t.Errorf("resumed (%d exchanges run):\n%s\nwant\n%s", again.calls, got, want)
	}
}
