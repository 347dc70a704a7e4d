package experiments

import "netsim/fabric"

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
