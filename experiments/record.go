package experiments

import (
	"errors"

	"netsim/fabric"
	"netsim/kernel"
	"netsim/results"
)

// Record kinds.
const (
	// KindPoint is a measured load.
	KindPoint = results.KindPoint
	// KindSaturation is the result of a saturation search.
	KindSaturation = results.KindSaturation
	// KindError is a point whose simulation failed.
	KindError = results.KindError
)

// Record is one result: a measured point, a saturation value, the
// effective bisection bandwidth of an exchange (KindEBB), the completion
// of a workload (KindWorkload), or a failed point, exchange or workload.
type Record struct {
	// Kind is KindPoint, KindSaturation, KindEBB, KindWorkload or
	// KindError.
	Kind string
	// Experiment is the experiment the record belongs to.
	Experiment *Experiment
	// Pattern is the traffic pattern's name.
	Pattern string
	// Offered is the offered load of a point or failed point.
	Offered float64
	// Hosts is the network's hosts (points and saturation results; 0 in
	// one read back from a line written before netsim wrote it).
	Hosts int
	// Sources is the hosts that send under the pattern when the routing
	// leaves pairs of hosts unreachable (loads are per sending host), and
	// Unreachable the ordered pairs it leaves so; both 0 when it connects
	// every pair.
	Sources     int
	Unreachable int64
	// Seed is the point's seed (points and errors), or the experiment seed
	// (saturation).
	Seed uint64
	// Stats are the measurements of a point.
	Stats fabric.Stats
	// Stable says whether a point sustained its load: its verdict is
	// stable.
	Stable bool
	// Verdict is a point's verdict and its basis (judge).
	Verdict results.Verdict
	// Saturation is the highest stable load found by the search.
	Saturation float64
	// Undecided counts the loads the search tested whose verdict stayed
	// undecided at max_measure; Contrary is 1 if the load two steps above
	// the saturation was stable, against the unstable one between them.
	Undecided, Contrary int
	// Bound is the channel-load bound that capped the search ([sweep]
	// bound), or 0 if none did.
	Bound float64
	// EBB is the result of an exchange (KindEBB); of a workload, its
	// packets, route changes and probes.
	EBB fabric.EBB
	// Workload is the result of a workload (KindWorkload).
	Workload results.Workload
	// Err is why a point failed.
	Err error
	// Resumed marks a record read back from an earlier run's results
	// rather than computed by this run.
	Resumed bool
}

// Deadlock reports whether the record is a point that failed because the
// network deadlocked.
func (r Record) Deadlock() bool {
	var d *kernel.DeadlockError
	var s *storedError
	return r.Err != nil && (errors.As(r.Err, &d) || errors.As(r.Err, &s) && s.deadlock)
}
