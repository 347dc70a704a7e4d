package flowctl

import "netsim/kernel"

// credit is credit-based flow control: credits[vl] is the sender's count of
// free slots in the receiver's vl buffer, and returns holds the credits on
// their way back.
type credit struct {
	// The sender's side, touched for every flit sent.
	credits [MaxVLs]int16
	latency kernel.Time
	_       [64 - 2*MaxVLs - 8]byte // keep the receiver's side on other cache lines
	// The receiver's side, touched for every flit freed.
	returns fifo
	inline  [8]stamped // the returns ring while it fits
}

// init sets c up in place (its returns ring points into c itself).
func (c *credit) init(p Params) {
	c.latency = kernel.Time(p.Latency)
	// Steady state holds at most Rate credits per cycle of latency.
	if n := p.Rate * (p.Latency + 1); n <= len(c.inline) {
		c.returns.WithStore(c.inline[:])
	} else {
		c.returns = newFIFO(n)
	}
	for i := 0; i < p.VLs; i++ {
		c.credits[i] = int16(p.Buffer)
	}
}

// collect applies every credit that has come back by now.
func (c *credit) collect(now kernel.Time) {
	for c.returns.due(now) {
		r := c.returns.At(0)
		k := min(int32(r.n), int32(uint32(now)-r.at)+1) // the run's units due by now
		c.credits[r.vl] += int16(k)
		if k < int32(r.n) {
			r.at += uint32(k)
			r.n -= uint16(k)
			return
		}
		c.returns.pop()
	}
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

func (c *credit) Sent(now kernel.Time, vl int, _ kernel.Time) {
	// Collect now and then, so the returns ring stays small.
	if c.credits[vl] <= 0 || c.returns.Len() >= len(c.inline)/2 {
		c.collect(now)
		if c.credits[vl] <= 0 {
			panic("flowctl: flit sent without a credit")
		}
	}
	c.credits[vl]--
}

// Reserve takes n credits of vl at once. It collects the returned credits
// first, once per packet, which keeps the returns ring short.
func (c *credit) Reserve(now kernel.Time, vl, n int) bool {
	c.collect(now)
	if int(c.credits[vl]) < n {
		panic("flowctl: reserved more credits than are free")
	}
	c.credits[vl] -= int16(n)
	return true
}

func (c *credit) Freed(at kernel.Time, vl int) kernel.Time {
	back := at + c.latency
	c.returns.pushRun(stamp(back, vl, false))
	return back
}

func (c *credit) Free(now kernel.Time, vl int) int {
	c.collect(now)
	return int(c.credits[vl])
}

func (c *credit) Pending(now kernel.Time) kernel.Time {
	c.collect(now)
	return c.returns.next(now)
}
