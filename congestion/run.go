package congestion

import (
	"context"
	"math"
	"slices"

	"golang.org/x/sync/errgroup"

	"netsim/kernel"
	"netsim/keyerr"
	"netsim/topologies"
)

// Result is one metric of one pattern on one routing, over all runs.
type Result struct {
	Routing string `json:"routing"`
	Pattern string `json:"pattern"`
	Metric  string `json:"metric"`
	// Mean, Min and Max are over runs (over streams for hist_max_cong).
	Mean float64 `json:"mean"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	Runs int     `json:"runs"`
	// Commsize is the number of hosts taking part.
	Commsize int `json:"commsize"`
	// Layers is the number of virtual layers the routing needs.
	Layers int `json:"layers"`
	// VLsUsed is the number of distinct VLs the routing's paths use (more
	// than Layers when an engine spreads its paths over copies of the
	// layers).
	VLsUsed int `json:"vls_used"`
	// ForwardingIndex is the routing's edge-forwarding index π.
	ForwardingIndex int64 `json:"forwarding_index"`
	// Bandwidth is, for hist_max_cong, the mean stream bandwidth 1/c over
	// all streams of all runs (the "BW" line of seed 003's Listing 3).
	Bandwidth float64 `json:"bandwidth,omitempty"`
	// Histogram counts the values: congestion → streams for
	// hist_max_cong; value → runs for the others.
	Histogram []Bin `json:"histogram"`
	// Values holds the per-run values (nil for hist_max_cong).
	Values []float64 `json:"-"`
}

// Bin is one histogram bin.
type Bin struct {
	Value float64 `json:"value"`
	Count int64   `json:"count"`
}

// Study is the outcome of one pattern on one routing: its results, and the
// cable congestion map (the streams that crossed each channel, summed over
// levels and runs).
type Study struct {
	Results []Result
	Cable   []int64
}

// runOut is what one run yields.
type runOut struct {
	sumMax  int64
	accBand float64
	delay   int64
}

// Run simulates pattern (one of s.Patterns) on paths for s.Runs runs, in
// parallel on up to workers goroutines (≤ 0: one). Run i draws from
// kernel.NewRNG(s.Seed, i), so results do not depend on workers.
func Run(ctx context.Context, paths *Paths, s *Spec, pattern string, workers int) (*Study, error) {
	if err := s.Check(paths.hosts); err != nil {
		return nil, err
	}
	n := s.Ranks(paths.hosts)
	order := bfsHosts(paths.net)
	fixed, err := levelsFor(s, pattern, n, nil)
	if err != nil {
		return nil, err
	}
	if workers < 1 {
		workers = 1
	}
	workers = min(workers, s.Runs)
	outs := make([]runOut, s.Runs)
	hists := make([][]int64, workers)
	cables := make([][]int64, workers)
	g, ctx := errgroup.WithContext(ctx)
	for w := range workers {
		g.Go(func() error {
			st := newState(paths, n)
			for i := w; i < s.Runs; i += workers {
				if err := ctx.Err(); err != nil {
					return err
				}
				rng := kernel.NewRNG(s.Seed, uint64(i))
				st.mapHosts(s.Subset, order, &rng)
				levels := fixed
				if levels == nil {
					var err error
					if levels, err = levelsFor(s, pattern, n, &rng); err != nil {
						return err
					}
				}
				outs[i] = st.run(levels, firstRanks(s, pattern, n))
			}
			hists[w], cables[w] = st.hist, st.cable
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return summarize(paths, s, pattern, n, outs, hists, cables), nil
}

// usesRand reports whether pattern draws random numbers.
func usesRand(s *Spec, pattern string) bool {
	return pattern == "rand" || pattern == "ptrnvsptrn" && (s.First == "rand" || s.Second == "rand")
}

// levelsFor returns the levels of pattern on n ranks, restricted to
// s.Level; nil when the pattern is random and rng is nil (it is drawn per
// run).
func levelsFor(s *Spec, pattern string, n int, rng *kernel.RNG) ([]Level, error) {
	if usesRand(s, pattern) && rng == nil {
		return nil, nil // drawn per run
	}
	var levels []Level
	if pattern == "ptrnvsptrn" {
		a, err := Generate(s.First, s.PartCommsize, rng)
		if err != nil {
			return nil, err
		}
		b, err := Generate(s.Second, n-s.PartCommsize, rng)
		if err != nil {
			return nil, err
		}
		levels = Merge(a, b, s.PartCommsize)
	} else {
		var err error
		if levels, err = Generate(pattern, n, rng); err != nil {
			return nil, err
		}
	}
	if s.Level < 0 {
		return levels, nil
	}
	if s.Level >= len(levels) {
		return nil, keyerr.New("level", "%d is out of range: pattern %s has %d levels on %d hosts", s.Level, s.PatternLabel(pattern), len(levels), n)
	}
	return levels[s.Level : s.Level+1], nil
}

// firstRanks returns the ranks of the first pattern (dep_max_delay): all
// of them but for ptrnvsptrn.
func firstRanks(s *Spec, pattern string, n int) int {
	if pattern == "ptrnvsptrn" {
		return s.PartCommsize
	}
	return n
}

// bfsHosts returns the hosts in breadth-first order from host 0 over the
// network graph (hosts of a switch in port order).
func bfsHosts(net *topologies.Network) []int32 {
	seen := make([]bool, len(net.Switches))
	var order []int32
	queue := []int32{net.Hosts[0].Switch}
	seen[net.Hosts[0].Switch] = true
	for len(queue) > 0 {
		sw := queue[0]
		queue = queue[1:]
		for _, p := range net.Switches[sw].Ports {
			switch p.Kind {
			case topologies.HostPort:
				order = append(order, p.Peer)
			case topologies.SwitchPort:
				if !seen[p.Peer] {
					seen[p.Peer] = true
					queue = append(queue, p.Peer)
				}
			}
		}
	}
	return order
}

// state is one worker's scratch.
type state struct {
	p     *Paths
	n     int
	hosts []int32 // rank → host in this run
	all   []int32 // scratch for random subsets
	tau   []int32 // streams on each channel in the current level
	cable []int64
	hist  []int64   // streams by congestion
	inner [][]int32 // path of each stream of the level after injection
	ready []int64   // dep_max_delay: when each rank has its data
	upd   []update  // the level's changes to ready
}

// update is a rank's new ready time after a level.
type update struct {
	rank int32
	end  int64
}

func newState(p *Paths, n int) *state {
	st := &state{p: p, n: n, hosts: make([]int32, n), all: make([]int32, p.hosts),
		tau: make([]int32, p.channels), cable: make([]int64, p.channels),
		ready: make([]int64, n)}
	for i := range st.all {
		st.all[i] = int32(i)
	}
	return st
}

// mapHosts draws this run's mapping of ranks to hosts: a random order of
// the first n hosts of order (linear_bfs) or of n random hosts (rand).
func (st *state) mapHosts(subset string, order []int32, rng *kernel.RNG) {
	if subset == SubsetRand && st.n < st.p.hosts {
		for i := range st.all { // start from the same order every run
			st.all[i] = int32(i)
		}
		for i := range st.n { // partial Fisher–Yates over all hosts
			j := i + rng.IntN(len(st.all)-i)
			st.all[i], st.all[j] = st.all[j], st.all[i]
		}
		copy(st.hosts, st.all[:st.n])
		return
	}
	copy(st.hosts, order[:st.n])
	for i := st.n - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		st.hosts[i], st.hosts[j] = st.hosts[j], st.hosts[i]
	}
}

// run counts the congestion of every level and returns the run's values.
// Streams from a host to itself do not use the network and are skipped.
func (st *state) run(levels []Level, first int) runOut {
	var out runOut
	var bw float64
	var streams int
	for i := range st.ready {
		st.ready[i] = 0
	}
	for _, lv := range levels {
		st.inner = st.inner[:0]
		for _, pr := range lv {
			src, dst := st.hosts[pr.Src], st.hosts[pr.Dst]
			if src == dst {
				st.inner = append(st.inner, nil)
				continue
			}
			path := st.p.Inner(int(src), int(dst))
			st.inner = append(st.inner, path)
			st.tau[src]++
			for _, c := range path {
				st.tau[c]++
			}
		}
		var levelMax int32
		st.upd = st.upd[:0]
		for k, pr := range lv {
			src, dst := st.hosts[pr.Src], st.hosts[pr.Dst]
			if src == dst {
				continue
			}
			c := st.tau[src]
			for _, ch := range st.inner[k] {
				c = max(c, st.tau[ch])
			}
			levelMax = max(levelMax, c)
			for int(c) >= len(st.hist) {
				st.hist = append(st.hist, 0)
			}
			st.hist[c]++
			bw += 1 / float64(c)
			streams++
			if int(pr.Src) < first {
				end := st.ready[pr.Src] + int64(c)
				st.upd = append(st.upd, update{pr.Src, end}, update{pr.Dst, end})
			}
		}
		for _, u := range st.upd { // ends computed from the level's start
			st.ready[u.rank] = max(st.ready[u.rank], u.end)
		}
		out.sumMax += int64(levelMax)
		for k, pr := range lv { // reset τ, adding it to the cable map
			src, dst := st.hosts[pr.Src], st.hosts[pr.Dst]
			if src == dst {
				continue
			}
			st.cable[src] += int64(st.tau[src])
			st.tau[src] = 0
			for _, c := range st.inner[k] {
				st.cable[c] += int64(st.tau[c])
				st.tau[c] = 0
			}
		}
	}
	for _, r := range st.ready[:first] {
		out.delay = max(out.delay, r)
	}
	out.accBand = 1
	if streams > 0 {
		out.accBand = bw / float64(streams)
	}
	return out
}

// summarize reduces the runs to one Result per metric.
func summarize(p *Paths, s *Spec, pattern string, n int, outs []runOut, hists, cables [][]int64) *Study {
	st := &Study{Cable: make([]int64, p.channels)}
	for _, c := range cables {
		for i, v := range c {
			st.Cable[i] += v
		}
	}
	base := Result{Routing: p.name, Pattern: s.PatternLabel(pattern), Runs: len(outs), Commsize: n,
		Layers: p.layers, VLsUsed: p.vlsUsed, ForwardingIndex: p.index}
	for _, m := range s.metrics() {
		r := base
		r.Metric = m
		switch m {
		case HistMaxCong:
			var hist []int64
			for _, h := range hists {
				for c, v := range h {
					for c >= len(hist) {
						hist = append(hist, 0)
					}
					hist[c] += v
				}
			}
			var total, sum int64
			var bw float64
			r.Min = math.Inf(1)
			for c, v := range hist {
				if v == 0 {
					continue
				}
				total += v
				sum += int64(c) * v
				bw += float64(v) / float64(c)
				r.Min = min(r.Min, float64(c))
				r.Max = float64(c)
				r.Histogram = append(r.Histogram, Bin{Value: float64(c), Count: v})
			}
			if total > 0 {
				r.Mean = float64(sum) / float64(total)
				r.Bandwidth = bw / float64(total)
			} else {
				r.Min = 0
			}
		default:
			r.Values = make([]float64, len(outs))
			for i, o := range outs {
				switch m {
				case SumMaxCong:
					r.Values[i] = float64(o.sumMax)
				case HistAccBand:
					r.Values[i] = o.accBand
				case DepMaxDelay:
					r.Values[i] = float64(o.delay)
				}
			}
			r.Mean, r.Min, r.Max = stats(r.Values)
			width := 1.0
			if m == HistAccBand {
				width = 0.01
			}
			r.Histogram = histogram(r.Values, width)
		}
		st.Results = append(st.Results, r)
	}
	return st
}

// stats returns the mean, minimum and maximum of xs (not empty), summing
// in order so the mean does not depend on how runs were scheduled.
func stats(xs []float64) (mean, lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	var sum float64
	for _, x := range xs {
		sum += x
		lo, hi = min(lo, x), max(hi, x)
	}
	return sum / float64(len(xs)), lo, hi
}

// histogram counts the values of xs in bins of width width (1/k for an
// integer k), each named by its lower end, in increasing order; empty bins
// are left out.
func histogram(xs []float64, width float64) []Bin {
	s := slices.Clone(xs)
	inv := math.Round(1 / width) // k/inv prints as k·width without float noise
	for i, x := range s {
		s[i] = math.Floor(x*inv+1e-9) / inv
	}
	slices.Sort(s)
	var bins []Bin
	for _, x := range s {
		if k := len(bins); k > 0 && bins[k-1].Value == x {
			bins[k-1].Count++
		} else {
			bins = append(bins, Bin{Value: x, Count: 1})
		}
	}
	return bins
}
