package experiments

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"netsim/internal/numfmt"
)

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		ok   bool
	}{
		{"0/4", Shard{0, 4}, true}, {"3/4", Shard{3, 4}, true}, {"0/1", Shard{0, 1}, true},
		{"4/4", Shard{}, false}, {"-1/4", Shard{}, false}, {"1/0", Shard{}, false}, {"1", Shard{}, false}, {"a/b", Shard{}, false},
	} {
		got, err := ParseShard(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseShard(%q) = %v, %v", tc.in, got, err)
		}
	}
}

func TestPlanUnits(t *testing.T) {
	exps := testExperiments(t) // loads: 2 patterns × 4 loads; sat: 2 × (2 loads + search)
	var got []string
	for _, task := range Plan(exps) {
		what := numfmt.Decimal(task.Load, -1)
		if task.Search {
			what = "search"
		}
		got = append(got, task.Experiment.Name+" "+task.PatternName()+" "+what+" u"+numfmt.Decimal(float64(task.Unit), -1))
	}
	want := []string{
		"loads uniform 0.75 u0", "loads uniform 0.125 u1", "loads uniform 0.5 u2", "loads uniform 0.25 u3",
		"loads complement 0.75 u4", "loads complement 0.125 u5", "loads complement 0.5 u6", "loads complement 0.25 u7",
		"sat uniform 0.1 u8", "sat uniform 0.5 u8", "sat uniform search u8",
		"sat complement 0.1 u9", "sat complement 0.5 u9", "sat complement search u9",
	}
	if !slices.Equal(got, want) {
		t.Errorf("plan:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := len(Shard{1, 3}.Select(Plan(exps))); n != 3 { // units 1, 4, 7
		t.Errorf("shard 1/3 has %d tasks, want 3", n)
	}
	if n := len(Shard{2, 3}.Select(Plan(exps))); n != 5 { // units 2, 5, 8
		t.Errorf("shard 2/3 has %d tasks, want 5", n)
	}
}

// TestShardsMerge: the shards of a run together simulate every point
// exactly once, and merging their results with the experiments gives the
// unsharded run's results byte for byte; without the experiments, the same
// set of lines, sorted. A missing shard is reported.
func TestShardsMerge(t *testing.T) {
	exps := testExperiments(t)
	sw, err := ParseFile("sw.toml", []byte(sweepFile))
	if err != nil {
		t.Fatal(err)
	}
	exps = append(exps, sw...)
	thr := map[string]float64{"uniform": 0.3, "complement": 0.6}
	want, _, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: newFakeSim(1, thr).run}, exps)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 3, 7} {
		var all []ResultLine
		var shardKeys [][]string
		for i := range n {
			_, fin, err := runLines(context.Background(),
				Runner{Jobs: 2, Simulate: newFakeSim(uint64(i), thr).run, Shard: Shard{i, n}}, exps)
			if err != nil {
				t.Fatal(err)
			}
			lines, _, err := ReadResults(strings.NewReader(fin), "shard")
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, l := range lines {
				keys = append(keys, l.Point)
			}
			shardKeys = append(shardKeys, keys)
			all = append(all, lines...)
		}
		got, rep, err := Merge(all, exps)
		if err != nil {
			t.Fatal(err)
		}
		if s := string(bytes.Join(got, []byte("\n"))) + "\n"; s != want || rep.Problems() || len(rep.Duplicates) > 0 {
			t.Errorf("%d shards merged (report %+v):\n%s\nwant\n%s", n, rep, s, want)
		}
		sorted, rep, err := Merge(all, nil)
		if err != nil || rep.Problems() {
			t.Fatal(err, rep)
		}
		var gotLines []string
		for _, l := range sorted {
			gotLines = append(gotLines, string(l))
		}
		if !slices.Equal(sortedLines(strings.Join(gotLines, "\n")), sortedLines(want)) {
			t.Errorf("%d shards merged without experiments: not the run's lines", n)
		}
		if n < 3 {
			continue
		}
		// Without the last shard, its listed loads and searches are missing.
		var partial []ResultLine
		for _, l := range all {
			if !slices.Contains(shardKeys[n-1], l.Point) {
				partial = append(partial, l)
			}
		}
		_, rep, err = Merge(append(partial, partial[0]), exps)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Problems() || len(rep.Duplicates) != 1 {
			t.Errorf("shard %d/%d left out: report %+v", n-1, n, rep)
		}
		for _, m := range rep.Missing {
			if !slices.Contains(shardKeys[n-1], m) {
				t.Errorf("reported missing %s is not of the missing shard", m)
			}
		}
		for _, task := range (Shard{n - 1, n}).Select(Plan(exps)) {
			if k := task.Key(); !slices.Contains(rep.Missing, k) {
				t.Errorf("%s of shard %d/%d is not reported missing", k, n-1, n)
			}
		}
	}
}

// TestMergeConflictsAndForeign: two different lines for one point are a
// conflict; with experiments, lines of other experiments are foreign.
func TestMergeConflictsAndForeign(t *testing.T) {
	exps := testExperiments(t)
	_, fin, err := runLines(context.Background(), Runner{Jobs: 1, Simulate: newFakeSim(1, map[string]float64{"uniform": 0.3}).run}, exps)
	if err != nil {
		t.Fatal(err)
	}
	lines, _, err := ReadResults(strings.NewReader(fin), "r")
	if err != nil {
		t.Fatal(err)
	}
	other := lines[0]
	other.Text = bytes.Replace(other.Text, []byte(`"stable":`), []byte(`"stable" :`), 1)
	_, rep, err := Merge(append(slices.Clone(lines), other), nil)
	if err != nil || len(rep.Conflicts) != 1 || rep.Conflicts[0].Point != lines[0].Point {
		t.Errorf("conflict: %v, report %+v", err, rep)
	}
	out, rep, err := Merge(lines, exps[1:])
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Foreign) != 8 || rep.Foreign[0] != "loads||uniform|0.75" || len(out) != len(lines) {
		t.Errorf("foreign: %d lines out, report %+v", len(out), rep)
	}
}
