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
	// Sizes, when not nil, makes each generation a message of a length
	// drawn from it, split into packets of PacketFlits (the last one
	// shorter), all to one destination.
	Sizes *traffic.MessageSizes
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
	// Outstanding, if positive, makes the traffic request–reply: at most
	// Outstanding requests of the NIC unanswered, each answered with a
	// reply of ReplyFlits flits (see reqreply.go).
	Outstanding, ReplyFlits int
	// Classes, if not nil, makes the VL choice dynamic: the routing's
	// Source names a VL class, the NIC keeps a source queue per class and
	// starts a packet on the VL of its class that admits it with the most
	// credits (the lowest of equals). Nil, Source names the VL.
	Classes *routing.Classes
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
	sizes      *traffic.MessageSizes // nil: one packet a generation
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

	queues  []ring.Ring[int32] // source queue per VL (per class under dynamic VL choice)
	classes *routing.Classes   // Params.Classes
	queued  int                // packets in queues
	// filled has bit q set while source queue q holds packets, so
	// looking for the next packet passes over the empty queues without
	// touching them (a queue's record is 40 bytes).
	filled  uint64
	vlNext  int   // round-robin pointer over queues
	cur     int32 // packet being injected, or -1
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
	// linkFlits counts the flits sent on each VL (CountLinkFlits).
	linkFlits []int64
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

	// Workload messages to send, oldest first, and where their packets
	// are reported (nil without a workload).
	outMsgs ring.Ring[Message]
	sink    MessageSink

	// Request–reply traffic (rrLimit > 0): the free slots, each slot's
	// issue time and whether its request is measured, the requests held
	// for want of a slot, and the requests and replies arrived.
	rrLimit, rrReplyFlits int32
	rrFree                []int32
	rrIssued              []kernel.Time
	rrMeasured            []bool
	held                  ring.Ring[int32]
	rrIn                  ring.Ring[rrArrival]
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
		sizes:      p.Sizes,
		latency:    kernel.Time(p.LinkLatency),
		genKind:    p.GenKind,
		queues:     make([]ring.Ring[int32], queues(p)),
		classes:    p.Classes,
		maxRun:     int32(p.MaxRun),
		cur:        -1,
		stallFrom:  -1,
		alarm:      kernel.NewAlarm(eng, kernel.Event{Kind: p.TickKind, Target: int32(p.Host)}),
		disp:       p.Dispersion,
		rxGap:      rxGap(p.ReceiveRate),
	}).withDispersion(p.Hosts).withRequests(p.Outstanding, p.ReplyFlits)
}

// queues returns the number of source queues of a NIC: one per VL, or per
// class under dynamic VL choice.
func queues(p Params) int {
	if p.Classes != nil {
		return p.Classes.Len()
	}
	return p.VLs
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
	if gap := n.process.FirstGap(&n.rng); gap != kernel.Never {
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
