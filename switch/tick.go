package switching

import (
	"netsim/kernel"
)

// Tick runs one cycle of the switch; the owner calls it for every TickKind
// event addressed to the switch.
func (s *Switch) Tick(now kernel.Time) {
	if !s.alarm.Ring(now) {
		return // superseded by an earlier wake-up
	}
	s.blocked = false
	next := s.wake(now)
	if s.sh != nil && s.sh.wantN > 0 {
		next = min(next, s.topUp(now))
	}
	moved := false

	// Phase 1: outputs whose run has ended continue the packets they have
	// in progress. The rotation follows the cycle, not the number of
	// ticks, so a tick that finds nothing to do leaves no trace.
	if n := len(s.busy); n > 0 {
		start := int(now % kernel.Time(n))
		for k := 0; k < n; k++ {
			i := start + k
			if i >= n {
				i -= n
			}
			p := s.busy[i]
			if f := s.freeAt(p); f > now {
				next = min(next, f)
				continue
			}
			if s.transfer(now, p, &next) {
				moved = true
			}
		}
	}

	// Phase 2: eligible waiting heads, oldest first (by when they became
	// eligible; ties in lane order from the round-robin pointer), each
	// start on the output its selection function picks if that output and
	// the head's input are still free (a greedy maximal matching). The
	// pointer then moves past the first lane granted.
	if s.nWaiting > 0 && s.alloc != AllocOldestFirst {
		moved = s.allocate(now, &next) || moved
	} else if s.nWaiting > 0 {
		first := int32(-1)
		for _, key := range s.eligibleOldestFirst(now, &next) {
			li := laneOf(key)
			port, ovl, prio := s.selectNow(now, li, &next)
			if port < 0 {
				continue
			}
			s.setWaiting(li, false)
			s.grant(now, port, ovl, prio, li, &next)
			moved = true
			if first < 0 {
				first = li
			}
		}
		if first >= 0 {
			s.ptr = (first + 1) % int32(len(s.lanes))
		}
	}

	if moved {
		s.compactBusy()
	}
	if next != kernel.Never {
		s.alarm.Set(next)
	}
}

// Wake makes the switch tick at at even if it has nothing to do then. Such
// a tick changes nothing; tests use Wake to check that the switch's own
// wake-ups miss nothing.
func (s *Switch) Wake(at kernel.Time) { s.alarm.Set(at) }
