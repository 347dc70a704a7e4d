// Package routing holds routing functions in the extended InfiniBand model of
// seed 004 §3:
//
//	(src, dst)                          → (DLID, SL, VL)     at the source NIC
//	(switch, inPort, inVL, SL, DLID)    → {(port, priority)} forwarding
//	(switch, inPort, inVL, SL, outPort) → outVL              VL map
//
// The service level SL (0 to 15) is fixed at the source and travels in the
// packet header unchanged, as in plain InfiniBand, where the VL map is the
// SL2VL table (switch, SL, inPort, outPort) → outVL; the seed's extension
// (§3.1) lets the input VL, which switches may change hop by hop, take the
// SL's place (VL2VL) and select the forwarding table. Most routings use
// one SL and work on VLs alone; torus dor keeps its dateline mask in the
// SL (§3.2).
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

// MaxSLs is the number of InfiniBand service levels: the SL is a 4-bit
// header field. A routing's SLs() is at most MaxSLs.
const MaxSLs = 16

// Routing is a routing function in the SL- and VL-indexed model.
//
// Implementations must be safe for concurrent use by several simulations
// (they are read-only after construction) and must not allocate in Route
// or OutVL.
type Routing interface {
	// Name returns the algorithm name as written in experiment files.
	Name() string
	// VLs returns the number of virtual lanes the routing needs.
	VLs() int
	// SLs returns the number of service levels the routing uses, 1 to
	// MaxSLs: Source returns SLs in [0, SLs()).
	SLs() int
	// Source returns the destination LID, the service level and the
	// initial VL (on the host's link) for a packet from host src to host
	// dst. The packet keeps the SL to its destination.
	Source(src, dst int) (dlid int32, sl, vl int)
	// Route appends to out the candidate output ports at switch sw for a
	// packet with destination dlid and service level sl that arrived on
	// inPort with VL inVL, and returns the extended slice. When the switch
	// is the destination's switch, the candidate is the port of the
	// destination host.
	Route(sw, inPort, inVL, sl int, dlid int32, out []Candidate) []Candidate
	// OutVL returns the VL a packet with service level sl takes on
	// outPort of switch sw after arriving on inPort with VL inVL.
	OutVL(sw, inPort, inVL, sl, outPort int) int
}

// Partial is a routing that may leave some pairs of hosts unconnected, as
// the tables a subnet manager computes for a fabric its engine does not
// fit (ftree or updn roots on a non-tree fabric): a packet from src to
// dst must not be sent when Reachable(src, dst) is false. Traffic, the
// deadlock check and the metrics are over the reachable pairs only.
type Partial interface {
	// Reachable reports whether packets from host src reach host dst.
	Reachable(src, dst int) bool
	// UnreachablePairs returns the number of ordered pairs of hosts that
	// are not reachable (0 when the routing connects every pair).
	UnreachablePairs() int64
}

// Unreachable returns the ordered pairs of hosts r leaves unconnected
// (0 for a routing that is not Partial) and up to max examples, in
// order of source then destination.
func Unreachable(r Routing, hosts, max int) (pairs int64, examples [][2]int) {
	p, ok := r.(Partial)
	if !ok || p.UnreachablePairs() == 0 {
		return 0, nil
	}
	for src := 0; src < hosts && len(examples) < max; src++ {
		for dst := 0; dst < hosts && len(examples) < max; dst++ {
			if !p.Reachable(src, dst) {
				examples = append(examples, [2]int{src, dst})
			}
		}
	}
	return p.UnreachablePairs(), examples
}
