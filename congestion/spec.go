package congestion

import (
	"fmt"
	"slices"

	"netsim/kernel"
	"netsim/keyerr"
)

// Metric names (seed 003 §2.5).
const (
	// SumMaxCong is, per run, the sum over levels of the largest stream
	// congestion of the level.
	SumMaxCong = "sum_max_cong"
	// HistMaxCong is the congestion of every stream of every run.
	HistMaxCong = "hist_max_cong"
	// HistAccBand is, per run, the mean stream bandwidth 1/congestion as a
	// fraction of the link bandwidth: for bisect patterns the effective
	// bisection bandwidth Λ of seed 000 as a fraction of full bisection.
	HistAccBand = "hist_acc_band"
	// DepMaxDelay is, per run, the longest path through the first
	// pattern's streams weighted by their congestion.
	DepMaxDelay = "dep_max_delay"
)

// MetricNames lists the metrics, in report order.
func MetricNames() []string { return []string{SumMaxCong, HistMaxCong, HistAccBand, DepMaxDelay} }

// Subsets: how the hosts of a communicator smaller than the machine are
// chosen.
const (
	// SubsetLinearBFS takes the first hosts in breadth-first order from
	// host 0, filling the fewest switches.
	SubsetLinearBFS = "linear_bfs"
	// SubsetRand takes a new random set of hosts every run.
	SubsetRand = "rand"
)

// Defaults of Spec.
const (
	DefaultRuns   = 1000
	DefaultSubset = SubsetLinearBFS
	DefaultPolicy = PolicyFirst
)

// MaxRuns is the largest number of runs per pattern: each keeps a 24-byte
// result until the metrics are reduced.
const MaxRuns = 1 << 20

// Spec is one congestion study: the [congestion] section of an
// experiment file.
type Spec struct {
	// Patterns lists the patterns, each simulated on its own.
	Patterns []string
	// Runs is the number of runs (random mappings) per pattern.
	Runs int
	// Commsize is the number of hosts taking part; 0 means all.
	Commsize int
	// Subset chooses the hosts when Commsize is below the host count.
	Subset string
	// Metrics lists the metrics to report (default: all).
	Metrics []string
	// Level restricts the patterns to one level; −1 means all levels.
	Level int
	// First and Second are the two patterns of ptrnvsptrn; First runs on
	// ranks 0..PartCommsize−1, Second on the rest of the communicator.
	First, Second string
	// PartCommsize is the communicator size of First.
	PartCommsize int
	// Policy picks among several candidate ports (PolicyFirst, PolicyDest).
	Policy string
	// Seed is the seed of the runs' random streams.
	Seed uint64
}

// Check reports the first problem of s for a network of hosts hosts, as
// "key: what is wrong", so the caller can attribute it to a file line.
func (s *Spec) Check(hosts int) error {
	if len(s.Patterns) == 0 {
		return keyerr.New("patterns", "missing or empty (expected a list such as [\"bisect\"])")
	}
	usesPvP := false
	for _, p := range s.Patterns {
		if !slices.Contains(PatternNames(), p) {
			return keyerr.New("patterns", "unknown pattern %q (expected one of %v)", p, PatternNames())
		}
		usesPvP = usesPvP || p == "ptrnvsptrn"
	}
	if s.Runs < 1 || s.Runs > MaxRuns {
		return keyerr.New("runs", "%d is out of range (expected 1..%d)", s.Runs, MaxRuns)
	}
	if s.Commsize < 0 || s.Commsize > hosts {
		return keyerr.New("commsize", "%d is out of range (expected 0 for all, or 2..%d, the hosts of the network)", s.Commsize, hosts)
	}
	n := s.Ranks(hosts)
	if n < 2 {
		return keyerr.New("commsize", "%d, need at least 2 hosts", n)
	}
	if !slices.Contains([]string{SubsetLinearBFS, SubsetRand}, s.Subset) {
		return keyerr.New("subset", "unknown %q (expected \"linear_bfs\" or \"rand\")", s.Subset)
	}
	for _, m := range s.Metrics {
		if !slices.Contains(MetricNames(), m) {
			return keyerr.New("metrics", "unknown metric %q (expected one of %v)", m, MetricNames())
		}
	}
	if s.Level < -1 {
		return keyerr.New("level", "%d, expected a level ≥ 0 (or omit the key for all levels)", s.Level)
	}
	if !slices.Contains(Policies(), s.Policy) {
		return keyerr.New("paths", "unknown policy %q (expected \"first\" or \"dest\")", s.Policy)
	}
	pvpKeys := s.First != "" || s.Second != "" || s.PartCommsize != 0
	if !usesPvP {
		if pvpKeys {
			return keyerr.New("first", "first, second and part_commsize are only used with the pattern ptrnvsptrn")
		}
		return s.checkLevel(n)
	}
	for _, kp := range [][2]string{{"first", s.First}, {"second", s.Second}} {
		key, p := kp[0], kp[1]
		if p == "" {
			return keyerr.New(key, "missing (ptrnvsptrn needs first and second patterns)")
		}
		if p == "ptrnvsptrn" || !slices.Contains(PatternNames(), p) {
			return keyerr.New(key, "unknown pattern %q for ptrnvsptrn", p)
		}
	}
	if s.PartCommsize < 1 || s.PartCommsize >= n {
		return keyerr.New("part_commsize", "%d is out of range (expected 1..%d, below commsize %d)", s.PartCommsize, n-1, n)
	}
	return s.checkLevel(n)
}

// checkLevel checks that every pattern has level s.Level on n ranks.
func (s *Spec) checkLevel(n int) error {
	if s.Level < 0 {
		return nil
	}
	for _, p := range s.Patterns {
		rng := kernel.NewRNG(s.Seed) // a throwaway draw for rand
		if _, err := levelsFor(s, p, n, &rng); err != nil {
			return err
		}
	}
	return nil
}

// Ranks returns the communicator size on a network of hosts hosts.
func (s *Spec) Ranks(hosts int) int {
	if s.Commsize == 0 {
		return hosts
	}
	return s.Commsize
}

// metrics returns the metrics to report.
func (s *Spec) metrics() []string {
	if len(s.Metrics) == 0 {
		return MetricNames()
	}
	return s.Metrics
}

// PatternLabel returns the name pattern is reported under: ptrnvsptrn
// shows its parts, as in "ptrnvsptrn(tree:800,bisect)".
func (s *Spec) PatternLabel(pattern string) string {
	if pattern != "ptrnvsptrn" {
		return pattern
	}
	return fmt.Sprintf("ptrnvsptrn(%s:%d,%s)", s.First, s.PartCommsize, s.Second)
}
