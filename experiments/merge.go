package experiments

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"slices"

	"netsim/fabric"
)

// MergeReport lists what Merge found in its inputs besides results.
type MergeReport struct {
	// Duplicates are the lines left out because an identical line of the
	// same point came before.
	Duplicates []ResultLine
	// Conflicts are the lines left out because a different line of the
	// same point came before (that one is kept).
	Conflicts []ResultLine
	// Missing lists, when experiments are given, the points of their runs
	// that no input holds: listed loads, points a saturation search needs,
	// and the saturation results these searches could not give.
	Missing []string
	// Foreign lists, when experiments are given, the keys of lines that
	// are not points of their runs (kept after the others).
	Foreign []string
}

// Problems reports whether the merge found conflicting, missing or
// foreign points (identical duplicates are not a problem).
func (m MergeReport) Problems() bool {
	return len(m.Conflicts)+len(m.Missing)+len(m.Foreign) > 0
}

// Merge combines results lines — typically the results files of the shards
// of one run, in any order — into lines holding each point once. Without
// experiments, lines are sorted by experiment, variant and pattern (as
// strings), then by offered load, each saturation result after its
// pattern's points. With the experiments the shards ran, lines come in the
// order the unsharded run writes them, so merging every shard gives the
// unsharded run's results file byte for byte; the report then also lists
// missing and foreign points. A line of one of the experiments computed
// with another configuration is an error (see NewStore).
func Merge(inputs []ResultLine, exps []*Experiment) ([][]byte, MergeReport, error) {
	var rep MergeReport
	var lines []ResultLine
	byKey := map[string]int{}
	for _, l := range inputs {
		if i, dup := byKey[l.Point]; dup {
			if bytes.Equal(lines[i].Text, l.Text) {
				rep.Duplicates = append(rep.Duplicates, l)
			} else {
				rep.Conflicts = append(rep.Conflicts, l)
			}
			continue
		}
		byKey[l.Point] = len(lines)
		lines = append(lines, l)
	}
	if exps == nil {
		slices.SortStableFunc(lines, compareLines)
		out := make([][]byte, len(lines))
		for i, l := range lines {
			out[i] = l.Text
		}
		return out, rep, nil
	}
	store, err := NewStore(exps, lines)
	if err != nil {
		return nil, rep, err
	}
	records, missing, err := replay(exps, store)
	if err != nil {
		return nil, rep, err
	}
	rep.Missing = missing
	var out [][]byte
	for _, r := range records {
		var b bytes.Buffer
		if err := WriteJSON(&b, r); err != nil {
			return nil, rep, err
		}
		out = append(out, bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	}
	for _, l := range store.Unused() {
		rep.Foreign = append(rep.Foreign, l.Point)
		out = append(out, l.Text)
	}
	return out, rep, nil
}

// compareLines orders results lines by experiment, variant, pattern, kind
// (points and errors before the saturation result), offered load and key.
func compareLines(a, b ResultLine) int {
	rank := func(l ResultLine) int {
		if l.Kind == KindSaturation {
			return 1
		}
		return 0
	}
	return cmp.Or(cmp.Compare(a.Experiment, b.Experiment), cmp.Compare(a.Variant, b.Variant),
		cmp.Compare(a.Pattern, b.Pattern), cmp.Compare(rank(a), rank(b)), cmp.Compare(a.Offered, b.Offered),
		cmp.Compare(a.Point, b.Point))
}

// errNotStored marks a point a replay did not find.
var errNotStored = errors.New("not in the results")

// replay runs exps from store alone, simulating nothing: it returns the
// records the run would emit, in its order, and the keys of the points
// (and saturation results) the store lacks.
func replay(exps []*Experiment, store *Store) ([]Record, []string, error) {
	var records []Record
	var missing []string
	incomplete := map[string]bool{} // groups with a missing point
	sats := map[string]bool{}
	notStored := func(context.Context, fabric.Config) (fabric.Stats, error) { return fabric.Stats{}, errNotStored }
	exchangeNotStored := func(context.Context, fabric.Config, string, int, fabric.Exchange) (fabric.EBB, error) {
		return fabric.EBB{}, errNotStored
	}
	workloadNotStored := func(context.Context, fabric.Config, fabric.Workload) (fabric.WorkloadStats, error) {
		return fabric.WorkloadStats{}, errNotStored
	}
	err := Runner{Jobs: 1, Simulate: notStored, Exchange: exchangeNotStored, Workload: workloadNotStored, Resume: store}.Run(context.Background(), exps, func(r Record) error {
		switch {
		case r.Kind == KindError && errors.Is(r.Err, errNotStored):
			missing = append(missing, r.Key())
			incomplete[r.Experiment.id()+keySep+r.Pattern] = true
		case r.Kind == KindSaturation:
			sats[r.Key()] = true
			records = append(records, r)
		default:
			records = append(records, r)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	for _, t := range Plan(exps) {
		e := t.Experiment
		if t.Search && !sats[t.Key()] && incomplete[e.id()+keySep+t.PatternName()] {
			missing = append(missing, t.Key())
		}
	}
	return records, missing, nil
}
