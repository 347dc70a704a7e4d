package nic

import (
	"netsim/flit"
	"netsim/kernel"
	"netsim/routing"
)

// probeState is what a Probing NIC keeps per destination.
type probeState struct {
	route   int32  // the route probed, −1 when no probe is out
	next    int32  // the route the next packet takes, −1: keep the current one
	failed  uint16 // blocked probes in a row
	raised  bool   // the threshold is doubled after a forced change
	stopped uint16 // packets stopped since the probe out was sent
}

// probeIn is a probe or reply received: its packet and the cycle it is in.
type probeIn struct {
	at kernel.Time
	pi int32
}

// probeCost is the length of a probe and of its reply, in flits.
const probeCost = 1

// current returns the route the NIC's packets to dst take now.
func (n *NIC) current(dst int) int {
	routes := n.multi.Routes(int(n.host), dst)
	r := int(n.routeOf[dst])
	if r < 0 || r >= routes {
		r = int(routing.StaticRoute(int(n.host), dst) % uint64(routes))
	}
	return r
}

// otherRoute returns a route to dst other than cur, uniformly, of routes.
func (n *NIC) otherRoute(cur, routes int) int {
	k := n.rng.IntN(routes - 1)
	if k >= cur {
		k++
	}
	return k
}

// sendProbe queues a probe at now to dst along a random route other than
// the current one, unless dst has a single route.
func (n *NIC) sendProbe(now kernel.Time, dst int) {
	routes := n.multi.Routes(int(n.host), dst)
	if routes <= 1 {
		return
	}
	k := n.otherRoute(n.current(dst), routes)
	ps := &n.probes[dst]
	ps.route, ps.stopped = int32(k), 0
	dlid, sl, vl := n.multi.SourceRoute(int(n.host), dst, k)
	n.control(int32(dst), dlid, sl, vl, flit.Probe, now)
	n.ProbesSent++
}

// control queues a probe or a reply (flags) to dst, to leave no earlier
// than at.
func (n *NIC) control(dst, dlid int32, sl, vl int, flags uint8, at kernel.Time) {
	pi := n.pool.New()
	p := n.pool.Get(pi)
	p.Src, p.Dst, p.DLID, p.SL, p.VL = n.host, dst, dlid, uint8(sl), uint8(vl)
	p.Flits = probeCost
	p.Created = at
	p.Probe = flags
	n.push(pi)
	if at > n.controlAt {
		n.controlAt = at
	}
	n.alarm.Set(at)
}

// probeArrived handles a probe or reply whose flit arrived at t. A probe
// is answered on the route the NIC's own packets to the prober take (the
// static one if it sends none there), so the reply does not wait behind
// a third flow. A reply is acted on in the cycle it arrives (the NIC's
// tick then, whatever the order of the cycle's ticks): a free route is
// taken by the next packet; after a blocked one the NIC probes another
// route while its packets are still being stopped, and after MaxProbes
// blocked replies in a row it changes route anyway and doubles its
// threshold.
func (n *NIC) probeArrived(p *flit.Packet, t kernel.Time) {
	src := int(p.Src)
	if p.Probe&flit.Reply == 0 {
		dlid, sl, vl := n.route.Source(int(n.host), src)
		if n.routeOf != nil && n.routeOf[src] >= 0 {
			dlid, sl, vl = n.multi.SourceRoute(int(n.host), src, int(n.routeOf[src]))
		}
		n.control(p.Src, dlid, sl, vl, flit.Reply|p.Probe&flit.Blocked, t+1)
		return
	}
	if n.probes == nil || n.probes[src].route < 0 {
		return
	}
	ps := &n.probes[src]
	probed := ps.route
	ps.route = -1
	switch {
	case p.Probe&flit.Blocked == 0:
		ps.next, ps.failed, ps.raised = probed, 0, false
	case int(ps.failed)+1 >= n.disp.MaxProbes:
		routes := n.multi.Routes(int(n.host), src)
		ps.next, ps.failed, ps.raised = int32(n.otherRoute(n.current(src), routes)), 0, true
	case ps.stopped == 0:
		// No packet was stopped while the probe was out: the contention
		// that started the probing is gone.
		ps.failed++
	default:
		ps.failed++
		n.sendProbe(t+1, src)
	}
	n.stopped[src] = 0
}

// probeStopped counts units stopped packets to dst for a Probing NIC at
// now, and sends a probe (with Probability) when they reach the
// threshold and no probe is out.
func (n *NIC) probeStopped(now kernel.Time, dst int, units int64) {
	ps := &n.probes[dst]
	if ps.route >= 0 {
		ps.stopped = uint16(min(int64(ps.stopped)+units, 1<<16-1))
		return
	}
	thr := max(n.disp.Threshold, 1)
	if ps.raised {
		thr *= 2
	}
	if int(n.stopped[dst]) >= thr && ps.next < 0 {
		n.stopped[dst] = 0
		if n.rng.Float64() < n.disp.Probability {
			n.sendProbe(now, dst)
		}
	}
}

// probing returns the route of the next packet to dst under Probing: the
// one a reply chose, or the current one.
func (n *NIC) probing(dst int) int {
	ps := &n.probes[dst]
	r := n.current(dst)
	if ps.next >= 0 {
		if int(ps.next) != r {
			r = int(ps.next)
			n.changes++
		}
		ps.next = -1
	}
	return r
}
