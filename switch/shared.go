package switching

import (
	"fmt"
	"math/bits"

	"netsim/kernel"
)

// The shared memory (BuffersShared).
//
// The switch's input buffers, Ports × VLs × Buffer flits, are one memory.
// Each input port and VL holds part of it: the flits in its slots, plus
// the credits its sender holds or that are on their way back to it, so
// the sender can never send more than the memory it was given and no
// flit is ever refused. It always holds at least Reserve (its sender
// starts with that many credits), and takes more from the pool, the
// memory no input port and VL holds beyond its reserve, by a dynamic
// threshold (Choudhury and Hahne, 1998): it may hold up to Reserve +
// Alpha × the free pool, never more than Limit. So a congested input
// takes more of the memory while the memory is free, and less as it
// fills.
//
// Credits follow from that, as a shared-buffer switch advertises them.
// When a packet arrives at an input port and VL (at the cycle it is
// routed, when the switch looks at it anyway), the input is given more
// credits up to its threshold; when flits leave, their credits go back
// to the sender, with more up to the threshold, or, if the input holds
// more than its threshold, less, the excess going back to the pool.
// Credits already given cannot be taken back: an idle input keeps what
// its sender holds until the sender uses it.
//
// Top-ups on arrival are decided in the switch's own tick, in order of
// input port and VL, at the cycle the packet is routed: neither the
// order of the ticks within a cycle nor when the sender ticked changes
// who gets the memory.
type sharedMem struct {
	reserve, limit int32
	alpha          float64
	buffer         int // Params.Buffer
	// free is the pool's free memory in flits: the pool, Ports × VLs ×
	// (Buffer − Reserve), less what the inputs hold beyond their reserve.
	free int32
	// in holds, per input port and VL (port·VLs + VL), the memory it
	// holds and the first routing time, modulo 2³², of a packet of it
	// not yet considered for a top-up, if its bit in wantBits is set;
	// wantN counts the bits set, and wantNext is the first of their
	// times (kernel.Never: none).
	in       []sharedIn
	wantBits []uint64
	wantN    int32
	wantNext kernel.Time
}

// sharedIn is the shared memory's state of one input port and VL.
type sharedIn struct {
	held int32
	want uint32
}

func newSharedMem(p Params) *sharedMem {
	n := p.Ports * p.VLs
	m := &sharedMem{
		reserve:  int32(p.SharedReserve()),
		limit:    int32(p.SharedLimit()),
		alpha:    p.Alpha,
		buffer:   p.Buffer,
		free:     int32(n * (p.Buffer - p.SharedReserve())),
		in:       make([]sharedIn, n),
		wantBits: make([]uint64, (n+63)/64),
		wantNext: kernel.Never,
	}
	if m.alpha <= 0 {
		m.alpha = 1
	}
	for i := range m.in {
		m.in[i].held = m.reserve
	}
	return m
}

// threshold returns what an input port and VL may hold now.
func (m *sharedMem) threshold() int32 {
	return min(m.limit, m.reserve+int32(m.alpha*float64(m.free)))
}

// landing records that a packet of input port and VL vi is routed at
// arrive: the input is considered for a top-up then.
func (s *Switch) landing(vi int32, arrive kernel.Time) {
	m := s.sh
	in := &m.in[vi]
	if bit := uint64(1) << (vi % 64); m.wantBits[vi/64]&bit == 0 {
		in.want = uint32(arrive)
		m.wantBits[vi/64] |= bit
		m.wantN++
	} else if int32(uint32(arrive)-in.want) < 0 {
		in.want = uint32(arrive)
	}
	m.wantNext = min(m.wantNext, arrive)
	s.alarm.Set(arrive)
}

// topUp gives the input ports and VLs whose flits have landed by now
// credits up to their threshold, in order of port and VL, and returns
// when the next one is due (kernel.Never if none).
func (s *Switch) topUp(now kernel.Time) kernel.Time {
	m := s.sh
	if m.wantNext > now {
		return m.wantNext
	}
	next := kernel.Never
	for w := range m.wantBits {
		for b := m.wantBits[w]; b != 0; b &= b - 1 {
			vi := int32(w*64 + bits.TrailingZeros64(b))
			in := &m.in[vi]
			if ahead := int32(in.want - uint32(now)); ahead > 0 {
				next = min(next, now+kernel.Time(ahead))
				continue
			}
			m.wantBits[w] &^= 1 << (vi % 64)
			m.wantN--
			if g := min(m.threshold()-in.held, m.free); g > 0 {
				in.held += g
				m.free -= g
				s.credit(vi, int(g), now)
			}
		}
	}
	m.wantNext = next
	return next
}

// departed returns the credits of k flits of input port and VL vi that
// leave its buffer from now on to its sender, with more up to its
// threshold (it is busy), or, if it holds more than its threshold, less:
// the excess goes back to the pool.
func (s *Switch) departed(vi int32, k int, now kernel.Time) {
	m := s.sh
	in := &m.in[vi]
	d := max(m.threshold(), m.reserve) - in.held // > 0: it may take more
	if d < 0 {
		d = max(d, -int32(k))
	} else {
		d = min(d, m.free)
	}
	in.held += d
	m.free -= d
	if back := k + int(d); back > 0 {
		s.credit(vi, back, now)
	}
}

// credit sends n credits of input port and VL vi to its sender, from now
// on, and tells the sender when they reach it.
func (s *Switch) credit(vi int32, n int, now kernel.Time) {
	s.freed(vi/s.vls, int(vi%s.vls), n, now)
}

// freed gives the n slots of VL vl of input port in freed from now on
// back to the link's sender (Freed, then the sender's Unblock), or to
// the hook of HoldCredits.
func (s *Switch) freed(in int32, vl, n int, now kernel.Time) {
	if s.heldIn != nil && s.heldIn[in] {
		s.holdCredits(s, in, vl, n, now)
		return
	}
	s.Freed(int(in), vl, n, now)
}

// Freed gives n slots of VL vl of input port in, freed from now on, back
// to the link's sender: its credits (or STOP/GO state) and, when that
// lets the sender send again, the sender's Unblock. A switch does so
// itself, or through the hook of HoldCredits, which calls Freed later.
func (s *Switch) Freed(in, vl, n int, now kernel.Time) {
	if t := s.in[in].Freed(now, vl, n); t != kernel.Never {
		if up := s.ups[in]; up != nil {
			up.Unblock(vl, t)
		}
	}
}

// HoldCredits makes the switch hand the slots it frees on the input
// ports marked in ports (indexed by port) to hold instead of giving them
// back to the links' senders, which hold must do later, by Freed, with
// the same arguments: a network partitioned among threads holds so the
// credits of the links between partitions until the cycle's ticks are
// done (the calls between switches change nothing for being late within
// the cycle, fabric's TestDeferredCallsChangeNothing).
func (s *Switch) HoldCredits(ports []bool, hold func(s *Switch, port int32, vl, n int, now kernel.Time)) {
	s.heldIn, s.holdCredits = ports, hold
}

// CheckShared checks, under BuffersShared, the shared memory's
// accounting: the pool's free memory and what the inputs hold beyond
// their reserves add up to the pool, and every input port and VL holds
// at least its reserve, at most Limit, and at least the flits in its
// buffer (those on their way to it included). It returns nil under the
// other organisations.
func (s *Switch) CheckShared() error {
	m := s.sh
	if m == nil {
		return nil
	}
	pool := int(m.free)
	for vi, in := range m.in {
		h := in.held
		pool += int(h - m.reserve)
		flits := 0
		for k := int32(0); k < s.slots; k++ {
			flits += s.lanes[int32(vi)*s.slots+k].q.Len()
		}
		if h < m.reserve || h > m.limit || flits > int(h) {
			return fmt.Errorf("switch %d, port %d, VL %d: holds %d flits of memory (reserve %d, limit %d) with %d flits in its buffer",
				s.id, int32(vi)/s.vls, int32(vi)%s.vls, h, m.reserve, m.limit, flits)
		}
	}
	if want := len(m.in) * (m.buffer - int(m.reserve)); pool != want || m.free < 0 {
		return fmt.Errorf("switch %d: the shared pool holds %d flits (%d free), want %d", s.id, pool, m.free, want)
	}
	return nil
}
