package nic

import "netsim/kernel"

// Request–reply traffic (Params.Outstanding > 0) closes the loop of
// Bernoulli traffic: every packet a NIC generates is a request, which it
// sends only while fewer than Outstanding of its requests are unanswered
// (the others wait in its source queue, and count in it); the
// destination answers each request, in the cycle its tail arrives, with a
// reply of ReplyFlits flits queued behind its own packets; the reply's
// arrival frees the requester's slot. A request carries its slot + 1 as
// its sequence number, the reply the negative: the requester measures the
// round trip from the request's issue (when it took a slot) to the
// reply's tail.

// rrArrival is a request or reply whose tail has arrived, held until the
// NIC's tick in its cycle.
type rrArrival struct {
	at       kernel.Time
	seq, src int32
}

// withRequests sets up request–reply traffic of at most limit requests
// outstanding and replies of replyFlits flits.
func (n *NIC) withRequests(limit, replyFlits int) *NIC {
	if limit <= 0 {
		return n
	}
	n.rrLimit, n.rrReplyFlits = int32(limit), int32(max(replyFlits, 1))
	n.rrFree = make([]int32, limit)
	for i := range n.rrFree {
		n.rrFree[i] = int32(limit - 1 - i)
	}
	n.rrIssued = make([]kernel.Time, limit)
	n.rrMeasured = make([]bool, limit)
	return n
}

// request queues request pi: at once if a slot is free, else held until a
// reply frees one.
func (n *NIC) request(pi int32) {
	if len(n.rrFree) == 0 {
		n.held.Push(pi)
		n.meter.Queued += int64(n.pool.Get(pi).Flits)
		return
	}
	n.issue(pi, n.eng.Now())
}

// issue gives request pi a free slot at now and queues it.
func (n *NIC) issue(pi int32, now kernel.Time) {
	k := n.rrFree[len(n.rrFree)-1]
	n.rrFree = n.rrFree[:len(n.rrFree)-1]
	p := n.pool.Get(pi)
	p.Seq = k + 1
	n.rrIssued[k], n.rrMeasured[k] = now, p.Measured
	n.push(pi)
}

// rrArrived holds a request or reply (sequence number seq, from src)
// whose tail arrived at at, for the tick of that cycle.
func (n *NIC) rrArrived(seq, src int32, at kernel.Time) {
	n.rrIn.Push(rrArrival{at: at, seq: seq, src: src})
	n.meter.ProbesHeld++
	if at > n.eng.Now() {
		n.alarm.Set(at)
	}
}

// answer acts on the requests and replies that arrived by now: a request
// gets its reply, a reply frees its slot for the oldest held request.
func (n *NIC) answer(now kernel.Time) {
	for n.rrIn.Len() > 0 && n.rrIn.Front().at <= now {
		a := n.rrIn.Pop()
		n.meter.ProbesHeld--
		if a.seq > 0 {
			n.reply(a, now)
			continue
		}
		k := -a.seq - 1
		if n.rrMeasured[k] {
			n.meter.RTTSum += int64(a.at - n.rrIssued[k])
			n.meter.RTTCount++
		}
		n.rrFree = append(n.rrFree, k)
		if n.held.Len() > 0 {
			pi := n.held.Pop()
			n.meter.Queued -= int64(n.pool.Get(pi).Flits) // push counts it again
			n.issue(pi, now)
		}
	}
	if n.rrIn.Len() > 0 {
		n.alarm.Set(n.rrIn.Front().at)
	}
}

// reply queues at now the reply to request a.
func (n *NIC) reply(a rrArrival, now kernel.Time) {
	dlid, sl, vl := n.route.Source(int(n.host), int(a.src))
	n.push(n.newPacket(a.src, dlid, sl, vl, n.rrReplyFlits, -a.seq, now))
}
