package routing

import (
	"fmt"

	"netsim/topologies"
)

// slimFlyMinimal is the minimal routing of a Slim Fly (seed 004 §3.6),
// computed from the algebra of its McKay–Miller–Širáň graph: switches are
// (t, x, y) with t ∈ {0, 1} and x, y ∈ GF(q); (t, x, y) ~ (t, x, y') when
// y' − y ∈ N_t (y-links), (0, x, y) ~ (1, m, c) when y = x·m + c
// (t-links). From (ts, xs, ys) to (td, xd, yd) ≠ it, the candidates are
// all the parallel ports of the first hop of every shortest path:
//
//   - ts = td, xs = xd: "y" if yd − ys ∈ N_t, else "yy": a y-link to every
//     (t, xs, yi) with yi − ys ∈ N_t and yd − yi ∈ N_t;
//   - ts = td = t, xs ≠ xd: "tt" through (1 − t, xi, yi) with
//     xi = (−1)^t (ys − yd)/(xs − xd) and yi = ys − (−1)^t xs·xi, the one
//     t-neighbour of the source in column xi;
//   - ts ≠ td, e = td − ts (±1): "t" if e(ys − yd) = xs·xd; otherwise "ty"
//     through (td, xd, ys − e·xs·xd) if yd minus that y is in N_td, and
//     "yt" through (ts, xs, yd + e·xs·xd) if that y minus ys is in N_ts
//     (one or both).
//
// (The seed prints yi = ys + (−1)^t xs·xi for "tt", which holds for t = 1
// only; for t = 0 its own relation (1) gives yi = ys − xs·xi.) "tt" is the
// only shortest path between different columns of one half, since y-links
// keep x and two t-links from (t, x, y) lead back to column x; "yy", "ty"
// and "yt" list every 2-hop path of their cases, so the candidates are
// exactly the first hops of all shortest paths (the tests compare them with
// a breadth-first search).
//
// The routing does not rely on how the builder numbers GF(q): it reads
// subtraction from the t-links of (0, x, y) into column 1 (y − x·1) and
// multiplication from those of (0, x, 0) (−x·m), takes N_t from the
// y-links, and checks every link against the resulting rules.
//
// VLs: VL 0 on the first hop, VL 1 on the second (OutVL gives VL 0 to a
// hop from a packet that came from a host and VL 1 otherwise, as with the
// standard SL2VL tables). A path has at most 2 switch-to-switch hops, so a
// dependency only goes from a VL 0 channel to a VL 1 channel: the channel
// dependency graph is acyclic and the routing deadlock-free with 2 VLs.
type slimFlyMinimal struct {
	hosts hostTable
	q     int32
	width int32
	t     []int32 // coordinates of each switch
	x, y  []int32
	// minus[a·q+b] = a − b, times[a·q+b] = a·b, inv[a] = 1/a (a ≠ 0).
	minus, times, inv []int32
	// inN[t·q+d] says whether d ∈ N_t; diffs[t] lists N_t.
	inN   []bool
	diffs [2][]int32
	// The ports of switch s to (t(s), x(s), y') start at yPort[s·q+y'] and
	// those to its t-neighbour in column m at tPort[s·q+m] (width each).
	yPort, tPort []int32
	// toHost[portStart[s]+p] says whether port p of switch s is a host port.
	portStart []int32
	toHost    []bool
}

// newSlimFlyMinimal builds minimal routing for net, a Slim Fly.
func newSlimFlyMinimal(net *topologies.Network, vls int) (*slimFlyMinimal, error) {
	hosts, err := newHostTable(net, vls)
	if err != nil {
		return nil, fmt.Errorf("routing minimal: %w", err)
	}
	r := &slimFlyMinimal{hosts: hosts}
	if err := r.coordinates(net); err != nil {
		return nil, fmt.Errorf("routing minimal: network is not a Slim Fly: %w", err)
	}
	if err := r.ports(net); err != nil {
		return nil, fmt.Errorf("routing minimal: network is not a Slim Fly: %w", err)
	}
	if err := r.algebra(net); err != nil {
		return nil, fmt.Errorf("routing minimal: network is not a Slim Fly: %w", err)
	}
	return r, nil
}

// coordinates reads q and the coordinates [t, x, y] of every switch.
func (r *slimFlyMinimal) coordinates(net *topologies.Network) error {
	n := len(net.Switches)
	q := 0
	for q*q*2 < n {
		q++
	}
	if q < 2 || 2*q*q != n {
		return fmt.Errorf("%d switches are not 2q² for any q ≥ 2", n)
	}
	r.q = int32(q)
	r.t, r.x, r.y = make([]int32, n), make([]int32, n), make([]int32, n)
	seen := make([]bool, n)
	for s := range net.Switches {
		c := net.Switches[s].Coord
		if len(c) != 3 || c[0] < 0 || c[0] > 1 || c[1] < 0 || c[1] >= r.q || c[2] < 0 || c[2] >= r.q {
			return fmt.Errorf("switch %d has coordinates %v, want [t, x, y] with t < 2 and x, y < %d", s, c, q)
		}
		r.t[s], r.x[s], r.y[s] = c[0], c[1], c[2]
		i := r.at(c[0], c[1], c[2])
		if seen[i] {
			return fmt.Errorf("switch %d repeats coordinates %v", s, c)
		}
		seen[i] = true
	}
	return nil
}

// at returns the index t·q² + x·q + y of a coordinate triple.
func (r *slimFlyMinimal) at(t, x, y int32) int { return int((t*r.q+x)*r.q + y) }

// ports fills yPort and tPort and the width: every switch must have the
// same number of contiguous parallel ports to each neighbour, exactly one
// t-neighbour in every column of the other half, and y-neighbours only in
// its own column.
func (r *slimFlyMinimal) ports(net *topologies.Network) error {
	q := int(r.q)
	n := len(net.Switches)
	r.yPort, r.tPort = make([]int32, n*q), make([]int32, n*q)
	r.portStart = make([]int32, n+1)
	for s := range net.Switches {
		r.portStart[s+1] = r.portStart[s] + int32(len(net.Switches[s].Ports))
	}
	r.toHost = make([]bool, r.portStart[n])
	yN, tN := make([]int32, q), make([]int32, q)
	for s := range net.Switches {
		clear(yN)
		clear(tN)
		ys, ts := r.yPort[s*q:(s+1)*q], r.tPort[s*q:(s+1)*q]
		for p, port := range net.Switches[s].Ports {
			r.toHost[int(r.portStart[s])+p] = port.Kind == topologies.HostPort
			if port.Kind != topologies.SwitchPort {
				continue
			}
			v := port.Peer
			var err error
			switch {
			case r.t[v] != r.t[s]:
				err = extendRun(s, p, v, &ts[r.x[v]], &tN[r.x[v]])
			case r.x[v] == r.x[s] && int(v) != s:
				err = extendRun(s, p, v, &ys[r.y[v]], &yN[r.y[v]])
			default:
				err = fmt.Errorf("switch %d port %d links %v to %v", s, p, net.Switches[s].Coord, net.Switches[v].Coord)
			}
			if err != nil {
				return err
			}
		}
		if s == 0 {
			if r.width = tN[0]; r.width < 1 {
				return fmt.Errorf("switch 0 has no t-link to column 0")
			}
		}
		for m := range q {
			if tN[m] != r.width {
				return fmt.Errorf("switch %d has %d links to column %d of the other half, want %d", s, tN[m], m, r.width)
			}
			if yN[m] != 0 && yN[m] != r.width {
				return fmt.Errorf("switch %d has %d links to y = %d of its column, want %d", s, yN[m], m, r.width)
			}
			if yN[m] == 0 {
				ys[m] = -1
			}
		}
		// A column's run of t-links must lead to a single switch.
		for m := range q {
			ports := net.Switches[s].Ports[ts[m] : ts[m]+r.width]
			for _, port := range ports[1:] {
				if port.Peer != ports[0].Peer {
					return fmt.Errorf("switch %d has t-links to switches %d and %d of column %d", s, ports[0].Peer, port.Peer, m)
				}
			}
		}
	}
	return nil
}

// tPeer returns the t-neighbour of switch s in column m.
func (r *slimFlyMinimal) tPeer(net *topologies.Network, s, m int) int {
	return int(net.Switches[s].Ports[r.tPort[s*int(r.q)+m]].Peer)
}

// algebra reads GF(q)'s subtraction and multiplication from the t-links,
// N_t from the y-links, and checks every link against them.
func (r *slimFlyMinimal) algebra(net *topologies.Network) error {
	q := int(r.q)
	sw := make([]int, 2*q*q) // switch of each coordinate index
	for s := range net.Switches {
		sw[r.at(r.t[s], r.x[s], r.y[s])] = s
	}
	r.minus, r.times, r.inv = make([]int32, q*q), make([]int32, q*q), make([]int32, q)
	// (0, x, y) ~ (1, 1, y − x) and (0, x, 0) ~ (1, m, −x·m).
	for a := range q {
		for b := range q {
			r.minus[a*q+b] = r.y[r.tPeer(net, sw[r.at(0, int32(b), int32(a))], 1)]
		}
	}
	for x := range q {
		for m := range q {
			c := r.y[r.tPeer(net, sw[r.at(0, int32(x), 0)], m)]
			r.times[x*q+m] = r.minus[c] // 0 − c
		}
	}
	for a := 1; a < q; a++ {
		r.inv[a] = -1
		for b := 1; b < q; b++ {
			if r.times[a*q+b] == 1 {
				r.inv[a] = int32(b)
			}
		}
		if r.inv[a] < 0 || r.times[q+a] != int32(a) {
			return fmt.Errorf("the t-links do not make coordinates 0 and 1 the zero and one of GF(%d)", q)
		}
	}
	r.inN = make([]bool, 2*q)
	for s := range net.Switches {
		for m := range q {
			v := r.tPeer(net, s, m)
			x0, y0, x1, y1 := r.x[s], r.y[s], r.x[v], r.y[v]
			if r.t[s] == 1 {
				x0, y0, x1, y1 = x1, y1, x0, y0
			}
			if y0 != r.plus(r.times[x0*r.q+x1], y1) {
				return fmt.Errorf("t-link from switch %d %v to %d %v breaks y0 = x0·x1 + y1", s, net.Switches[s].Coord, v, net.Switches[v].Coord)
			}
		}
		for y := range q {
			if r.yPort[s*q+y] >= 0 {
				r.inN[int(r.t[s])*q+int(r.sub(int32(y), r.y[s]))] = true
			}
		}
	}
	for t := range 2 {
		for d := range q {
			if r.inN[t*q+d] {
				r.diffs[t] = append(r.diffs[t], int32(d))
			}
		}
	}
	for s := range net.Switches {
		t := int(r.t[s])
		for _, d := range r.diffs[t] {
			if r.yPort[s*q+int(r.plus(r.y[s], d))] < 0 {
				return fmt.Errorf("switch %d %v lacks the y-link of difference %d that other switches of half %d have", s, net.Switches[s].Coord, d, t)
			}
		}
	}
	return nil
}

// sub returns a − b in GF(q).
func (r *slimFlyMinimal) sub(a, b int32) int32 { return r.minus[a*r.q+b] }

// plus returns a + b in GF(q).
func (r *slimFlyMinimal) plus(a, b int32) int32 { return r.sub(a, r.sub(0, b)) }

// mul returns a·b in GF(q).
func (r *slimFlyMinimal) mul(a, b int32) int32 { return r.times[a*r.q+b] }

// Name implements Routing.
func (r *slimFlyMinimal) Name() string { return "minimal" }

// VLs implements Routing: 2 VLs, one per hop.
func (r *slimFlyMinimal) VLs() int { return 2 }

// SLs implements Routing: one SL.
func (r *slimFlyMinimal) SLs() int { return 1 }

// Source implements Routing: DLID = dst, VL 0.
func (r *slimFlyMinimal) Source(src, dst int) (dlid int32, sl, vl int) {
	if uint(dst) >= uint(len(r.hosts.sw)) {
		return -1, 0, 0
	}
	return int32(dst), 0, 0
}

// Route implements Routing in O(q) (the "yy" case scans N_t) without
// allocating when out has room for the candidates; see slimFlyMinimal.
func (r *slimFlyMinimal) Route(sw, inPort, inVL, sl int, dlid int32, out []Candidate) []Candidate {
	if !r.hosts.valid(dlid) || uint(sw) >= uint(len(r.t)) {
		return out
	}
	dsw := int(r.hosts.sw[dlid])
	if sw == dsw {
		return append(out, Candidate{Port: r.hosts.port[dlid], Priority: High})
	}
	q := int(r.q)
	ts, xs, ys := r.t[sw], r.x[sw], r.y[sw]
	td, xd, yd := r.t[dsw], r.x[dsw], r.y[dsw]
	switch {
	case ts == td && xs == xd:
		if r.inN[int(ts)*q+int(r.sub(yd, ys))] { // "y"
			return r.appendPorts(out, r.yPort[sw*q+int(yd)])
		}
		for _, d := range r.diffs[ts] { // "yy"
			if yi := r.plus(ys, d); r.inN[int(ts)*q+int(r.sub(yd, yi))] {
				out = r.appendPorts(out, r.yPort[sw*q+int(yi)])
			}
		}
		return out
	case ts == td: // "tt"
		xi := r.mul(r.sub(ys, yd), r.inv[r.sub(xs, xd)])
		if ts == 1 {
			xi = r.sub(0, xi)
		}
		return r.appendPorts(out, r.tPort[sw*q+int(xi)])
	}
	e := int32(1) // td − ts
	if ts == 1 {
		e = r.sub(0, 1)
	}
	exd := r.mul(e, r.mul(xs, xd))
	if r.mul(e, r.sub(ys, yd)) == r.mul(xs, xd) { // "t"
		return r.appendPorts(out, r.tPort[sw*q+int(xd)])
	}
	if yi := r.sub(ys, exd); r.inN[int(td)*q+int(r.sub(yd, yi))] { // "ty"
		out = r.appendPorts(out, r.tPort[sw*q+int(xd)])
	}
	if yi := r.plus(yd, exd); r.inN[int(ts)*q+int(r.sub(yi, ys))] { // "yt"
		out = r.appendPorts(out, r.yPort[sw*q+int(yi)])
	}
	return out
}

// appendPorts appends the width ports starting at first, High.
func (r *slimFlyMinimal) appendPorts(out []Candidate, first int32) []Candidate {
	for p := first; p < first+r.width; p++ {
		out = append(out, Candidate{Port: p, Priority: High})
	}
	return out
}

// OutVL implements Routing: VL 0 for a packet from a host, VL 1 after a
// switch-to-switch hop; see slimFlyMinimal.
func (r *slimFlyMinimal) OutVL(sw, inPort, inVL, sl, outPort int) int {
	switch {
	case r.isHost(sw, outPort):
		return inVL
	case r.isHost(sw, inPort):
		return 0
	}
	return 1
}

// isHost reports whether port p of switch sw leads to a host.
func (r *slimFlyMinimal) isHost(sw, p int) bool {
	return uint(sw) < uint(len(r.t)) && uint(p) < uint(r.portStart[sw+1]-r.portStart[sw]) && r.toHost[int(r.portStart[sw])+p]
}
