package routing

import (
	"fmt"

	"netsim/topologies"
)

// maxDatelineDims is the largest number of torus dimensions of size ≥ 4
// that torus dor handles: its 2^N dateline masks must fit in MaxVLs VLs
// (seed 004 §3.2: the mask rides in the 4-bit SL, so at most 4-D).
const maxDatelineDims = 4

// torusDOR is dimension-order routing on a torus (or ring) with dateline
// VLs decided at the source, seed 004 §3.2; New describes it.
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
// VLs. Dimensions of size K ≤ 3 need no dateline (a minimal path takes at
// most one hop in them); the others, say D of them, get one bit each of a
// mask M: bit b(n) is set when the packet crosses the dateline of
// dimension n. The source computes M from the source and destination
// switches, as an InfiniBand source would put it in the SL, and the packet
// carries it as its VL for the whole path: VL = copy·2^D + M with copy =
// (destination's local index) mod ⌊V/2^D⌋, V the configured VLs, and
// OutVL = inVL. The routing needs 2^D VLs (VLs()) and spreads traffic over
// ⌊V/2^D⌋ copies of them; with D > 4 it would need more than MaxVLs.
//
// Deadlock freedom. The VL never changes, so a channel (link, VL) only
// depends on channels of the same VL, and within VL v every packet has
// the same mask M = v mod 2^D. Hops follow the dimension order, so a
// dependency from a channel of dimension n leads to one of dimension n or
// higher, and within dimension n a packet stays on one ring (the other
// coordinates fixed) in one direction. A cycle therefore lies on one ring,
// in one direction, in one VL. Take the +1 direction (−1 is its mirror),
// links e_x : x → x+1, dateline e_{K−1}, and paths of h ≤ ⌊K/2⌋ hops:
//
//   - K ≤ 3: h ≤ 1, no two links of the ring are consecutive on a path, so
//     the ring has no dependencies at all;
//   - bit b(n) of M clear: no packet of VL v crosses the dateline, so the
//     dependencies e_x → e_{x+1} never close around e_{K−1}: a path graph;
//   - bit b(n) set: every packet of VL v crosses it. A path from s to d
//     uses e_s, …, e_{K−1} and then e_0, …, e_{d−1} with s ≥ K − h ≥
//     ⌈K/2⌉ and d−1 ≤ h−2 < ⌈K/2⌉. Ranking e_x as x − K for x ≥ ⌈K/2⌉ and
//     as x otherwise makes ranks strictly increase along every path, so
//     the dependencies are acyclic.
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
	masks       int32  // 2^D: VLs of one copy
	copies      int32  // ⌊V/2^D⌋
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
		return nil, fmt.Errorf("vls: routing dor on torus %v needs 2^%d dateline masks as VLs, more than the limit of %d virtual lanes (at most %d dimensions of size ≥ 4)",
			net.Dims, d, MaxVLs, maxDatelineDims)
	}
	r.masks = 1 << d
	if int(r.masks) > vls {
		return nil, fmt.Errorf("vls: routing dor on torus %v needs %d virtual lanes (2^%d dateline masks), got %d", net.Dims, r.masks, d, vls)
	}
	r.copies = int32(vls) / r.masks
	if err := r.links(net); err != nil {
		return nil, fmt.Errorf("routing dor: network is not a torus: %w", err)
	}
	return r, nil
}

// links fills plus and minus from the switch ports and checks that every
// switch has exactly L_n contiguous ports to each of its two neighbours in
// dimension n (2·L_n to its only one when K_n = 2) and no other links.
func (r *torusDOR) links(net *topologies.Network) error {
	nd := r.nd
	r.plus = make([]int32, r.nsw*nd)
	r.minus = make([]int32, r.nsw*nd)
	nPlus, nMinus := make([]int32, nd), make([]int32, nd)
	for s := range net.Switches {
		own := r.coords[s*nd : (s+1)*nd]
		clear(nPlus)
		clear(nMinus)
		for p, port := range net.Switches[s].Ports {
			if port.Kind != topologies.SwitchPort {
				continue
			}
			n := int(port.Dim)
			if n < 0 || n >= nd {
				return fmt.Errorf("switch %d port %d has dimension %d, want [0,%d)", s, p, n, nd)
			}
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

// VLs implements Routing: one VL per dateline mask.
func (r *torusDOR) VLs() int { return int(r.masks) }

// Source implements Routing: the dateline mask of the path from src's
// switch to dst's, in copy (dst's local index) mod copies.
func (r *torusDOR) Source(src, dst int) (dlid int32, vl int) {
	if uint(dst) >= uint(len(r.hosts.sw)) || uint(src) >= uint(len(r.hosts.sw)) {
		return -1, 0
	}
	s := r.coords[int(r.hosts.sw[src])*r.nd:]
	d := r.coords[int(r.hosts.sw[dst])*r.nd:]
	var mask int32
	for n, b := range r.bit {
		if b < 0 || s[n] == d[n] {
			continue
		}
		up, hops := r.up(n, s[n], d[n])
		if up && s[n]+hops >= r.dims[n] || !up && s[n] < hops {
			mask |= 1 << b
		}
	}
	return int32(dst), int(int32(dst)%r.c%r.copies*r.masks + mask)
}

// Route implements Routing: the L_n parallel ports of the chosen direction
// in the lowest dimension n still to correct. It does not allocate when
// out has room for 2·max L_n candidates.
func (r *torusDOR) Route(sw, inPort, inVL int, dlid int32, out []Candidate) []Candidate {
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

// OutVL implements Routing: the VL (the dateline mask) never changes.
func (r *torusDOR) OutVL(sw, inPort, inVL, outPort int) int { return inVL }
