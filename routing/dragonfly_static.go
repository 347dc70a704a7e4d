package routing

import (
	"fmt"

	"netsim/topologies"
)

// dragonflyStatic is the Static routing of a Dragonfly (seed 004 §3.5): a
// local hop to the switch of the source group with the global link to the
// destination group, the global hop, and a local hop to the destination
// switch.
//
// VLs: a local hop taken after arriving on a global link (the hop in the
// destination group) uses VL 1; every other switch-to-switch hop (the
// local hop in the source group, a local hop between two switches of one
// group, the global hop) uses VL 0; the link to a host keeps the VL. The
// source sets VL 0. A path takes at most (local VL 0, global VL 0, local
// VL 1) in this order, so a dependency goes from a local channel on VL 0
// to a global one, from a global channel to a local one on VL 1, or into a
// host: ranking local VL 0 < global VL 0 < local VL 1, every
// dependency increases the rank, the channel dependency graph is acyclic
// and the routing is deadlock-free with 2 VLs. (With one VL the local hops
// of both groups share a lane and the graph has cycles through the global
// links.)
type dragonflyStatic struct {
	df *dragonfly
}

// newDragonflyStatic builds Static routing for net, a Dragonfly.
func newDragonflyStatic(net *topologies.Network, vls int) (*dragonflyStatic, error) {
	df, err := newDragonfly(net, vls)
	if err != nil {
		return nil, fmt.Errorf("routing static: %w", err)
	}
	return &dragonflyStatic{df: df}, nil
}

// Name implements Routing.
func (r *dragonflyStatic) Name() string { return "static" }

// VLs implements Routing: Static needs 2 VLs.
func (r *dragonflyStatic) VLs() int { return 2 }

// SLs implements Routing: one SL.
func (r *dragonflyStatic) SLs() int { return 1 }

// Source implements Routing: DLID = dst, VL 0.
func (r *dragonflyStatic) Source(src, dst int) (dlid int32, sl, vl int) {
	if uint(dst) >= uint(len(r.df.hosts.sw)) {
		return -1, 0, 0
	}
	return int32(dst), 0, 0
}

// Route implements Routing: at the destination switch its host's port, in
// the destination group the local link to the destination switch, at a
// switch with a global link to the destination group that link, and
// otherwise the local link to the switch of the group that has one. All
// candidates are High; there is more than one only where parallel links
// exist.
func (r *dragonflyStatic) Route(sw, inPort, inVL, sl int, dlid int32, out []Candidate) []Candidate {
	df := r.df
	if !df.hosts.valid(dlid) || uint(sw) >= uint(len(df.group)) {
		return out
	}
	t := int(df.hosts.sw[dlid])
	if sw == t {
		return append(out, Candidate{Port: df.hosts.port[dlid], Priority: High})
	}
	dg := df.group[t]
	if df.group[sw] == dg {
		return df.appendLocal(out, sw, t, High)
	}
	if df.isGateway(sw, dg) {
		return df.appendGlobal(out, sw, dg, High)
	}
	return df.appendToGateways(out, sw, dg, High)
}

// OutVL implements Routing: VL 1 on a local hop after a global one, the
// input VL towards a host, VL 0 otherwise.
func (r *dragonflyStatic) OutVL(sw, inPort, inVL, sl, outPort int) int {
	switch r.df.portClass(sw, outPort) {
	case dfHost:
		return inVL
	case dfLocal:
		if r.df.portClass(sw, inPort) == dfGlobal {
			return 1
		}
	}
	return 0
}
