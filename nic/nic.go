// Package nic models a host adapter: it generates packets into an unbounded
// source queue (whose growth signals saturation), injects them into its
// switch under the link's flow control, one flit per cycle, and ejects the
// flits that reach it, recording each packet's latency from creation to
// tail arrival.
//
// The source queue is kept per virtual lane, as an InfiniBand adapter keeps
// separate send queues: packets leave in creation order within a VL, and
// the adapter turns round-robin among the VLs whose next packet the switch
// buffer can take, so one full VL does not block the others. A packet, once
// started, is sent to its tail before the next one starts.
//
// Like a switch output, the adapter sends runs: as many flits of its packet
// as flow control lets it send back to back (the whole packet when its room
// was reserved, the credits it holds otherwise, one flit under STOP/GO),
// in one call to the switch, and is busy until the run ends. Ejection takes
// runs too and keeps every statistic exact per flit.
//
// A NIC absorbs one flit per cycle from its switch unless its ReceiveRate
// is below 1: then it drains its receive buffer at that fraction of the
// link bandwidth, a flit at a time, and frees each buffer slot only when
// it drains the flit, so a full buffer pushes back on the switch through
// the link's flow control (STOP/GO or credits), as a host whose receive
// side is slower than the link does. A packet counts as received when its
// tail is drained.
//
// With a multipath source routing (routing.Multipath) the NIC picks each
// packet's route when the packet starts, by its Dispersion (seed 001 §4):
//
//   - Static: every packet to a destination takes one fixed pseudo-random
//     route (routing.StaticRoute).
//   - Random: every packet takes a route drawn uniformly (randomized
//     oblivious routing).
//   - Adaptive: the NIC keeps one route per destination, starting from the
//     static one. A packet that flow control held back (STOP, or no credit)
//     while it was being sent or waiting to start counts as stopped, a stop
//     of s cycles as ⌈s / L⌉ packets of length L; once Threshold packets
//     to the destination were stopped the NIC draws, with Probability,
//     whether the next packet takes another route (uniformly among the
//     others), and counts again from zero.
//   - Probing: as Adaptive, but reaching the threshold (checked when a
//     packet ends) sends a 1-flit probe to the destination on a random
//     other route, behind the packet on the link, instead of changing
//     route. Switches mark the probe blocked if a link of the route is in
//     use by another flow (see package switching); the destination answers
//     with a 1-flit reply on its own route back. Probe and reply take link
//     time and wait in buffers like any packet, so the round trip is
//     simulated. On a free reply the next packet takes the probed route.
//     On a blocked one the NIC probes another route at once if packets
//     were stopped while the probe was out (the contention persists), and
//     otherwise stops probing; after MaxProbes blocked replies in a row it
//     changes route anyway (to a random other one, breaking a local
//     optimum, §4.4.2) and doubles its threshold until a probe finds a
//     free route.
//
// With a Lag, an Adaptive or Probing NIC running an exchange chooses each
// packet's route when it prepares the packet, Lag packets before the
// packet starts, as a NIC that writes the route into the header of the
// packets in its send pipeline: a decision reaches the wire Lag packets
// late, and the packets already prepared are stopped and counted on the
// old route meanwhile.
//
// Besides Bernoulli traffic a NIC can run an Exchange, a closed workload
// that streams messages to one partner, and counts the packets it
// receives out of order.
package nic

import (
	"netsim/flit"
	"netsim/flowctl"
	"netsim/internal/ring"
	"netsim/kernel"
	"netsim/routing"
	"netsim/traffic"
)

// Params configure a NIC.
type Params struct {
	// Host is the host index, also the Target of the NIC's events.
	Host int
	// CutThrough makes the NIC start a packet only when the switch buffer
	// has room for all of it (virtual cut-through); otherwise one flit.
	CutThrough bool
	// VLs is the number of virtual lanes of the injection link.
	VLs int
	// PacketFlits is the length of the packets the NIC generates.
	PacketFlits int
	// LinkLatency is the cycles a flit takes to reach the switch buffer.
	LinkLatency int
	// MaxRun, if positive, caps the flits of a run: a testing aid, where 1
	// sends flit by flit to compare with runs.
	MaxRun int
	// TickKind and GenKind are the event kinds the owner dispatches to Tick
	// and Generate.
	TickKind, GenKind uint8
	// Dispersion chooses the route of each packet when the routing is a
	// routing.Multipath; with another routing every mode is Static.
	Dispersion Dispersion
	// Hosts is the number of hosts (the size of an Adaptive NIC's
	// per-destination tables).
	Hosts int
	// ReceiveRate, in (0, 1], is the fraction of the link bandwidth the
	// NIC drains from its receive buffer; 0 means 1, a flit per cycle.
	ReceiveRate float64
}

// NIC is one host adapter. It is not safe for concurrent use.
type NIC struct {
	host       int32
	eng        *kernel.Engine
	pool       *flit.Pool
	meter      *Meter
	route      routing.Routing
	pattern    traffic.Pattern
	process    traffic.Bernoulli
	rng        kernel.RNG
	cutThrough bool
	flits      int32
	maxRun     int32
	latency    kernel.Time
	genKind    uint8

	// Injection link.
	fc     flowctl.Control
	to     flit.Receiver
	toPort int32
	// Ejection link, kept here so ejecting a flit touches the NIC only.
	inLink flowctl.Link
	up     flit.Sender

	queues  []ring.Ring[int32] // source queue per VL
	queued  int                // packets in queues
	vlNext  int                // round-robin pointer over queues
	cur     int32              // packet being injected, or -1
	curSent int32
	// curVL and curFlits are cur's VL and length, kept here so sending a
	// flit does not touch the packet.
	curVL, curFlits int32
	// reserved says the switch buffer\'s room for cur was taken at its start.
	reserved bool

	alarm  kernel.Alarm
	freeAt kernel.Time // when the link is free: the end of the last run
	// blocked says the last tick could not send (wait); readyAt is then,
	// if no packet is in progress, when the first VL's oldest packet
	// fits (start), kernel.Never if none fits with the credits on their way.
	blocked    bool
	readyAt    kernel.Time
	generating bool

	// Dispersion (multi is nil when every packet takes its static route).
	disp    Dispersion
	multi   routing.Multipath
	routeOf []int32  // Adaptive: the current route per destination, −1 none
	stopped []uint16 // Adaptive: packets stopped per destination since the last decision
	stopHit bool     // flow control stopped the NIC since the last packet ended
	// stallFrom is when the current stop began (−1: not stopped), and
	// stalled the cycles cur has been stopped so far.
	stallFrom, stalled kernel.Time
	curDst             int32
	changes            int64
	// Probing: per destination, and when the last control packet queued
	// may leave.
	probes    []probeState
	controlAt kernel.Time
	// probesIn holds the probes and replies received, in arrival order,
	// until the NIC's tick in the cycle their flit is in.
	probesIn ring.Ring[probeIn]
	// ProbesSent counts the probes the NIC sent.
	ProbesSent int64

	// Receive side slower than the link (rxGap > 1 cycles per flit):
	// flits wait in the receive buffer until drained, at rxNext or later.
	rxGap   float64
	rxNext  float64
	rxQueue ring.Ring[rxFlit]

	// Exchange workload and what the NIC received. With a Lag, pipe
	// holds the packets prepared, their routes chosen, not yet queued.
	xch   Exchange
	xLeft int64
	xSeq  int32
	pipe  ring.Ring[int32]
	rx    Received
}

// New returns an idle NIC.
func New(p Params, eng *kernel.Engine, pool *flit.Pool, meter *Meter, r routing.Routing,
	pat traffic.Pattern, proc traffic.Bernoulli, rng kernel.RNG) *NIC {
	return (&NIC{
		host:       int32(p.Host),
		eng:        eng,
		pool:       pool,
		meter:      meter,
		route:      r,
		pattern:    pat,
		process:    proc,
		rng:        rng,
		cutThrough: p.CutThrough,
		flits:      int32(p.PacketFlits),
		latency:    kernel.Time(p.LinkLatency),
		genKind:    p.GenKind,
		queues:     make([]ring.Ring[int32], p.VLs),
		maxRun:     int32(p.MaxRun),
		cur:        -1,
		stallFrom:  -1,
		alarm:      kernel.NewAlarm(eng, kernel.Event{Kind: p.TickKind, Target: int32(p.Host)}),
		disp:       p.Dispersion,
		rxGap:      rxGap(p.ReceiveRate),
	}).withDispersion(p.Hosts)
}

// withDispersion sets up the route choice of n for a network of hosts
// hosts.
func (n *NIC) withDispersion(hosts int) *NIC {
	mp, ok := n.route.(routing.Multipath)
	if !ok || n.disp.Mode == Static {
		return n
	}
	n.multi = mp
	if n.disp.Mode == Probing {
		n.probes = make([]probeState, hosts)
		for i := range n.probes {
			n.probes[i].route, n.probes[i].next = -1, -1
		}
	}
	if n.disp.Mode == Adaptive || n.disp.Mode == Probing {
		n.routeOf = make([]int32, hosts)
		for i := range n.routeOf {
			n.routeOf[i] = -1
		}
		n.stopped = make([]uint16, hosts)
	}
	return n
}

// ConnectOut attaches the injection link to the switch.
func (n *NIC) ConnectOut(fc flowctl.Control, to flit.Receiver, toPort int) {
	n.fc, n.to, n.toPort = fc, to, int32(toPort)
}

// ConnectIn sets up the ejection link from sender up with flow-control
// parameters fp and returns its flow-control state for the sender to use.
func (n *NIC) ConnectIn(fp flowctl.Params, up flit.Sender) (flowctl.Control, error) {
	if err := n.inLink.Init(fp); err != nil {
		return nil, err
	}
	n.up = up
	return &n.inLink, nil
}

// Start begins generating packets at time at.
func (n *NIC) Start(at kernel.Time) {
	n.generating = true
	if gap := n.process.Gap(&n.rng); gap != kernel.Never {
		n.eng.Schedule(at+gap-1, kernel.Event{Kind: n.genKind, Target: n.host})
	}
}

// StopGenerating stops creating new packets; queued ones are still sent.
func (n *NIC) StopGenerating() { n.generating = false }

// Queued returns the number of packets in the source queue, the one being
// injected included.
func (n *NIC) Queued() int {
	if n.cur >= 0 {
		return n.queued + 1
	}
	return n.queued
}

// Unsent returns how many flits of the NIC's run in progress are not yet on
// the link in cycle at: the source queue holds them still, flit by flit,
// though Meter.Queued counted the whole run out when it started.
func (n *NIC) Unsent(at kernel.Time) int64 { return int64(max(n.freeAt-at, 0)) }

// Generate creates one packet at now and schedules the next; the owner calls
// it for every GenKind event addressed to the NIC.
func (n *NIC) Generate(now kernel.Time) {
	if !n.generating {
		return
	}
	dst := n.pattern.Dest(int(n.host), &n.rng)
	dlid, sl, vl := n.route.Source(int(n.host), dst)
	pi := n.pool.New()
	p := n.pool.Get(pi)
	p.Src, p.Dst, p.DLID, p.SL, p.VL = n.host, int32(dst), dlid, uint8(sl), uint8(vl)
	p.Flits = n.flits
	p.Created = now
	p.Measured = n.meter.generated(now, n.flits)
	// A NIC stopped by flow control with a packet in progress, or with
	// older packets on the new one's VL, would find the same at once: the
	// new packet is behind them. Its wake-ups stand.
	behind := n.blocked && (n.cur >= 0 || n.queues[vl].Len() > 0)
	n.push(pi)
	if !behind {
		n.alarm.Set(now)
	}
	if gap := n.process.Gap(&n.rng); gap != kernel.Never {
		n.eng.Schedule(now+gap, kernel.Event{Kind: n.genKind, Target: n.host})
	}
}

func (n *NIC) push(pi int32) {
	n.queues[n.pool.Get(pi).VL].Push(pi)
	n.queued++
	n.meter.Queued += int64(n.pool.Get(pi).Flits)
}

// Unblock implements flit.Sender.
//
// A NIC with a packet in progress wakes at at. One waiting to start a
// packet wakes when vl's oldest packet fits: credits come back one per
// cycle, and news of room on a VL with no packet waiting changes nothing.
func (n *NIC) Unblock(vl int, at kernel.Time) {
	if !n.blocked {
		return
	}
	if n.cur >= 0 {
		n.alarm.Set(at)
		return
	}
	now := n.eng.Now()
	pi, ok := n.oldest(vl, now)
	if !ok {
		return // nothing to send there, or a reply still arriving (the NIC wakes at controlAt)
	}
	if t := n.fc.ReadyAt(now, vl, n.need(pi)); t != kernel.Never {
		n.alarm.Set(max(t, at))
	}
}

// oldest returns the oldest packet queued on vl if it may start at now:
// not when vl's queue is empty or the packet is a reply to a probe still
// arriving.
func (n *NIC) oldest(vl int, now kernel.Time) (int32, bool) {
	q := &n.queues[vl]
	if q.Len() == 0 {
		return 0, false
	}
	pi := q.Front()
	if n.controlAt > now && n.pool.Get(pi).Created > now {
		return 0, false
	}
	return pi, true
}

// need returns the credits packet pi needs to start: all of its flits
// under cut-through, else one.
func (n *NIC) need(pi int32) int {
	if n.cutThrough {
		return int(n.pool.Get(pi).Flits)
	}
	return 1
}

// Wake makes the NIC tick at at even if it has nothing to do then. Such a
// tick changes nothing; tests use Wake to check that the NIC's own
// wake-ups miss nothing.
func (n *NIC) Wake(at kernel.Time) { n.alarm.Set(at) }

// Tick drains the receive buffer, acts on the probes and replies that
// have arrived, and starts at most one run when the link is free; the
// owner calls it for every TickKind event addressed to the NIC.
func (n *NIC) Tick(now kernel.Time) {
	if !n.alarm.Ring(now) {
		return // superseded by an earlier wake-up
	}
	if n.rxQueue.Len() > 0 {
		n.drain(now)
	}
	for n.probesIn.Len() > 0 && n.probesIn.Front().at <= now {
		in := n.probesIn.Pop()
		n.meter.ProbesHeld--
		n.probeArrived(n.pool.Get(in.pi), in.at)
		n.pool.Release(in.pi)
	}
	if n.probesIn.Len() > 0 {
		n.alarm.Set(n.probesIn.Front().at)
	}
	if n.freeAt > now {
		// A packet generated while a run is on the link: the link carries
		// one flit per cycle, so it waits for the run's end.
		n.alarm.Set(n.freeAt)
		return
	}
	n.blocked = false
	if n.cur < 0 && !n.start(now) {
		n.wait(now)
		return
	}
	vl := int(n.curVL)
	k := n.curFlits - n.curSent
	if !n.reserved {
		b := n.fc.Burst(now, vl)
		if b <= 0 {
			n.stop(now)
			n.wait(now)
			return
		}
		k = min(k, int32(b))
	}
	if n.maxRun > 0 {
		k = min(k, n.maxRun)
	}
	arrive := now + n.latency
	pi := n.cur
	n.curSent += k
	if n.stallFrom >= 0 {
		n.stalled += now - n.stallFrom
		n.stallFrom = -1
	}
	if n.curSent == n.curFlits {
		n.cur = -1
		if n.stopHit {
			n.countStopped(now)
		}
	}
	if !n.reserved {
		n.fc.Sent(now, vl, arrive, int(k))
	}
	n.freeAt = now + kernel.Time(k)
	n.meter.Queued -= int64(k)
	n.meter.Injected += int64(k)
	n.meter.FlitHops += int64(k)
	n.eng.ProgressUntil(n.freeAt - 1)
	n.to.AcceptRun(now, int(n.toPort), vl, pi, arrive, int(k))
	if n.cur >= 0 || n.queued > 0 || n.xLeft > 0 || n.pipe.Len() > 0 {
		n.alarm.Set(n.freeAt)
	}
}

// start picks the next packet to inject: round-robin over the VLs, the
// first whose oldest packet the switch buffer can take.
func (n *NIC) start(now kernel.Time) bool {
	if n.queued == 0 && (n.xLeft > 0 || n.pipe.Len() > 0) {
		n.nextExchange(now)
	}
	if n.queued == 0 {
		return false
	}
	vls := len(n.queues)
	n.readyAt = kernel.Never
	for k := 0; k < vls; k++ {
		vl := n.vlNext + k
		if vl >= vls {
			vl -= vls
		}
		pi, ok := n.oldest(vl, now)
		if !ok {
			continue
		}
		q := &n.queues[vl]
		need := n.need(pi)
		if !n.fc.CanSend(now, vl, need) {
			n.stop(now)
			n.readyAt = min(n.readyAt, n.fc.ReadyAt(now, vl, need))
			continue
		}
		q.Pop()
		n.queued--
		if n.multi != nil && n.pool.Get(pi).Probe == 0 && !n.lagged() {
			n.chooseRoute(now, pi)
		}
		p := n.pool.Get(pi)
		n.cur, n.curSent, n.curVL, n.curFlits = pi, 0, int32(vl), p.Flits
		n.curDst = p.Dst
		n.reserved = n.cutThrough && n.fc.Reserve(now, vl, need)
		n.vlNext = vl + 1
		if n.vlNext == vls {
			n.vlNext = 0
		}
		return true
	}
	return false
}

func (n *NIC) wait(now kernel.Time) {
	n.blocked = true
	if n.cur < 0 && n.queued == 0 {
		return
	}
	// With a packet in progress any credit of its VL lets it go on;
	// before a packet starts, the first VL whose oldest packet fits.
	t := n.readyAt
	if n.cur >= 0 {
		t = n.fc.Pending(now)
	}
	if t != kernel.Never {
		n.alarm.Set(t)
	}
	if n.controlAt > now {
		n.alarm.Set(n.controlAt)
	}
}

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
	p.Received += int32(k)
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
		n.received(p.Seq, p.Flits, arrive+kernel.Time(k-1))
		n.meter.delivered(p, arrive+kernel.Time(k-1))
		n.pool.Release(pi)
	}
}
