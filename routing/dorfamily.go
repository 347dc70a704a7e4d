package routing

import (
	"fmt"

	"netsim/keyerr"
	"netsim/topologies"
)

// dorVariant selects a member of the DOR family: the three independent
// choices of seed 004 §3.3, combined as in its names.
type dorVariant struct {
	mixed    bool // one of several dimension orders, chosen by destination
	adaptive bool // ADOR: one extra (sideways) hop per dimension
	twisted  bool // an obligatory first hop in the order's last dimension
}

// dorFamilyNames lists the algorithm names of the DOR family.
const dorFamilyNames = "dor, mixed-dor, twisted-dor, twisted-mixed-dor, ador, mixed-ador, twisted-ador, twisted-mixed-ador"

// dorVariantOf returns the variant an algorithm name of the DOR family
// selects, and false for other names.
func dorVariantOf(name string) (dorVariant, bool) {
	switch name {
	case "dor":
		return dorVariant{}, true
	case "mixed-dor":
		return dorVariant{mixed: true}, true
	case "twisted-dor":
		return dorVariant{twisted: true}, true
	case "twisted-mixed-dor":
		return dorVariant{mixed: true, twisted: true}, true
	case "ador":
		return dorVariant{adaptive: true}, true
	case "mixed-ador":
		return dorVariant{mixed: true, adaptive: true}, true
	case "twisted-ador":
		return dorVariant{adaptive: true, twisted: true}, true
	case "twisted-mixed-ador":
		return dorVariant{mixed: true, adaptive: true, twisted: true}, true
	}
	return dorVariant{}, false
}

// dorFamily is the DOR family of seed 004 §3.3 on a FlatFly or an SF×FF
// product; see New for the rules, the VL layout and the proof of deadlock
// freedom.
type dorFamily struct {
	name string
	v    dorVariant
	g    *dimNet
	c    int32 // hosts per switch
	// hostSw and hostPort locate every host.
	hostSw, hostPort []int32
	orders           [][]int8 // the dimension orders (one unless mixed)
	twist            []int8   // twist[o]: the twist dimension of order o
	perClass         int32    // P, VLs per class
	twistVL          int32    // T, the local VL of the twist hop (twisted only)
	sameDimVL        int32    // local VL of a second hop in one dimension: 1, or 0 if none ever happens
	classes          int32    // classes in use: orders × copies
}

// newDORFamily builds the routing name (see dorVariantOf) on net with vls
// virtual lanes. Unless net is a product, every dimension must be a
// complete graph (a FlatFly).
func newDORFamily(name string, net *topologies.Network, vls int) (*dorFamily, error) {
	v, ok := dorVariantOf(name)
	if !ok {
		return nil, keyerr.New("algorithm", "%q is not a routing of the DOR family (%s)", name, dorFamilyNames)
	}
	g, err := newDimNet(net, net.Kind != "product")
	if err != nil {
		return nil, fmt.Errorf("routing %s: network is not a %s: %w", name, structureName(net.Kind), err)
	}
	if net.HostsPerSwitch < 1 || len(net.Hosts) != net.HostsPerSwitch*g.nsw {
		return nil, fmt.Errorf("routing %s: network %s has no fixed number of hosts per switch (got %d)", name, net.Kind, net.HostsPerSwitch)
	}
	r := &dorFamily{name: name, v: v, g: g, c: int32(net.HostsPerSwitch)}
	r.hostSw = make([]int32, len(net.Hosts))
	r.hostPort = make([]int32, len(net.Hosts))
	for h, a := range net.Hosts {
		if int(a.Switch) != h/net.HostsPerSwitch {
			return nil, fmt.Errorf("routing %s: host %d is on switch %d, but switch-major numbering with %d hosts per switch puts it on switch %d",
				name, h, a.Switch, net.HostsPerSwitch, h/net.HostsPerSwitch)
		}
		r.hostSw[h], r.hostPort[h] = a.Switch, a.Port
	}
	nOrders := 1
	if v.mixed {
		nOrders = g.nd
	}
	for _, o := range dimOrders(g.nd)[:nOrders] {
		ord := make([]int8, len(o))
		for i, n := range o {
			ord[i] = int8(n)
		}
		r.orders = append(r.orders, ord)
		r.twist = append(r.twist, int8(g.twistDim(o)))
	}
	r.layout(vls)
	return r, nil
}

// structureName names, for errors, the structure a kind must have.
func structureName(kind string) string {
	if kind == "product" {
		return "product of dimensions of diameter ≤ 2"
	}
	return "FlatFly"
}

// layout chooses the VLs per class and the classes (see New).
func (r *dorFamily) layout(vls int) {
	hops := int32(1) // most hops a path makes in one dimension
	for n := range r.g.dims {
		hops = max(hops, r.g.dims[n].diam)
	}
	if r.v.adaptive {
		hops = 2
	}
	r.perClass = hops
	if hops > 1 {
		r.sameDimVL = 1
	}
	if r.v.twisted {
		r.twistVL = 1
		for _, n := range r.twist {
			if !r.g.dims[n].complete {
				r.twistVL = hops
			}
		}
		r.perClass = max(hops, r.twistVL+1)
	}
	need := int32(len(r.orders)) * r.perClass
	copies := max(1, int32(vls)/need)
	r.classes = int32(len(r.orders)) * copies
}

// Name implements Routing.
func (r *dorFamily) Name() string { return r.name }

// VLs implements Routing: orders × VLs per class. With more configured VLs
// the routing uses whole copies of its layout (see New).
func (r *dorFamily) VLs() int { return len(r.orders) * int(r.perClass) }

// SLs implements Routing: one SL.
func (r *dorFamily) SLs() int { return 1 }

// Source implements Routing: DLID = dst; VL = P·k, k = (d mod classes)
// with d the destination's index within its switch.
func (r *dorFamily) Source(src, dst int) (dlid int32, sl, vl int) {
	if uint(dst) >= uint(len(r.hostSw)) {
		return -1, 0, 0
	}
	k := int32(dst) % r.c % r.classes
	return int32(dst), 0, int(k * r.perClass)
}

// Route implements Routing in O(N + K_n·L_n) for the current dimension n,
// without allocating when out has room for every port of sw.
func (r *dorFamily) Route(sw, inPort, inVL, sl int, dlid int32, out []Candidate) []Candidate {
	if uint32(dlid) >= uint32(len(r.hostSw)) || uint(sw) >= uint(r.g.nsw) || inVL < 0 || inVL >= int(r.classes*r.perClass) {
		return out
	}
	inDim := r.g.portDimension(sw, inPort)
	if inDim == -2 {
		return out
	}
	dsw := int(r.hostSw[dlid])
	if sw == dsw {
		return append(out, Candidate{Port: r.hostPort[dlid], Priority: High})
	}
	class := int32(inVL) / r.perClass
	local := int32(inVL) % r.perClass
	o := class % int32(len(r.orders))
	own, dst := r.g.coord(sw), r.g.coord(dsw)
	tw := int(r.twist[o])
	if r.v.twisted && inDim < 0 {
		if v := r.twistTarget(sw, tw, dlid%r.c); v != own[tw] {
			return r.appendPorts(out, sw, tw, v, prio(&r.g.dims[tw], own[tw], v, dst[tw]))
		}
	}
	twistArrival := r.v.twisted && local == r.twistVL && inDim == tw
	for _, n8 := range r.orders[o] {
		n := int(n8)
		x, y := own[n], dst[n]
		if x == y {
			continue
		}
		d := &r.g.dims[n]
		firstHop := inDim != n || twistArrival
		extra := r.v.adaptive && firstHop && !(r.v.twisted && n == tw)
		if d.complete {
			out = r.appendPorts(out, sw, n, y, High)
			if extra {
				for v := range d.k {
					if v != x && v != y {
						out = r.appendPorts(out, sw, n, v, Medium)
					}
				}
			}
			return out
		}
		dx := d.distance(x, y)
		for _, v := range d.adj[d.adjStart[x]:d.adjStart[x+1]] {
			switch dv := d.distance(v, y); {
			case dv < dx:
				out = r.appendPorts(out, sw, n, v, High)
			case extra && dv == dx && dv == 1:
				out = r.appendPorts(out, sw, n, v, Medium)
			}
		}
		return out
	}
	return out
}

// appendPorts appends the parallel ports from sw to its neighbour with
// coordinate v in dimension n, with priority p.
func (r *dorFamily) appendPorts(out []Candidate, sw, n int, v int32, p Priority) []Candidate {
	first := r.g.ports(sw, n, v)
	for i := range r.g.dims[n].width {
		out = append(out, Candidate{Port: first + i, Priority: p})
	}
	return out
}

// prio classifies a hop from x to v in a dimension toward y: High if it
// brings the packet closer, Medium if sideways, Low if farther.
func prio(d *dimension, x, v, y int32) Priority {
	switch dx, dv := d.distance(x, y), d.distance(v, y); {
	case dv < dx:
		return High
	case dv == dx:
		return Medium
	default:
		return Low
	}
}

// twistTarget returns the coordinate in dimension n that the twist hop of a
// packet to local destination index d leads to from switch sw, or sw's own
// coordinate for no twist. In a complete dimension it is d mod K_n; in
// another it is entry d mod (deg+1) of sw's coordinate and its neighbours'
// in increasing order.
func (r *dorFamily) twistTarget(sw, n int, d int32) int32 {
	dm := &r.g.dims[n]
	x := r.g.coords[sw*r.g.nd+n]
	if dm.complete {
		return d % dm.k
	}
	nb := dm.adj[dm.adjStart[x]:dm.adjStart[x+1]]
	i := d % int32(len(nb)+1)
	below := int32(0) // neighbours below x
	for below < int32(len(nb)) && nb[below] < x {
		below++
	}
	switch {
	case i < below:
		return nb[i]
	case i == below:
		return x
	default:
		return nb[i-1]
	}
}

// OutVL implements Routing: the VL keeps the packet's class k and sets the
// local VL l (VL = P·k + l): l = T on the twist hop (a hop from a host in
// the class's twist dimension), l = 1 on a second hop in the same
// dimension (not counting the twist hop), l = 0 otherwise. The link to a
// host keeps the VL.
func (r *dorFamily) OutVL(sw, inPort, inVL, sl, outPort int) int {
	outDim := r.g.portDimension(sw, outPort)
	if outDim < 0 || inVL < 0 {
		return inVL
	}
	inDim := r.g.portDimension(sw, inPort)
	class := int32(inVL) / r.perClass
	base := class * r.perClass
	if r.v.twisted {
		tw := int(r.twist[class%int32(len(r.orders))])
		if inDim < 0 {
			if outDim == tw {
				return int(base + r.twistVL)
			}
			return int(base)
		}
		if int32(inVL)-base == r.twistVL && inDim == tw {
			return int(base)
		}
	}
	if inDim == outDim {
		return int(base + r.sameDimVL)
	}
	return int(base)
}
