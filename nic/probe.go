package nic

import (
	"netsim/flit"
	"netsim/kernel"
)

// probeState is what a Probing NIC keeps per destination.
type probeState struct {
	route   int32       // the route probed, −1 when no probe is out
	answer  kernel.Time // when the reply arrived, 0 while none has
	blocked bool        // the reply said the route is in use
	failed  uint16      // blocked probes in a row
	raised  bool        // the threshold is doubled after a forced change
}

// probeCost is the length of a probe and of its reply, in flits.
const probeCost = 1

// sendProbe queues a probe at now to dst along a random route other than cur, of
// routes.
func (n *NIC) sendProbe(now kernel.Time, dst, cur, routes int) {
	k := n.rng.IntN(routes - 1)
	if k >= cur {
		k++
	}
	ps := &n.probes[dst]
	ps.route, ps.answer, ps.blocked = int32(k), 0, false
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

// probeArrived handles a probe or reply whose flit arrived at t: a probe
// is answered on the static route, a reply recorded for the next packet
// to its sender.
func (n *NIC) probeArrived(p *flit.Packet, t kernel.Time) {
	if p.Probe&flit.Reply == 0 {
		dlid, sl, vl := n.route.Source(int(n.host), int(p.Src))
		n.control(p.Src, dlid, sl, vl, flit.Reply|p.Probe&flit.Blocked, t+1)
		return
	}
	if n.probes == nil {
		return
	}
	ps := &n.probes[p.Src]
	if ps.route >= 0 {
		ps.answer, ps.blocked = t+1, p.Probe&flit.Blocked != 0
	}
}

// probing picks the route of a packet to dst under Probing, given its
// current route r of routes, at now: it takes a probed route whose reply
// said it was free, probes again after a blocked reply (or, after
// MaxProbes of them, changes route anyway and raises the threshold), and
// starts probing when Threshold packets were stopped.
func (n *NIC) probing(now kernel.Time, dst, r, routes int) int {
	ps := &n.probes[dst]
	if ps.route >= 0 && ps.answer != 0 && ps.answer <= now {
		switch {
		case !ps.blocked:
			r = int(ps.route)
			ps.failed, ps.raised = 0, false
			n.changes++
			ps.route = -1
		case int(ps.failed)+1 >= n.disp.MaxProbes:
			k := n.rng.IntN(routes - 1)
			if k >= r {
				k++
			}
			r = k
			ps.failed, ps.raised = 0, true
			n.changes++
			ps.route = -1
		default:
			ps.failed++
			n.sendProbe(now, dst, r, routes)
		}
		n.stopped[dst] = 0
		return r
	}
	thr := max(n.disp.Threshold, 1)
	if ps.raised {
		thr *= 2
	}
	if ps.route < 0 && int(n.stopped[dst]) >= thr {
		n.stopped[dst] = 0
		if n.rng.Float64() < n.disp.Probability {
			n.sendProbe(now, dst, r, routes)
		}
	}
	return r
}
