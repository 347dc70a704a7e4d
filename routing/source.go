package routing

import (
	"math/bits"

	"netsim/keyerr"
	"netsim/topologies"
)

// Multipath is a routing whose source chooses among several routes per
// pair of hosts, as a Myrinet NIC does (seed 001 §3): the packet carries
// the route, encoded in its DLID, and switches follow it.
type Multipath interface {
	Routing
	// Routes returns the number of routes from host src to host dst (at
	// least 1 for valid hosts).
	Routes(src, dst int) int
	// SourceRoute returns the DLID, SL and VL of a packet from src to dst
	// on route r, 0 ≤ r < Routes(src, dst).
	SourceRoute(src, dst, r int) (dlid int32, sl, vl int)
}

// sourceRoute is "source": up*/down* source routing on the tree families
// (clos, fattree, xgft), where the NIC holds all shortest routes to each
// destination (seed 001 §3). A route from a leaf to the destination's
// leaf, whose nearest common ancestors are at level L, goes up L levels
// and down again; at each level l < L on the way up it takes one of the
// u_l up ports of the switch, so a pair has R = u_0·u_1·…·u_{L−1} routes
// (16 on the 512-host Clos of 32-port crossbars). Route r takes up port
// digit_l(r) = ⌊r / (u_0·…·u_{l−1})⌋ mod u_l at level l; on the way down,
// between a switch and a child reached over par parallel links, it takes
// link digit_{l−1}(r) mod par, the parallel index it went up on, so every
// link carries the same share of the routes. Down routes are otherwise
// unique in a tree.
//
// The DLID is dst + r·2^b, b the bits of the largest host index, so the
// packet carries its route and a switch decodes it with a shift and a
// mask. Source (no choice) takes the static route r = hash(src, dst) mod R,
// a fixed pseudo-random spread like the routes a Myrinet mapper
// computes. Up*/down* routing is deadlock-free on one VL; like dor, the
// routing keeps VL = the destination's local index mod V on the whole path.
type sourceRoute struct {
	hosts    hostTable
	hostBits uint
	mask     int32
	leaves   int32
	level    []int8
	upFirst  []int16 // first up port of each switch
	upPeer   []int32 // the switch up port upFirst leads to
	upCount  []int32 // up ports per level
	upStride []int32 // u_0·…·u_{l−1} per level
	par      []int32 // parallel links from level l down to level l−1
	// down holds, per (switch, leaf), the first port of the links to the
	// child whose subtree holds the leaf, or −1 when it does not.
	down []int16
}

// newSourceRoute builds "source" on a tree network (Coord = [level,
// index], leaves first, up ports labelled Dim = level).
func newSourceRoute(net *topologies.Network, vls int) (*sourceRoute, error) {
	hosts, err := newHostTable(net, vls)
	if err != nil {
		return nil, keyerr.New("algorithm", "source: %w", err)
	}
	ns := len(net.Switches)
	r := &sourceRoute{
		hosts:   hosts,
		level:   make([]int8, ns),
		upFirst: make([]int16, ns),
		upPeer:  make([]int32, ns),
	}
	levels := 0
	for i, sw := range net.Switches {
		if len(sw.Coord) != 2 || sw.Coord[0] < 0 || sw.Coord[0] > 100 {
			return nil, keyerr.New("algorithm", "source: switch %d has no tree coordinate [level, index]", i)
		}
		r.level[i] = int8(sw.Coord[0])
		levels = max(levels, int(sw.Coord[0])+1)
		if sw.Coord[0] == 0 {
			r.leaves++
		}
	}
	for i := int32(0); i < r.leaves; i++ {
		if r.level[i] != 0 {
			return nil, keyerr.New("algorithm", "source: switch %d is not a leaf, but leaves must come first", i)
		}
	}
	r.upCount = make([]int32, levels)
	r.upStride = make([]int32, levels+1)
	r.par = make([]int32, levels)
	for l := range r.upCount {
		r.upCount[l] = -1
		r.par[l] = -1
	}
	for i, sw := range net.Switches {
		l := int(r.level[i])
		first, n := -1, 0
		for p, port := range sw.Ports {
			if port.Kind != topologies.SwitchPort || int(port.Dim) != l {
				continue
			}
			if first < 0 {
				first = p
			} else if p != first+n {
				return nil, keyerr.New("algorithm", "source: switch %d: up ports are not consecutive", i)
			}
			n++
		}
		if l < levels-1 && n == 0 {
			return nil, keyerr.New("algorithm", "source: switch %d at level %d has no up port", i, l)
		}
		if r.upCount[l] >= 0 && r.upCount[l] != int32(n) {
			return nil, keyerr.New("algorithm", "source: switches at level %d have %d and %d up ports; the routes need a uniform tree", l, r.upCount[l], n)
		}
		r.upCount[l], r.upFirst[i] = int32(n), int16(max(first, 0))
		if first >= 0 {
			r.upPeer[i] = sw.Ports[first].Peer
		}
	}
	r.upStride[0] = 1
	for l := 0; l < levels; l++ {
		u := int64(max(r.upCount[l], 1))
		s := int64(r.upStride[l]) * u
		if s > 1<<20 {
			return nil, keyerr.New("algorithm", "source: more than 2^20 routes per pair")
		}
		r.upStride[l+1] = int32(s)
	}
	r.hostBits = uint(bits.Len(uint(len(net.Hosts))))
	if r.hostBits+uint(bits.Len(uint(r.upStride[levels]))) > 31 {
		return nil, keyerr.New("algorithm", "source: %d hosts × %d routes do not fit a 31-bit DLID", len(net.Hosts), r.upStride[levels])
	}
	r.mask = 1<<r.hostBits - 1
	// Descendant leaves, level by level from the leaves up.
	r.down = make([]int16, ns*int(r.leaves))
	for i := range r.down {
		r.down[i] = -1
	}
	desc := make([][]int32, ns)
	for i := int32(0); i < r.leaves; i++ {
		desc[i] = []int32{i}
	}
	for l := 1; l < levels; l++ {
		for i, sw := range net.Switches {
			if int(r.level[i]) != l {
				continue
			}
			seen := map[int32]bool{}
			for p, port := range sw.Ports {
				if port.Kind != topologies.SwitchPort || int(port.Dim) != l-1 {
					continue
				}
				c := port.Peer
				if seen[c] {
					continue
				}
				seen[c] = true
				n := int32(0)
				for q := p; q < len(sw.Ports) && sw.Ports[q].Kind == topologies.SwitchPort && sw.Ports[q].Peer == c; q++ {
					n++
				}
				if r.par[l] >= 0 && r.par[l] != n {
					return nil, keyerr.New("algorithm", "source: level %d has %d and %d parallel links to a child; the routes need a uniform tree", l, r.par[l], n)
				}
				r.par[l] = n
				for _, leaf := range desc[c] {
					r.down[i*int(r.leaves)+int(leaf)] = int16(p)
				}
				desc[i] = append(desc[i], desc[c]...)
			}
		}
	}
	for l := 1; l < levels; l++ {
		if r.par[l] < 1 {
			return nil, keyerr.New("algorithm", "source: level %d has no links down", l)
		}
	}
	return r, nil
}

// Name implements Routing.
func (r *sourceRoute) Name() string { return "source" }

// VLs implements Routing: up*/down* needs one VL.
func (r *sourceRoute) VLs() int { return 1 }

// SLs implements Routing: one SL.
func (r *sourceRoute) SLs() int { return 1 }

// ncaLevel returns the level of the nearest common ancestors of leaves a
// and b, walking up on route 0.
func (r *sourceRoute) ncaLevel(a, b int32) int {
	sw := a
	for {
		if sw == b || (r.level[sw] > 0 && r.down[int(sw)*int(r.leaves)+int(b)] >= 0) {
			return int(r.level[sw])
		}
		sw = r.upPeer[sw]
	}
}

// Routes implements Multipath.
func (r *sourceRoute) Routes(src, dst int) int {
	n := len(r.hosts.sw)
	if uint(src) >= uint(n) || uint(dst) >= uint(n) {
		return 0
	}
	return int(r.upStride[r.ncaLevel(r.hosts.sw[src], r.hosts.sw[dst])])
}

// SourceRoute implements Multipath.
func (r *sourceRoute) SourceRoute(src, dst, route int) (dlid int32, sl, vl int) {
	dlid, sl, vl = r.hosts.source(dst)
	if dlid < 0 || route < 0 || route >= r.Routes(src, dst) {
		return -1, 0, 0
	}
	return dlid | int32(route)<<r.hostBits, sl, vl
}

// Source implements Routing: the static route hash(src, dst) mod R.
func (r *sourceRoute) Source(src, dst int) (dlid int32, sl, vl int) {
	n := r.Routes(src, dst)
	if n == 0 {
		return -1, 0, 0
	}
	return r.SourceRoute(src, dst, int(StaticRoute(src, dst)%uint64(n)))
}

// StaticRoute returns a fixed pseudo-random number for the pair (src,
// dst), from which a static route is chosen (SplitMix64 of the pair).
func StaticRoute(src, dst int) uint64 {
	z := uint64(src)<<32 ^ uint64(dst) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Route implements Routing: the one port of the route's hop at sw, without
// allocating.
func (r *sourceRoute) Route(sw, inPort, inVL, sl int, dlid int32, out []Candidate) []Candidate {
	dst := dlid & r.mask
	if dlid < 0 || !r.hosts.valid(dst) || uint(sw) >= uint(len(r.level)) {
		return out
	}
	route := dlid >> r.hostBits
	leaf := r.hosts.sw[dst]
	if int32(sw) == leaf {
		return append(out, Candidate{Port: r.hosts.port[dst], Priority: High})
	}
	l := int(r.level[sw])
	if l > 0 {
		if p := r.down[sw*int(r.leaves)+int(leaf)]; p >= 0 {
			digit := route / r.upStride[l-1] % r.upCount[l-1]
			return append(out, Candidate{Port: int32(p) + digit%r.par[l], Priority: High})
		}
	}
	if r.upCount[l] == 0 {
		return out
	}
	digit := route / r.upStride[l] % r.upCount[l]
	return append(out, Candidate{Port: int32(r.upFirst[sw]) + digit, Priority: High})
}

// OutVL implements Routing: the VL never changes.
func (r *sourceRoute) OutVL(sw, inPort, inVL, sl, outPort int) int { return inVL }
