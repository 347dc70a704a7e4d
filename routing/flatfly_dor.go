package routing

import (
	"fmt"

	"netsim/topologies"
)

// flatFlyDOR is dimension-order routing on a FlatFly; see New.
type flatFlyDOR struct {
	hosts  hostTable
	nd     int     // number of dimensions N
	nsw    int     // number of switches
	coords []int32 // coords[s·N+n]: coordinate n of switch s
	widths []int32 // L_n
	dimOff []int32 // offset of dimension n within a row of first: Σ_{m<n} K_m
	row    int     // Σ K_n
	// first[s·row + dimOff[n] + v] is the first of the widths[n] contiguous
	// ports from switch s to its neighbour with coordinate v in dimension n
	// (-1 for v = s's own coordinate). Built from the links themselves, so
	// it holds for any port order that keeps parallel links together.
	first []int32
}

// newFlatFlyDOR builds dimension-order routing for net, a FlatFly, with vls
// virtual lanes available.
func newFlatFlyDOR(net *topologies.Network, vls int) (*flatFlyDOR, error) {
	hosts, err := newHostTable(net, vls)
	if err != nil {
		return nil, fmt.Errorf("routing dor: %w", err)
	}
	r := &flatFlyDOR{hosts: hosts, nd: len(net.Dims), nsw: len(net.Switches)}
	if err := r.shape(net); err != nil {
		return nil, fmt.Errorf("routing dor: network is not a FlatFly: %w", err)
	}
	if err := r.links(net); err != nil {
		return nil, fmt.Errorf("routing dor: network is not a FlatFly: %w", err)
	}
	return r, nil
}

// shape checks Dims, Widths and the coordinates of net and fills nd,
// widths, dimOff, row and coords.
func (r *flatFlyDOR) shape(net *topologies.Network) error {
	if r.nd == 0 || len(net.Widths) != r.nd {
		return fmt.Errorf("%d dims and %d widths", r.nd, len(net.Widths))
	}
	r.widths = make([]int32, r.nd)
	r.dimOff = make([]int32, r.nd)
	switches := 1
	for n, k := range net.Dims {
		if k < 1 || net.Widths[n] < 1 || switches > len(net.Switches)/k {
			return fmt.Errorf("dims %v and widths %v do not match %d switches", net.Dims, net.Widths, len(net.Switches))
		}
		r.widths[n] = int32(net.Widths[n])
		r.dimOff[n] = int32(r.row)
		r.row += k
		switches *= k
	}
	if switches != len(net.Switches) {
		return fmt.Errorf("dims %v give %d switches, network has %d", net.Dims, switches, len(net.Switches))
	}
	coords, err := switchCoords(net)
	if err != nil {
		return err
	}
	r.coords = coords
	return nil
}

// links fills first from the switch ports and checks that every switch has
// exactly widths[n] contiguous ports to each neighbour in dimension n, and
// no other switch links.
func (r *flatFlyDOR) links(net *topologies.Network) error {
	r.first = make([]int32, len(net.Switches)*r.row)
	for i := range r.first {
		r.first[i] = -1
	}
	count := make([]int32, r.row)
	for s := range net.Switches {
		own := r.coords[s*r.nd : (s+1)*r.nd]
		first := r.first[s*r.row : (s+1)*r.row]
		clear(count)
		for p, port := range net.Switches[s].Ports {
			if port.Kind != topologies.SwitchPort {
				continue
			}
			n := int(port.Dim)
			if n < 0 || n >= r.nd {
				return fmt.Errorf("switch %d port %d has dimension %d, want [0,%d)", s, p, n, r.nd)
			}
			peer := r.coords[int(port.Peer)*r.nd : (int(port.Peer)+1)*r.nd]
			for m := range own {
				if (m == n) == (own[m] == peer[m]) {
					return fmt.Errorf("switch %d %v port %d (dimension %d) goes to switch %d %v", s, own, p, n, port.Peer, peer)
				}
			}
			i := int(r.dimOff[n]) + int(peer[n])
			if err := extendRun(s, p, port.Peer, &first[i], &count[i]); err != nil {
				return err
			}
		}
		for n, k := range net.Dims {
			for v := range int32(k) {
				i := int(r.dimOff[n]) + int(v)
				if want := r.widths[n]; v != own[n] && count[i] != want {
					return fmt.Errorf("switch %d %v has %d links to its neighbour with coordinate %d in dimension %d, want width %d", s, own, count[i], v, n, want)
				}
			}
		}
	}
	return nil
}

// Name implements Routing.
func (r *flatFlyDOR) Name() string { return "dor" }

// VLs implements Routing: DOR needs one VL.
func (r *flatFlyDOR) VLs() int { return 1 }

// SLs implements Routing: one SL.
func (r *flatFlyDOR) SLs() int { return 1 }

// Source implements Routing.
func (r *flatFlyDOR) Source(src, dst int) (dlid int32, sl, vl int) { return r.hosts.source(dst) }

// Route implements Routing. It costs O(N + L_n) and does not allocate when
// out has room for the widest dimension's parallel ports.
func (r *flatFlyDOR) Route(sw, inPort, inVL, sl int, dlid int32, out []Candidate) []Candidate {
	if !r.hosts.valid(dlid) || uint(sw) >= uint(r.nsw) {
		return out
	}
	dsw := int(r.hosts.sw[dlid])
	if sw == dsw {
		return append(out, Candidate{Port: r.hosts.port[dlid], Priority: High})
	}
	own := r.coords[sw*r.nd : (sw+1)*r.nd]
	dst := r.coords[dsw*r.nd : (dsw+1)*r.nd]
	for n, x := range own {
		if x == dst[n] {
			continue
		}
		p := r.first[sw*r.row+int(r.dimOff[n])+int(dst[n])]
		for i := range r.widths[n] {
			out = append(out, Candidate{Port: p + i, Priority: High})
		}
		return out
	}
	return out
}

// OutVL implements Routing: the VL never changes.
func (r *flatFlyDOR) OutVL(sw, inPort, inVL, sl, outPort int) int { return inVL }
