package kernel

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// record is one delivered event as seen by a handler.
type record struct {
	at Time
	id int32
}

// recorder is a Handler that logs every delivered event and calls an
// optional hook.
type recorder struct {
	eng  *Engine
	log  []record
	hook func(now Time, ev Event)
}

func (r *recorder) Handle(now Time, ev Event) {
	if now != r.eng.Now() {
		panic(fmt.Sprintf("Handle(now=%d) while Now()=%d", now, r.eng.Now()))
	}
	r.log = append(r.log, record{now, ev.Arg})
	if r.hook != nil {
		r.hook(now, ev)
	}
}

func newRecorder(w int) *recorder {
	r := &recorder{}
	r.eng = NewEngineSize(r, w)
	return r
}

// scheduler is what the random model needs from an event queue.
type scheduler interface {
	Schedule(at Time, ev Event)
	Stop()
}

// refQueue is the reference: a plain list searched linearly for the
// minimum (time, sequence).
type refQueue struct {
	items []item
	seq   uint64
	now   Time
}

func (q *refQueue) Schedule(at Time, ev Event) {
	if at < q.now {
		panic("reference: schedule in the past")
	}
	q.items = append(q.items, item{at: at, seq: q.seq, ev: ev})
	q.seq++
}

func (q *refQueue) Stop() {}

func (q *refQueue) run(h Handler) {
	for len(q.items) > 0 {
		m := 0
		for i := range q.items {
			if q.items[i].less(&q.items[m]) {
				m = i
			}
		}
		it := q.items[m]
		q.items = append(q.items[:m], q.items[m+1:]...)
		q.now = it.at
		h.Handle(it.at, it.ev)
	}
}

// randomModel schedules, for every event, children whose number and delays
// are a deterministic function of (seed, event id), so that the engine
// under test and the reference see identical schedules.
type randomModel struct {
	q      scheduler
	seed   uint64
	w      Time
	nextID int32
	budget int32
	log    []record
}

func (m *randomModel) delay(r *RNG) Time {
	switch r.IntN(10) {
	case 0:
		return 0
	case 1:
		return 1
	case 2:
		return m.w - 1
	case 3:
		return m.w
	case 4:
		return m.w + 1
	case 5:
		return m.w + Time(r.IntN(3*int(m.w)))
	case 6:
		return 1000*m.w + Time(r.IntN(8)) // far future, ≫ W
	default:
		return Time(r.IntN(int(m.w)))
	}
}

func (m *randomModel) Handle(now Time, ev Event) {
	m.log = append(m.log, record{now, ev.Arg})
	r := NewRNG(m.seed, uint64(ev.Arg))
	if r.IntN(13) == 0 {
		m.q.Stop()
	}
	k := r.IntN(4) // 1.5 children on average: the population grows slowly
	for range k {
		if m.nextID >= m.budget {
			return
		}
		d := m.delay(&r)
		m.q.Schedule(now+d, Event{Kind: uint8(m.nextID), Target: m.nextID, Arg: m.nextID})
		m.nextID++
	}
}

func (m *randomModel) seedRoots(n int) {
	r := NewRNG(m.seed, 1<<40)
	for range n {
		m.q.Schedule(m.delay(&r), Event{Arg: m.nextID})
		m.nextID++
	}
}

func TestEngineMatchesReference(t *testing.T) {
	tests := []struct {
		w      int
		seed   uint64
		chunks bool
	}{
		{64, 1, false},
		{64, 2, true},
		{128, 3, true},
		{1024, 4, false},
		{DefaultWheelSize, 5, true},
		{64, 6, true},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("W=%d/seed=%d/chunks=%v", tc.w, tc.seed, tc.chunks), func(t *testing.T) {
			const roots, budget = 40, 6000
			ref := &randomModel{seed: tc.seed, w: Time(tc.w), budget: budget}
			rq := &refQueue{}
			ref.q = rq
			ref.seedRoots(roots)
			rq.run(ref)

			m := &randomModel{seed: tc.seed, w: Time(tc.w), budget: budget}
			eng := NewEngineSize(m, tc.w)
			m.q = eng
			m.seedRoots(roots)
			drv := NewRNG(tc.seed, 99)
			stops := 0
			for eng.Pending() > 0 {
				until := Never
				if tc.chunks {
					until = eng.Now() + Time(drv.IntN(3*tc.w))
				}
				before := eng.Events()
				err := eng.Run(until)
				switch {
				case errors.Is(err, ErrStopped):
					stops++
					if eng.Events() == before {
						t.Fatalf("Run returned ErrStopped without processing an event")
					}
				case err != nil:
					t.Fatalf("Run: %v", err)
				case eng.Now() != until:
					t.Fatalf("Run(%d) returned nil with Now()=%d", until, eng.Now())
				}
				if int64(len(m.log)) != eng.Events() {
					t.Fatalf("Events()=%d, handler saw %d", eng.Events(), len(m.log))
				}
			}
			if stops == 0 {
				t.Errorf("model never called Stop; the test lost coverage")
			}
			if len(m.log) != len(ref.log) {
				t.Fatalf("engine delivered %d events, reference %d", len(m.log), len(ref.log))
			}
			for i := range ref.log {
				if m.log[i] != ref.log[i] {
					t.Fatalf("event %d: engine delivered %+v, reference %+v", i, m.log[i], ref.log[i])
				}
			}
		})
	}
}

// TestOverflowBeforeDirect checks the subtle case: an event that waited in
// the overflow heap must precede one scheduled later for the same time
// directly into the wheel, and follow nothing scheduled after it.
func TestOverflowBeforeDirect(t *testing.T) {
	const w = 64
	r := newRecorder(w)
	r.hook = func(now Time, ev Event) {
		switch ev.Arg {
		case 10: // at 36: 100-36 = W, goes to the heap after event 1
			r.eng.Schedule(100, Event{Arg: 2})
		case 11: // at 37: 100-37 < W, goes straight into the bucket
			r.eng.Schedule(100, Event{Arg: 3})
			r.eng.Schedule(100, Event{Arg: 4})
		case 3: // same time, scheduled while delivering time 100
			r.eng.Schedule(100, Event{Arg: 5})
		}
	}
	r.eng.Schedule(100, Event{Arg: 1}) // heap
	r.eng.Schedule(36, Event{Arg: 10})
	r.eng.Schedule(37, Event{Arg: 11})
	r.eng.Schedule(99, Event{Arg: 0})
	if err := r.eng.Run(Never); err != nil {
		t.Fatal(err)
	}
	var got []int32
	for _, rec := range r.log {
		if rec.at == 100 {
			got = append(got, rec.id)
		}
	}
	want := []int32{1, 2, 3, 4, 5}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("order at cycle 100 = %v, want %v", got, want)
	}
}

func TestFarFuture(t *testing.T) {
	tests := []struct {
		name  string
		times []Time
	}{
		{"beyond window", []Time{5000, 4096, 4095, 1 << 20}},
		{"huge gaps", []Time{1e12, 3, 1e12 + 1, 1e15, 1e12}},
		{"just before Never", []Time{Never - 1, Never - 1 - DefaultWheelSize, 7}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRecorder(DefaultWheelSize)
			for i, at := range tc.times {
				r.eng.Schedule(at, Event{Arg: int32(i)})
			}
			if err := r.eng.Run(Never); err != nil {
				t.Fatal(err)
			}
			if r.eng.Now() != Never || r.eng.Pending() != 0 {
				t.Errorf("after Run(Never): Now()=%d Pending()=%d", r.eng.Now(), r.eng.Pending())
			}
			if len(r.log) != len(tc.times) {
				t.Fatalf("delivered %d events, want %d", len(r.log), len(tc.times))
			}
			for i, rec := range r.log {
				if rec.at != tc.times[rec.id] {
					t.Errorf("event %d delivered at %d, scheduled for %d", rec.id, rec.at, tc.times[rec.id])
				}
				if i > 0 {
					p := r.log[i-1]
					if p.at > rec.at || (p.at == rec.at && p.id > rec.id) {
						t.Errorf("%+v delivered after %+v", rec, p)
					}
				}
			}
		})
	}
}

func TestRunBoundaries(t *testing.T) {
	r := newRecorder(64)
	for i, at := range []Time{5, 10, 10, 15, 200} {
		r.eng.Schedule(at, Event{Arg: int32(i)})
	}
	steps := []struct {
		until       Time
		wantLog     int
		wantPending int
	}{
		{0, 0, 5},
		{5, 0, 5},   // the event at 5 = until stays pending
		{10, 1, 4},  // delivers 5
		{10, 1, 4},  // no-op
		{11, 3, 2},  // delivers both events at 10
		{150, 4, 1}, // delivers 15, jumps over the empty stretch
		{200, 4, 1},
		{201, 5, 0},
		{10000, 5, 0},
	}
	for _, s := range steps {
		if err := r.eng.Run(s.until); err != nil {
			t.Fatalf("Run(%d): %v", s.until, err)
		}
		if r.eng.Now() != s.until {
			t.Errorf("after Run(%d): Now()=%d", s.until, r.eng.Now())
		}
		if len(r.log) != s.wantLog || r.eng.Pending() != s.wantPending {
			t.Errorf("after Run(%d): delivered %d pending %d, want %d and %d",
				s.until, len(r.log), r.eng.Pending(), s.wantLog, s.wantPending)
		}
		if int64(len(r.log)) != r.eng.Events() {
			t.Errorf("Events()=%d, delivered %d", r.eng.Events(), len(r.log))
		}
	}
	// An event scheduled at exactly Now() after a Run is delivered next.
	r.eng.Schedule(r.eng.Now(), Event{Arg: 9})
	if err := r.eng.Run(r.eng.Now() + 1); err != nil || len(r.log) != 6 || r.log[5] != (record{10000, 9}) {
		t.Errorf("event at Now(): err=%v log=%v", err, r.log)
	}
}

func TestPanics(t *testing.T) {
	tests := []struct {
		name string
		f    func()
		want string
	}{
		{"schedule in the past", func() {
			r := newRecorder(64)
			_ = r.eng.Run(10)
			r.eng.Schedule(9, Event{})
		}, "before Now()"},
		{"run backwards", func() {
			r := newRecorder(64)
			_ = r.eng.Run(10)
			_ = r.eng.Run(9)
		}, "before Now()"},
		{"run from a handler", func() {
			r := newRecorder(64)
			r.hook = func(now Time, ev Event) { _ = r.eng.Run(now + 10) }
			r.eng.Schedule(1, Event{})
			_ = r.eng.Run(5)
		}, "while running"},
		{"wheel not power of two", func() { NewEngineSize(nil, 100) }, "power of two"},
		{"wheel too small", func() { NewEngineSize(nil, 32) }, "power of two"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				v := recover()
				if v == nil {
					t.Fatalf("no panic")
				}
				if s := fmt.Sprint(v); !strings.Contains(s, tc.want) {
					t.Errorf("panic %q does not mention %q", s, tc.want)
				}
			}()
			tc.f()
		})
	}
}

func TestStop(t *testing.T) {
	r := newRecorder(64)
	r.hook = func(now Time, ev Event) {
		if ev.Arg == 2 {
			r.eng.Stop()
		}
	}
	for i := range 5 {
		r.eng.Schedule(Time(10), Event{Arg: int32(i)})
	}
	r.eng.Schedule(500, Event{Arg: 5})
	if err := r.eng.Run(Never); !errors.Is(err, ErrStopped) {
		t.Fatalf("Run = %v, want ErrStopped", err)
	}
	if r.eng.Events() != 3 || r.eng.Now() != 10 || r.eng.Pending() != 3 {
		t.Errorf("after Stop: Events()=%d Now()=%d Pending()=%d, want 3, 10, 3",
			r.eng.Events(), r.eng.Now(), r.eng.Pending())
	}
	if err := r.eng.Run(1000); err != nil {
		t.Fatalf("resumed Run = %v", err)
	}
	if r.eng.Events() != 6 {
		t.Errorf("after resume: Events()=%d, want 6", r.eng.Events())
	}
	for i, rec := range r.log {
		if rec.id != int32(i) {
			t.Errorf("delivery %d is event %d", i, rec.id)
		}
	}
	// Stop outside Run: the next Run returns at once, the one after runs.
	r.eng.Schedule(2000, Event{Arg: 6})
	r.eng.Stop()
	if err := r.eng.Run(Never); !errors.Is(err, ErrStopped) || r.eng.Events() != 6 {
		t.Errorf("Run after Stop = %v with %d events, want ErrStopped with 6", err, r.eng.Events())
	}
	if err := r.eng.Run(Never); err != nil || r.eng.Events() != 7 {
		t.Errorf("second Run = %v with %d events, want nil with 7", err, r.eng.Events())
	}
}

// ticker reschedules itself every period cycles until end and calls
// Progress while now < progressUntil.
type ticker struct {
	eng           *Engine
	period        Time
	end           Time
	progressUntil Time
}

func (k *ticker) Handle(now Time, ev Event) {
	if now < k.progressUntil {
		k.eng.Progress()
	}
	if now+k.period < k.end {
		k.eng.Schedule(now+k.period, ev)
	}
}

func TestWatchdog(t *testing.T) {
	tests := []struct {
		name          string
		window        Time
		busy          bool
		period, end   Time
		progressUntil Time
		until         Time
		want          *DeadlockError // nil: Run must return nil
	}{
		{"stuck", 100, true, 1, Never, 0, Never, &DeadlockError{At: 100, LastProgress: 0, Window: 100}},
		{"stuck with sparse events", 100, true, 37, Never, 0, Never, &DeadlockError{At: 111, LastProgress: 0, Window: 100}},
		{"progressing", 100, true, 1, Never, Never, 100000, nil},
		{"progress stops", 100, true, 3, Never, 500, Never, &DeadlockError{At: 600, LastProgress: 498, Window: 100}},
		{"queue empties while busy", 1000, true, 5, 50, Never, Never, &DeadlockError{At: 45, LastProgress: 45, Window: 1000, NoEvents: true}},
		{"stuck detected at until", 100, true, 1000, Never, 0, 150, &DeadlockError{At: 150, LastProgress: 0, Window: 100}},
		{"idle with gaps", 100, false, 1000, 1e6, 0, Never, nil},
		{"idle dense", 10, false, 1, 5000, 0, Never, nil},
		{"disabled", 0, true, 7, 1e4, 0, Never, nil},
		{"disabled negative", -5, true, 1, 1e4, 0, Never, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := &ticker{period: tc.period, end: tc.end, progressUntil: tc.progressUntil}
			k.eng = NewEngineSize(k, 64)
			calls := 0
			k.eng.SetWatchdog(tc.window, func() bool { calls++; return tc.busy })
			k.eng.Schedule(0, Event{})
			err := k.eng.Run(tc.until)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("Run = %v, want nil", err)
				}
				if tc.window > 0 && !tc.busy && calls == 0 {
					t.Errorf("busy was never consulted")
				}
				return
			}
			var de *DeadlockError
			if !errors.As(err, &de) {
				t.Fatalf("Run = %v, want a *DeadlockError", err)
			}
			if *de != *tc.want {
				t.Errorf("DeadlockError = %+v, want %+v", *de, *tc.want)
			}
			if k.eng.Now() != de.At {
				t.Errorf("Now()=%d after deadlock detected at %d", k.eng.Now(), de.At)
			}
		})
	}
}

// TestWatchdogIdleThenStuck checks that idle stretches move lastProgress:
// a model that becomes stuck after being idle gets a full window.
func TestWatchdogIdleThenStuck(t *testing.T) {
	k := &ticker{period: 10, end: Never}
	k.eng = NewEngineSize(k, 64)
	k.eng.SetWatchdog(100, func() bool { return k.eng.Now() >= 1005 })
	k.eng.Schedule(0, Event{})
	var de *DeadlockError
	if err := k.eng.Run(Never); !errors.As(err, &de) {
		t.Fatalf("Run = %v, want a *DeadlockError", err)
	}
	want := DeadlockError{At: 1100, LastProgress: 1000, Window: 100}
	if *de != want {
		t.Errorf("DeadlockError = %+v, want %+v", *de, want)
	}
}

// TestWatchdogArmedLate checks that arming the watchdog starts its window
// at Now().
func TestWatchdogArmedLate(t *testing.T) {
	k := &ticker{period: 1, end: Never}
	k.eng = NewEngineSize(k, 64)
	k.eng.Schedule(0, Event{})
	if err := k.eng.Run(10000); err != nil {
		t.Fatal(err)
	}
	k.eng.SetWatchdog(100, func() bool { return true })
	var de *DeadlockError
	if err := k.eng.Run(Never); !errors.As(err, &de) {
		t.Fatalf("Run = %v, want a *DeadlockError", err)
	}
	want := DeadlockError{At: 10100, LastProgress: 10000, Window: 100}
	if *de != want {
		t.Errorf("DeadlockError = %+v, want %+v", *de, want)
	}
}

func TestDeadlockErrorMessage(t *testing.T) {
	err := error(&DeadlockError{At: 1500, LastProgress: 400, Window: 1000})
	want := "deadlock: no progress for 1100 cycles (last progress at cycle 400, detected at cycle 1500) with flits in flight"
	if err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
}

// TestIdleNeverDeadlocks runs an idle model, with long gaps and many short
// Runs, against a tiny window.
func TestIdleNeverDeadlocks(t *testing.T) {
	k := &ticker{period: 333, end: 1e5}
	k.eng = NewEngineSize(k, 64)
	k.eng.SetWatchdog(1, func() bool { return false })
	k.eng.Schedule(0, Event{})
	for u := Time(7); u < 2e5; u += 7 {
		if err := k.eng.Run(u); err != nil {
			t.Fatalf("Run(%d) = %v", u, err)
		}
	}
	if k.eng.Pending() != 0 {
		t.Errorf("Pending()=%d at the end", k.eng.Pending())
	}
}

// holdDelay draws the delays of the hold model: uniform in [1, 2·mean],
// except that farPct percent of them are uniform in [farMin, 2·farMin).
type holdDelay struct {
	rng    RNG
	mean   int
	farPct int
	farMin int
}

func (d *holdDelay) next() Time {
	if d.farPct > 0 && d.rng.IntN(100) < d.farPct {
		return Time(d.farMin + d.rng.IntN(d.farMin))
	}
	return Time(1 + d.rng.IntN(2*d.mean))
}

// holdModel is the classic hold model on an Engine: every event
// reschedules itself after a random delay, so the population stays
// constant.
type holdModel struct {
	eng   *Engine
	delay holdDelay
	left  int // call Stop when this reaches 0
}

func (m *holdModel) Handle(now Time, ev Event) {
	m.eng.Schedule(now+m.delay.next(), ev)
	m.left--
	if m.left == 0 {
		m.eng.Stop()
	}
}

func newHold(w, n int, d holdDelay) *holdModel {
	m := &holdModel{delay: d}
	m.eng = NewEngineSize(m, w)
	for i := range n {
		m.eng.Schedule(m.delay.next(), Event{Target: int32(i)})
	}
	return m
}

func TestZeroAllocs(t *testing.T) {
	tests := []struct {
		name               string
		w, n, mean, farPct int
	}{
		{"dense", 256, 2000, 20, 0},
		{"with far future", 256, 2000, 20, 5},
		{"sparse", 4096, 50, 500, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newHold(tc.w, tc.n, holdDelay{rng: NewRNG(7), mean: tc.mean, farPct: tc.farPct, farMin: 16 * tc.w})
			// Warm up: let every bucket and the heap reach their capacity.
			if err := m.eng.Run(m.eng.Now() + 200*Time(tc.w)); err != nil {
				t.Fatal(err)
			}
			before := m.eng.Events()
			allocs := testing.AllocsPerRun(50, func() {
				if err := m.eng.Run(m.eng.Now() + 50); err != nil {
					t.Fatal(err)
				}
			})
			if m.eng.Events() == before {
				t.Fatalf("no event processed")
			}
			if allocs != 0 {
				t.Errorf("%v allocations per Run of 50 cycles, want 0", allocs)
			}
			if m.eng.Pending() != tc.n {
				t.Errorf("Pending()=%d, want %d", m.eng.Pending(), tc.n)
			}
		})
	}
}

func TestDeadlockErrorMessages(t *testing.T) {
	stuck := (&DeadlockError{At: 500, LastProgress: 100, Window: 400}).Error()
	dry := (&DeadlockError{At: 45, LastProgress: 45, Window: 1000, NoEvents: true}).Error()
	if !strings.Contains(stuck, "no progress for 400 cycles") {
		t.Errorf("watchdog message %q", stuck)
	}
	if !strings.Contains(dry, "no event left at cycle 45") {
		t.Errorf("dry-queue message %q", dry)
	}
}

// TestProgressUntil: progress declared for a stretch of future cycles (a
// run of flits leaving one per cycle) holds the watchdog off until the
// stretch ends plus the window, and never moves lastProgress backwards.
func TestProgressUntil(t *testing.T) {
	k := &ticker{period: 1, end: Never}
	k.eng = NewEngineSize(k, 64)
	k.eng.SetWatchdog(100, func() bool { return true })
	k.eng.ProgressUntil(500)
	k.eng.ProgressUntil(300) // an earlier end does not shorten the stretch
	k.eng.Schedule(0, Event{})
	err := k.eng.Run(Never)
	var de *DeadlockError
	if !errors.As(err, &de) || *de != (DeadlockError{At: 600, LastProgress: 500, Window: 100}) {
		t.Fatalf("Run = %v, want a deadlock at 600 with last progress 500", err)
	}
}

// TestNextEvent: NextEvent is the time of the earliest pending event,
// in the wheel or beyond it, or Never; LastProgress is what
// ProgressUntil recorded.
func TestNextEvent(t *testing.T) {
	r := newRecorder(MinWheelSize)
	e := r.eng
	if got := e.NextEvent(); got != Never {
		t.Fatalf("empty engine: NextEvent = %d, want Never", got)
	}
	far := Time(10 * MinWheelSize)
	e.Schedule(far, Event{Arg: 1})
	if got := e.NextEvent(); got != far {
		t.Fatalf("NextEvent = %d, want %d (the overflow's)", got, far)
	}
	e.Schedule(5, Event{Arg: 2})
	e.Schedule(0, Event{Arg: 3})
	for _, step := range []struct{ until, want Time }{{0, 0}, {1, 5}, {5, 5}, {6, far}, {far, far}, {far + 1, Never}} {
		if err := e.Run(step.until); err != nil {
			t.Fatal(err)
		}
		if got := e.NextEvent(); got != step.want {
			t.Errorf("after Run(%d): NextEvent = %d, want %d", step.until, got, step.want)
		}
	}
	e.ProgressUntil(far + 40)
	e.ProgressUntil(far + 20)
	if got := e.LastProgress(); got != far+40 {
		t.Errorf("LastProgress = %d, want %d", got, far+40)
	}
}
