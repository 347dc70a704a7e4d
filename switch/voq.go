package switching

import (
	"math/bits"

	"netsim/kernel"
)

// Virtual output queues (BuffersVOQ).
//
// Each input port and VL keeps Slots lanes, one packet each, in place of
// one FIFO. A packet takes a free slot when its first flit is sent to the
// buffer and gives it back when its tail leaves, so its slot is its
// queue: it is routed once its head is in, and from then on it selects
// and competes like the head of a FIFO, with its own output. Queueing by
// output is then what selection makes of it: the packets of a buffer
// that selected one output compete for it oldest first (the allocators
// take the oldest of an input's heads for an output), and a packet whose
// output is held, closed or busy waits without holding back the packets
// behind it. An adaptive packet selects again each time it competes, as
// a FIFO's head does, until it is granted: its choice is made when it
// leaves, from the state of its candidates then, not fixed when it
// arrives, so it never waits in the queue of an output that another of
// its candidates could serve at once.
//
// Three rules keep what a buffer is. It is read one packet at a time: once
// a packet is granted the others wait until its last run has ended, as
// the next head of a FIFO does. Packets to one destination leave in their
// order of arrival: a packet waits while an earlier one to its
// destination waits in the same buffer, so a flow on one path stays in
// order whatever its packets select. And a packet may pass an earlier one
// only once its tail is in the buffer: under wormhole or STOP/GO a packet
// read before all its flits are in would wait for them with the buffer
// full of the packets it passed, which could not leave before it (a
// deadlock no routing could prevent); a packet with no earlier one is a
// FIFO's head and needs no such wait.
//
// A waiting slot that one of the rules holds back has its eligible time
// (Switch.elig) far ahead; the rules release it (release) when the packet
// being read ends or the earlier packet is granted.

// voqLane is the state of the slots of one input port and VL.
type voqLane struct {
	// free has bit k set while slot k holds no packet.
	free uint64
	// arriving is the lane of the packet whose flits are still being
	// sent to the buffer, arrPkt that packet; arriving is −1 when the
	// slot it named was given back.
	arriving, arrPkt int32
	// active is the lane being read: granted, its tail not yet gone; −1:
	// none.
	active int32
	// lastEnd is when the last run of the packet read last ends: the next
	// may not start before.
	lastEnd kernel.Time
	// justFreed holds the slots given back in cycle freedAt: a packet
	// arriving in that cycle does not take them, so which slot it takes
	// does not depend on whether the switch ticked before the sender.
	justFreed uint64
	freedAt   kernel.Time
	// seq numbers the packets in order of arrival.
	seq uint32
}

// holdAhead is how far ahead of now a held slot's eligible time is set:
// it is released long before (modulo 2³², eligibleAt reads it as ahead).
const holdAhead = 1 << 30

// portOf returns the input port of lane li: li / lpp, by a multiplication
// (lanePorts), as a division costs several times as much and every stage
// asks it.
func (s *Switch) portOf(li int32) int32 { return int32(uint64(uint32(li)) * s.lanePorts >> 32) }

// lanePorts returns the multiplier that divides a lane number below 2¹⁶
// by lpp < 2¹⁶ (portOf): ⌊2³²/lpp⌋ + 1. It exceeds 2³²/lpp by e ≤ lpp,
// so li·m/2³² is li/lpp plus less than li·lpp/2³²/lpp < 1/lpp, which
// never reaches the next integer.
func lanePorts(lpp int32) uint64 { return 1<<32/uint64(lpp) + 1 }

// vlOf returns the VL of lane li.
func (s *Switch) vlOf(li int32) int32 {
	if s.slots == 1 {
		return li - s.portOf(li)*s.lpp
	}
	return (li - s.portOf(li)*s.lpp) / s.slots
}

// voqOf returns the index in s.vq of lane li's input port and VL.
func (s *Switch) voqOf(li int32) int32 { return li / s.slots }

// acceptSlot is AcceptRun under BuffersVOQ: the flits join the slot of
// their packet, a free one if it is new.
func (s *Switch) acceptSlot(now kernel.Time, port, vl int, pkt int32, arrive kernel.Time, k int) {
	vi := int32(port)*s.vls + int32(vl)
	v := &s.vq[vi]
	li := v.arriving
	if li < 0 || v.arrPkt != pkt {
		avail := v.free
		if v.freedAt == now {
			avail &^= v.justFreed
		}
		if avail == 0 {
			panic("switching: a VOQ buffer has no free slot: more packets than Params.Slots")
		}
		slot := int32(bits.TrailingZeros64(avail))
		v.free &^= 1 << slot
		li = vi*s.slots + slot
		v.arriving, v.arrPkt = li, pkt
		s.slotSeq[li] = v.seq
		v.seq++
		if s.sh != nil {
			s.landing(vi, arrive+s.routingDelay)
		}
	}
	l := &s.lanes[li]
	l.q.Push(s.ring(li), int(s.buffer), pkt, now, arrive, k)
	switch l.state {
	case idle:
		s.setHead(l, pkt)
		l.state = waiting
		// Its age counts from its routing, whatever the buffer was doing:
		// when the buffer's last read ended depends, within the cycle, on
		// whether the switch ticked before the sender.
		routed := arrive + s.routingDelay
		l.since = uint32(routed)
		at := max(routed, v.lastEnd)
		s.setWaiting(li, true)
		if s.held(li) {
			s.elig[li] = uint32(now) + holdAhead
			return
		}
		s.elig[li] = uint32(at)
		s.sleepUntil(li, at, now)
		s.alarm.Set(at)
	case waiting:
		// Its tail may be in now: a packet held back only for lack of it
		// may go, from the next cycle (whether the switch ticked before
		// the sender in this one or not).
		if l.q.Len() == int(l.flits) && int32(s.elig[li]-uint32(now)) >= holdAhead/2 && !s.held(li) {
			at := max(s.routedAt(li, now), v.lastEnd, now+1)
			s.elig[li] = uint32(at)
			s.sleepUntil(li, at, now)
			s.alarm.Set(at)
		}
	case active:
		s.alarm.Set(arrive)
	}
}

// held reports whether waiting lane li is held back: its buffer is being
// read, an earlier packet to its destination waits in it, or its tail is
// not in yet and an earlier packet is.
func (s *Switch) held(li int32) bool {
	v := &s.vq[s.voqOf(li)]
	if v.active >= 0 && s.sh == nil {
		return true
	}
	l := &s.lanes[li]
	complete := l.q.Len() == int(l.flits)
	base, seq := li-li%s.slots, s.slotSeq[li]
	for m := s.occupied(v); m != 0; m &= m - 1 {
		o := base + int32(bits.TrailingZeros64(m))
		if o == li || int32(s.slotSeq[o]-seq) > 0 {
			continue // not earlier
		}
		if !complete || s.lanes[o].state == waiting && s.lanes[o].dlid == l.dlid {
			return true
		}
	}
	return false
}

// routedAt returns when the packet of waiting lane li was routed: its age
// (lane.since), which under BuffersVOQ counts from its routing.
func (s *Switch) routedAt(li int32, now kernel.Time) kernel.Time {
	return now - kernel.Time(int32(uint32(now)-s.lanes[li].since))
}

// occupied returns the slots of v that hold a packet.
func (s *Switch) occupied(v *voqLane) uint64 {
	return ^v.free & (^uint64(0) >> (64 - s.slots))
}

// slotGranted records that lane li was granted: its buffer is read, and
// the buffer's other waiting packets are held until the read ends.
func (s *Switch) slotGranted(li int32, now kernel.Time) {
	vi := s.voqOf(li)
	v := &s.vq[vi]
	if s.sh != nil {
		// Shared memory: the others may leave too, those to its
		// destination from the next cycle.
		s.releaseSlots(vi, li, now+1, now, nil)
		return
	}
	v.active = li
	base := vi * s.slots
	for m := s.occupied(v); m != 0; m &= m - 1 {
		if o := base + int32(bits.TrailingZeros64(m)); o != li && s.lanes[o].state == waiting {
			s.elig[o] = uint32(now) + holdAhead
		}
	}
}

// slotFreed gives back the slot of lane li, whose tail has left in a run
// ending at end, and releases the waiting packets of its buffer that no
// earlier packet to their destination holds back, from end on.
func (s *Switch) slotFreed(li int32, end, now kernel.Time, next *kernel.Time) {
	vi := s.voqOf(li)
	v := &s.vq[vi]
	if v.freedAt != now {
		v.freedAt, v.justFreed = now, 0
	}
	v.free |= 1 << (li % s.slots)
	v.justFreed |= 1 << (li % s.slots)
	if v.arriving == li {
		v.arriving = -1
	}
	if s.sh != nil {
		// Shared memory: the packets held for an earlier one's tail may
		// go from the next cycle.
		s.releaseSlots(vi, li, now+1, now, next)
		return
	}
	v.active, v.lastEnd = -1, end
	s.releaseSlots(vi, li, end, now, next)
}

// releaseSlots lets the waiting packets of input port and VL vi other than
// lane li that no rule holds back any longer and whose eligible time is
// held far ahead go from from on (their routing permitting), lowering
// *next (if not nil) to the first of them.
func (s *Switch) releaseSlots(vi, li int32, from, now kernel.Time, next *kernel.Time) {
	v := &s.vq[vi]
	base := vi * s.slots
	for m := s.occupied(v); m != 0; m &= m - 1 {
		o := base + int32(bits.TrailingZeros64(m))
		if o == li || s.lanes[o].state != waiting || int32(s.elig[o]-uint32(now)) < holdAhead/2 || s.held(o) {
			continue
		}
		at := max(s.routedAt(o, now), from)
		s.elig[o] = uint32(at)
		s.sleepUntil(o, at, now)
		if next != nil {
			*next = min(*next, at)
		} else {
			s.alarm.Set(at)
		}
	}
}
