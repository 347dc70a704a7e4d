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
	// The two searches, the costliest units (each some ten loads'
	// worth), go to shards 0 and 1; the eight listed loads all fit in
	// shard 2, still the least loaded.
	of := Assign(Plan(exps), 3)
	if want := []int{2, 2, 2, 2, 2, 2, 2, 2, 0, 1}; !slices.Equal(of, want) {
		t.Errorf("units' shards %v, want %v", of, want)
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

// TestShardsBalanced: shards are dealt by expected cost, so one large
// network's search takes a shard of its own against many small points,
// where dealing units in turn would give each shard half of everything;
// the shards cover every unit once, whatever the count.
func TestShardsBalanced(t *testing.T) {
	big := mustParse(t, "big.toml", `name = "big"
[topology]
kind = "flatfly"
dims = [8, 8]
hosts_per_switch = 8
[routing]
algorithm = "dor"
[traffic]
patterns = ["uniform"]
[sweep]
mode = "saturation"
`)
	small := mustParse(t, "small.toml", `name = "small"
[topology]
kind = "flatfly"
dims = [2, 2]
hosts_per_switch = 1
[routing]
algorithm = "dor"
[traffic]
patterns = ["uniform", "complement", "transpose", "shuffle"]
[sweep]
loads = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
`)
	tasks := Plan([]*Experiment{big, small})
	of := Assign(tasks, 2)
	for _, task := range tasks {
		if task.Experiment == small && of[task.Unit] == of[tasks[0].Unit] {
			t.Errorf("%s shares a shard with the 512-host search", task.Key())
		}
	}
	for _, n := range []int{1, 2, 3, 5, 40} {
		count := map[string]int{}
		for i := range n {
			for _, task := range (Shard{i, n}).Select(tasks) {
				count[task.Key()]++
			}
		}
		for _, task := range tasks {
			if count[task.Key()] != 1 {
				t.Errorf("%d shards: %s runs %d times", n, task.Key(), count[task.Key()])
			}
		}
	}
	if Cost(tasks[0]) <= 64*Cost(tasks[len(tasks)-1]) {
		t.Errorf("a 512-host search costs %g, a 4-host point %g: want far more", Cost(tasks[0]), Cost(tasks[len(tasks)-1]))
	}
}
