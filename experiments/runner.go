package experiments

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"netsim/fabric"
)

// Runner runs experiments, simulating up to Jobs points at once.
type Runner struct {
	// Jobs bounds the simulations running at once; ≤ 0 means
	// runtime.NumCPU().
	Jobs int
	// Simulate runs one point; nil means fabric.Run.
	Simulate Simulator
}

// group is the work of one (experiment, pattern) pair: its records, filled
// by the tasks, and how many tasks are still running.
type group struct {
	exp     *Experiment
	pattern int
	records []Record // points and errors, one slot per task-owned load
	search  []Record // points tested by the saturation search
	sat     *Record  // the saturation result, if the search completed
	pending int

	// memo holds each load's simulation, so a load both listed and tested
	// by the search is simulated once.
	mu   sync.Mutex
	memo map[float64]*memoPoint
}

// memoPoint is one load's simulation, done or under way.
type memoPoint struct {
	done chan struct{}
	rec  Record
	err  error
}

// point simulates load for gr, or waits for and reuses the simulation of
// the same load already started by another task of gr.
func (gr *group) point(ctx context.Context, sim Simulator, load float64) (Record, error) {
	gr.mu.Lock()
	m, ok := gr.memo[load]
	if !ok {
		m = &memoPoint{done: make(chan struct{})}
		gr.memo[load] = m
	}
	gr.mu.Unlock()
	if ok {
		select {
		case <-m.done:
			return m.rec, m.err
		case <-ctx.Done():
			return Record{}, ctx.Err()
		}
	}
	m.rec, m.err = runPoint(ctx, sim, gr.exp, gr.pattern, load)
	close(m.done)
	return m.rec, m.err
}

// Run simulates every point of exps and calls emit for each record, in
// the order of definition — experiment, then pattern, then load, each
// saturation result after its pattern's points — whatever the number of
// jobs. A failed point is an error record, not an error: Run returns an
// error only if ctx is cancelled or emit fails.
func (r Runner) Run(ctx context.Context, exps []*Experiment, emit func(Record) error) error {
	sim := r.Simulate
	if sim == nil {
		sim = fabric.Run
	}
	jobs := r.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(jobs)

	var groups []*group
	for _, e := range exps {
		for p := range e.Traffic.Patterns {
			gr := &group{exp: e, pattern: p, records: make([]Record, len(e.Sweep.Loads)), memo: map[float64]*memoPoint{}}
			gr.pending = len(e.Sweep.Loads)
			if e.Sweep.Mode == ModeSaturation {
				gr.pending++
			}
			groups = append(groups, gr)
		}
	}
	out := &orderedEmitter{groups: groups, ready: make([]bool, len(groups)), emit: emit}
	for gi, gr := range groups {
		for li, load := range gr.exp.Sweep.Loads {
			g.Go(func() error {
				rec, err := gr.point(ctx, sim, load)
				if err != nil {
					return err
				}
				gr.records[li] = rec
				return out.finish(gi)
			})
		}
		if gr.exp.Sweep.Mode == ModeSaturation {
			g.Go(func() error {
				if err := gr.runSearch(ctx, sim); err != nil {
					return err
				}
				return out.finish(gi)
			})
		}
	}
	return g.Wait()
}

// runSearch runs the saturation search of gr, one point at a time.
func (gr *group) runSearch(ctx context.Context, sim Simulator) error {
	e := gr.exp
	res := e.Sweep.Resolution
	k, err := bisect(res, func(k int) (bool, error) {
		rec, err := gr.point(ctx, sim, float64(k)/float64(res))
		if err != nil {
			return false, err
		}
		gr.search = append(gr.search, rec)
		if rec.Kind == KindError {
			return false, errSearchFailed
		}
		return rec.Stable, nil
	})
	if errors.Is(err, errSearchFailed) {
		return nil // the error record says why there is no saturation value
	}
	if err != nil {
		return err
	}
	gr.sat = &Record{
		Kind:       KindSaturation,
		Experiment: e,
		Pattern:    e.Traffic.Patterns[gr.pattern],
		Seed:       e.Seed,
		Saturation: float64(k) / float64(res),
	}
	return nil
}

// errSearchFailed stops a saturation search at a failed point.
var errSearchFailed = errors.New("saturation search stopped at a failed point")

// final returns the records of a completed group: its points and errors by
// increasing load (a load both listed and tested by the search was
// simulated once and appears once), then the saturation result.
func (gr *group) final() []Record {
	all := append(slices.Clone(gr.records), gr.search...)
	slices.SortStableFunc(all, func(a, b Record) int {
		switch {
		case a.Offered < b.Offered:
			return -1
		case a.Offered > b.Offered:
			return 1
		}
		return 0
	})
	all = slices.CompactFunc(all, func(a, b Record) bool { return a.Offered == b.Offered })
	if gr.sat != nil {
		all = append(all, *gr.sat)
	}
	return all
}

// orderedEmitter emits the records of groups in group order as groups
// complete.
type orderedEmitter struct {
	mu     sync.Mutex
	groups []*group
	ready  []bool
	next   int
	emit   func(Record) error
}

// finish marks one task of group gi as done, and the group as complete
// when it was the last.
func (o *orderedEmitter) finish(gi int) error {
	o.mu.Lock()
	o.groups[gi].pending--
	last := o.groups[gi].pending == 0
	o.mu.Unlock()
	if !last {
		return nil
	}
	return o.done(gi)
}

// done marks group gi complete and emits every complete group that no
// incomplete group precedes.
func (o *orderedEmitter) done(gi int) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.ready[gi] = true
	for o.next < len(o.groups) && o.ready[o.next] {
		for _, rec := range o.groups[o.next].final() {
			if err := o.emit(rec); err != nil {
				return fmt.Errorf("writing results: %w", err)
			}
		}
		o.next++
	}
	return nil
}
