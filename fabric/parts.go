package fabric

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"sync/atomic"

	"netsim/flit"
	"netsim/kernel"
	"netsim/nic"
	switching "netsim/switch"
	"netsim/topologies"
)

// MaxThreads bounds Config.Threads.
const MaxThreads = 256

// part is one partition of a point's network: a contiguous range of
// switches with their hosts' NICs, the engine that drives them, the pool
// their packets come from and the meter of their NICs. A point of one
// thread is one part. With several, each runs on its own goroutine, in
// lockstep, one cycle at a time (point.runParallel).
type part struct {
	p     *point
	index int
	eng   *kernel.Engine
	pool  *flit.Pool
	meter nic.Meter

	switchTicks, nicTicks tickSet
	batched               bool

	// Config.shuffleTicks: whether the cycle's batch event has been put
	// back behind the cycle's other events, the stream that orders the
	// ticks, and the ticks to run (NICs as −1−index).
	deferred bool
	tickRNG  kernel.RNG
	ticks    []int32

	// calls holds the calls between switches back, with
	// Config.deferCalls (nil otherwise).
	calls *callQueue

	// out holds, per part, the calls this part's switches made during the
	// cycle across links into that part (crossCall), which that part
	// makes once every part has run the cycle.
	out [][]crossCall

	// What the part publishes at the barrier that ends a cycle's
	// deliveries: its engine's next event, its flits in flight, its
	// engine's last progress, and the error its engine returned.
	next, progress kernel.Time
	inFlight       int64
	err            error
	panicked       any
}

// crossCall is one call across a link held back to be made later, by
// another part (a network on several threads) or after the event
// (Config.deferCalls): AcceptRun on a receiver (to not nil), Freed on a
// switch's input port (sw not nil), or Unblock on a sender (from; only
// deferCalls holds those back).
type crossCall struct {
	to          flit.Receiver
	sw          *switching.Switch
	from        flit.Sender
	now, arrive kernel.Time
	port, vl, k int32
	pkt         int32
}

// make makes the call.
func (c *crossCall) make() {
	switch {
	case c.to != nil:
		c.to.AcceptRun(c.now, int(c.port), int(c.vl), c.pkt, c.arrive, int(c.k))
	case c.sw != nil:
		c.sw.Freed(int(c.port), int(c.vl), int(c.k), c.now)
	default:
		c.from.Unblock(int(c.vl), c.arrive)
	}
}

// crossReceiver is a flit.Receiver in another part: its calls wait in
// the sending part's out queue for that part.
type crossReceiver struct {
	to  flit.Receiver
	out *[]crossCall
}

// AcceptRun implements flit.Receiver.
func (c crossReceiver) AcceptRun(now kernel.Time, port, vl int, pkt int32, arrive kernel.Time, k int) {
	*c.out = append(*c.out, crossCall{to: c.to, now: now, port: int32(port), vl: int32(vl), pkt: pkt, arrive: arrive, k: int32(k)})
}

// deliver makes the calls the other parts made into q during the cycle,
// in the order of the parts and, within a part, of the calls.
func (q *part) deliver() {
	for _, from := range q.p.parts {
		calls := from.out[q.index]
		for i := range calls {
			calls[i].make()
		}
		from.out[q.index] = calls[:0]
	}
}

// partition splits the switches of net into n ≤ len(net.Switches)
// contiguous, non-empty ranges of about equal work, counted as ports (a
// host's port counting twice, for its NIC), and returns the part of every
// switch.
func partition(net *topologies.Network, n int) []int32 {
	pre := make([]int, len(net.Switches)+1) // work of the switches before s
	for s, sw := range net.Switches {
		pre[s+1] = pre[s] + work(sw)
	}
	total := pre[len(net.Switches)]
	of := make([]int32, len(net.Switches))
	start := 0
	for q := 1; q <= n; q++ {
		end := len(net.Switches)
		if q < n {
			end = sort.Search(len(pre), func(s int) bool { return pre[s]*n >= q*total })
			end = min(max(end, start+1), len(net.Switches)-(n-q))
		}
		for s := start; s < end; s++ {
			of[s] = int32(q - 1)
		}
		start = end
	}
	return of
}

// work is what partition counts of a switch: its ports, a host's
// twice (for its NIC).
func work(sw topologies.Switch) int {
	c := len(sw.Ports)
	for _, pt := range sw.Ports {
		if pt.Kind == topologies.HostPort {
			c++
		}
	}
	return c
}

// barrier makes n goroutines wait for each other, again and again. A
// waiter spins a while, then sleeps: the parts of a cycle take about as
// long, but a machine busy with other work may stall any of them.
type barrier struct {
	n     int32
	count atomic.Int32
	gen   atomic.Uint32
	mu    sync.Mutex
	cond  *sync.Cond
}

func newBarrier(n int) *barrier {
	b := &barrier{n: int32(n)}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// spins is how many times a waiter checks the barrier before it sleeps.
const spins = 1 << 12

// wait returns once all n goroutines have called it.
func (b *barrier) wait() {
	g := b.gen.Load()
	if b.count.Add(1) == b.n {
		b.count.Store(0)
		b.mu.Lock()
		b.gen.Add(1)
		b.mu.Unlock()
		b.cond.Broadcast()
		return
	}
	for i := 0; i < spins; i++ {
		if b.gen.Load() != g {
			return
		}
		if i&63 == 63 {
			runtime.Gosched()
		}
	}
	b.mu.Lock()
	for b.gen.Load() == g {
		b.cond.Wait()
	}
	b.mu.Unlock()
}

// clock is what every part knows alike of the point's time while the
// parts run in lockstep: the cycle whose events run next (or ran last),
// and the progress the watchdog found the model idle at.
type clock struct {
	now, idle kernel.Time
}

// verdict is what the parts decide alike at each barrier.
type verdict struct {
	stop bool
	err  error
}

// runParallel advances every part to cycle until, as one engine over the
// whole network would (kernel.Engine.Run): cycle by cycle, each part
// runs its events of the cycle, then the calls made across parts are
// delivered, then every part reads what all published and takes the
// same decision: the next cycle with an event anywhere, or the end, or a
// deadlock found by one watchdog over all parts, which applies the rules
// of kernel.Engine.SetWatchdog to the point as a whole.
func (p *point) runParallel(until kernel.Time) error {
	if p.bar == nil {
		p.bar = newBarrier(len(p.parts))
		p.clocks = make([]clock, len(p.parts))
		p.errs = make([]error, len(p.parts))
	}
	bar, clocks, errs := p.bar, p.clocks, p.errs
	var wg sync.WaitGroup
	for i := range p.parts {
		clocks[i] = p.clock
		if i == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = p.parts[i].lockstep(bar, &clocks[i], until)
		}()
	}
	errs[0] = p.parts[0].lockstep(bar, &clocks[0], until)
	wg.Wait()
	for _, q := range p.parts {
		if q.panicked != nil {
			panic(q.panicked)
		}
	}
	p.clock = clocks[0]
	p.meter.Gather(p.meters)
	// A part delivers packets others created: under a hotspot one part
	// would hoard the free indices the others need.
	flit.Rebalance(p.pools)
	for _, err := range errs {
		if err != nil {
			return err // the parts' decisions are alike: the first one's
		}
	}
	return nil
}

// lockstep is one part's side of runParallel: it returns the error all
// parts decide on (nil once they reach until). What a part publishes
// (publish) it writes only between the barrier that ends the cycle's
// events and the one that ends the deliveries, and the others read it
// only after that one, before the next cycle ends.
func (q *part) lockstep(bar *barrier, c *clock, until kernel.Time) error {
	p := q.p
	ran, ticking, stopped := false, false, false
	var err error // of q's engine, published at the next barrier
	defer func() {
		// A panic in a part must not leave the others waiting: it is
		// published as an error in its turn, and runParallel panics with
		// it.
		if v := recover(); v != nil {
			if stopped { // the others have left: no barrier
				q.panicked = fmt.Sprintf("%v [part %d]\n%s", v, q.index, debug.Stack())
				return
			}
			if ticking {
				bar.wait() // the others end the cycle's events
			}
			q.panicked = fmt.Sprintf("%v [part %d]\n%s", v, q.index, debug.Stack())
			q.err = fmt.Errorf("fabric: part %d panicked: %v", q.index, v)
			bar.wait() // the others deliver and publish, then decide
		}
	}()
	for {
		if ran {
			bar.wait()
			ticking = false
			q.deliver()
		}
		q.publish(err)
		bar.wait()
		v := p.decide(c, until, ran)
		if v.stop {
			stopped = true
			if v.err == nil {
				return q.eng.Run(until) // no event is due before until
			}
			return v.err
		}
		ticking = true
		err = q.eng.Run(c.now + 1)
		ran = true
	}
}

// publish sets what the part shows the others at the barrier, with err
// from its engine's last run.
func (q *part) publish(err error) {
	q.err = err
	if err == nil {
		q.next = q.eng.NextEvent()
	}
	q.progress = q.eng.LastProgress()
	q.inFlight = q.meter.Injected - q.meter.Ejected
}

// decide is what every part concludes alike from what all published,
// with its own copy c of the clock: whether to stop, and why, or which
// cycle runs next (c.now). ran says the parts just ran cycle c.now.
func (p *point) decide(c *clock, until kernel.Time, ran bool) verdict {
	next, progress := kernel.Never, c.idle
	var inFlight int64
	for _, q := range p.parts {
		if q.err != nil {
			return verdict{stop: true, err: q.err}
		}
		next = min(next, q.next)
		progress = max(progress, q.progress)
		inFlight += q.inFlight
	}
	window := kernel.Time(p.cfg.deadlockWindow())
	// check is the watchdog as time advances to t.
	check := func(t kernel.Time) error {
		if window > 0 && t-progress >= window {
			if inFlight > 0 {
				return &kernel.DeadlockError{At: t, LastProgress: progress, Window: window}
			}
			c.idle = t
		}
		return nil
	}
	if !ran {
		// Entering, as kernel.Engine.Run does: the cycle's own events run
		// first, without a check (the last advance made it).
		if next == c.now {
			return verdict{}
		}
	}
	if next == kernel.Never {
		if window > 0 && inFlight > 0 {
			return verdict{stop: true, err: &kernel.DeadlockError{At: c.now, LastProgress: progress, Window: window, NoEvents: true}}
		}
		next = until
	}
	if next >= until {
		if until > c.now {
			if err := check(until); err != nil {
				c.now = until
				return verdict{stop: true, err: err}
			}
			c.now = until
		}
		return verdict{stop: true}
	}
	if err := check(next); err != nil {
		c.now = next
		return verdict{stop: true, err: err}
	}
	c.now = next
	return verdict{}
}
