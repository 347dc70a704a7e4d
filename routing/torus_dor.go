package routing

import (
	"fmt"

	"netsim/keyerr"
	"netsim/topologies"
)

// hostBit marks host ports in torusDOR.portBit.
const hostBit = -2

// maxDatelineDims is the largest number of torus dimensions of size ≥ 4
// that torus dor handles: one dateline bit each in the 4-bit SL (seed 004
// §3.2: "the maximum dimension of InfiniBand tori is 4D").
const maxDatelineDims = 4

// torusDOR is dimension-order routing on a torus (or ring) with dateline
// crossings decided at the source and carried in the SL, seed 004 §3.2;
// New describes it.
//
// Directions and datelines. In dimension n of size K, the +1 direction
// goes from coordinate x to x+1 mod K over the L_n ports to that
// neighbour, the −1 direction to x−1 mod K. A packet corrects dimension n
// the shorter way; when both ways are K/2 hops (K even) it goes +1 from an
// even source coordinate and −1 from an odd one, so that such traffic
// splits evenly over both directions (after its first hop in dimension n
// the remaining distance is below K/2, so the tie is only ever decided at
// the source's coordinate, which the source and every switch agree on).
// The dateline of dimension n is the wrap-around link: K−1 → 0 in the +1
// direction and 0 → K−1 in the −1 direction. When K = 2 both directions
// lead to the same neighbour and all 2·L_n ports to it are candidates.
//
// SLs and VLs. Dimensions of size K ≤ 3 need no dateline (a minimal path
// takes at most one hop in them); the others, say D ≤ 4 of them, get one
// bit each of a mask M: bit b(n) is set when the packet crosses the
// dateline of dimension n. The source computes M from the source and
// destination switches and puts it in the SL, as an InfiniBand path record
// would: SL = copy·2^D + M. A hop in dimension n then takes VL W·copy +
// bit b(n) of the SL (W·copy in a dimension without dateline); the host
// links take the VL of the first and the last hop. That is a function of
// SL, input and output port, as InfiniBand's SL2VL table allows. W = 2 VLs
// (VLs(); W = 1 when D = 0) suffice for any D ≤ 4; spare SL bits spread
// traffic over copy = (destination's local index) mod ⌊min(16/2^D, V/W)⌋
// copies of them, V the configured VLs (SLs() = 2^D · copies).
//
// Deadlock freedom. The SL never changes, and a hop's VL determines its
// copy and, in dimension n, bit b(n) of the SL: so the packets on channel
// (link of dimension n, VL v) all agree on whether they cross dimension
// n's dateline. Hops follow the dimension order, so a dependency from a
// channel of dimension n leads to one of dimension n or higher, and
// within dimension n a packet stays on one ring (the other coordinates
// fixed), in one direction, on one VL. A cycle therefore lies on one ring,
// in one direction, in one VL, induced by packets that all cross the
// dateline or all do not. Take the +1 direction (−1 is its mirror), links
// e_x : x → x+1, dateline e_{K−1}, and paths of h ≤ ⌊K/2⌋ hops:
//
//   - K ≤ 3: h ≤ 1, no two links of the ring are consecutive on a path, so
//     the ring has no dependencies at all;
//   - no packet crosses the dateline: the dependencies e_x → e_{x+1} never
//     close around e_{K−1}: a path graph;
//   - every packet crosses it. A path from s to d uses e_s, …, e_{K−1}
//     and then e_0, …, e_{d−1} with s ≥ K − h ≥ ⌈K/2⌉ and d−1 ≤ h−2 <
//     ⌈K/2⌉. Ranking e_x as x − K for x ≥ ⌈K/2⌉ and as x otherwise makes
//     ranks strictly increase along every path, so the dependencies are
//     acyclic.
//
// Hence the channel dependency graph is acyclic and the routing is
// deadlock-free for any buffer sizes, under cut-through and wormhole.
type torusDOR struct {
	hosts  hostTable // switch and port of each host (its VL table is not used)
	c      int32     // hosts per switch
	nd     int       // dimensions N
	nsw    int       // switches
	dims   []int32   // K_n
	widths []int32   // L_n
	coords []int32   // coords[s·N+n]: coordinate n of switch s
	// plus[s·N+n] is the first of the L_n contiguous ports from switch s to
	// its +1 neighbour in dimension n (K_n = 2: of the 2·L_n ports to its
	// only neighbour), minus[s·N+n] the first to its −1 neighbour.
	plus, minus []int32
	bit         []int8 // bit[n]: dimension n's bit in the mask, −1 if K_n ≤ 3
	// portBit[portStart[s]+p] is the SL bit that picks the VL on port p of
	// switch s: bit[n] for a port of dimension n, hostBit for a host port.
	portBit   []int8
	portStart []int32
	masks     int32 // 2^D
	width     int32 // W: VLs of one copy
	copies    int32 // copies of the W VLs
}

// newTorusDOR builds dor for net, a torus or ring, with vls virtual lanes.
func newTorusDOR(net *topologies.Network, vls int) (*torusDOR, error) {
	hosts, err := newHostTable(net, vls)
	if err != nil {
		return nil, fmt.Errorf("routing dor: %w", err)
	}
	grid := &flatFlyDOR{nd: len(net.Dims), nsw: len(net.Switches)}
	if err := grid.shape(net); err != nil {
		return nil, fmt.Errorf("routing dor: network is not a torus: %w", err)
	}
	r := &torusDOR{
		hosts: hosts, c: int32(net.HostsPerSwitch), nd: grid.nd, nsw: grid.nsw,
		widths: grid.widths, coords: grid.coords,
		dims: make([]int32, grid.nd), bit: make([]int8, grid.nd),
	}
	d := 0
	for n, k := range net.Dims {
		if k < 2 {
			return nil, fmt.Errorf("routing dor: network is not a torus: dimension %d has %d switches, want at least 2", n, k)
		}
		r.dims[n], r.bit[n] = int32(k), -1
		if k >= 4 {
			r.bit[n] = int8(d)
			d++
		}
	}
	if d > maxDatelineDims {
		return nil, keyerr.New("algorithm", "routing dor on torus %v needs one SL bit per dimension of size ≥ 4, %d of them, but the InfiniBand SL has %d bits (at most %d such dimensions)",
			net.Dims, d, maxDatelineDims, maxDatelineDims)
	}
	r.masks, r.width = 1<<d, 1
	if d > 0 {
		r.width = 2
	}
	if int(r.width) > vls {
		return nil, keyerr.New("vls", "routing dor on torus %v needs %d virtual lanes (dateline VLs), got %d", net.Dims, r.width, vls)
	}
	r.copies = min(MaxSLs/r.masks, int32(vls)/r.width)
	if err := r.links(net); err != nil {
		return nil, fmt.Errorf("routing dor: network is not a torus: %w", err)
	}
	return r, nil
}

// links fills plus, minus and portBit from the switch ports and checks
// that every switch has exactly L_n contiguous ports to each of its two
// neighbours in dimension n (2·L_n to its only one when K_n = 2) and no
// other links.
func (r *torusDOR) links(net *topologies.Network) error {
	nd := r.nd
	r.plus = make([]int32, r.nsw*nd)
	r.minus = make([]int32, r.nsw*nd)
	nPlus, nMinus := make([]int32, nd), make([]int32, nd)
	r.portStart = make([]int32, r.nsw+1)
	for s := range net.Switches {
		r.portStart[s+1] = r.portStart[s] + int32(len(net.Switches[s].Ports))
	}
	r.portBit = make([]int8, r.portStart[r.nsw])
	for s := range net.Switches {
		own := r.coords[s*nd : (s+1)*nd]
		clear(nPlus)
		clear(nMinus)
		for p, port := range net.Switches[s].Ports {
			if port.Kind != topologies.SwitchPort {
				r.portBit[int(r.portStart[s])+p] = hostBit
				continue
			}
			n := int(port.Dim)
			if n < 0 || n >= nd {
				return fmt.Errorf("switch %d port %d has dimension %d, want [0,%d)", s, p, n, nd)
			}
			r.portBit[int(r.portStart[s])+p] = r.bit[n]
			peer := r.coords[int(port.Peer)*nd : (int(port.Peer)+1)*nd]
			k := r.dims[n]
			up, down := (own[n]+1)%k, (own[n]+k-1)%k
			for m := range own {
				if m != n && own[m] != peer[m] || m == n && peer[n] != up && peer[n] != down {
					return fmt.Errorf("switch %d %v port %d (dimension %d) goes to switch %d %v, not a neighbour in dimension %d", s, own, p, n, port.Peer, peer, n)
				}
			}
			var err error
			if peer[n] == up {
				err = extendRun(s, p, port.Peer, &r.plus[s*nd+n], &nPlus[n])
			} else {
				err = extendRun(s, p, port.Peer, &r.minus[s*nd+n], &nMinus[n])
			}
			if err != nil {
				return err
			}
		}
		for n, l := range r.widths {
			if r.dims[n] == 2 {
				if nPlus[n] != 2*l {
					return fmt.Errorf("switch %d %v has %d links to its neighbour in dimension %d of size 2, want 2·width = %d", s, own, nPlus[n], n, 2*l)
				}
			} else if nPlus[n] != l || nMinus[n] != l {
				return fmt.Errorf("switch %d %v has %d links to its +1 and %d to its -1 neighbour in dimension %d, want width %d each", s, own, nPlus[n], nMinus[n], n, l)
			}
		}
	}
	return nil
}

// up reports whether a packet at coordinate x of dimension n, bound for
// coordinate d ≠ x, goes the +1 way: the shorter way, and on a tie +1
// from an even x and −1 from an odd one. It also returns the hops to d
// that way.
func (r *torusDOR) up(n int, x, d int32) (bool, int32) {
	k := r.dims[n]
	delta := d - x
	if delta < 0 {
		delta += k
	}
	if 2*delta < k || 2*delta == k && x%2 == 0 {
		return true, delta
	}
	return false, k - delta
}

// Name implements Routing.
func (r *torusDOR) Name() string { return "dor" }

// VLs implements Routing: two VLs (one without dateline dimensions).
func (r *torusDOR) VLs() int { return int(r.width) }

// SLs implements Routing: one SL per dateline mask and copy.
func (r *torusDOR) SLs() int { return int(r.masks * r.copies) }

// Source implements Routing: SL = copy·2^D + the dateline mask of the
// path from src's switch to dst's, copy = (dst's local index) mod copies;
// VL = that of the first hop.
func (r *torusDOR) Source(src, dst int) (dlid int32, sl, vl int) {
	if uint(dst) >= uint(len(r.hosts.sw)) || uint(src) >= uint(len(r.hosts.sw)) {
		return -1, 0, 0
	}
	s := r.coords[int(r.hosts.sw[src])*r.nd:]
	d := r.coords[int(r.hosts.sw[dst])*r.nd:]
	var mask int32
	first := -1 // the first hop's dimension
	for n := range r.nd {
		if s[n] == d[n] {
			continue
		}
		if first < 0 {
			first = n
		}
		b := r.bit[n]
		if b < 0 {
			continue
		}
		up, hops := r.up(n, s[n], d[n])
		if up && s[n]+hops >= r.dims[n] || !up && s[n] < hops {
			mask |= 1 << b
		}
	}
	sl = int(int32(dst)%r.c%r.copies*r.masks + mask)
	if first < 0 {
		return int32(dst), sl, r.vl(sl, -1)
	}
	return int32(dst), sl, r.vl(sl, r.bit[first])
}

// vl returns the VL of a packet with service level sl on a port whose SL
// bit is b (−1: none).
func (r *torusDOR) vl(sl int, b int8) int {
	v := sl / int(r.masks) * int(r.width)
	if b >= 0 {
		v += sl >> b & 1
	}
	return v
}

// Route implements Routing: the L_n parallel ports of the chosen direction
// in the lowest dimension n still to correct. It does not allocate when
// out has room for 2·max L_n candidates.
func (r *torusDOR) Route(sw, inPort, inVL, sl int, dlid int32, out []Candidate) []Candidate {
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
		first, count := r.plus[sw*r.nd+n], r.widths[n]
		if r.dims[n] == 2 {
			count *= 2
		} else if up, _ := r.up(n, x, dst[n]); !up {
			first = r.minus[sw*r.nd+n]
		}
		for i := range count {
			out = append(out, Candidate{Port: first + i, Priority: High})
		}
		return out
	}
	return out
}

// OutVL implements Routing: on a port of dimension n, W·copy + bit b(n)
// of sl, with copy = ⌊sl/2^D⌋ (W·copy in dimensions without dateline); to
// a host, the VL of the hop in inPort's dimension. It depends on sl,
// inPort and outPort only (SL2VL).
func (r *torusDOR) OutVL(sw, inPort, inVL, sl, outPort int) int {
	if uint(sw) >= uint(r.nsw) {
		return 0
	}
	base, end := int(r.portStart[sw]), int(r.portStart[sw+1])
	if uint(outPort) >= uint(end-base) {
		return 0
	}
	b := r.portBit[base+outPort]
	if b == hostBit {
		b = -1
		if uint(inPort) < uint(end-base) && r.portBit[base+inPort] != hostBit {
			b = r.portBit[base+inPort]
		}
	}
	return r.vl(sl, b)
}
