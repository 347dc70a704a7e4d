package routing

import (
	"fmt"

	"netsim/topologies"
)

// crossbarDOR routes on a single-switch crossbar: one hop to the
// destination host's port; see New.
type crossbarDOR struct {
	hosts hostTable
}

// newCrossbarDOR builds the routing for net, a crossbar, with vls virtual
// lanes available.
func newCrossbarDOR(net *topologies.Network, vls int) (*crossbarDOR, error) {
	if len(net.Switches) != 1 {
		return nil, fmt.Errorf("routing dor: a crossbar has one switch, network has %d", len(net.Switches))
	}
	hosts, err := newHostTable(net, vls)
	if err != nil {
		return nil, fmt.Errorf("routing dor: %w", err)
	}
	return &crossbarDOR{hosts: hosts}, nil
}

// Name implements Routing.
func (r *crossbarDOR) Name() string { return "dor" }

// VLs implements Routing: one VL suffices.
func (r *crossbarDOR) VLs() int { return 1 }

// SLs implements Routing: one SL.
func (r *crossbarDOR) SLs() int { return 1 }

// Source implements Routing.
func (r *crossbarDOR) Source(src, dst int) (dlid int32, sl, vl int) { return r.hosts.source(dst) }

// Route implements Routing.
func (r *crossbarDOR) Route(sw, inPort, inVL, sl int, dlid int32, out []Candidate) []Candidate {
	if !r.hosts.valid(dlid) || sw != 0 {
		return out
	}
	return append(out, Candidate{Port: r.hosts.port[dlid], Priority: High})
}

// OutVL implements Routing: the VL never changes.
func (r *crossbarDOR) OutVL(sw, inPort, inVL, sl, outPort int) int { return inVL }
