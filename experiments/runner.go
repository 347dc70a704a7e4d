package experiments

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"netsim/fabric"
	"netsim/results"
)

// Runner runs experiments, simulating up to Jobs points at once.
type Runner struct {
	// Jobs bounds the simulations running at once; ≤ 0 means
	// runtime.NumCPU().
	Jobs int
	// Simulate runs one point; nil means fabric.Run.
	Simulate Simulator
	// Exchange runs the exchanges of one exchange pattern kind of a
	// bisection exchange; nil means fabric.RunEBB.
	Exchange ExchangeSimulator
	// Workload runs one workload; nil means fabric.RunWorkload.
	Workload WorkloadSimulator
	// Shard selects the part of the tasks to run; the zero value runs
	// them all.
	Shard Shard
	// Resume holds the results of an earlier run: a point found there is
	// not simulated again but emitted as it was (Record.Resumed); a
	// saturation search whose result is there is not run again (its
	// result and the points of its pattern are emitted as they were,
	// whatever search found them), and an unfinished one replays the
	// loads it already tested.
	Resume *Store
	// Finished, if set, receives every record this run computes (not the
	// resumed ones) as soon as it is known — a point or failed point when
	// its simulation ends, a saturation result when its search ends — in
	// completion order, one call at a time. An error stops the run.
	Finished func(Record) error
	// Links, if set, receives the links' load of every point simulated
	// with [sim] link_stats, as soon as its simulation ends (one call at
	// a time); the record keeps none of it. An error stops the run.
	Links func(Record, *fabric.LinkStats) error
	// Progress, if set, receives the run's progress whenever a simulation
	// starts or a point is done, one call at a time.
	Progress func(Progress)
	// Cores, if positive, gives the points the cores the run leaves
	// idle: a simulation that starts while k tasks (points, searches,
	// exchanges) are left, running or waiting to, gets ⌊Cores/min(k,
	// Jobs)⌋ threads (fabric.Config.Threads) if that is more than its
	// [sim] threads: one each while more tasks are left than Jobs, more
	// for the last ones, so the last searches of a run use the cores the
	// finished ones left; as k only falls, the threads of the simulations
	// running never add up to more than Cores. The results do not change.
	Cores int
}

// Progress is a snapshot of a run's progress.
type Progress struct {
	// Done counts the points known: simulated, failed or resumed.
	Done int
	// Total is Done plus the points still to come: every listed load
	// and, for each saturation search not finished yet, the loads a
	// bisection at its resolution tests, fewer for a search that follows
	// the previous variant's (followLoads) or is guided by accepted loads
	// (guidedLoads) (a load both listed and tested is counted once when
	// its search ends). At the end Done equals Total.
	Total int
	// Resumed counts the points of Done taken from Runner.Resume.
	Resumed int
	// Running counts the simulations under way.
	Running int
	// Current is the key of the simulation started last (see
	// Record.Key).
	Current string
}

// run is the state of one Runner.Run.
type run struct {
	Runner
	sim  Simulator
	exch ExchangeSimulator
	work WorkloadSimulator

	mu      sync.Mutex // serializes the hooks and guards prog
	prog    Progress
	linksMu sync.Mutex // serializes the Links hook

	// left counts the tasks not finished (Runner.Cores), and jobs is the
	// most that run at once.
	left atomic.Int32
	jobs int
}

// task runs f as one task of the run, and counts it out of left when it
// ends.
func (rn *run) task(f func() error) func() error {
	return func() error {
		defer rn.left.Add(-1)
		return f()
	}
}

// spread makes rn's simulators give each simulation the threads
// Runner.Cores allows it.
func (rn *run) spread() {
	threads := func(cfg *fabric.Config) {
		cfg.Threads = max(cfg.Threads, rn.Cores/max(min(int(rn.left.Load()), rn.jobs), 1))
	}
	sim, exch, work := rn.sim, rn.exch, rn.work
	rn.sim = func(ctx context.Context, cfg fabric.Config) (fabric.Stats, error) {
		threads(&cfg)
		return sim(ctx, cfg)
	}
	rn.exch = func(ctx context.Context, cfg fabric.Config, kind string, patterns int, x fabric.Exchange) (fabric.EBB, error) {
		threads(&cfg)
		return exch(ctx, cfg, kind, patterns, x)
	}
	rn.work = work // a workload runs on one thread
}

// group is the work of one (experiment, pattern) pair within the shard:
// its records, filled by the tasks, and how many tasks are still running.
type group struct {
	exp      *Experiment
	pattern  int
	loads    []float64 // the listed loads run
	search   bool      // the saturation search is run
	exchange bool      // the group is the exchange of a bisection exchange
	workload bool      // the group is the run of a workload
	records  []Record  // points and errors, one slot per listed load
	searched []Record  // points tested by the saturation search
	sat      *Record   // the saturation result, if the search completed
	pending  int
	estimate int // the points counted for the group in Progress.Total
	// follows is set when the search starts from the saturation the
	// previous variant's search found for the pattern (SearchFollow);
	// followed is the search that starts from this one's, run next by the
	// same task.
	follows  bool
	followed *group
	index    int // in the run's groups

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

// point simulates load for gr, takes it from the resumed results, or waits
// for and reuses the simulation of the same load already started by
// another task of gr.
func (gr *group) point(ctx context.Context, rn *run, load float64) (Record, error) {
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
	defer close(m.done)
	key := gr.exp.pointKey(gr.exp.Traffic.Patterns[gr.pattern], load)
	if rec, ok := rn.Resume.take(gr.exp, key); ok {
		m.rec = rec
		rn.update(func(p *Progress) { p.Done++; p.Resumed++ })
		return m.rec, nil
	}
	rn.update(func(p *Progress) { p.Running++; p.Current = key })
	m.rec, m.err = runPoint(ctx, rn.sim, gr.exp, gr.pattern, load)
	if m.err != nil {
		rn.update(func(p *Progress) { p.Running-- })
		return m.rec, m.err
	}
	if links := m.rec.Stats.Links; links != nil {
		m.rec.Stats.Links = nil
		if rn.Links != nil {
			rn.linksMu.Lock()
			err := rn.Links(m.rec, links)
			rn.linksMu.Unlock()
			if err != nil {
				rn.update(func(p *Progress) { p.Running-- })
				m.err = fmt.Errorf("writing the links of %s: %w", key, err)
				return m.rec, m.err
			}
		}
	}
	m.err = rn.finished(m.rec, func(p *Progress) { p.Running--; p.Done++ })
	return m.rec, m.err
}

// update applies f to the progress and reports it.
func (rn *run) update(f func(*Progress)) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	f(&rn.prog)
	if rn.Progress != nil {
		rn.Progress(rn.prog)
	}
}

// finished hands a computed record to the Finished hook, then updates the
// progress with f.
func (rn *run) finished(rec Record, f func(*Progress)) error {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	var err error
	if rn.Finished != nil {
		if err = rn.Finished(rec); err != nil {
			err = fmt.Errorf("writing results: %w", err)
		}
	}
	f(&rn.prog)
	if rn.Progress != nil {
		rn.Progress(rn.prog)
	}
	return err
}

// bisectLoads estimates the loads a saturation search at resolution
// tests.
func bisectLoads(resolution int) int { return bits.Len(uint(resolution)) }

// followLoads estimates the loads a search at resolution tests when it
// starts from the previous variant's result (see gallop): about two fewer
// than a bisection, which tests bisectLoads − 1 on average. On the scaled
// seed-004 files (1/32) the follow searches took 2.8–3.5 points; replayed
// on their values at 1/128 (each k/32 as 4k to 4k+3), 5.1.
// It is never more than bisectLoads.
func followLoads(resolution int) int {
	b := bisectLoads(resolution)
	return min(b, max(b-3, 2))
}

// guidedLoads estimates the loads a search guided by accepted loads tests
// at resolution, from a hint or not: replayed on the seed-004 files'
// points (docs/experiment-file.md, [sweep] guide), 3.8–4.3 at 1/128 and 3.5–3.6 at 1/32,
// against 5.2–7.0 and 4.0–5.0 unguided. It is never more than
// bisectLoads.
func guidedLoads(resolution int) int {
	b := bisectLoads(resolution)
	return min(b, max(b/2, 2))
}

// searchLoads estimates the loads a saturation search of sw tests when it
// does not follow another.
func searchLoads(sw Sweep) int {
	if sw.Guide == GuideAccepted {
		return guidedLoads(sw.Resolution)
	}
	return bisectLoads(sw.Resolution)
}

// groups returns the work of the tasks of r's shard, by (experiment,
// pattern) in order.
func (r Runner) groups(exps []*Experiment) []*group {
	var out []*group
	var last *group
	for _, t := range r.Shard.Select(Plan(exps)) {
		if last == nil || last.exp != t.Experiment || last.pattern != t.Pattern {
			last = &group{exp: t.Experiment, pattern: t.Pattern, memo: map[float64]*memoPoint{}}
			out = append(out, last)
		}
		switch {
		case t.Exchange:
			last.exchange = true
			last.estimate++
		case t.Workload:
			last.workload = true
			last.estimate++
		case t.Search:
			last.search = true
			last.estimate += searchLoads(t.Experiment.Sweep)
		default:
			last.loads = append(last.loads, t.Load)
			last.estimate++
		}
		last.pending++
	}
	chains := map[string]*group{} // SearchFollow: the last search of a file's pattern
	for _, gr := range out {
		if gr.search && gr.exp.Sweep.Search == SearchFollow {
			chain := gr.exp.followChain(gr.pattern)
			if prev := chains[chain]; prev != nil {
				prev.followed, gr.follows = gr, true
				if gr.exp.Sweep.Guide != GuideAccepted {
					res := gr.exp.Sweep.Resolution
					gr.estimate -= bisectLoads(res) - followLoads(res)
				}
			}
			chains[chain] = gr
		}
	}
	for i, gr := range out {
		gr.index = i
		gr.records = make([]Record, len(gr.loads))
		if gr.exchange || gr.workload {
			gr.records = make([]Record, 1)
		}
	}
	return out
}

// Run simulates the points of exps in r's shard and calls emit for each
// record — resumed or computed — in the order of definition: experiment
// (variants in order), then pattern, then load, each saturation result
// after its pattern's points (a bisection exchange: one record per
// exchange pattern), whatever the number of jobs. A failed point or
// exchange is an error record, not an error: Run returns an error only if ctx is
// cancelled, or emit or a hook fails.
func (r Runner) Run(ctx context.Context, exps []*Experiment, emit func(Record) error) error {
	rn := &run{Runner: r, sim: r.Simulate}
	if rn.sim == nil {
		rn.sim = fabric.Run
	}
	rn.exch = r.Exchange
	if rn.exch == nil {
		rn.exch = fabric.RunEBB
	}
	rn.work = r.Workload
	if rn.work == nil {
		rn.work = fabric.RunWorkload
	}
	jobs := r.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(jobs)

	groups := r.groups(exps)
	for _, gr := range groups {
		rn.prog.Total += gr.estimate
	}
	rn.update(func(*Progress) {})
	out := &orderedEmitter{groups: groups, ready: make([]bool, len(groups)), emit: emit, rn: rn}
	// The tasks are all listed before the first starts: Runner.Cores
	// counts those left.
	var tasks []func() error
	for gi, gr := range groups {
		for li, load := range gr.loads {
			tasks = append(tasks, func() error {
				rec, err := gr.point(ctx, rn, load)
				if err != nil {
					return err
				}
				gr.records[li] = rec
				return out.finish(gi)
			})
		}
		if gr.exchange || gr.workload {
			tasks = append(tasks, func() error {
				run := gr.runExchange
				if gr.workload {
					run = gr.runWorkload
				}
				rec, err := run(ctx, rn)
				if err != nil {
					return err
				}
				gr.records[0] = rec
				return out.finish(gi)
			})
		}
		if gr.search && !gr.follows {
			// A search that others follow runs them after itself, in
			// the order of the variants: one task, so waiting for the
			// search before does not hold a job.
			tasks = append(tasks, func() error {
				hint := -1
				for cur := gr; cur != nil; cur = cur.followed {
					if err := cur.runSearch(ctx, rn, hint); err != nil {
						return err
					}
					if err := out.finish(cur.index); err != nil {
						return err
					}
					hint = -1
					if cur.sat != nil {
						hint = int(math.Round(cur.sat.Saturation * float64(cur.exp.Sweep.Resolution)))
					}
				}
				return nil
			})
		}
	}
	rn.left.Store(int32(len(tasks)))
	rn.jobs = jobs
	if r.Cores > 0 {
		rn.spread()
	}
	for _, f := range tasks {
		g.Go(rn.task(f))
	}
	return g.Wait()
}

// runSearch runs the saturation search of gr, one point at a time: a
// bisection, or with hint ≥ 0 (the saturation the previous variant
// found, in steps of the resolution) a search from it; then, if the
// search did not test it, the load two steps above the answer k, whose
// verdict stable contradicts the unstable k+1 (Record.Contrary). Points
// left undecided at max_measure count as not stable (Record.Undecided).
func (gr *group) runSearch(ctx context.Context, rn *run, hint int) error {
	e := gr.exp
	pattern := e.Traffic.Patterns[gr.pattern]
	if sat, points, ok := rn.Resume.takeSearch(e, pattern, gr.loads); ok {
		// Done before: its result and points stand as they are, whatever
		// search found them.
		gr.searched = points
		gr.sat = &sat
		rn.update(func(p *Progress) { p.Done += len(points); p.Resumed += len(points) })
		return nil
	}
	res := e.Sweep.Resolution
	ceil, bound := res, 0.0
	if e.Sweep.Bound {
		b, ok, err := channelBound(ctx, e, gr.pattern)
		if err != nil {
			return err
		}
		if ok {
			// A load within a millionth above a step counts as that step:
			// the bound of a link carrying 4 flows is 1/4 exactly. A
			// bound at or above the highest load caps nothing.
			if c := int(math.Floor(b*float64(res) + 1e-6)); c < res {
				ceil, bound = c, b
			}
		}
	}
	tested := map[int]bool{}
	probe := func(k int) (bool, float64, error) {
		rec, err := gr.point(ctx, rn, float64(k)/float64(res))
		if err != nil {
			return false, 0, err
		}
		gr.searched = append(gr.searched, rec)
		tested[k] = true
		if rec.Kind == KindError {
			return false, 0, errSearchFailed
		}
		// Accepted is quantized as results files hold it, so a resumed
		// search reads what the uninterrupted one read.
		return rec.Stable, rec.Stats.Accepted, nil
	}
	k, err := search(res, ceil, hint, e.Sweep.Guide == GuideAccepted, probe)
	contrary := 0
	if err == nil && k+2 <= ceil && !tested[k+2] {
		// The search assumes the verdicts monotone in the load; the step
		// past the unstable one above the answer checks it where a
		// verdict near the limit is least sure. A failed point there
		// (its error line says why) leaves the answer as it is.
		ok, _, perr := probe(k + 2)
		if ok {
			contrary = 1
		}
		if perr != nil && !errors.Is(perr, errSearchFailed) {
			err = perr
		}
	}
	if errors.Is(err, errSearchFailed) {
		return nil // the error record says why there is no saturation value
	}
	if err != nil {
		return err
	}
	undecided := 0
	for _, r := range gr.searched {
		if r.Verdict.Outcome == results.VerdictUndecided {
			undecided++
		}
	}
	gr.sat = &Record{
		Kind:       KindSaturation,
		Experiment: e,
		Pattern:    pattern,
		Hosts:      e.Hosts(),
		Seed:       e.Seed,
		Saturation: float64(k) / float64(res),
		Undecided:  undecided,
		Contrary:   contrary,
		Bound:      bound,
	}
	gr.sat.Sources, gr.sat.Unreachable = e.partialSources(gr.pattern)
	return rn.finished(*gr.sat, func(*Progress) {})
}

// errSearchFailed stops a saturation search at a failed point.
var errSearchFailed = errors.New("saturation search stopped at a failed point")

// final returns the records of a completed group: its points and errors by
// increasing load (a load both listed and tested by the search was
// simulated once and appears once), then the saturation result.
func (gr *group) final() []Record {
	all := append(slices.Clone(gr.records), gr.searched...)
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
	rn     *run
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

// done marks group gi complete, corrects the progress total with the
// group's actual points, and emits every complete group that no
// incomplete group precedes.
func (o *orderedEmitter) done(gi int) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	gr := o.groups[gi]
	points := len(gr.final())
	if gr.sat != nil {
		points--
	}
	o.rn.update(func(p *Progress) { p.Total += points - gr.estimate })
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
