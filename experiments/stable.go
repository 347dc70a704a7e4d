package experiments

import "netsim/fabric"

// Stable reports whether a point sustained its offered load: the accepted
// load reaches (1 − tol)·offered, and the source queues of all hosts grew
// by at most tol·offered·measure·hosts flits over the measurement window
// of measure cycles, that is by at most a fraction tol of what was offered
// in it.
func Stable(s fabric.Stats, offered, tol float64, measure int64, hosts int) bool {
	if s.Accepted < (1-tol)*offered {
		return false
	}
	growth := float64(s.QueueEnd - s.QueueStart)
	return growth <= tol*offered*float64(measure)*float64(hosts)
}
