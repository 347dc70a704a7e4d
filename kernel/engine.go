package kernel

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// Time is simulated time in cycles; one cycle is the time one flit takes
// to cross a link.
type Time = int64

// Never is a time later than any event: Run(Never) runs until the queue
// is empty, a handler calls Stop, or the watchdog fires.
const Never Time = math.MaxInt64

// DefaultWheelSize is the number of one-cycle buckets of the timing wheel
// built by NewEngine. It was chosen with the hold-model benchmarks of
// engine_bench_test.go (see the package documentation).
const DefaultWheelSize = 4096

// MinWheelSize is the smallest wheel size NewEngineSize accepts.
const MinWheelSize = 64

// Event is a value type: components are addressed by index, so scheduling
// an event needs no closure and no interface value.
type Event struct {
	Kind   uint8 // meaning defined by the Handler
	Target int32 // component index
	Arg    int32 // free argument
}

// Handler processes the events of an Engine. Handle is called once per
// event, in (time, insertion sequence) order, with now equal to the
// engine's Now(); it may Schedule further events at now or later.
type Handler interface {
	Handle(now Time, ev Event)
}

// ErrStopped is returned by Run when a handler called Stop.
var ErrStopped = errors.New("kernel: run stopped")

// DeadlockError is returned by Run when the progress watchdog finds the
// model busy (flits in flight) while nothing has moved for at least Window
// cycles, or while no event is left that could ever move anything.
type DeadlockError struct {
	At           Time // cycle at which the deadlock was detected
	LastProgress Time // cycle of the last call to Progress
	Window       Time // watchdog window in effect
	// NoEvents is set when the queue ran dry: nothing could ever move.
	NoEvents bool
}

// Error implements the error interface.
func (d *DeadlockError) Error() string {
	if d.NoEvents {
		return fmt.Sprintf("deadlock: no event left at cycle %d (last progress at cycle %d) with flits in flight",
			d.At, d.LastProgress)
	}
	return fmt.Sprintf("deadlock: no progress for %d cycles (last progress at cycle %d, detected at cycle %d) with flits in flight",
		d.At-d.LastProgress, d.LastProgress, d.At)
}

// item is an overflow-heap entry: an event with its time and its
// insertion sequence number, the tie-break among equal times.
type item struct {
	at  Time
	seq uint64
	ev  Event
}

// less orders items by (time, insertion sequence).
func (a *item) less(b *item) bool {
	return a.at < b.at || (a.at == b.at && a.seq < b.seq)
}

// Engine is a discrete-event scheduler. Events are kept in a timing wheel
// of one-cycle FIFO buckets covering [Now(), Now()+W) and, beyond that
// window, in an overflow min-heap ordered by (time, sequence); see the
// package documentation. An Engine is not safe for concurrent use.
type Engine struct {
	h    Handler
	now  Time
	size Time // wheel size W, a power of two
	mask int  // W-1

	// wheel[s] holds, in insertion order, the events at the unique time
	// t in [now, now+W) with t&mask == s. head indexes the next event of
	// the bucket being processed (the one of time now).
	wheel   [][]Event
	head    int
	used    []uint64  // bit s set iff wheel[s] may be non-empty
	inWheel int       // events in the wheel, processed ones excluded
	spare   [][]Event // drained bucket arrays, reused by the next buckets to fill

	overflow []item // binary min-heap of the events at now+W or later
	seq      uint64 // sequence number of the next overflow insertion

	events  int64
	stopReq bool
	running bool

	window       Time
	busy         func() bool
	lastProgress Time
}

// NewEngine returns an engine at time 0 that delivers events to h, with a
// timing wheel of DefaultWheelSize buckets.
func NewEngine(h Handler) *Engine {
	return NewEngineSize(h, DefaultWheelSize)
}

// NewEngineSize is like NewEngine with a timing wheel of w one-cycle
// buckets. Events closer than w cycles to Now() are queued in O(1); later
// ones go through the overflow heap once. w must be a power of two no
// smaller than MinWheelSize.
func NewEngineSize(h Handler, w int) *Engine {
	if w < MinWheelSize || w&(w-1) != 0 {
		panic(fmt.Sprintf("kernel: wheel size %d is not a power of two >= %d", w, MinWheelSize))
	}
	return &Engine{
		h:     h,
		size:  Time(w),
		mask:  w - 1,
		wheel: make([][]Event, w),
		used:  make([]uint64, w/64),
	}
}

// Now returns the current simulated time.
func (e *Engine) Now() Time { return e.now }

// Pending returns the number of events scheduled and not yet processed.
func (e *Engine) Pending() int { return e.inWheel + len(e.overflow) }

// Events returns the number of events processed so far.
func (e *Engine) Events() int64 { return e.events }

// Progress records that the model moved something at Now(); it feeds the
// watchdog armed by SetWatchdog.
func (e *Engine) Progress() { e.lastProgress = e.now }

// ProgressUntil records that the model keeps moving until t ≥ Now() — for
// example a run of flits committed now, one leaving per cycle until t — so
// the watchdog counts from t.
func (e *Engine) ProgressUntil(t Time) { e.lastProgress = max(e.lastProgress, t) }

// LastProgress returns the latest time Progress or ProgressUntil recorded
// (or the watchdog set, finding the model idle). A network simulated on
// several engines runs one watchdog over them all from their
// LastProgress.
func (e *Engine) LastProgress() Time { return e.lastProgress }

// NextEvent returns the time of the earliest pending event, at or after
// Now(), or Never if none is pending.
func (e *Engine) NextEvent() Time {
	switch {
	case e.inWheel > 0:
		if e.head < len(e.wheel[int(e.now)&e.mask]) {
			return e.now
		}
		return e.nextInWheel()
	case len(e.overflow) > 0:
		return e.overflow[0].at
	}
	return Never
}

// Stop asks Run to return ErrStopped after the event being handled. Called
// while no Run is in progress, it makes the next Run return ErrStopped
// before processing any event.
func (e *Engine) Stop() { e.stopReq = true }

// SetWatchdog arms the progress watchdog. Whenever time advances to t with
// t - lastProgress >= window, busy is consulted: if it reports true Run
// returns a *DeadlockError, otherwise the model is idle rather than stuck
// and lastProgress is set to t. When no event at all remains and busy
// reports true, Run returns a *DeadlockError at once, since nothing can
// ever move again. Arming sets lastProgress to Now(). A window <= 0 (or a
// nil busy) disables the watchdog.
func (e *Engine) SetWatchdog(window Time, busy func() bool) {
	if busy == nil {
		window = 0
	}
	e.window = window
	e.busy = busy
	e.lastProgress = e.now
}

// Schedule queues ev for time at. Events are delivered in (time, insertion
// sequence) order. Scheduling in the past (at < Now()) is a programming
// error and panics.
func (e *Engine) Schedule(at Time, ev Event) {
	d := at - e.now
	if d < 0 {
		e.pastPanic(at)
	}
	if d < e.size {
		e.toWheel(at, ev)
		return
	}
	e.push(item{at: at, seq: e.seq, ev: ev})
	e.seq++
}

// toWheel appends ev to the bucket of cycle at, which must be within the
// wheel's window.
func (e *Engine) toWheel(at Time, ev Event) {
	s := int(at) & e.mask
	b := e.wheel[s]
	if cap(b) == 0 {
		b = e.spareBucket()
	}
	e.wheel[s] = append(b, ev)
	e.used[s>>6] |= 1 << uint(s&63)
	e.inWheel++
}

// spareBucket returns an empty array drained earlier, or nil.
func (e *Engine) spareBucket() []Event {
	n := len(e.spare) - 1
	if n < 0 {
		return nil
	}
	b := e.spare[n]
	e.spare[n] = nil
	e.spare = e.spare[:n]
	return b
}

func (e *Engine) pastPanic(at Time) {
	panic(fmt.Sprintf("kernel: Schedule at cycle %d, before Now() = %d", at, e.now))
}

// Run processes, in (time, insertion sequence) order, every event with
// time < until, then sets Now() to until and returns nil. Events at until
// or later stay pending for a later Run. Run returns early with ErrStopped
// if a handler called Stop (Now() is then the time of the last event
// processed), or with a *DeadlockError from the watchdog (Now() is then the
// detection time At; the events at At or later are still pending). until
// must not be before Now(), and Run must not be called from a Handler.
func (e *Engine) Run(until Time) error {
	if until < e.now {
		panic(fmt.Sprintf("kernel: Run until cycle %d, before Now() = %d", until, e.now))
	}
	if e.running {
		panic("kernel: Run called while running (from a Handler?)")
	}
	e.running = true
	defer func() { e.running = false }()
	return e.run(until)
}

// run is Run without the argument checks.
func (e *Engine) run(until Time) error {
	if e.stopReq {
		e.stopReq = false
		return ErrStopped
	}
	for e.now < until {
		// Deliver the bucket of the current time; handlers may append to it.
		s := int(e.now) & e.mask
		for e.head < len(e.wheel[s]) {
			ev := e.wheel[s][e.head]
			e.head++
			e.inWheel--
			e.events++
			e.h.Handle(e.now, ev)
			if e.stopReq {
				e.stopReq = false
				return ErrStopped
			}
		}
		if b := e.wheel[s]; cap(b) > 0 {
			e.spare = append(e.spare, b[:0])
			e.wheel[s] = nil
		}
		e.head = 0
		e.used[s>>6] &^= 1 << uint(s&63)

		var next Time
		switch {
		case e.inWheel > 0:
			next = e.nextInWheel()
		case len(e.overflow) > 0:
			next = e.overflow[0].at
		default:
			if e.window > 0 && e.busy() {
				return &DeadlockError{At: e.now, LastProgress: e.lastProgress, Window: e.window, NoEvents: true}
			}
			next = until
		}
		if next >= until {
			break
		}
		if err := e.advance(next); err != nil {
			return err
		}
	}
	if until > e.now {
		return e.advance(until)
	}
	return nil
}

// nextInWheel returns the earliest time after now that has a non-empty
// bucket. It must only be called when the bucket of now has been drained
// and the wheel is not empty.
func (e *Engine) nextInWheel() Time {
	start := (int(e.now) + 1) & e.mask
	w := start >> 6
	word := e.used[w] &^ (1<<uint(start&63) - 1)
	nw := len(e.used)
	for i := 0; ; i++ {
		if word != 0 {
			s := w<<6 | bits.TrailingZeros64(word)
			return e.now + 1 + Time((s-start)&e.mask)
		}
		if i > nw {
			panic("kernel: timing wheel count out of sync with its buckets")
		}
		w++
		if w == nw {
			w = 0
		}
		word = e.used[w]
	}
}

// advance moves time forward to t (no event is pending before t), runs the
// watchdog check and migrates the overflow events that enter the wheel
// window, before any handler can schedule directly into their buckets.
func (e *Engine) advance(t Time) error {
	e.now = t
	for len(e.overflow) > 0 && e.overflow[0].at-t < e.size {
		it := e.pop()
		e.toWheel(it.at, it.ev)
	}
	if e.window > 0 && t-e.lastProgress >= e.window {
		if e.busy() {
			return &DeadlockError{At: t, LastProgress: e.lastProgress, Window: e.window}
		}
		e.lastProgress = t
	}
	return nil
}

// push adds it to the overflow heap.
func (e *Engine) push(it item) {
	h := append(e.overflow, it)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !it.less(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = it
	e.overflow = h
}

// pop removes and returns the minimum of the overflow heap.
func (e *Engine) pop() item {
	h := e.overflow
	top := h[0]
	n := len(h) - 1
	last := h[n]
	h = h[:n]
	e.overflow = h
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1].less(&h[c]) {
			c++
		}
		if !h[c].less(&last) {
			break
		}
		h[i] = h[c]
		i = c
	}
	if n > 0 {
		h[i] = last
	}
	return top
}
