package routing

import (
	"fmt"
	"math/bits"

	"netsim/keyerr"
	"netsim/topologies"
)

// cubeMode selects one of the hypercube routings of seed 004 §3.4.
type cubeMode uint8

const (
	cubeMixedDOR cubeMode = iota
	cubeNegativeFirst
	cubeABONegativeFirst
	cubeABOPositiveLast
)

// cubeModeOf returns the hypercube routing called name; ok is false for
// other names (dor is the FlatFly's).
func cubeModeOf(name string) (mode cubeMode, ok bool) {
	switch name {
	case "mixed-dor":
		return cubeMixedDOR, true
	case "negative-first":
		return cubeNegativeFirst, true
	case "abo-negative-first":
		return cubeABONegativeFirst, true
	case "abo-positive-last":
		return cubeABOPositiveLast, true
	}
	return 0, false
}

// cube holds the hypercube routings mixed-dor, negative-first,
// abo-negative-first and abo-positive-last of seed 004 §3.4; New
// describes them. All are minimal: every candidate corrects one differing
// coordinate, over all parallel ports of its dimension, with High
// priority; the switch picks among them by congestion.
//
// A link of dimension n from coordinate 1 to 0 is negative, from 0 to 1
// positive; dimension 0 is the seed's dimension 1. Below, w(s) is the
// number of coordinates equal to 1 in dimensions 1..N−1 of switch s.
//
// Deadlock freedom (the channel dependency graph over (port, VL) is
// acyclic):
//
//   - mixed-dor: the VL never changes, so channels of different VLs are
//     independent, and VL v fixes the dimension order π = order v mod k.
//     Ranking a channel of dimension n by the position of n in π, every
//     path visits strictly increasing ranks (one hop per dimension).
//   - negative-first (Glass and Ni's turn model): a packet takes all its
//     negative hops before its positive ones, so no dependency leads from
//     a positive channel to a negative one; along negative channels the
//     number of 1 coordinates strictly falls, along positive ones it
//     strictly rises.
//   - abo-negative-first: let A be the negative channels of dimensions
//     ≥ 1 and B all others. Phase 1 takes exactly the A hops, so no
//     dependency leads from B to A. In A the number of 1 coordinates
//     falls. In B, w never falls and rises on every hop but dimension-0
//     hops; a minimal path has at most one dimension-0 hop, so a cycle in
//     B, needing constant w, would need two consecutive dimension-0 hops.
//   - abo-positive-last: the mirror: A = the negative channels and the
//     positive channels of dimension 0 (phase 1), B = the positive
//     channels of dimensions ≥ 1. No dependency leads from B to A; in B
//     the number of 1 coordinates rises; in A, w never rises and falls on
//     every hop but dimension-0 hops, at most one per path.
//
// So the turn-model routings need one VL (VLs() = 1) and use each of the
// configured VLs as a copy, VL = (destination's local index) mod V,
// constant along the path; mixed-dor needs k VLs, one per order.
type cube struct {
	name  string
	mode  cubeMode
	hosts hostTable
	c     int32 // hosts per switch
	nd    int
	nsw   int
	coord []uint32 // coord[s]: bit n = coordinate n of switch s
	width []int32  // L_n
	// port[s·N+n] is the first of the L_n contiguous ports from switch s
	// to its neighbour in dimension n.
	port []int32
	// orders[o·N : (o+1)·N] is Mixed DOR's dimension order o (mixed-dor
	// only); k orders, each in ⌊V/k⌋ copies.
	orders    []int8
	k, copies int32
}

// maxCubeDims bounds the dimensions a cube keeps in a uint32 (the
// topologies build at most 18).
const maxCubeDims = 32

// newCube builds the hypercube routing mode, called name, for net with
// vls virtual lanes.
func newCube(net *topologies.Network, vls int, name string, mode cubeMode) (*cube, error) {
	hosts, err := newHostTable(net, vls)
	if err != nil {
		return nil, fmt.Errorf("routing %s: %w", name, err)
	}
	ff := &flatFlyDOR{nd: len(net.Dims), nsw: len(net.Switches)}
	if err := ff.shape(net); err != nil {
		return nil, fmt.Errorf("routing %s: network is not a hypercube: %w", name, err)
	}
	for n, k := range net.Dims {
		if k != 2 || n >= maxCubeDims {
			return nil, fmt.Errorf("routing %s: network is not a hypercube: dims %v, want 2 in every one of at most %d dimensions", name, net.Dims, maxCubeDims)
		}
	}
	if err := ff.links(net); err != nil {
		return nil, fmt.Errorf("routing %s: network is not a hypercube: %w", name, err)
	}
	r := &cube{
		name: name, mode: mode, hosts: hosts, c: int32(net.HostsPerSwitch), nd: ff.nd, nsw: ff.nsw,
		coord: make([]uint32, ff.nsw), width: ff.widths, port: make([]int32, ff.nsw*ff.nd),
		k: 1,
	}
	for s := range r.coord {
		for n := range r.nd {
			own := ff.coords[s*r.nd+n]
			r.coord[s] |= uint32(own) << n
			r.port[s*r.nd+n] = ff.first[s*ff.row+int(ff.dimOff[n])+int(1-own)]
		}
	}
	if mode == cubeMixedDOR {
		orders := dimOrders(r.nd)[:min(r.nd, mixedOrders)]
		r.k = int32(len(orders))
		if vls < len(orders) {
			return nil, keyerr.New("vls", "routing %s on a %d-dimensional hypercube needs %d virtual lanes (one per dimension order), got %d", name, r.nd, len(orders), vls)
		}
		for _, o := range orders {
			for _, n := range o {
				r.orders = append(r.orders, int8(n))
			}
		}
	}
	r.copies = int32(vls) / r.k
	return r, nil
}

// Name implements Routing.
func (r *cube) Name() string { return r.name }

// VLs implements Routing: one per dimension order for mixed-dor, else 1.
func (r *cube) VLs() int { return int(r.k) }

// SLs implements Routing: one SL.
func (r *cube) SLs() int { return 1 }

// Source implements Routing. With d the destination's index within its
// switch, mixed-dor takes order d mod k (the seed's SL) in copy ⌊d/k⌋ mod
// copies; the turn-model routings take VL d mod V.
func (r *cube) Source(src, dst int) (dlid int32, sl, vl int) {
	if r.mode != cubeMixedDOR {
		return r.hosts.source(dst)
	}
	if uint(dst) >= uint(len(r.hosts.sw)) {
		return -1, 0, 0
	}
	d := int32(dst) % r.c
	return int32(dst), 0, int(d/r.k%r.copies*r.k + d%r.k)
}

// Route implements Routing. It does not allocate when out has room for
// the ports of all dimensions.
func (r *cube) Route(sw, inPort, inVL, sl int, dlid int32, out []Candidate) []Candidate {
	if !r.hosts.valid(dlid) || uint(sw) >= uint(r.nsw) || inVL < 0 {
		return out
	}
	dsw := int(r.hosts.sw[dlid])
	if sw == dsw {
		return append(out, Candidate{Port: r.hosts.port[dlid], Priority: High})
	}
	x, d := r.coord[sw], r.coord[dsw]
	if r.mode == cubeMixedDOR {
		o := inVL % int(r.k)
		for _, n := range r.orders[o*r.nd : (o+1)*r.nd] {
			if (x^d)>>n&1 != 0 {
				return r.ports(sw, uint32(1)<<n, out)
			}
		}
		return out
	}
	neg, pos := x&^d, d&^x
	var first, then uint32
	switch r.mode {
	case cubeNegativeFirst:
		first, then = neg, pos
	case cubeABONegativeFirst:
		first, then = neg&^1, pos|neg&1
	case cubeABOPositiveLast:
		first, then = neg|pos&1, pos&^1
	}
	if first == 0 {
		first = then
	}
	return r.ports(sw, first, out)
}

// ports appends the ports of switch sw in every dimension of set.
func (r *cube) ports(sw int, set uint32, out []Candidate) []Candidate {
	for set != 0 {
		n := bits.TrailingZeros32(set)
		set &^= 1 << n
		p := r.port[sw*r.nd+n]
		for i := range r.width[n] {
			out = append(out, Candidate{Port: p + i, Priority: High})
		}
	}
	return out
}

// OutVL implements Routing: the VL never changes.
func (r *cube) OutVL(sw, inPort, inVL, sl, outPort int) int { return inVL }
