package switching

import (
	"math"

	"netsim/kernel"
)

// transfer sends a run on output port p from the packets in progress
// there, staying with the packet of the last run while it can move.
func (s *Switch) transfer(now kernel.Time, p int32, next *kernel.Time) bool {
	o := &s.out[p]
	n := o.n
	for j := int32(0); j < n; j++ {
		ai := int32(o.rr) + j
		if ai >= n {
			ai -= n
		}
		li := int32(o.active[ai])
		if at := s.inputAt(li, now); at > now {
			*next = min(*next, at)
			continue
		}
		if k := s.runLength(now, p, &s.lanes[li], next); k > 0 {
			s.send(now, p, ai, k, next)
			return true
		}
	}
	return false
}

// runLength returns how many flits of lane l's head packet output o can
// send back to back from now on, or 0 if it can send none now, in which case
// it lowers *next to when that may change (or leaves a wake-up to AcceptRun or
// to flow control).
func (s *Switch) runLength(now kernel.Time, port int32, l *lane, next *kernel.Time) int {
	if l.q.Len() == 0 {
		return 0 // the rest of the packet is not sent yet; AcceptRun wakes us
	}
	f, k := l.q.FrontRun(now)
	if !f.ReadyBy(now) {
		*next = min(*next, f.Ready(now))
		return 0
	}
	k = min(k, int(l.flits-l.sent), int(s.maxRun))
	if !l.reserved {
		fc := s.sel[port].fc
		b := fc.Burst(now, int(l.outVL))
		if b <= 0 {
			s.blocked = true
			*next = min(*next, fc.Pending(now))
			return 0
		}
		k = min(k, b)
	}
	return k
}

// send moves the k front flits of the lane at position ai of output p's
// packets in progress onto the link, one per cycle from now on.
func (s *Switch) send(now kernel.Time, p, ai int32, k int, next *kernel.Time) {
	o := &s.out[p]
	li := int32(o.active[ai])
	l := &s.lanes[li]
	end := now + kernel.Time(k)
	s.feed(li, now, end)
	s.times[p*(s.speedup+1)].end = end
	*next = min(*next, end)
	f := l.q.Front()
	l.q.Pop(s.ring(li), k)
	in, vl := s.portOf(li), s.vlOf(li)
	if s.sh != nil {
		s.departed(in*s.vls+vl, k, now)
	} else {
		s.freed(in, int(vl), k, now)
	}
	if l.sent == 0 {
		if pk := s.pool.Get(f.Pkt); pk.Hops < math.MaxUint16 {
			pk.Hops++
		}
	}
	l.sent += uint16(k)
	tail := l.sent == l.flits
	arrive := now + s.flitDelay + kernel.Time(o.extra)
	if !l.reserved {
		s.sel[p].fc.Sent(now, int(l.outVL), arrive, k)
	}
	o.to.AcceptRun(now, int(o.toPort), int(l.outVL), f.Pkt, arrive, k)
	s.FlitHops += int64(k)
	if s.linkFlits != nil {
		s.linkFlits[p*s.vls+int32(l.outVL)] += int64(k)
	}
	s.eng.ProgressUntil(end - 1)
	if !tail {
		o.rr = int16(ai) // stay with this packet while it can move
		return
	}
	// The tail leaves at end−1 and the output is busy until end, so the
	// output VL is free for the next packet from then on.
	sel := &s.sel[p]
	sel.held &^= 1 << l.outVL
	sel.freed, sel.lastLen = uint32(end), l.flits
	s.outChanged(p, int32(l.outVL))
	n := o.n
	for j := ai; j < n-1; j++ { // (copy calls memmove for a word or two)
		o.active[j] = o.active[j+1]
	}
	o.n--
	if ai >= n-1 {
		o.rr = 0
	} else {
		o.rr = int16(ai)
	}
	l.sent = 0
	if l.q.Len() > 0 {
		h := l.q.Front()
		*next = min(*next, s.newHead(li, h.Pkt, h.Ready(now), end, now))
	} else {
		l.state = idle
	}
	if s.vq != nil {
		s.slotFreed(li, end, now, next)
	}
}

// freeAt returns when output port p's current run ends.
func (s *Switch) freeAt(p int32) kernel.Time { return s.times[p*(s.speedup+1)].end }

// inputAt returns the first cycle, now or later, at which lane li's input
// port may start feeding a run from it: now if the port feeds fewer than
// Speedup runs and none from li, else when a run of li or the first of
// the port's runs ends.
func (s *Switch) inputAt(li int32, now kernel.Time) kernel.Time {
	if s.sh != nil {
		// Shared memory: the outputs read it, and a lane's packet is sent
		// by its output alone, one run at a time (a slot's next packet
		// is another packet's memory).
		return now
	}
	sp := s.speedup
	at := s.portOf(li) * (sp + 1)
	if sp == 1 {
		// One run at a time: the port is free unless it feeds one, from
		// li or another lane.
		if end := s.times[at+1].end; end > now {
			return end
		}
		return now
	}
	runs := s.times[at+1 : at+1+sp]
	busy, first := int32(0), kernel.Never
	for _, r := range runs {
		if r.end <= now {
			continue
		}
		if r.lane == li {
			return r.end
		}
		busy++
		first = min(first, r.end)
	}
	if busy < sp {
		return now
	}
	return first
}

// portAt returns the first cycle, now or later, at which input port port
// feeds fewer than Speedup runs (inputAt of its lanes that feed none).
func (s *Switch) portAt(port int32, now kernel.Time) kernel.Time {
	if busy, first := s.feeding(port, now); busy == s.speedup {
		return first
	}
	return now
}

// feeding returns the number of runs input port port feeds at now, and
// when the first of them ends (kernel.Never if none).
func (s *Switch) feeding(port int32, now kernel.Time) (busy int32, first kernel.Time) {
	if s.sh != nil {
		return 0, kernel.Never // the outputs read the shared memory
	}
	sp := s.speedup
	at := port * (sp + 1)
	if sp == 1 {
		if end := s.times[at+1].end; end > now {
			return 1, end
		}
		return 0, kernel.Never
	}
	first = kernel.Never
	for _, r := range s.times[at+1 : at+1+sp] {
		if r.end > now {
			busy++
			first = min(first, r.end)
		}
	}
	return busy, first
}

// feed records that lane li's input port feeds a run from it until end.
func (s *Switch) feed(li int32, now, end kernel.Time) {
	if s.sh != nil {
		return // inputAt
	}
	sp := s.speedup
	at := s.portOf(li) * (sp + 1)
	runs := s.times[at+1 : at+1+sp]
	for i := range runs {
		if runs[i].end <= now {
			runs[i] = inRun{end: end, lane: li}
			return
		}
	}
	panic("switching: input port feeds more runs than its speedup")
}

// runEnd returns when the run that lane li's input port feeds from it
// ends, or 0 if it feeds none at now.
func (s *Switch) runEnd(li int32, now kernel.Time) kernel.Time {
	sp := s.speedup
	at := s.portOf(li) * (sp + 1)
	if sp == 1 {
		if r := s.times[at+1]; r.lane == li && r.end > now {
			return r.end
		}
		return 0
	}
	for _, r := range s.times[at+1 : at+1+sp] {
		if r.lane == li && r.end > now {
			return r.end
		}
	}
	return 0
}
