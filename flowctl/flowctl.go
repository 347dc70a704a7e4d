// Package flowctl implements link-level flow control between the sender at
// one end of a link (a switch output port or a NIC) and the input buffer at
// the other end, per virtual lane (VL):
//
//   - Credit (InfiniBand): the sender holds one credit per free flit slot of
//     each receiver VL buffer; sending a flit consumes a credit, and the
//     credit comes back one link latency after the receiver frees the slot.
//   - StopGo (Myrinet): the receiver watches its own occupancy per VL and
//     signals STOP when it reaches the stop watermark and GO when it falls to
//     the go watermark; signals reach the sender one link latency later and
//     the sender pauses, even mid-packet, while stopped.
//
// Both sit behind the Control interface. They are evaluated lazily: no
// event is scheduled for a credit or a STOP/GO signal in flight; each call
// first applies everything that is due by its time. Calls must come with
// non-decreasing times per link, except Freed, which a receiver that consumes
// flits on arrival (a NIC ejecting) may call with the future arrival time.
package flowctl

import (
	"unsafe"

	"netsim/internal/ring"
	"netsim/kernel"
	"netsim/keyerr"
)

// Control is the flow-control state of one link, shared by its sender and
// its receiver. Flits move in runs: n flits of one VL in consecutive
// cycles, one per cycle (n = 1 is a single flit).
type Control interface {
	// CanSend reports whether the sender may start sending n flits on vl at
	// time now: n credits (credit), or GO (stop/go, where n is ignored).
	CanSend(now kernel.Time, vl, n int) bool
	// Burst returns how many flits the sender may send on vl back to back
	// from now on, one per cycle, whatever happens meanwhile: the credits
	// it holds now (credit), or 1 under GO and 0 under STOP (stop/go, where
	// a STOP may arrive in any cycle).
	Burst(now kernel.Time, vl int) int
	// Sent records that the sender sends n flits on vl, one per cycle from
	// now on; the first reaches the receiver's buffer at arrive.
	Sent(now kernel.Time, vl int, arrive kernel.Time, n int)
	// Freed records that the receiver removes n flits of vl from its
	// buffer, one per cycle from at on. It returns the time at which the
	// sender may be able to send more because of it, or kernel.Never if the
	// sender's state is unchanged.
	Freed(at kernel.Time, vl, n int) kernel.Time
	// Free returns the sender's view of the free space of vl at now, in
	// flits, used to compare the congestion of candidate ports.
	Free(now kernel.Time, vl int) int
	// Reserve takes room on vl for a whole packet of n flits that will be
	// sent without anyone else sending on vl meanwhile (virtual
	// cut-through, once CanSend(now, vl, n) holds), and reports whether it
	// did. Credits are then taken at once, and the sender need not call
	// CanSend, Burst or Sent for the packet's flits. A scheme that accounts
	// each flit (STOP/GO) reserves nothing and returns false.
	Reserve(now kernel.Time, vl, n int) bool
	// Pending returns the earliest time after now at which a credit or a GO
	// already on its way reaches the sender, or kernel.Never. A sender that
	// cannot send waits until then, or until Freed reports a new change.
	Pending(now kernel.Time) kernel.Time
	// ReadyAt returns a time, now or later, before which CanSend(·, vl, n)
	// stays false unless Freed reports a change meanwhile: now if it holds
	// now, else the first time the credits already on their way make n
	// (credit), the next signal on its way (stop/go), or kernel.Never. A
	// sender that cannot start a packet of n flits waits until then: with
	// Pending it would wake for every credit of every VL coming back.
	ReadyAt(now kernel.Time, vl, n int) kernel.Time
}

// Kind names a flow-control scheme as written in experiment files.
type Kind string

const (
	// KindCredit is credit-based flow control.
	KindCredit Kind = "credit"
	// KindStopGo is STOP/GO flow control.
	KindStopGo Kind = "stopgo"
)

// Kinds returns the flow-control schemes, in order.
func Kinds() []Kind { return []Kind{KindCredit, KindStopGo} }

// Params configure the flow control of every link of a network.
type Params struct {
	Kind Kind
	// VLs is the number of virtual lanes per link.
	VLs int
	// Buffer is the receiver buffer per VL, in flits.
	Buffer int
	// Latency is the delay of a credit or STOP/GO signal on the reverse
	// channel, in cycles (the link latency).
	Latency int
	// Delay is the time a flit takes from leaving the sender to being in the
	// receiver's buffer (crossbar plus link), in cycles.
	Delay int
	// Rate is the maximum number of flits the receiver frees per cycle (the
	// crossbar speedup); it bounds the credits in flight.
	Rate int
	// StopMark and GoMark are the STOP/GO watermarks in flits.
	StopMark, GoMark int
}

// MaxVLs is the largest number of virtual lanes per link.
const MaxVLs = 16

// MaxBuffer is the largest buffer per VL, in flits.
const MaxBuffer = 1<<15 - 1

// Slack returns how many flits may still reach a STOP/GO receiver after its
// occupancy reaches the stop mark: those the sender emits until STOP
// reaches it (one latency) plus those already on their way (Delay), less
// the one that triggered STOP. A buffer needs StopMark + Slack slots.
func (p Params) Slack() int { return p.Delay + p.Latency - 1 }

// Validate checks p, naming the experiment key at fault.
func (p Params) Validate() error {
	if p.VLs < 1 || p.VLs > MaxVLs {
		return keyerr.New("vls", "must be between 1 and %d, got %d", MaxVLs, p.VLs)
	}
	if p.Buffer < 1 || p.Buffer > MaxBuffer {
		return keyerr.New("buffer_flits", "must be between 1 and %d, got %d", MaxBuffer, p.Buffer)
	}
	if p.Latency < 1 {
		return keyerr.New("link_latency", "must be at least 1 cycle, got %d", p.Latency)
	}
	if p.Delay < p.Latency {
		return keyerr.New("crossbar_delay", "flit delay %d is below the link latency %d", p.Delay, p.Latency)
	}
	if p.Rate < 1 {
		return keyerr.New("speedup", "must be at least 1, got %d", p.Rate)
	}
	switch p.Kind {
	case KindCredit:
	case KindStopGo:
		if p.GoMark < 0 || p.GoMark >= p.StopMark {
			return keyerr.New("go_mark", "must be at least 0 and below stop_mark (%d), got %d", p.StopMark, p.GoMark)
		}
		// After the occupancy reaches StopMark, the sender keeps sending
		// until STOP reaches it, and flits already on the wire still land.
		if slack := p.Slack(); p.StopMark+slack > p.Buffer {
			return keyerr.New("stop_mark", "%d leaves no room for the %d flits in flight after STOP; need stop_mark ≤ buffer_flits − %d = %d",
				p.StopMark, slack, slack, p.Buffer-slack)
		}
	default:
		return keyerr.New("kind", "unknown flow control %q (known: credit, stopgo)", p.Kind)
	}
	return nil
}

// New returns the flow-control state of one link.
func New(p Params) (Control, error) {
	l := new(Link)
	if err := l.Init(p); err != nil {
		return nil, err
	}
	return l, nil
}

// Link is the flow-control state of one link as a value, so a receiver can
// keep it in its input port: freeing a buffer slot, once per flit, then
// touches memory the receiver holds anyway, and the sender gets a pointer
// to it as its Control. A Link must not be copied after Init.
//
// A Link is three cache lines (linkSize), the first holding what the
// sender touches for every run and every output it considers: s, which
// every call looks at first, and the credits. In an array aligned to 64
// bytes (hugemem), CanSend then touches one line of the link.
type Link struct {
	s *stopGo // STOP/GO links; credit links use c
	c credit
	_ [linkSize - 8 - unsafe.Sizeof(credit{})]byte
}

// linkSize is the size of a Link in bytes: three cache lines.
const linkSize = 3 * 64

// Init sets l up as a fresh link with parameters p.
func (l *Link) Init(p Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	*l = Link{}
	if p.Kind == KindStopGo {
		l.s = newStopGo(p)
		return nil
	}
	l.c.init(p)
	return nil
}

// CanSend implements Control.
func (l *Link) CanSend(now kernel.Time, vl, n int) bool {
	if l.s != nil {
		return l.s.CanSend(now, vl, n)
	}
	return l.c.CanSend(now, vl, n)
}

// Burst implements Control.
func (l *Link) Burst(now kernel.Time, vl int) int {
	if l.s != nil {
		return l.s.Burst(now, vl)
	}
	return l.c.Burst(now, vl)
}

// Sent implements Control.
func (l *Link) Sent(now kernel.Time, vl int, arrive kernel.Time, n int) {
	if l.s != nil {
		l.s.Sent(now, vl, arrive, n)
		return
	}
	l.c.Sent(now, vl, n)
}

// Freed implements Control.
func (l *Link) Freed(at kernel.Time, vl, n int) kernel.Time {
	if l.s != nil {
		return l.s.Freed(at, vl, n)
	}
	return l.c.Freed(at, vl, n)
}

// Free implements Control.
func (l *Link) Free(now kernel.Time, vl int) int {
	if l.s != nil {
		return l.s.Free(now, vl)
	}
	return l.c.Free(now, vl)
}

// Reserve implements Control.
func (l *Link) Reserve(now kernel.Time, vl, n int) bool {
	if l.s != nil {
		return false
	}
	return l.c.Reserve(now, vl, n)
}

// Pending implements Control.
func (l *Link) Pending(now kernel.Time) kernel.Time {
	if l.s != nil {
		return l.s.Pending(now)
	}
	return l.c.Pending(now)
}

// ReadyAt implements Control.
func (l *Link) ReadyAt(now kernel.Time, vl, n int) kernel.Time {
	if l.s != nil {
		if l.s.CanSend(now, vl, n) {
			return now
		}
		return l.s.Pending(now) // only a signal on its way, GO, can open it
	}
	return l.c.ReadyAt(now, vl, n)
}

// stamped is a VL tagged with the cycle something about it takes effect,
// kept modulo 2³² so an entry takes eight bytes: entries are never more
// than 2³¹ cycles away from the current time. A credit entry may stand for
// a run of n credits taking effect in n consecutive cycles from at.
type stamped struct {
	at uint32
	vl uint8
	on bool
	n  uint16
}

func stamp(t kernel.Time, vl int, on bool) stamped {
	return stamped{at: uint32(t), vl: uint8(vl), on: on, n: 1}
}

// dueBy reports whether the entry (its first unit) takes effect at or
// before t.
func (s stamped) dueBy(t kernel.Time) bool { return int32(uint32(t)-s.at) >= 0 }

// time returns the entry's cycle, given the current cycle now.
func (s stamped) time(now kernel.Time) kernel.Time { return now - kernel.Time(int32(uint32(now)-s.at)) }

// after reports whether s takes effect after t.
func (s stamped) after(t stamped) bool { return int32(s.at-t.at) > 0 }

// fifo holds stamped values in non-decreasing time order.
type fifo struct{ ring.Ring[stamped] }

func newFIFO(capacity int) fifo {
	var f fifo
	f.Init(capacity)
	return f
}

// push inserts s in time order. Entries nearly always come in order; an
// earlier one (a receiver freeing on a future arrival) moves back into place.
func (f *fifo) push(s stamped) {
	f.Push(s)
	for i := f.Len() - 1; i > 0; i-- {
		prev, cur := f.At(i-1), f.At(i)
		if !prev.after(*cur) {
			break
		}
		*prev, *cur = *cur, *prev
	}
}

// pushRun adds a ramp of s.n units taking effect one per cycle from s.at,
// extending the newest entry when the ramp is on the same VL and starts in
// the cycle right after it (a packet's credits come back in consecutive
// cycles, however many runs it took), so a packet costs one entry.
func (f *fifo) pushRun(s stamped) {
	if n := f.Len(); n > 0 {
		b := f.At(n - 1)
		if b.vl == s.vl && b.on == s.on && b.at+uint32(b.n) == s.at && int(b.n)+int(s.n) < 1<<16 {
			b.n += s.n
			return
		}
	}
	f.push(s)
}

// next returns the cycle of the oldest entry, or kernel.Never, given the
// current cycle now.
func (f *fifo) next(now kernel.Time) kernel.Time {
	if f.Len() == 0 {
		return kernel.Never
	}
	return f.Front().time(now)
}

// due reports whether the oldest entry takes effect at or before t.
func (f *fifo) due(t kernel.Time) bool { return f.Len() > 0 && f.Front().dueBy(t) }

// pop removes and returns the oldest entry.
func (f *fifo) pop() stamped { return f.Pop() }
