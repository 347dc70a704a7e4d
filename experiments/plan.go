package experiments

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Task is one unit of work of a run: a listed load of one pattern of one
// experiment variant, that pattern's saturation search, or the exchange of
// one exchange pattern of a bisection exchange.
type Task struct {
	// Experiment is the experiment variant.
	Experiment *Experiment
	// Pattern indexes Experiment.Traffic.Patterns.
	Pattern int
	// Load is the listed load; 0 for a saturation search.
	Load float64
	// Search marks the saturation search.
	Search bool
	// Exchange marks the exchange of a bisection exchange (see
	// KindExchange): all the patterns of its kind, one unit.
	Exchange bool
	// Workload marks the run of one workload pattern (see KindWorkload),
	// one unit.
	Workload bool
	// Unit numbers the shard unit the task belongs to (see Shard): a
	// saturation search and the listed loads of its pattern form one unit,
	// so they run in the same shard and share loads; without a search each
	// listed load is a unit of its own. Under SearchFollow the searches of
	// one pattern in every variant of a file form one unit, as each starts
	// from the result of the one before.
	Unit int
}

// PatternName returns the name of the task's pattern.
func (t Task) PatternName() string { return t.Experiment.Traffic.Patterns[t.Pattern] }

// Key returns the point key of a listed load, or the saturation key of a
// search (see Record.Key).
func (t Task) Key() string {
	switch {
	case t.Search:
		return t.Experiment.saturationKey(t.PatternName())
	case t.Exchange:
		return t.Experiment.ebbKey(t.PatternName())
	case t.Workload:
		return t.Experiment.workloadKey(t.PatternName())
	}
	return t.Experiment.pointKey(t.PatternName(), t.Load)
}

// Plan returns the tasks of exps in canonical order: experiment by
// experiment (a file's variants in order), pattern by pattern, the listed
// loads in file order, then the saturation search; a bisection exchange
// has one task per exchange pattern.
func Plan(exps []*Experiment) []Task {
	var tasks []Task
	unit := 0
	chains := map[string]int{} // SearchFollow: the unit of a file's pattern
	for _, e := range exps {
		if e.closed() {
			for p := range e.Traffic.Patterns {
				tasks = append(tasks, Task{Experiment: e, Pattern: p, Exchange: e.IsExchange(), Workload: e.IsWorkload(), Unit: unit})
				unit++
			}
			continue
		}
		search := e.Sweep.Mode == ModeSaturation
		for p := range e.Traffic.Patterns {
			if !search {
				for _, l := range e.Sweep.Loads {
					tasks = append(tasks, Task{Experiment: e, Pattern: p, Load: l, Unit: unit})
					unit++
				}
				continue
			}
			u := unit
			if e.Sweep.Search == SearchFollow {
				chain := e.followChain(p)
				if cu, ok := chains[chain]; ok {
					u = cu
				} else {
					chains[chain] = u
				}
			}
			if u == unit {
				unit++
			}
			for _, l := range e.Sweep.Loads {
				tasks = append(tasks, Task{Experiment: e, Pattern: p, Load: l, Unit: u})
			}
			tasks = append(tasks, Task{Experiment: e, Pattern: p, Search: true, Unit: u})
		}
	}
	return tasks
}

// Shard selects a deterministic part of a run's tasks: the units (see
// Task.Unit) are dealt to Count shards by their expected cost (Cost),
// largest first, each to the shard with the least cost so far (ties: the
// lowest shard), so that shards of one run take about as long and
// together run every task exactly once. The assignment depends only on
// the plan, so every shard computes the same. The zero value runs
// everything.
type Shard struct {
	Index, Count int
}

// ParseShard parses "I/N", with 0 ≤ I < N.
func ParseShard(s string) (Shard, error) {
	is, ns, ok := strings.Cut(s, "/")
	i, errI := strconv.Atoi(is)
	n, errN := strconv.Atoi(ns)
	if !ok || errI != nil || errN != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("%q is not a shard (expected I/N with 0 ≤ I < N, as in 0/4)", s)
	}
	return Shard{Index: i, Count: n}, nil
}

// String renders the shard as "I/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Select returns the tasks of the shard, in order.
func (s Shard) Select(tasks []Task) []Task {
	if s.Count <= 1 {
		return tasks
	}
	of := Assign(tasks, s.Count)
	var out []Task
	for _, t := range tasks {
		if of[t.Unit] == s.Index {
			out = append(out, t)
		}
	}
	return out
}

// Assign deals the units of tasks to n shards by expected cost (see
// Shard) and returns the shard of each unit, indexed by Task.Unit.
func Assign(tasks []Task, n int) []int {
	units := 0
	for _, t := range tasks {
		units = max(units, t.Unit+1)
	}
	cost := make([]float64, units)
	for _, t := range tasks {
		cost[t.Unit] += Cost(t)
	}
	order := make([]int, units)
	for u := range order {
		order[u] = u
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cost[b], cost[a]) })
	load := make([]float64, n)
	of := make([]int, units)
	for _, u := range order {
		best := 0
		for i := range load {
			if load[i] < load[best] {
				best = i
			}
		}
		of[u] = best
		load[best] += cost[u]
	}
	return of
}

// searchProbes is the number of loads a saturation search is expected to
// simulate: a bisection over the Resolution steps, and a few more to
// confirm its verdicts.
func searchProbes(resolution int) float64 {
	return math.Ceil(math.Log2(float64(max(resolution, 2)))) + 3
}

// Cost is the expected cost of a task, in host-cycles: the hosts of its
// network (the flits moved, and so the work, grow with them) times the
// cycles of a point (warm-up, measurement, drain), times the loads it
// simulates — one for a listed load, searchProbes for a saturation
// search, the patterns times the bisections for an exchange — times the
// replications. It only orders and balances shards; nothing depends on
// its exact value.
func Cost(t Task) float64 {
	e := t.Experiment
	hosts := 1.0
	if e.net != nil {
		hosts = float64(max(len(e.net.Hosts), 1))
	}
	cycles := float64(max(e.Sim.Warmup+e.Sim.Measure+e.Sim.Drain, 1))
	loads := 1.0
	switch {
	case t.Search:
		loads = searchProbes(e.Sweep.Resolution)
	case t.Exchange:
		loads = float64(max(e.Traffic.Bisections, 1))
	case t.Workload:
		// Cycles: about the flits of a message per rank, times the
		// steps of a collective (log₂ of the hosts), times its repeats.
		cycles = float64(e.Traffic.MessageBytes/max(e.Traffic.FlitBytes, 1)+1) * math.Log2(hosts+1)
		loads = float64(max(e.Traffic.Workload.Repeat, 1))
	}
	return hosts * cycles * loads * float64(max(e.Sim.Replications, 1))
}
