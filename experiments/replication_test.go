package experiments

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"netsim/fabric"
)

// replicaFile sweeps nothing: one saturation search of uniform at 1/32 and
// one listed load, three replications.
const replicaFile = `name = "rep"
seed = 11
[topology]
kind = "crossbar"
hosts = 16
[routing]
algorithm = "dor"
[traffic]
patterns = ["uniform"]
[sim]
warmup = 100
measure = 1000
replications = 3
[sweep]
mode = "saturation"
resolution = 32
loads = [0.125]
`

// replicaSim sustains loads up to a threshold that depends on the
// replication, which it reads from the point's seed: 10/32, 12/32, 9/32.
type replicaSim struct {
	mu    sync.Mutex
	of    map[uint64]int // point seed → replication
	calls int
}

func newReplicaSim(seed uint64) *replicaSim {
	s := &replicaSim{of: map[uint64]int{}}
	for r := range 3 {
		rs := seed
		if r > 0 {
			rs = ReplicaSeed(seed, r)
		}
		for k := 1; k <= 32; k++ {
			s.of[PointSeed(rs, "uniform", float64(k)/32)] = r
		}
	}
	return s
}

func (s *replicaSim) run(_ context.Context, c fabric.Config) (fabric.Stats, error) {
	s.mu.Lock()
	s.calls++
	r, ok := s.of[c.Seed]
	s.mu.Unlock()
	if !ok {
		return fabric.Stats{}, fmt.Errorf("seed %d of no replication", c.Seed)
	}
	return fakeStats(c, []float64{10.0 / 32, 12.0 / 32, 9.0 / 32}[r]), nil
}

// TestReplications: [sim] replications = 3 runs every point and search
// three times with their own seeds, replication 0 as the file without
// the key; the results name their replication, resume and merge from
// shards as any others.
func TestReplications(t *testing.T) {
	exps, err := ParseFile("rep.toml", []byte(replicaFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(exps) != 3 || exps[1].Replication != 1 || exps[2].Seed == exps[1].Seed || exps[1].Seed == exps[0].Seed || exps[0].Seed != 11 {
		t.Fatalf("%d experiments, want 3 replications seeded apart", len(exps))
	}
	sim := newReplicaSim(11)
	var sats []Record
	want, _, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: sim.run, Finished: nil}, exps)
	if err != nil {
		t.Fatal(err)
	}
	if err := (Runner{Jobs: 2, Simulate: newReplicaSim(11).run}).Run(context.Background(), exps, func(r Record) error {
		if r.Kind == KindSaturation {
			sats = append(sats, r)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range sats {
		got = append(got, fmt.Sprintf("%d %v %s", r.Experiment.Replication, r.Saturation, r.Key()))
	}
	if w := []string{"0 0.3125 rep||uniform|saturation 1/32", "1 0.375 rep||uniform|saturation 1/32|replication 1",
		"2 0.28125 rep||uniform|saturation 1/32|replication 2"}; !slices.Equal(got, w) {
		t.Errorf("saturation results %q, want %q", got, w)
	}
	// Replication 0 is the file without replications, line for line.
	single, err := ParseFile("rep.toml", []byte(strings.Replace(replicaFile, "replications = 3\n", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	alone, _, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: newReplicaSim(11).run}, single)
	if err != nil {
		t.Fatal(err)
	}
	var first []string
	for _, l := range strings.SplitAfter(want, "\n") {
		if l != "" && !strings.Contains(l, `"replication":`) {
			first = append(first, l)
		}
	}
	if strings.Join(first, "") != alone {
		t.Errorf("replication 0:\n%s\nwant the file without replications:\n%s", strings.Join(first, ""), alone)
	}
	// Resumed from its own results, nothing runs again.
	lines, _, err := ReadResults(strings.NewReader(want), "rep")
	if err != nil {
		t.Fatal(err)
	}
	store, err := NewStore(exps, lines)
	if err != nil {
		t.Fatal(err)
	}
	again := newReplicaSim(11)
	resumed, _, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: again.run, Resume: store}, exps)
	if err != nil || resumed != want || again.calls != 0 || len(store.Unused()) != 0 {
		t.Errorf("resumed: %d simulations, %d lines unused, same output %v (%v)", again.calls, len(store.Unused()), resumed == want, err)
	}
	// Shards merge into the unsharded run.
	var all []ResultLine
	for i := range 2 {
		_, fin, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: newReplicaSim(11).run, Shard: Shard{i, 2}}, exps)
		if err != nil {
			t.Fatal(err)
		}
		ls, _, err := ReadResults(strings.NewReader(fin), "shard")
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, ls...)
	}
	merged, rep, err := Merge(all, exps)
	if err != nil || rep.Problems() {
		t.Fatal(err, rep)
	}
	if got := string(bytesJoinLines(merged)); got != want {
		t.Errorf("shards merged:\n%s\nwant\n%s", got, want)
	}
}
