package switching

import (
	"fmt"
	"math/bits"
	"slices"

	"netsim/flit"
	"netsim/kernel"
	"netsim/routing"
)

// closedOut is an output port and VL whose flow control does not admit
// the packet being selected for.
type closedOut struct{ port, vl int32 }

// selectOutput runs the selection function for the head packet of lane li:
// among the routing's candidates whose output VL is free and whose flow
// control admits the packet (with SelectIdle, whose port is not sending a
// run either), the highest priority, then the most free space downstream,
// then the fewest packets in progress, then a fair coin. It returns the
// port, output VL and the candidate's priority, or port -1. A head with
// one candidate whose port is busy with a run cannot go before the run
// ends, whatever its output VL and flow control say: unless onlyBusy makes
// an exception for it, selectOutput returns that port at once, with output
// VL 0 and no priority (0), without looking them up (nor routing again if
// an earlier selection found the port), and the head waits for the run's
// end (Tick), which then selects again.
func (s *Switch) selectOutput(now kernel.Time, li int32, next *kernel.Time) (port, outVL int32, prio routing.Priority) {
	l := &s.lanes[li]
	if s.onlyBusy(li, now) > now {
		return int32(l.only) - 1, 0, 0
	}
	inPort := int(s.portOf(li))
	inVL := s.routeVL(li)
	need := s.need(l)
	sl := int(l.sl)
	s.cand = s.route.Route(int(s.id), inPort, inVL, sl, l.dlid, s.cand[:0])
	if len(s.cand) == 1 {
		l.only = uint16(s.cand[0].Port) + 1 // the routing is a function
		if s.onlyBusy(li, now) > now {
			return s.cand[0].Port, 0, 0
		}
	}
	if len(s.cand) == 0 {
		if s.err == nil {
			what := "VL"
			if s.classes != nil {
				what = "VL class"
			}
			s.err = fmt.Errorf("routing %s gives no output port at switch %d for DLID %d arriving on port %d %s %d",
				s.route.Name(), s.id, l.dlid, inPort, what, inVL)
			s.eng.Stop()
		}
		return -1, 0, 0
	}
	best, bestVL := int32(-1), int32(0)
	var bestPrio routing.Priority
	bestFree, ties := -1, 0 // bestFree < 0: not looked up yet
	s.closed = s.closed[:0]
	s.busyCand = s.busyCand[:0]
	var outs uint64 // the candidates' ports (park.bits), if none is free
	for _, c := range s.cand {
		if best >= 0 && c.Priority < bestPrio {
			// It cannot win, whatever its state: not looking it up saves
			// the visits to its output and its flow control.
			continue
		}
		o := &s.sel[c.Port]
		ovl, st := s.outVL(now, c.Port, s.route.OutVL(int(s.id), inPort, inVL, sl, int(c.Port)), need)
		switch st {
		case outHeld:
			outs |= 1 << portBit(c.Port)
			continue
		case outClosed:
			outs |= 1 << portBit(c.Port)
			// When its flow control opens matters only if no candidate
			// can be taken: it is looked up then.
			s.closed = append(s.closed, closedOut{port: c.Port, vl: int32(ovl)})
			continue
		case outBusy:
			// Busy with a run: the head may go when it ends.
			outs |= 1 << portBit(c.Port)
			s.busyCand = append(s.busyCand, c.Port)
			continue
		}
		if best < 0 || c.Priority > bestPrio {
			best, bestVL, bestPrio, bestFree, ties = c.Port, int32(ovl), c.Priority, -1, 1
			continue
		}
		if c.Priority < bestPrio {
			continue
		}
		// Equal priority: the most free space downstream, then the fewest
		// packets in progress, then a fair coin. Free space is looked up
		// only here, as it costs a visit to the flow-control state.
		if bestFree < 0 {
			bestFree = s.sel[best].fc.Free(now, int(bestVL))
		}
		free := o.fc.Free(now, ovl)
		// A packet in progress holds its output VL, and only one holds
		// it: the held bits count the packets in progress (outPort.n)
		// without a visit to the port records.
		n, bestN := bits.OnesCount16(o.held), bits.OnesCount16(s.sel[best].held)
		switch {
		case free > bestFree || (free == bestFree && n < bestN):
			best, bestVL, bestFree, ties = c.Port, int32(ovl), free, 1
		case free == bestFree && n == bestN:
			ties++
			if s.rng.IntN(ties) == 0 {
				best, bestVL, bestFree = c.Port, int32(ovl), free
			}
		}
	}
	if best < 0 {
		retry, fcBlocked := kernel.Never, len(s.closed) > 0
		for _, c := range s.closed {
			retry = min(retry, s.sel[c.port].fc.ReadyAt(now, int(c.vl), need))
		}
		for _, p := range s.busyCand {
			retry = min(retry, s.freeAt(p))
		}
		if fcBlocked {
			s.blocked = true
		}
		*next = min(*next, retry)
		// A route probe is not parked: whether it is marked Blocked
		// (markProbe) depends on the outputs' owners, which grants change
		// without moving the switch's generation, so it selects again
		// whenever the switch ticks.
		// Every candidate was looked at: none could be skipped.
		pk := park{bits: outs, gen: s.gen, retry: uint32(retry)}
		if !l.probe {
			pk.bits |= parkedBit
		}
		if fcBlocked {
			pk.bits |= fcBlockedBit
		}
		if retry == kernel.Never {
			pk.bits |= noRetryBit
		}
		s.setPark(li, pk)
	}
	return best, bestVL, bestPrio
}

// onlyBusy returns when the last run on the one candidate port of lane
// li's head ends (at or before now if the port is free), or 0 if the
// head has more candidates or is not known to have one. It returns 0
// too for a route probe, whose selection marks it (markProbe), and on a
// switch that selects for every head in every tick (NoPark): they select
// anyway.
func (s *Switch) onlyBusy(li int32, now kernel.Time) kernel.Time {
	l := &s.lanes[li]
	if l.only == 0 || l.probe || s.noPark {
		return 0
	}
	return s.freeAt(int32(l.only) - 1)
}

// need returns the room downstream the head packet of lane l needs to
// start: all of it under virtual cut-through, one flit under wormhole.
func (s *Switch) need(l *lane) int {
	if s.mode == CutThrough {
		return int(l.flits)
	}
	return 1
}

// outState is what selecting an output finds of a candidate's output VL
// (outAt).
type outState uint8

const (
	outOpen   outState = iota // available
	outHeld                   // a packet in progress holds the output VL
	outClosed                 // its flow control does not admit the head
	outBusy                   // SelectIdle: its port is in the middle of a run
)

// outAt returns the state of VL ovl of output port p for a head needing
// need flits of room at now, looked up in the order selectOutput and
// stillClosed both rely on: held, then flow control, then (SelectIdle)
// the port's run.
func (s *Switch) outAt(now kernel.Time, p int32, ovl, need int) outState {
	o := &s.sel[p]
	switch {
	case o.held&(1<<ovl) != 0:
		return outHeld
	case !o.fc.CanSend(now, ovl, need):
		return outClosed
	case s.selection == SelectIdle && s.freeAt(p) > now:
		return outBusy
	}
	return outOpen
}

// routeVL returns the VL the routing sees for the packets of lane li: the
// lane's VL, or under dynamic VL choice its class.
func (s *Switch) routeVL(li int32) int {
	if s.classes != nil {
		return s.classes.Of(int(s.vlOf(li)))
	}
	return int(s.vlOf(li))
}

// outVL returns the output VL a head needing need flits of room would take
// on port p, given the routing's OutVL there, rvl, and its state (outAt).
// With the VL map (no Classes) that is rvl. Under dynamic VL choice rvl is
// a class and the VL is the one of its range that is open with the most
// room downstream (the lowest of equals); if none is open, the state is
// the most hopeful of the range's — busy with a run (SelectIdle), then
// closed by flow control (the VL that opens first), then held — and the VL
// the one in that state.
func (s *Switch) outVL(now kernel.Time, p int32, rvl, need int) (int, outState) {
	if s.classes == nil {
		return rvl, s.outAt(now, p, rvl, need)
	}
	lo, _ := s.classes.Range(rvl)
	best, bestFree := -1, -1
	vl, st, ready := lo, outHeld, kernel.Never
	o := &s.sel[p]
	fc := o.fc
	// The VLs of the class no packet in progress holds, lowest first.
	for m := s.classes.Mask(rvl) &^ o.held; m != 0; m &= m - 1 {
		v := bits.TrailingZeros16(m)
		switch s.outAt(now, p, v, need) {
		case outOpen:
			if f := fc.Free(now, v); f > bestFree {
				best, bestFree = v, f
			}
		case outBusy:
			if st != outBusy {
				vl, st = v, outBusy
			}
		case outClosed:
			if st == outBusy {
				continue
			}
			if t := fc.ReadyAt(now, v, need); st == outHeld || t < ready {
				vl, st, ready = v, outClosed, t
			}
		}
	}
	if best >= 0 {
		return best, outOpen
	}
	return vl, st
}

// vlChanged reports whether an output VL of port p that the routing's
// OutVL rvl names (the VL itself, or under dynamic VL choice every VL of
// the class) changed after generation gen.
func (s *Switch) vlChanged(p int32, rvl int, gen uint32) bool {
	lo, hi := rvl, rvl+1
	if s.classes != nil {
		lo, hi = s.classes.Range(rvl)
	}
	for v := lo; v < hi; v++ {
		if int32(s.vlGen[p*s.vls+int32(v)]-gen) > 0 {
			return true
		}
	}
	return false
}

// markProbe marks the head packet of lane li Blocked if it is a route
// probe: it could not leave when it was due, on output port (−1: the
// candidates selectOutput left in s.cand, none of which it could take).
// An output held only by packets of the probe's own source does not
// block it: every route to the destination shares the link to the
// destination host with the source's own traffic, so that traffic says
// nothing about the route probed. An output stopped by flow control does.
func (s *Switch) markProbe(li, port int32) {
	l := &s.lanes[li]
	if !l.probe {
		return
	}
	p := s.pool.Get(l.q.Front().Pkt)
	if port >= 0 {
		if s.sel[port].owner != l.src {
			p.Probe |= flit.Blocked
		}
		return
	}
	inPort, inVL := int(s.portOf(li)), s.routeVL(li)
	for _, c := range s.cand {
		o := &s.sel[c.Port]
		ovl := s.route.OutVL(int(s.id), inPort, inVL, int(l.sl), int(c.Port))
		// Not held (under dynamic VL choice, not every VL of the class)
		// and not busy with a run (SelectIdle), the candidate was closed
		// by flow control.
		mask := uint16(1) << ovl
		if s.classes != nil {
			mask = s.classes.Mask(ovl)
		}
		closed := o.held&mask != mask && !slices.Contains(s.busyCand, c.Port)
		if closed || o.owner != l.src {
			p.Probe |= flit.Blocked
			return
		}
	}
}
