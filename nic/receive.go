package nic

import (
	"math"

	"netsim/kernel"
)

// AcceptRun implements flit.Receiver: the NIC consumes each flit on
// arrival, at arrive, arrive+1, …, arrive+k−1.
func (n *NIC) AcceptRun(_ kernel.Time, _, vl int, pi int32, arrive kernel.Time, k int) {
	if n.rxGap > 1 {
		n.buffer(vl, pi, arrive, k)
		return
	}
	if t := n.inLink.Freed(arrive, vl, k); t != kernel.Never && n.up != nil {
		n.up.Unblock(vl, t)
	}
	n.consume(pi, arrive, k)
}

// consume takes k flits of packet pi out of the receive buffer at arrive,
// arrive+1, …, arrive+k−1.
func (n *NIC) consume(pi int32, arrive kernel.Time, k int) {
	p := n.pool.Get(pi)
	p.Received += uint16(k)
	n.meter.ejected(arrive, k)
	if p.Received == p.Flits {
		if p.Probe != 0 {
			// Acted on in the cycle it is in (Tick), not before: when a
			// reply changes the route of the next packet does not depend
			// on the order of the ticks in a cycle.
			t := arrive + kernel.Time(k-1)
			n.probesIn.Push(probeIn{at: t, pi: pi})
			n.meter.ProbesHeld++
			if t > n.eng.Now() {
				n.alarm.Set(t) // else Tick, draining the receive buffer, is about to
			}
			return
		}
		n.received(p.Seq, int32(p.Flits), arrive+kernel.Time(k-1))
		if n.rrLimit > 0 {
			n.rrArrived(p.Seq, p.Src, arrive+kernel.Time(k-1))
		}
		if n.sink != nil {
			n.sink.Arrived(p.Seq, arrive+kernel.Time(k-1))
		}
		n.meter.delivered(p, arrive+kernel.Time(k-1))
		n.pool.Release(pi)
	}
}

// rxFlit is a flit in the receive buffer of a NIC slower than its link,
// with the cycle the NIC drains it.
type rxFlit struct {
	at kernel.Time
	pi int32
	vl uint8
}

// rxGap returns the cycles per flit of a NIC draining at rate (0 means 1).
func rxGap(rate float64) float64 {
	if rate <= 0 || rate >= 1 {
		return 1
	}
	return 1 / rate
}

// buffer queues the k flits of packet pi arriving at arrive, arrive+1, …
// on lane vl, each drained rxGap cycles after the previous one at the
// earliest, and wakes the NIC for the first. Flits reach the NIC in
// arrival order, so the drain times are computed as they are announced.
func (n *NIC) buffer(vl int, pi int32, arrive kernel.Time, k int) {
	for i := range k {
		t := max(float64(arrive+kernel.Time(i)), n.rxNext)
		n.rxNext = t + n.rxGap
		n.rxQueue.Push(rxFlit{at: kernel.Time(math.Ceil(t)), pi: pi, vl: uint8(vl)})
	}
	n.alarm.Set(n.rxQueue.Front().at)
}

// drain consumes the flits of the receive buffer due by now, in time
// order, freeing their buffer slots through the link's flow control, and
// wakes the NIC for the next one. It runs at the cycles the flits drain,
// so every flow-control event of the link stays in time order.
func (n *NIC) drain(now kernel.Time) {
	for n.rxQueue.Len() > 0 && n.rxQueue.Front().at <= now {
		f := n.rxQueue.Pop()
		if t := n.inLink.Freed(f.at, int(f.vl), 1); t != kernel.Never && n.up != nil {
			n.up.Unblock(int(f.vl), t)
		}
		n.consume(f.pi, f.at, 1)
	}
	if n.rxQueue.Len() > 0 {
		n.alarm.Set(n.rxQueue.Front().at)
	}
}
