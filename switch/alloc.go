package switching

import (
	"math"
	"math/bits"
	"slices"

	"netsim/flit"
	"netsim/kernel"
	"netsim/routing"
)

// eligibleOldestFirst lists the waiting lanes eligible at now, oldest
// first, ties in cyclic lane order from the round-robin pointer, in a
// scratch slice valid until the next call, leaving out those whose input
// port is busy; it lowers *next to the first cycle one of the lanes it
// leaves out may be allocated. Each entry holds its lane in its low 16
// bits (laneOf).
func (s *Switch) eligibleOldestFirst(now kernel.Time, next *kernel.Time) []uint64 {
	s.order = s.order[:0]
	s.eligibleIn(s.ptr, int32(len(s.lanes)), now, next)
	s.eligibleIn(0, s.ptr, now, next)
	if !slices.IsSorted(s.order) {
		slices.Sort(s.order)
	}
	return s.order
}

// eligibleIn adds to s.order the eligible waiting lanes in [lo, hi), in
// lane order, for eligibleOldestFirst, lowering *next to when those it
// leaves out may be allocated (addEligible).
func (s *Switch) eligibleIn(lo, hi int32, now kernel.Time, next *kernel.Time) {
	// The lanes of a port are consecutive: portLo and portHi bound those
	// of the port last looked up, free says whether it may feed a run.
	portLo, portHi, free := int32(0), int32(0), false
	for w := lo / 64; w*64 < hi; w++ {
		base := w * 64
		word := s.waiting[w]
		if base < lo {
			word &^= 1<<(lo-base) - 1
		}
		if hi-base < 64 {
			word &= 1<<(hi-base) - 1
		}
		for word != 0 {
			li := base + int32(bits.TrailingZeros64(word))
			if li < portLo || li >= portHi {
				port := s.portOf(li)
				portLo, portHi = port*s.lpp, port*s.lpp+s.lpp
				at := s.portAt(port, now)
				if free = at <= now; !free {
					*next = min(*next, at)
					// None of its lanes can start before at: they sleep
					// till then if that is less than sleepSlots ahead.
					s.sleepRange(max(portLo, lo), min(portHi, hi), at, now)
				}
			}
			if !free {
				// The input port feeds all the runs it may now: none of its
				// lanes can start, and their records are not looked at.
				if e := portHi - base; e < 64 {
					word &^= 1<<e - 1
				} else {
					word = 0
				}
				continue
			}
			word &= word - 1
			s.addEligible(li, now, next)
		}
	}
}

// addEligible adds waiting lane li, whose input port may feed a run, to
// s.order if its head may be allocated at now, else lowers *next to when
// it may; it sets s.blocked if the head is parked for want of room
// downstream.
func (s *Switch) addEligible(li int32, now kernel.Time, next *kernel.Time) {
	if at := s.eligibleAt(li, now); at > now {
		*next = min(*next, at)
		return
	}
	if s.parked[li/64]&(1<<(li%64)) != 0 && !s.noPark {
		if pk := &s.parks[li]; s.stillParked(li, pk, now) {
			// Its selection would fail as it did: wait for the retry
			// time, a freed output VL or news of room downstream.
			if pk.bits&fcBlockedBit != 0 {
				s.blocked = true
			}
			if at := pk.retryAt(now); at > now {
				*next = min(*next, at)
				return
			}
		}
	}
	// A lane whose input is busy now stays so this cycle: leaving it out
	// keeps the sort short. With speedup 1 portAt has told.
	if s.speedup > 1 {
		if at := s.inputAt(li, now); at > now {
			*next = min(*next, at)
			return
		}
	}
	// Sort by age, oldest first, then by position from the pointer: the
	// number of lanes listed before (pos and li are below MaxLanes < 2¹⁶).
	age := uint32(now) - s.lanes[li].since
	pos := len(s.order)
	s.order = append(s.order, uint64(^age)<<32|uint64(pos)<<16|uint64(li))
}

// selectNow runs the selection function for eligible waiting lane li in
// this cycle's allocation and returns the output port, VL and priority
// the head may start on now, or port −1 when it cannot: its input port
// feeds all the runs it may (or, VOQ, its buffer started another packet
// in this cycle, which holds it back or released it for later), no
// candidate is available (it is parked: a tick or a credit will tell), or
// the output it selected is busy with a run. Then the head waits for the
// run's end and selects again; it is not looked at meanwhile, so when it
// selects does not depend on when the switch ticks. *next is lowered to
// when that may change.
func (s *Switch) selectNow(now kernel.Time, li int32, next *kernel.Time) (port, outVL int32, prio routing.Priority) {
	if s.vq != nil && s.eligibleAt(li, now) > now {
		return -1, 0, 0
	}
	if at := s.inputAt(li, now); at > now {
		*next = min(*next, at)
		return -1, 0, 0
	}
	port, outVL, prio = s.selectOutput(now, li, next)
	if port < 0 {
		s.markProbe(li, -1)
		return -1, 0, 0
	}
	if f := s.freeAt(port); f > now {
		s.markProbe(li, port)
		s.elig[li] = uint32(f)
		s.sleepUntil(li, f, now)
		*next = min(*next, f)
		return -1, 0, 0
	}
	return port, outVL, prio
}

// laneOf returns the lane of an entry of eligibleOldestFirst.
func laneOf(key uint64) int32 { return int32(key & 0xffff) }

// grant starts the head packet of lane li on output port, VL outVL, a
// candidate of priority prio, and sends its first run.
func (s *Switch) grant(now kernel.Time, port, outVL int32, prio routing.Priority, li int32, next *kernel.Time) {
	o := &s.out[port]
	l := &s.lanes[li]
	sel := &s.sel[port]
	switch prio {
	// Not minimal: counted per packet. Minimal hops, by far the most,
	// do not visit the packet here.
	case routing.Medium:
		if pk := s.pool.Get(l.q.Front().Pkt); pk.MediumHops < math.MaxUint8 {
			pk.MediumHops++
		}
	case routing.Low:
		if pk := s.pool.Get(l.q.Front().Pkt); pk.LowHops < math.MaxUint8 {
			pk.LowHops++
		}
	}
	if l.probe && sel.owner >= 0 && sel.owner != l.src && o.n == 0 && uint32(now)-sel.freed < uint32(sel.lastLen) {
		// The link carried another flow's packet within the last packet
		// time: it is in use, though the probe found it between two packets.
		s.pool.Get(l.q.Front().Pkt).Probe |= flit.Blocked
	}
	if o.n == 0 {
		sel.owner = l.src
	} else if sel.owner != l.src {
		sel.owner = -1
	}
	sel.held |= 1 << outVL
	o.active[o.n] = int16(li)
	o.n++
	if !o.busy {
		o.busy = true
		s.busy = append(s.busy, port)
	}
	l.state = active
	s.unpark(li)
	if s.vq != nil {
		s.slotGranted(li, now)
	}
	l.outVL = uint8(outVL)
	l.reserved = s.mode == CutThrough && sel.fc.Reserve(now, int(outVL), int(l.flits))
	k := s.runLength(now, port, l, next)
	if k == 0 {
		panic("switching: a granted head cannot move")
	}
	s.send(now, port, o.n-1, k, next)
}

// compactBusy drops outputs with no packet in progress from the busy list.
func (s *Switch) compactBusy() {
	b := s.busy[:0]
	for _, p := range s.busy {
		if s.out[p].n > 0 {
			b = append(b, p)
		} else {
			s.out[p].busy = false
		}
	}
	s.busy = b
}
