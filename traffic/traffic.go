// Package traffic provides destination patterns and injection processes.
package traffic

import "netsim/kernel"

// Pattern chooses the destination host of each packet.
//
// Implementations are read-only after construction and safe for concurrent
// use; randomness comes only from the rng passed in.
type Pattern interface {
	// Name returns the pattern name as written in experiment files.
	Name() string
	// Dest returns the destination of the next packet from host src.
	Dest(src int, rng *kernel.RNG) int
}
