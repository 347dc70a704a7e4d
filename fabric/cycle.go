package fabric

import (
	"math/bits"

	"netsim/kernel"
)

// Event kinds dispatched by a point's engine.
const (
	kindSwitchTick uint8 = iota
	kindNICTick
	kindNICGenerate
	kindBatch
	kindWakeAll // tests only: wake every component, every cycle
	kindRank    // a workload's rank resumes (RunWorkload)
)

// Handle implements kernel.Handler.
//
// A cycle has two steps. First every packet due in the cycle is generated
// (generation events were all scheduled in earlier cycles, so they come
// before the cycle's batch event); a packet generated in cycle t may be
// injected in cycle t. Then the cycle's ticks, gathered in a bitmap per
// kind as their events arrive, run in index order from one batch event —
// NICs, then switches — so consecutive ticks touch neighbouring memory. A
// NIC woken by a packet generated after the batch event was scheduled
// ticks in a second batch, after the switches. The order of the ticks in a
// cycle does not change the results (TestTickOrderChangesNothing): what a
// component sends or frees takes effect in a later cycle, a switch sees a
// run that arrives behind another only from the next cycle on
// (flit.Queue.FrontRun), a lane's next head waits for the end of its
// predecessor's last run whether it was queued before that run started or
// after (switching.Switch.AcceptRun), a NIC acts on a route probe or a
// reply in the cycle its flit arrives, and a tick that finds nothing to do
// leaves no trace. What a component sees of another's same-cycle actions
// otherwise (news of credits on their way, generation counters, alarms)
// moves only when it looks again, not what it decides.
func (q *part) Handle(now kernel.Time, ev kernel.Event) {
	p := q.p
	switch ev.Kind {
	case kindSwitchTick:
		q.switchTicks.mark(ev.Target)
		q.batch(now)
	case kindNICTick:
		q.nicTicks.mark(ev.Target)
		q.batch(now)
	case kindNICGenerate:
		p.nics[ev.Target].Generate(now)
	case kindBatch:
		q.batched = false
		if p.cfg.shuffleTicks {
			q.shuffledBatch(now, ev)
			break
		}
		q.nicTicks.drain(func(i int32) { p.nics[i].Tick(now) })
		q.switchTicks.drain(func(i int32) { p.switches[i].Tick(now) })
	case kindRank:
		p.work.exec.Resume(int(ev.Target), now)
	case kindWakeAll:
		for _, n := range p.nics {
			n.Wake(now)
		}
		for _, s := range p.switches {
			s.Wake(now)
		}
		q.eng.Schedule(now+1, ev)
	}
	if q.calls != nil {
		q.calls.deliver()
	}
}

// batch makes sure a batch event runs later in this cycle.
func (q *part) batch(now kernel.Time) {
	if !q.batched {
		q.batched = true
		q.eng.Schedule(now, kernel.Event{Kind: kindBatch})
	}
}

// tickSet is a set of component indices, drained in increasing order.
type tickSet struct {
	bits []uint64
	any  bool
}

func newTickSet(n int) tickSet { return tickSet{bits: make([]uint64, (n+63)/64)} }

func (t *tickSet) mark(i int32) {
	t.bits[i/64] |= 1 << (i % 64)
	t.any = true
}

func (t *tickSet) drain(f func(int32)) {
	if !t.any {
		return
	}
	t.any = false
	for w, word := range t.bits {
		if word == 0 {
			continue
		}
		t.bits[w] = 0
		for word != 0 {
			f(int32(w*64 + bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
}

// shuffledBatch runs the cycle's ticks in a random order, once every
// other event of the cycle has been handled (Config.shuffleTicks): the
// first call puts the batch event back at the end of the cycle's events,
// so NICs woken by packets generated after it join the shuffle too.
func (q *part) shuffledBatch(now kernel.Time, ev kernel.Event) {
	p := q.p
	if !q.deferred {
		q.deferred, q.batched = true, true
		q.eng.Schedule(now, ev)
		return
	}
	q.deferred = false
	q.ticks = q.ticks[:0]
	q.nicTicks.drain(func(i int32) { q.ticks = append(q.ticks, -1-i) })
	q.switchTicks.drain(func(i int32) { q.ticks = append(q.ticks, i) })
	for i := len(q.ticks) - 1; i > 0; i-- {
		j := q.tickRNG.IntN(i + 1)
		q.ticks[i], q.ticks[j] = q.ticks[j], q.ticks[i]
	}
	for _, i := range q.ticks {
		if i < 0 {
			p.nics[-1-i].Tick(now)
		} else {
			p.switches[i].Tick(now)
		}
	}
}
