package flowctl

import "netsim/kernel"

// stopGo is STOP/GO flow control. The receiver half replays the buffer's
// occupancy in time order — arrivals (known when the sender sends) and
// departures (reported by Freed) — and emits STOP/GO transitions, which the
// sender half applies when they reach it one latency later.
type stopGo struct {
	latency          kernel.Time
	stopMark, goMark int32

	// Receiver side.
	occupancy []int32
	stopping  []bool // the receiver's last signal per VL was STOP
	arrivals  fifo   // flits on the wire, by arrival time

	// Sender side.
	stopped []bool // the sender has seen STOP per VL
	signals fifo   // transitions on the reverse wire, by delivery time
}

func newStopGo(p Params) *stopGo {
	return &stopGo{
		latency:   kernel.Time(p.Latency),
		stopMark:  int32(p.StopMark),
		goMark:    int32(p.GoMark),
		occupancy: make([]int32, p.VLs),
		stopping:  make([]bool, p.VLs),
		arrivals:  newFIFO(p.Delay + 1),
		stopped:   make([]bool, p.VLs),
		signals:   newFIFO(2 * p.VLs),
	}
}

// arrive applies every arrival due by t to the receiver's occupancy.
func (s *stopGo) arrive(t kernel.Time) {
	for s.arrivals.due(t) {
		a := s.arrivals.pop()
		s.occupancy[a.vl]++
		if !s.stopping[a.vl] && s.occupancy[a.vl] >= s.stopMark {
			s.stopping[a.vl] = true
			s.signals.push(stamped{at: a.at + uint32(s.latency), vl: a.vl, on: true, n: 1})
		}
	}
}

// listen applies every signal that has reached the sender by now.
func (s *stopGo) listen(now kernel.Time) {
	s.arrive(now)
	for s.signals.due(now) {
		g := s.signals.pop()
		s.stopped[g.vl] = g.on
	}
}

func (s *stopGo) CanSend(now kernel.Time, vl, _ int) bool {
	s.listen(now)
	return !s.stopped[vl]
}

// Burst is one flit at most: a STOP may reach the sender in any cycle.
func (s *stopGo) Burst(now kernel.Time, vl int) int {
	if s.CanSend(now, vl, 1) {
		return 1
	}
	return 0
}

func (s *stopGo) Sent(now kernel.Time, vl int, arrive kernel.Time, n int) {
	s.arrive(now)
	for i := 0; i < n; i++ {
		s.arrivals.push(stamp(arrive+kernel.Time(i), vl, false))
	}
}

// Freed replays the n departures one cycle apart and returns when the
// first GO they trigger reaches the sender; GO transitions are rare, so
// the sender is told of every one.
func (s *stopGo) Freed(at kernel.Time, vl, n int) kernel.Time {
	first := kernel.Never
	for i := 0; i < n; i++ {
		first = min(first, s.freed(at+kernel.Time(i), vl))
	}
	return first
}

func (s *stopGo) freed(at kernel.Time, vl int) kernel.Time {
	s.arrive(at)
	s.occupancy[vl]--
	if s.occupancy[vl] < 0 {
		panic("flowctl: stop/go receiver freed a flit it never received")
	}
	if s.stopping[vl] && s.occupancy[vl] <= s.goMark {
		s.stopping[vl] = false
		back := at + s.latency
		s.signals.push(stamp(back, vl, false))
		return back
	}
	return kernel.Never
}

// Free is the sender's guess of the receiver's free space: the room below
// the stop watermark when GO, nothing when STOP.
func (s *stopGo) Free(now kernel.Time, vl int) int {
	s.listen(now)
	if s.stopped[vl] {
		return 0
	}
	return int(s.stopMark)
}

// Pending returns the delivery time of the next signal to the sender; a
// STOP is reported too, which at worst costs the sender one idle look.
func (s *stopGo) Pending(now kernel.Time) kernel.Time {
	s.listen(now)
	return s.signals.next(now)
}

// Reserve reserves nothing: STOP/GO accounts for each flit.
func (s *stopGo) Reserve(kernel.Time, int, int) bool { return false }
