package fabric

import (
	"netsim/flit"
	"netsim/kernel"
	switching "netsim/switch"
)

// callQueue holds the calls across links between switches that
// Config.deferCalls holds back — a run arriving (AcceptRun), the room a
// switch frees on its input (switching.Switch.Freed, the credits that go
// back) and news of that room upstream (Unblock) — : made during an
// event, they reach their switch after it, in reverse order. A network partitioned among threads
// would deliver the calls crossing partitions so, after the cycle's
// ticks, in an order of its own; the results must not depend on that
// (TestDeferredCallsChangeNothing).
type callQueue struct {
	calls []crossCall
}

// holdCredits is the switching.Switch.HoldCredits hook of a callQueue.
func (q *callQueue) holdCredits(s *switching.Switch, port int32, vl, n int, now kernel.Time) {
	q.calls = append(q.calls, crossCall{sw: s, now: now, port: port, vl: int32(vl), k: int32(n)})
}

// deferredReceiver is a flit.Receiver whose calls wait in a callQueue.
type deferredReceiver struct {
	to flit.Receiver
	q  *callQueue
}

// AcceptRun implements flit.Receiver.
func (d deferredReceiver) AcceptRun(now kernel.Time, port, vl int, pkt int32, arrive kernel.Time, k int) {
	d.q.calls = append(d.q.calls, crossCall{to: d.to, now: now, port: int32(port), vl: int32(vl), pkt: pkt, arrive: arrive, k: int32(k)})
}

// deferredSender is a flit.Sender whose calls wait in a callQueue.
type deferredSender struct {
	to flit.Sender
	q  *callQueue
}

// Unblock implements flit.Sender.
func (d deferredSender) Unblock(vl int, at kernel.Time) {
	d.q.calls = append(d.q.calls, crossCall{from: d.to, vl: int32(vl), arrive: at})
}

// deliver makes the held-back calls, the last first.
func (q *callQueue) deliver() {
	for len(q.calls) > 0 {
		c := q.calls[len(q.calls)-1]
		q.calls = q.calls[:len(q.calls)-1]
		c.make()
	}
}
