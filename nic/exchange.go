package nic

import (
	"netsim/kernel"
	"netsim/routing"
)

// Exchange is a closed workload: the NIC sends Messages messages to host
// Dst, each split into packets of the given lengths, as fast as flow
// control lets it. Packets are created when the link can take them, so the
// source queue holds at most one.
type Exchange struct {
	Dst      int
	Messages int
	// Packets lists the flits of each packet of a message.
	Packets []int32
}

// Received are the statistics of the packets a NIC received: in an
// exchange, the flow from its partner.
type Received struct {
	Packets, Flits int64
	// OutOfOrder counts packets that arrived after one with a higher
	// sequence number of the same flow; MaxDisplacement is the largest
	// such difference of sequence numbers.
	OutOfOrder, MaxDisplacement int64
	// Last is the cycle the last flit arrived.
	Last kernel.Time
	// maxSeq is the highest sequence number seen.
	maxSeq int32
}

// StartExchange begins the workload x at time at. The NIC must not be
// generating Bernoulli traffic.
func (n *NIC) StartExchange(x Exchange, at kernel.Time) {
	n.xch = x
	n.xLeft = int64(x.Messages) * int64(len(x.Packets))
	n.xSeq = 0
	n.alarm.Set(at)
}

// Received returns the statistics of the packets the NIC has received.
func (n *NIC) Received() Received { return n.rx }

// RouteChanges returns how often an adaptive NIC changed a route.
func (n *NIC) RouteChanges() int64 { return n.changes }

// lagged says the NIC chooses routes when it prepares exchange packets,
// Lag packets ahead, rather than as a packet starts.
func (n *NIC) lagged() bool {
	return n.disp.Lag > 0 && n.xch.Messages > 0 && (n.disp.Mode == Adaptive || n.disp.Mode == Probing) && n.multi != nil
}

// nextExchange queues the next packet of the exchange. A lagged NIC
// queues the oldest packet of its send pipeline, first filling the
// pipeline to Lag + 1 packets, choosing each one's route as it enters.
func (n *NIC) nextExchange(now kernel.Time) {
	if !n.lagged() {
		n.push(n.newExchange(now))
		return
	}
	for n.pipe.Len() <= n.disp.Lag && n.xLeft > 0 {
		pi := n.newExchange(now)
		n.chooseRoute(now, pi)
		n.pipe.Push(pi)
	}
	n.push(n.pipe.Pop())
}

// newExchange returns the next packet of the exchange, created at now.
func (n *NIC) newExchange(now kernel.Time) int32 {
	x := &n.xch
	flits := x.Packets[int(n.xSeq)%len(x.Packets)]
	dlid, sl, vl := n.route.Source(int(n.host), x.Dst)
	pi := n.newPacket(int32(x.Dst), dlid, sl, vl, flits, n.xSeq, now)
	n.xSeq++
	n.xLeft--
	return pi
}

// received records the delivery of packet p's tail at t.
func (n *NIC) received(seq, flits int32, t kernel.Time) {
	r := &n.rx
	if r.Packets > 0 && seq < r.maxSeq {
		r.OutOfOrder++
		r.MaxDisplacement = max(r.MaxDisplacement, int64(r.maxSeq-seq))
	} else {
		r.maxSeq = seq
	}
	r.Packets++
	r.Flits += int64(flits)
	r.Last = t
	n.meter.DataDelivered++
}

// chooseRoute sets the route of packet pi, about to start, by the NIC's
// dispersion mode.
func (n *NIC) chooseRoute(now kernel.Time, pi int32) {
	p := n.pool.Get(pi)
	src, dst := int(n.host), int(p.Dst)
	routes := n.multi.Routes(src, dst)
	if routes <= 1 {
		return
	}
	var r int
	switch n.disp.Mode {
	case Random:
		r = n.rng.IntN(routes)
	case Adaptive:
		r = int(n.routeOf[dst])
		if r < 0 || r >= routes {
			r = int(routing.StaticRoute(src, dst) % uint64(routes))
		}
		if int(n.stopped[dst]) >= max(n.disp.Threshold, 1) {
			n.stopped[dst] = 0
			if n.rng.Float64() < n.disp.Probability {
				// A different route, uniformly.
				k := n.rng.IntN(routes - 1)
				if k >= r {
					k++
				}
				r = k
				n.changes++
			}
		}
		n.routeOf[dst] = int32(r)
	case Probing:
		r = n.probing(dst)
		n.routeOf[dst] = int32(r)
	default:
		return
	}
	p.DLID, _, _ = n.multi.SourceRoute(src, dst, r)
}

// stop records that flow control held the NIC back at now.
func (n *NIC) stop(now kernel.Time) {
	n.stopHit = true
	if n.stallFrom < 0 {
		n.stallFrom = now
	}
}

// countStopped counts the packet that just ended as stopped by flow
// control, for Adaptive and Probing: a stop of s cycles counts as
// ⌈s / L⌉ stopped packets (at least one), L the packet's length, so a NIC
// starved for a long time counts the packets it could have sent meanwhile
// whether the switches interleave packets fairly or serve one flow after
// another. A Probing NIC may send a probe at now.
func (n *NIC) countStopped(now kernel.Time) {
	units := 1 + max(int64(n.stalled)-1, 0)/int64(max(n.curFlits, 1))
	n.stopHit, n.stalled = false, 0
	if n.stopped == nil {
		return
	}
	s := &n.stopped[n.curDst]
	*s = uint16(min(int64(*s)+units, int64(^uint16(0))))
	if n.probes != nil {
		n.probeStopped(now, int(n.curDst), units)
	}
}
