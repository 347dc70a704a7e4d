package switching

import (
	"netsim/flit"
	"netsim/kernel"
)

// AcceptRun implements flit.Receiver. The packet's DLID, length, SL,
// source and probe flag must be set by then: the switch copies them when
// the packet becomes the head of its lane.
func (s *Switch) AcceptRun(now kernel.Time, port, vl int, pkt int32, arrive kernel.Time, k int) {
	if s.vq != nil {
		s.acceptSlot(now, port, vl, pkt, arrive, k)
		return
	}
	li := int32(port)*s.vls + int32(vl)
	l := &s.lanes[li]
	l.q.Push(s.ring(li), int(s.buffer), pkt, now, arrive, k)
	switch l.state {
	case idle:
		// The previous packet's last run, if still going, left the queue
		// when it started (flits leave it when their run starts).
		s.alarm.Set(s.newHead(li, pkt, arrive, s.runEnd(li, now), now))
	case active:
		s.alarm.Set(arrive)
	}
}

// newHead makes packet pkt, whose head is in the buffer from cycle ready
// on, the waiting head of lane li, and returns when it becomes eligible:
// once routed and once the previous packet's last run, ending at prevEnd,
// has ended. Whether it came in while that packet was still in the queue
// (send) or after (AcceptRun) then does not matter, nor does the order of
// the sender's and the switch's ticks in the cycle.
func (s *Switch) newHead(li, pkt int32, ready, prevEnd, now kernel.Time) kernel.Time {
	l := &s.lanes[li]
	s.setHead(l, pkt)
	l.state = waiting
	at := max(ready+s.routingDelay, prevEnd)
	s.elig[li] = uint32(at)
	l.since = s.elig[li]
	s.setWaiting(li, true)
	s.sleepUntil(li, at, now)
	return at
}

// setHead copies what selecting an output needs of packet pkt, the new
// head of lane l.
func (s *Switch) setHead(l *lane, pkt int32) {
	p := s.pool.Get(pkt)
	l.dlid, l.flits, l.probe = p.DLID, uint16(p.Flits), p.Probe&flit.Probe != 0
	l.sl, l.src, l.only = p.SL, p.Src, 0
}

// Buffered returns the number of flits in the switch's input buffers,
// including those on the wire towards them.
func (s *Switch) Buffered() int {
	n := 0
	for i := range s.lanes {
		n += s.lanes[i].q.Len()
	}
	return n
}
