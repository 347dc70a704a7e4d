package flowctl

import (
	"math"

	"netsim/kernel"
)

// credit is credit-based flow control: credits[vl] is the sender's count of
// free slots in the receiver's vl buffer, and returns holds the credits on
// their way back, as ramps (n credits coming back one per cycle).
type credit struct {
	// The sender's side, touched for every run sent.
	credits [MaxVLs]int16
	latency kernel.Time
	// queued is the number of ramps in returns, kept on the sender's line
	// so a reservation or a run sent looks at the returns, lines of their
	// own, only when its credits fall short or the ramps pile up
	// (collectSoon).
	queued uint16
	// Keep the receiver's side on other cache lines; the sender's line
	// also holds Link.s, which every call looks at first.
	_ [64 - 8 - 2*MaxVLs - 8 - 2]byte
	// The receiver's side, touched for every run freed.
	returns fifo
	inline  [8]stamped // the returns ring while it fits
}

// init sets c up in place (its returns ring points into c itself).
func (c *credit) init(p Params) {
	c.latency = kernel.Time(p.Latency)
	// Steady state holds about one ramp per run the receiver feeds at once
	// (Rate) per cycle of latency, and rarely that many.
	if n := p.Rate * (p.Latency + 1); n <= len(c.inline) {
		c.returns.WithStore(c.inline[:])
	} else {
		c.returns = newFIFO(n)
	}
	for i := 0; i < p.VLs; i++ {
		c.credits[i] = int16(p.Buffer)
	}
}

// collect applies every credit that has come back by now. The ramps are
// ordered by their first credit, but those of different VLs may overlap (a
// receiver with speedup frees several runs at once), so every entry is
// looked at; emptied ones leave from the front.
func (c *credit) collect(now kernel.Time) {
	for i, n := 0, c.returns.Len(); i < n; i++ {
		r := c.returns.At(i)
		if r.n == 0 || !r.dueBy(now) {
			continue
		}
		k := min(uint32(r.n), uint32(now)-r.at+1) // the ramp's credits due by now
		c.credits[r.vl] += int16(k)
		r.at += k
		r.n -= uint16(k)
	}
	for c.returns.Len() > 0 && c.returns.At(0).n == 0 {
		c.returns.pop()
	}
	c.count()
}

// count copies the number of ramps on their way back to the sender's
// line (queued).
func (c *credit) count() { c.queued = uint16(min(c.returns.Len(), math.MaxUint16)) }

// collectSoon reports whether a sender about to take n credits of vl
// should collect the returned ones first: when the credits collected do
// not suffice, or when half the inline ring holds ramps. When credits are
// collected changes no count anyone reads (each reader that needs the
// exact count collects first); collecting now and then keeps the ring
// short, inside the Link.
func (c *credit) collectSoon(vl, n int) bool {
	return int(c.credits[vl]) < n || int(c.queued) >= len(c.inline)/2
}

// CanSend consults the credits on their way back only when the credits
// already collected do not suffice: the answer is the same, and the common
// case touches one cache line.
func (c *credit) CanSend(now kernel.Time, vl, n int) bool {
	if int(c.credits[vl]) >= n {
		return true
	}
	c.collect(now)
	return int(c.credits[vl]) >= n
}

// Burst collects the returned credits first, so a run is as long as the
// credits allow.
func (c *credit) Burst(now kernel.Time, vl int) int {
	c.collect(now)
	return int(c.credits[vl])
}

func (c *credit) Sent(now kernel.Time, vl, n int) {
	// Collect now and then, so the returns ring stays small.
	if c.collectSoon(vl, n) {
		c.collect(now)
		if int(c.credits[vl]) < n {
			panic("flowctl: flit sent without a credit")
		}
	}
	c.credits[vl] -= int16(n)
}

// Reserve takes n credits of vl at once. It collects the returned credits
// first when they are needed or pile up (collectSoon): the sender has
// just seen the credits suffice (CanSend), and the returns are another
// cache line, which a large network rarely has at hand.
func (c *credit) Reserve(now kernel.Time, vl, n int) bool {
	if c.collectSoon(vl, n) {
		c.collect(now)
	}
	if int(c.credits[vl]) < n {
		panic("flowctl: reserved more credits than are free")
	}
	c.credits[vl] -= int16(n)
	return true
}

// Freed sends n credits back as a ramp: the one freed at at+i reaches the
// sender at at+i+latency.
func (c *credit) Freed(at kernel.Time, vl, n int) kernel.Time {
	back := at + c.latency
	c.returns.pushRun(stamped{at: uint32(back), vl: uint8(vl), n: uint16(n)})
	c.count()
	return back
}

func (c *credit) Free(now kernel.Time, vl int) int {
	c.collect(now)
	return int(c.credits[vl])
}

// Pending returns the cycle the next credit comes back: the earliest among
// the ramps' next credits.
func (c *credit) Pending(now kernel.Time) kernel.Time {
	c.collect(now)
	next := kernel.Never
	for i, n := 0, c.returns.Len(); i < n; i++ {
		if r := c.returns.At(i); r.n > 0 {
			next = min(next, r.time(now))
		}
	}
	return next
}

// ReadyAt returns the first time, now or later, at which the credits of vl
// collected and on their way reach n, or kernel.Never. Ramps of one VL do
// not overlap in practice (a lane frees one run at a time), but the count
// does not rely on it: it finds the time by bisection over the exact count
// of credits due by a time.
func (c *credit) ReadyAt(now kernel.Time, vl, n int) kernel.Time {
	c.collect(now)
	need := n - int(c.credits[vl])
	if need <= 0 {
		return now
	}
	// After collect every ramp left starts after now.
	coming, last := 0, now
	for i, k := 0, c.returns.Len(); i < k; i++ {
		if r := c.returns.At(i); r.n > 0 && int(r.vl) == vl {
			coming += int(r.n)
			last = max(last, r.time(now)+kernel.Time(r.n)-1)
		}
	}
	if coming < need {
		return kernel.Never
	}
	// due returns the credits of vl arriving in (now, t].
	due := func(t kernel.Time) int {
		d := 0
		for i, k := 0, c.returns.Len(); i < k; i++ {
			if r := c.returns.At(i); r.n > 0 && int(r.vl) == vl {
				d += int(min(max(t-r.time(now)+1, 0), kernel.Time(r.n)))
			}
		}
		return d
	}
	lo, hi := now+1, last // due(hi) ≥ need
	for lo < hi {
		mid := lo + (hi-lo)/2
		if due(mid) >= need {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
