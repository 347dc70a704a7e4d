package nic

import (
	"math"

	"netsim/kernel"
)

// Generate creates one packet at now and schedules the next; the owner calls
// it for every GenKind event addressed to the NIC.
func (n *NIC) Generate(now kernel.Time) {
	if !n.generating {
		return
	}
	dst := n.pattern.Dest(int(n.host), &n.rng)
	dlid, sl, vl := n.route.Source(int(n.host), dst)
	// A NIC stopped by flow control with a packet in progress, or with
	// older packets on the new one's VL, would find the same at once: the
	// new packet is behind them. Its wake-ups stand.
	behind := n.blocked && (n.cur >= 0 || n.filled&(1<<vl) != 0)
	left := n.flits // one packet, or a message's flits
	if n.sizes != nil {
		left = int32(n.sizes.Draw(&n.rng))
	}
	for left > 0 {
		flits := min(left, n.flits)
		left -= flits
		pi := n.newPacket(int32(dst), dlid, sl, vl, flits, 0, now)
		if n.rrLimit > 0 {
			n.request(pi)
			continue
		}
		n.push(pi)
	}
	if !behind {
		n.alarm.Set(now)
	}
	if gap := n.process.Gap(&n.rng); gap != kernel.Never {
		n.eng.Schedule(now+gap, kernel.Event{Kind: n.genKind, Target: n.host})
	}
}

// newPacket returns a data packet of flits flits from the NIC to dst, on
// the route dlid, sl, vl, with sequence number seq, created at now and
// counted as generated.
func (n *NIC) newPacket(dst, dlid int32, sl, vl int, flits, seq int32, now kernel.Time) int32 {
	pi := n.pool.New()
	p := n.pool.Get(pi)
	p.Src, p.Dst, p.DLID, p.SL, p.VL = n.host, dst, dlid, uint8(sl), uint8(vl)
	p.Flits = uint16(flits)
	p.Seq = seq
	p.Created = now
	p.Measured = n.meter.generated(now, flits)
	return pi
}

func (n *NIC) push(pi int32) {
	vl := n.pool.Get(pi).VL
	n.queues[vl].Push(pi)
	n.filled |= 1 << vl
	n.queued++
	n.meter.Queued += int64(n.pool.Get(pi).Flits)
}

// Unblock implements flit.Sender.
//
// A NIC with a packet in progress wakes at at. One waiting to start a
// packet wakes when vl's oldest packet fits: credits come back one per
// cycle, and news of room on a VL with no packet waiting changes nothing.
func (n *NIC) Unblock(vl int, at kernel.Time) {
	if !n.blocked {
		return
	}
	if n.cur >= 0 {
		n.alarm.Set(at)
		return
	}
	now := n.eng.Now()
	q := vl
	if n.classes != nil {
		q = n.classes.Of(vl)
	}
	pi, ok := n.oldest(q, now)
	if !ok {
		return // nothing to send there, or a reply still arriving (the NIC wakes at controlAt)
	}
	if t := n.fc.ReadyAt(now, vl, n.need(pi)); t != kernel.Never {
		n.alarm.Set(max(t, at))
	}
}

// oldest returns the oldest packet queued on vl if it may start at now:
// not when vl's queue is empty or the packet is a reply to a probe still
// arriving.
func (n *NIC) oldest(vl int, now kernel.Time) (int32, bool) {
	if n.filled&(1<<vl) == 0 {
		return 0, false
	}
	pi := n.queues[vl].Front()
	if n.controlAt > now && n.pool.Get(pi).Created > now {
		return 0, false
	}
	return pi, true
}

// need returns the credits packet pi needs to start: all of its flits
// under cut-through, else one.
func (n *NIC) need(pi int32) int {
	if n.cutThrough {
		return int(n.pool.Get(pi).Flits)
	}
	return 1
}

// Wake makes the NIC tick at at even if it has nothing to do then. Such a
// tick changes nothing; tests use Wake to check that the NIC's own
// wake-ups miss nothing.
func (n *NIC) Wake(at kernel.Time) { n.alarm.Set(at) }

// Tick drains the receive buffer, acts on the probes and replies that
// have arrived, and starts at most one run when the link is free; the
// owner calls it for every TickKind event addressed to the NIC.
func (n *NIC) Tick(now kernel.Time) {
	if !n.alarm.Ring(now) {
		return // superseded by an earlier wake-up
	}
	if n.rxQueue.Len() > 0 {
		n.drain(now)
	}
	for n.probesIn.Len() > 0 && n.probesIn.Front().at <= now {
		in := n.probesIn.Pop()
		n.meter.ProbesHeld--
		n.probeArrived(n.pool.Get(in.pi), in.at)
		n.pool.Release(in.pi)
	}
	if n.probesIn.Len() > 0 {
		n.alarm.Set(n.probesIn.Front().at)
	}
	if n.rrIn.Len() > 0 {
		n.answer(now)
	}
	if n.freeAt > now {
		// A packet generated while a run is on the link: the link carries
		// one flit per cycle, so it waits for the run's end.
		n.alarm.Set(n.freeAt)
		return
	}
	n.blocked = false
	if n.cur < 0 && !n.start(now) {
		n.wait(now)
		return
	}
	vl := int(n.curVL)
	k := n.curFlits - n.curSent
	if !n.reserved {
		b := n.fc.Burst(now, vl)
		if b <= 0 {
			n.stop(now)
			n.wait(now)
			return
		}
		k = min(k, int32(b))
	}
	if n.maxRun > 0 {
		k = min(k, n.maxRun)
	}
	arrive := now + n.latency
	pi := n.cur
	if n.curSent == 0 {
		// The head leaves: the packet's wait at its source ends.
		p := n.pool.Get(pi)
		p.Waited = int32(min(now-p.Created, math.MaxInt32))
	}
	n.curSent += k
	if n.stallFrom >= 0 {
		n.stalled += now - n.stallFrom
		n.stallFrom = -1
	}
	if n.curSent == n.curFlits {
		n.cur = -1
		if n.stopHit {
			n.countStopped(now)
		}
	}
	if !n.reserved {
		n.fc.Sent(now, vl, arrive, int(k))
	}
	n.freeAt = now + kernel.Time(k)
	n.meter.Queued -= int64(k)
	n.meter.Injected += int64(k)
	n.meter.FlitHops += int64(k)
	if n.linkFlits != nil {
		n.linkFlits[vl] += int64(k)
	}
	n.eng.ProgressUntil(n.freeAt - 1)
	if n.sink != nil && n.cur < 0 {
		if p := n.pool.Get(pi); p.Probe == 0 {
			n.sink.Departed(p.Seq, n.freeAt-1)
		}
	}
	n.to.AcceptRun(now, int(n.toPort), vl, pi, arrive, int(k))
	if n.cur >= 0 || n.queued > 0 || n.xLeft > 0 || n.pipe.Len() > 0 || n.outMsgs.Len() > 0 {
		n.alarm.Set(n.freeAt)
	}
}

// start picks the next packet to inject: round-robin over the VLs, the
// first whose oldest packet the switch buffer can take.
func (n *NIC) start(now kernel.Time) bool {
	if n.queued == 0 && (n.xLeft > 0 || n.pipe.Len() > 0) {
		n.nextExchange(now)
	}
	if n.queued == 0 && n.outMsgs.Len() > 0 {
		n.nextMessage(now)
	}
	if n.queued == 0 {
		return false
	}
	vls := len(n.queues)
	n.readyAt = kernel.Never
	for k := 0; k < vls; k++ {
		qi := n.vlNext + k
		if qi >= vls {
			qi -= vls
		}
		pi, ok := n.oldest(qi, now)
		if !ok {
			continue
		}
		q := &n.queues[qi]
		need := n.need(pi)
		vl, ok, ready := n.sendVL(now, qi, need)
		if !ok {
			n.stop(now)
			n.readyAt = min(n.readyAt, ready)
			continue
		}
		q.Pop()
		if q.Len() == 0 {
			n.filled &^= 1 << qi
		}
		n.queued--
		if n.multi != nil && n.pool.Get(pi).Probe == 0 && !n.lagged() {
			n.chooseRoute(now, pi)
		}
		p := n.pool.Get(pi)
		n.cur, n.curSent, n.curVL, n.curFlits = pi, 0, int32(vl), int32(p.Flits)
		n.curDst = p.Dst
		n.reserved = n.cutThrough && n.fc.Reserve(now, vl, need)
		n.vlNext = qi + 1
		if n.vlNext == vls {
			n.vlNext = 0
		}
		return true
	}
	return false
}

// sendVL returns the link VL on which the oldest packet of source queue
// qi, needing need credits, may start at now, if ok, and otherwise when
// it may (kernel.Never if not with the credits on their way): the queue's
// VL, or under dynamic VL choice the VL of its class that admits the
// packet with the most credits (the lowest of equals).
func (n *NIC) sendVL(now kernel.Time, qi, need int) (vl int, ok bool, ready kernel.Time) {
	if n.classes == nil {
		if n.fc.CanSend(now, qi, need) {
			return qi, true, now
		}
		return qi, false, n.fc.ReadyAt(now, qi, need)
	}
	lo, hi := n.classes.Range(qi)
	best, bestFree, ready := -1, -1, kernel.Never
	for v := lo; v < hi; v++ {
		if n.fc.CanSend(now, v, need) {
			if f := n.fc.Free(now, v); f > bestFree {
				best, bestFree = v, f
			}
		} else if best < 0 {
			ready = min(ready, n.fc.ReadyAt(now, v, need))
		}
	}
	if best >= 0 {
		return best, true, now
	}
	return lo, false, ready
}

func (n *NIC) wait(now kernel.Time) {
	n.blocked = true
	if n.cur < 0 && n.queued == 0 {
		return
	}
	// With a packet in progress any credit of its VL lets it go on;
	// before a packet starts, the first VL whose oldest packet fits.
	t := n.readyAt
	if n.cur >= 0 {
		t = n.fc.Pending(now)
	}
	if t != kernel.Never {
		n.alarm.Set(t)
	}
	if n.controlAt > now {
		n.alarm.Set(n.controlAt)
	}
}
