package switching

import (
	"math/bits"

	"netsim/flit"
	"netsim/kernel"
)

// park is what passing over a parked head needs, kept per lane apart from
// the lane records (Switch.parks), four to a cache line: a tick looks it
// up for every eligible waiting lane, most of which stay parked.
//
// A head is parked when its last selection failed, every candidate's
// output VL held or its flow control closed (or, under SelectIdle, its
// port in the middle of a run). Until one of the
// candidates' output VLs changes after the switch's generation gen
// (see Switch.gen, stillParked), selecting again before retry (modulo
// 2³²) would fail alike, and the head is passed over. A change need not
// end the parking either: if the output VL that changed is still not
// available to the head (held again, its credits not yet back or, under
// SelectIdle, its port busy with a run), the head stays parked, its retry
// brought forward to when those credits are back or that run ends, if
// sooner (stillClosed).
type park struct {
	// bits has a bit per candidate port (Switch.portBit) and the flags
	// parkedBit, fcBlockedBit (flow control closed a candidate) and
	// noRetryBit (no retry time: only a change of the ports helps).
	bits       uint64
	gen, retry uint32
}

// Flags of park.bits, above the ports' bits.
const (
	parkedBit    = 1 << 63
	fcBlockedBit = 1 << 62
	noRetryBit   = 1 << 61
	portBits     = 61 // bits for output ports, which share them in turn
)

// retryAt returns the retry time of a parked head, kernel.Never if it
// waits for one of its ports to change.
func (pk *park) retryAt(now kernel.Time) kernel.Time {
	if pk.bits&noRetryBit != 0 {
		return kernel.Never
	}
	return now + kernel.Time(int32(pk.retry-uint32(now)))
}

// stillParked reports whether the parked head of lane li, pk, would fail
// its selection at now as it did when it was parked: no candidate's
// output VL has been set free or reported room since, or each that has
// is still not available to it (held, closed by flow control or, under
// SelectIdle, its port busy with a run); and no news has come that
// names no port. It then moves the head's parking generation on, so the
// next look is quick, and its retry time to the first at which one of
// the output VLs that changed may open.
func (s *Switch) stillParked(li int32, pk *park, now kernel.Time) bool {
	if pk.gen == s.gen {
		return true
	}
	if d := s.gen - pk.gen; d >= 1<<31 || int32(s.allGen-pk.gen) > 0 {
		return false // (parked too long ago to compare generations)
	}
	var changed uint64
	for m := pk.bits & (1<<portBits - 1); m != 0; m &= m - 1 {
		if b := bits.TrailingZeros64(m); int32(s.portGen[b]-pk.gen) > 0 {
			changed |= 1 << b
		}
	}
	if changed != 0 && !s.stillClosed(li, pk, changed, now) {
		return false
	}
	pk.gen = s.gen
	return true
}

// stillClosed looks again at the candidate ports in changed (bits of
// park.bits) of the parked head of lane li, pk, whose ports have changed
// since it was parked: it reports whether the head's output VL on each
// is still not available to it, as selectOutput would find it, and if so
// lowers pk's retry time to when those closed by flow control or busy
// with a run may open. On a switch with more than portBits ports, where a
// bit does not name one port, it reports false: the head selects again.
func (s *Switch) stillClosed(li int32, pk *park, changed uint64, now kernel.Time) bool {
	if len(s.out) > portBits {
		return false
	}
	l := &s.lanes[li]
	inPort, inVL, sl := int(s.portOf(li)), s.routeVL(li), int(l.sl)
	need := s.need(l)
	retry := pk.retryAt(now)
	fcBlocked := false
	for ; changed != 0; changed &= changed - 1 {
		p := int32(bits.TrailingZeros64(changed))
		rvl := s.route.OutVL(int(s.id), inPort, inVL, sl, int(p))
		if !s.vlChanged(p, rvl, pk.gen) {
			continue // another VL of the port changed
		}
		ovl, st := s.outVL(now, p, rvl, need)
		switch st {
		case outHeld:
		case outClosed:
			retry = min(retry, s.sel[p].fc.ReadyAt(now, ovl, need))
			fcBlocked = true
		case outBusy:
			retry = min(retry, s.freeAt(p))
		default:
			return false // available: the head may go
		}
	}
	if fcBlocked {
		pk.bits |= fcBlockedBit
	}
	if retry != kernel.Never {
		pk.bits &^= noRetryBit
		pk.retry = uint32(retry)
	}
	return true
}

// Unblock implements flit.Sender: flow control on some output port may
// let the switch send again at at. Sender(port) tells which port, which
// spares the heads that cannot take it a new selection.
func (s *Switch) Unblock(_ int, at kernel.Time) {
	s.gen++
	s.allGen = s.gen
	if s.blocked {
		s.alarm.Set(at)
	}
}

// Sender returns the flit.Sender of the link leaving port, for the
// receiver at its other end to report room downstream: the switch then
// selects again only for the parked heads that may take that port and
// VL.
func (s *Switch) Sender(port int) flit.Sender { return &s.senders[port] }

// portSender is the flit.Sender of one output port of a switch.
type portSender struct {
	s    *Switch
	port int32
}

// Unblock implements flit.Sender.
func (ps *portSender) Unblock(vl int, at kernel.Time) {
	s := ps.s
	s.outChanged(ps.port, int32(vl))
	if s.blocked {
		s.alarm.Set(at)
	}
}

// outChanged records a change on VL vl of output port p that may let a
// parked head go: the output VL set free, or room downstream.
func (s *Switch) outChanged(p, vl int32) {
	s.gen++
	s.portGen[portBit(p)] = s.gen
	s.vlGen[p*s.vls+vl] = s.gen
}

// portBit returns the entry of output port p in portGen, and its bit in
// park.bits: the ports of a switch share the portBits entries in turn.
func portBit(p int32) uint32 { return uint32(p) % portBits }

// setPark records what the last failed selection of lane li's head
// found, pk, and whether that parks the head (parkedBit).
func (s *Switch) setPark(li int32, pk park) {
	s.parks[li] = pk
	if pk.bits&parkedBit != 0 {
		s.parked[li/64] |= 1 << (li % 64)
	} else {
		s.parked[li/64] &^= 1 << (li % 64)
	}
}

// unpark marks the head of lane li as not parked.
func (s *Switch) unpark(li int32) {
	s.parks[li].bits = 0
	s.parked[li/64] &^= 1 << (li % 64)
}

// eligibleAt returns when the waiting head of lane li may first be
// allocated.
func (s *Switch) eligibleAt(li int32, now kernel.Time) kernel.Time {
	return now + kernel.Time(int32(s.elig[li]-uint32(now)))
}

// setWaiting marks lane li as waiting for an output, or not.
func (s *Switch) setWaiting(li int32, on bool) {
	w, b := li/64, uint64(1)<<(li%64)
	if on {
		s.waiting[w] |= b
		s.nWaiting++
	} else {
		s.waiting[w] &^= b
		s.nWaiting--
	}
}

// sleepSlots is the number of cycles ahead a waiting lane may sleep
// (Switch.sleep): the bits of sleepMask.
const sleepSlots = 32

// sleepUntil puts waiting lane li, whose head may not be allocated
// before at (its eligible time), to sleep until then (sleepRange).
func (s *Switch) sleepUntil(li int32, at, now kernel.Time) {
	if at <= now || at-now >= sleepSlots || s.noPark {
		return
	}
	// sleepRange(li, li+1, at, now), for one lane: one word of the bitmaps.
	w, b := li/64, uint64(1)<<(li%64)
	slot := int32(at % sleepSlots)
	s.markSlot(slot, uint16(w), uint16(w+1))
	if s.waiting[w]&b != 0 {
		s.waiting[w] &^= b
		s.sleep[slot*int32(len(s.waiting))+w] |= b
	}
}

// markSlot records that sleep slot slot holds lanes in the words [lo, hi)
// of its bitmap.
func (s *Switch) markSlot(slot int32, lo, hi uint16) {
	span := &s.sleepSpan[slot]
	if s.sleepMask&(1<<slot) == 0 {
		*span = [2]uint16{lo, hi}
	} else {
		span[0], span[1] = min(span[0], lo), max(span[1], hi)
	}
	s.sleepMask |= 1 << slot
}

// sleepRange takes the lanes in [lo, hi) still in the waiting bitmap,
// none of whose heads may be allocated before at, out of it until then,
// if at is less than sleepSlots cycles after now; the caller wakes the
// switch by at. The lanes stay in state waiting (nWaiting).
func (s *Switch) sleepRange(lo, hi int32, at, now kernel.Time) {
	if at <= now || at-now >= sleepSlots || s.noPark {
		return
	}
	slot := int32(at % sleepSlots)
	row := s.sleep[slot*int32(len(s.waiting)):]
	s.markSlot(slot, uint16(lo/64), uint16((hi+63)/64))
	for w := lo / 64; w*64 < hi; w++ {
		m := ^uint64(0)
		if base := w * 64; base < lo {
			m &^= 1<<(lo-base) - 1
		}
		if e := hi - w*64; e < 64 {
			m &= 1<<e - 1
		}
		m &= s.waiting[w]
		s.waiting[w] &^= m
		row[w] |= m
	}
}

// wake puts back into the waiting bitmap the sleeping lanes whose slots
// stand for the cycles after the last wake up to now (all of them if
// that is sleepSlots cycles or more), and returns the first cycle after
// now whose slot holds lanes, or kernel.Never. A lane put to sleep
// before the switch's tick in its cycle may come back early, with the
// lanes of an earlier cycle that shares its slot; it then waits in the
// bitmap for its eligible time as a lane not asleep does.
func (s *Switch) wake(now kernel.Time) kernel.Time {
	if s.sleepMask == 0 {
		s.woke = now
		return kernel.Never
	}
	var m uint32
	if d := now - s.woke; d >= sleepSlots {
		m = s.sleepMask
	} else if d > 0 {
		m = bits.RotateLeft32(1<<d-1, int((s.woke+1)%sleepSlots)) & s.sleepMask
	}
	s.woke = now
	n := len(s.waiting)
	for ; m != 0; m &= m - 1 {
		slot := bits.TrailingZeros32(m)
		// Only the words its lanes were put to sleep in.
		lo, hi := int(s.sleepSpan[slot][0]), int(s.sleepSpan[slot][1])
		ws := s.sleep[slot*n+lo : slot*n+hi]
		for i, w := range ws {
			s.waiting[lo+i] |= w
			ws[i] = 0
		}
		s.sleepMask &^= 1 << slot
	}
	if s.sleepMask == 0 {
		return kernel.Never
	}
	k := bits.TrailingZeros32(bits.RotateLeft32(s.sleepMask, -int((now+1)%sleepSlots)))
	return now + 1 + kernel.Time(k)
}
