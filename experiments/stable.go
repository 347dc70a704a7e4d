package experiments

import (
	"fmt"

	"netsim/fabric"
)

// Stable reports whether a point sustained its offered load: the accepted
// load reaches (1 − tol) times the load the hosts actually offered during
// the measurement window (s.Generated: a Bernoulli source offers the nominal
// load only on average, and comparing with the nominal value would call
// short or lightly loaded windows unstable by sampling noise alone), and the
// source queues of all hosts grew by at most tol·s.Offered·measure·hosts flits
// over the window of measure cycles, that is by at most a fraction tol of
// what was offered in it.
func Stable(s fabric.Stats, tol float64, measure int64, hosts int) bool {
	if s.Accepted < (1-tol)*s.Generated {
		return false
	}
	growth := float64(s.QueueEnd - s.QueueStart)
	return growth <= tol*s.Offered*float64(measure)*float64(hosts)
}

// MinVerdictPackets is the fewest measured packets a point must deliver
// for the verdict stable: with fewer, a handful of packets would decide
// it (each one more than 1 % of the sample), and a window in which no
// packet was created or none arrived would be stable by default. A point
// that would be stable with fewer is a failed point (FewPacketsError);
// one that is unstable stays so, as its source queues or its shortfall
// say.
const MinVerdictPackets = 100

// FewPacketsError is why a point has no verdict: it delivered fewer than
// MinVerdictPackets measured packets.
type FewPacketsError struct {
	// Delivered and Measured are the measured packets delivered and
	// created in the window of Window cycles.
	Delivered, Measured, Window int64
}

// Error implements the error interface.
func (e *FewPacketsError) Error() string {
	return fmt.Sprintf("no verdict: %d measured packets delivered (%d created in the %d-cycle window), a verdict needs at least %d: lengthen [sim] measure, raise the load or shorten [traffic] packet_flits",
		e.Delivered, e.Measured, e.Window, MinVerdictPackets)
}
