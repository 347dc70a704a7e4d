package routing

import (
	"fmt"

	"netsim/topologies"
)

// ringNoDateline is minimal routing on a ring without dateline VLs. It is
// deadlock-prone on purpose; see New.
type ringNoDateline struct {
	hosts hostTable
	n     int32   // switches in the ring
	width int32   // parallel links between neighbours
	pos   []int32 // position of each switch on the ring (its coordinate)
	plus  []int32 // first of the width ports from each switch to position+1
	minus []int32 // first of the width ports from each switch to position−1
}

// newRingNoDateline builds the routing for net, a ring, with vls virtual
// lanes available.
func newRingNoDateline(net *topologies.Network, vls int) (*ringNoDateline, error) {
	hosts, err := newHostTable(net, vls)
	if err != nil {
		return nil, fmt.Errorf("routing dor-nodateline: %w", err)
	}
	r := &ringNoDateline{hosts: hosts}
	if err := r.tables(net); err != nil {
		return nil, fmt.Errorf("routing dor-nodateline: network is not a ring: %w", err)
	}
	return r, nil
}

// tables checks that net is a ring of at least 3 switches with Widths[0]
// contiguous ports to each neighbour, and fills pos, plus and minus.
func (r *ringNoDateline) tables(net *topologies.Network) error {
	if len(net.Dims) != 1 || len(net.Widths) != 1 || net.Dims[0] < 3 || net.Dims[0] != len(net.Switches) || net.Widths[0] < 1 {
		return fmt.Errorf("dims %v and widths %v do not describe a ring of %d switches", net.Dims, net.Widths, len(net.Switches))
	}
	ns := len(net.Switches)
	r.n, r.width = int32(ns), int32(net.Widths[0])
	r.pos = make([]int32, ns)
	seen := make([]bool, ns)
	for s := range net.Switches {
		c := net.Switches[s].Coord
		if len(c) != 1 || c[0] < 0 || c[0] >= r.n || seen[c[0]] {
			return fmt.Errorf("switch %d has coordinates %v, want a distinct position in [0,%d)", s, c, ns)
		}
		seen[c[0]] = true
		r.pos[s] = c[0]
	}
	r.plus = make([]int32, ns)
	r.minus = make([]int32, ns)
	for s := range net.Switches {
		var up, down, nUp, nDown int32
		for p, port := range net.Switches[s].Ports {
			if port.Kind != topologies.SwitchPort {
				continue
			}
			switch r.pos[port.Peer] {
			case (r.pos[s] + 1) % r.n:
				if err := extendRun(s, p, port.Peer, &up, &nUp); err != nil {
					return err
				}
			case (r.pos[s] + r.n - 1) % r.n:
				if err := extendRun(s, p, port.Peer, &down, &nDown); err != nil {
					return err
				}
			default:
				return fmt.Errorf("switch %d port %d goes to switch %d, not a ring neighbour", s, p, port.Peer)
			}
		}
		if nUp != r.width || nDown != r.width {
			return fmt.Errorf("switch %d has %d links to its +1 and %d to its -1 neighbour, want width %d each", s, nUp, nDown, r.width)
		}
		r.plus[s], r.minus[s] = up, down
	}
	return nil
}

// extendRun adds port p of switch s, a link to switch peer, to the run of
// parallel ports to peer starting at *first with *count ports, which must
// stay contiguous.
func extendRun(s, p int, peer int32, first, count *int32) error {
	switch {
	case *count == 0:
		*first = int32(p)
	case int(*first+*count) != p:
		return fmt.Errorf("switch %d: parallel ports %d and %d to switch %d are not contiguous", s, *first+*count-1, p, peer)
	}
	*count++
	return nil
}

// Name implements Routing.
func (r *ringNoDateline) Name() string { return "dor-nodateline" }

// VLs implements Routing: it uses a single VL (and so can deadlock).
func (r *ringNoDateline) VLs() int { return 1 }

// SLs implements Routing: one SL.
func (r *ringNoDateline) SLs() int { return 1 }

// Source implements Routing.
func (r *ringNoDateline) Source(src, dst int) (dlid int32, sl, vl int) { return r.hosts.source(dst) }

// Route implements Routing: the shorter way around, + on a tie.
func (r *ringNoDateline) Route(sw, inPort, inVL, sl int, dlid int32, out []Candidate) []Candidate {
	if !r.hosts.valid(dlid) || uint(sw) >= uint(len(r.pos)) {
		return out
	}
	dsw := int(r.hosts.sw[dlid])
	if sw == dsw {
		return append(out, Candidate{Port: r.hosts.port[dlid], Priority: High})
	}
	d := r.pos[dsw] - r.pos[sw] // hops in the + direction, mod n
	if d < 0 {
		d += r.n
	}
	p := r.minus[sw]
	if 2*d <= r.n {
		p = r.plus[sw]
	}
	for i := range r.width {
		out = append(out, Candidate{Port: p + i, Priority: High})
	}
	return out
}

// OutVL implements Routing: the VL never changes (no dateline).
func (r *ringNoDateline) OutVL(sw, inPort, inVL, sl, outPort int) int { return inVL }
