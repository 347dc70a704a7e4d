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
func (p *point) Handle(now kernel.Time, ev kernel.Event) {
	switch ev.Kind {
	case kindSwitchTick:
		p.switchTicks.mark(ev.Target)
		p.batch(now)
	case kindNICTick:
		p.nicTicks.mark(ev.Target)
		p.batch(now)
	case kindNICGenerate:
		p.nics[ev.Target].Generate(now)
	case kindBatch:
		p.batched = false
		if p.cfg.shuffleTicks {
			p.shuffledBatch(now, ev)
			break
		}
		p.nicTicks.drain(func(i int32) { p.nics[i].Tick(now) })
		p.switchTicks.drain(func(i int32) { p.switches[i].Tick(now) })
	case kindWakeAll:
		for _, n := range p.nics {
			n.Wake(now)
		}
		for _, s := range p.switches {
			s.Wake(now)
		}
		p.eng.Schedule(now+1, ev)
	}
	if p.calls != nil {
		p.calls.deliver()
	}
}

// batch makes sure a batch event runs later in this cycle.
func (p *point) batch(now kernel.Time) {
	if !p.batched {
		p.batched = true
		p.eng.Schedule(now, kernel.Event{Kind: kindBatch})
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
func (p *point) shuffledBatch(now kernel.Time, ev kernel.Event) {
	if !p.deferred {
		p.deferred, p.batched = true, true
		p.eng.Schedule(now, ev)
		return
	}
	p.deferred = false
	p.ticks = p.ticks[:0]
	p.nicTicks.drain(func(i int32) { p.ticks = append(p.ticks, -1-i) })
	p.switchTicks.drain(func(i int32) { p.ticks = append(p.ticks, i) })
	for i := len(p.ticks) - 1; i > 0; i-- {
		j := p.tickRNG.IntN(i + 1)
		p.ticks[i], p.ticks[j] = p.ticks[j], p.ticks[i]
	}
	for _, i := range p.ticks {
		if i < 0 {
			p.nics[-1-i].Tick(now)
		} else {
			p.switches[i].Tick(now)
		}
	}
}
