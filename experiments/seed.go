package experiments

import (
	"hash/fnv"
	"math"

	"netsim/kernel"
)

// ReplicaSeed returns the experiment seed of replication r > 0 of an
// experiment seeded with seed ([sim] replications): a stream of its own,
// so replications see independent traffic.
func ReplicaSeed(seed uint64, r int) uint64 {
	const replicas = 0x7265706c // "repl"
	rng := kernel.NewRNG(seed, replicas, uint64(r))
	return rng.Uint64()
}

// PointSeed derives the seed of one simulation point from the experiment
// seed and the point's identity — its pattern name and offered load — so a
// point gets the same seed whatever order or parallelism runs it in, and
// the same point in two experiments with the same seed sees the same
// random streams.
func PointSeed(experimentSeed uint64, pattern string, load float64) uint64 {
	h := fnv.New64a()
	h.Write([]byte(pattern))
	r := kernel.NewRNG(experimentSeed, h.Sum64(), math.Float64bits(load))
	return r.Uint64()
}
