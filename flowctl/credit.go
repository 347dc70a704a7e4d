package flowctl

import "netsim/kernel"

// credit is credit-based flow control: credits[vl] is the sender's count of
// free slots in the receiver's vl buffer, and returns holds the credits on
// their way back.
type credit struct {
	credits []int32
	returns fifo
	latency kernel.Time
}

func newCredit(p Params) *credit {
	c := &credit{
		credits: make([]int32, p.VLs),
		// Steady state holds at most Rate credits per cycle of latency.
		returns: newFIFO(p.Rate * (p.Latency + 1)),
		latency: kernel.Time(p.Latency),
	}
	for i := range c.credits {
		c.credits[i] = int32(p.Buffer)
	}
	return c
}

func (c *credit) collect(now kernel.Time) {
	for c.returns.due(now) {
		c.credits[c.returns.pop().vl]++
	}
}

func (c *credit) CanSend(now kernel.Time, vl, n int) bool {
	c.collect(now)
	return int(c.credits[vl]) >= n
}

func (c *credit) Sent(now kernel.Time, vl int, _ kernel.Time) {
	c.collect(now)
	if c.credits[vl] <= 0 {
		panic("flowctl: flit sent without a credit")
	}
	c.credits[vl]--
}

func (c *credit) Freed(at kernel.Time, vl int) kernel.Time {
	back := at + c.latency
	c.returns.push(stamped{at: back, vl: int32(vl)})
	return back
}

func (c *credit) Free(now kernel.Time, vl int) int {
	c.collect(now)
	return int(c.credits[vl])
}

func (c *credit) Pending(now kernel.Time) kernel.Time {
	c.collect(now)
	return c.returns.next()
}
