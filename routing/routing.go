// Package routing holds routing functions in the extended InfiniBand model of
// seed 004 §3.1:
//
//	(src, dst)                          → (DLID, VL)        at the source NIC
//	(switch, inPort, inVL, DLID)        → {(port, priority)} forwarding
//	(switch, inPort, inVL, outPort)     → outVL             VL map
//
// A switch sees routing only through the Routing interface; the selection
// among candidates (priority, then local congestion, then a seeded random
// tie-break) is the switch's job, not the routing's.
//
// CheckDeadlock builds the channel dependency graph of any Routing from
// every candidate it can return and finds a cycle in it, if there is one.
package routing

// Priority ranks candidate ports: the switch takes the highest priority that
// can make progress.
type Priority uint8

const (
	// Low marks deflection (a port that takes the packet farther away).
	Low Priority = 1
	// Medium marks a sideways port (same distance to the destination).
	Medium Priority = 2
	// High marks a minimal port.
	High Priority = 3
)

// Candidate is one output port a packet may take.
type Candidate struct {
	Port     int32
	Priority Priority
}

// Routing is a routing function in the VL-indexed model.
//
// Implementations must be safe for concurrent use by several simulations
// (they are read-only after construction) and must not allocate in Route.
type Routing interface {
	// Name returns the algorithm name as written in experiment files.
	Name() string
	// VLs returns the number of virtual lanes the routing needs.
	VLs() int
	// Source returns the destination LID and the initial VL for a packet
	// from host src to host dst.
	Source(src, dst int) (dlid int32, vl int)
	// Route appends to out the candidate output ports at switch sw for a
	// packet with destination dlid that arrived on inPort with VL inVL, and
	// returns the extended slice. When the switch is the destination's
	// switch, the candidate is the port of the destination host.
	Route(sw, inPort, inVL int, dlid int32, out []Candidate) []Candidate
	// OutVL returns the VL a packet takes on outPort of switch sw after
	// arriving on inPort with VL inVL.
	OutVL(sw, inPort, inVL, outPort int) int
}
