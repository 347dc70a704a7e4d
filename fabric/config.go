// Package fabric assembles one simulation point — an event engine, a switch
// per topology switch, a NIC per host, and the links between them — runs it
// through warm-up, measurement and drain, and returns its statistics.
package fabric

import (
	"netsim/flowctl"
	"netsim/nic"
	"netsim/results"
	"netsim/routing"
	switching "netsim/switch"
	"netsim/topologies"
	"netsim/traffic"
)

// Config describes one simulation point. Zero values are not defaults:
// callers (package experiments) fill every field; Validate reports what is
// missing or out of range.
type Config struct {
	Net     *topologies.Network
	Routing routing.Routing
	Pattern traffic.Pattern
	// Active marks the hosts that send, for a Pattern restricted to the
	// pairs a partial routing connects (traffic.Restrict); nil means every
	// host sends. Loads are per sending host: generated and accepted are
	// divided by their number.
	Active []bool

	// Load is the offered load in flits per host per cycle (0..1].
	Load float64
	// PacketFlits is the packet length in flits (≥ 1).
	PacketFlits int
	// MessageSizes, when not nil, makes hosts create messages of these
	// lengths, split into packets of PacketFlits (traffic.MessageSizes).
	MessageSizes *traffic.MessageSizes
	// Burst and Idle, when positive, modulate the hosts' injection on and
	// off: bursts and idle periods of these mean lengths in cycles
	// (traffic.NewOnOff); 0: plain Bernoulli.
	Burst, Idle float64
	// Outstanding, if positive, makes the traffic request–reply: every
	// packet is a request, a host has at most Outstanding unanswered, and
	// each is answered with a reply of ReplyFlits flits (nic.Params).
	Outstanding, ReplyFlits int

	// FlowControl is flowctl.KindCredit (InfiniBand) or flowctl.KindStopGo
	// (Myrinet).
	FlowControl flowctl.Kind
	// VLs is the number of virtual lanes per link (≥ Routing.VLs()).
	VLs int
	// BufferFlits is the input-buffer size per port and VL, in flits.
	BufferFlits int
	// StopMark and GoMark are the STOP/GO watermarks in flits (stopgo only):
	// the receiver signals STOP when its occupancy reaches StopMark and GO
	// when it falls to GoMark.
	StopMark, GoMark int

	// Switching is switching.CutThrough (virtual cut-through) or
	// switching.Wormhole.
	Switching switching.Mode
	// Selection is the switches' selection function; the zero value is
	// switching.SelectCredits.
	Selection switching.Selection
	// Speedup is the crossbar speedup: flits an input port may forward per
	// cycle (≥ 1).
	Speedup int
	// LinkLatency, RoutingDelay and CrossbarDelay are in cycles.
	LinkLatency, RoutingDelay, CrossbarDelay int
	// LinkLatencies, when not nil, gives the latency of each class of
	// switch-to-switch links (topologies.Port.Dim: a coordinate family's
	// dimension, a Dragonfly's local 0 and global 1), in place of
	// LinkLatency; HostLinkLatency, when positive, that of host links.
	LinkLatencies   []int
	HostLinkLatency int
	// Floorplan, when not nil, places the switches: each switch-to-switch
	// link's latency grows by its cable's (topologies.Floorplan.Cable).
	Floorplan *topologies.Floorplan
	// VLAllocDelay and SwAllocDelay are the cycles of the VL and switch
	// allocation stages: a head may first be granted VLAllocDelay cycles
	// after its routing, and a granted flit reaches the crossbar
	// SwAllocDelay cycles after it leaves its buffer (the switch
	// allocates the output VL and the crossbar in one step, so the stages
	// add latency, not extra rounds of allocation).
	VLAllocDelay, SwAllocDelay int
	// Buffers is the organisation of the switches' input buffers; the
	// zero value is switching.BuffersFIFO.
	Buffers switching.Buffers
	// SharedReserve, SharedAlpha and SharedLimit configure
	// switching.BuffersShared (switching.Params.Reserve, Alpha and Limit;
	// 0: their defaults).
	SharedReserve int
	SharedAlpha   float64
	SharedLimit   int
	// Allocator matches the switches' waiting heads to outputs; the zero
	// value is switching.AllocOldestFirst. AllocIterations is the number
	// of rounds of the iterative ones (0 acts as 1).
	Allocator       switching.Allocator
	AllocIterations int
	// VLChoice is how a packet's VL is chosen on each link; the zero value
	// is switching.VLStatic. Under switching.VLDynamic the Routing must be
	// built for it (routing.Spec.Classes): its VLs() are its VL classes,
	// which the VLs links have are split among (routing.Classes).
	VLChoice switching.VLChoice

	// Warmup, Measure and Drain are phase lengths in cycles. Packets created
	// during the measurement window are the ones whose latency is measured;
	// drain lets them arrive.
	Warmup, Measure, Drain int64
	// MaxMeasure, if above Measure, is the longest the measurement window
	// may grow to (a multiple of Measure): at the end of the window,
	// while it is shorter, Extend is asked whether to double it (the last
	// time to MaxMeasure).
	MaxMeasure int64
	// Extend is called with the statistics of the window so far (as for
	// SkipDrain) when the window may grow; true doubles it. Callers extend
	// a point whose verdict the window has not decided.
	Extend func(window Stats) bool
	// Decided, if not nil, is asked at the interim looks of the
	// measurement window (InterimLooks: every LookBins bins from the
	// FirstLookBins-th on, before the window's end) whether the window so
	// far decides the point; true ends the window there, at a bin
	// boundary, as if Measure had been that long (Stats.Window says how
	// long it was), and it is neither extended nor looked at again.
	// Callers end a point whose verdict is sure enough at a stricter level
	// than the final one, so that stopping early rarely changes it.
	Decided func(window Stats) bool
	// DeadlockWindow is the number of cycles without any flit moving, while
	// flits are in flight, after which the run stops with a deadlock error.
	DeadlockWindow int64

	// Seed derives every random stream of the point.
	Seed uint64

	// Threads is the number of threads that simulate the point (0 acts
	// as 1; at most one per switch is used): the switches, each with its
	// hosts' NICs, are split into that many contiguous partitions that
	// run each cycle in parallel and exchange what crosses between them
	// at the cycle's end. The results do not depend on it.
	Threads int

	// Dispersion is how NICs choose among the routes of a multipath
	// routing (routing.Multipath, e.g. "source"); the zero value is static.
	Dispersion nic.Dispersion
	// ReceiveRate is the fraction of the link bandwidth a NIC drains from
	// its receive buffer (nic.Params.ReceiveRate); 0 means 1.
	ReceiveRate float64

	// LinkStats fills Stats.Links with every link's load over the
	// measurement window.
	LinkStats bool
	// LatencyDistribution fills Stats.Distribution.
	LatencyDistribution bool
	// Timeline, if positive, fills Stats.Timeline with the load generated
	// and accepted over the whole run in windows of Timeline cycles (at
	// most MaxTimelineWindows of them).
	Timeline int64

	// SkipDrain, if set, is called at the end of the measurement window,
	// if there is a drain to run, with the statistics of the window, which are final then: Offered,
	// Generated, Accepted, MeasuredPackets, QueueStart and QueueEnd (the
	// others hold their values so far). If it returns true the run ends
	// there, without the drain, and Stats.DrainSkipped is set. Callers
	// use it to spare the drain of a point already known to be unstable,
	// the most expensive points, whose drain lasts its full length; it
	// is not part of a point's identity, as it changes only what is
	// measured after the window.
	SkipDrain func(window Stats) bool

	// shortest, if positive, is the shortest packet of an exchange
	// (RunExchange), whose last packets may be shorter than PacketFlits.
	shortest int

	// maxRun, if positive, caps the flits of a run (tests set 1 to compare
	// the run model with flit-by-flit sending).
	maxRun int
	// wakeAll wakes every switch and NIC in every cycle (tests check that
	// the results do not change).
	wakeAll bool
	// noPark makes switches select again for every waiting head in every
	// tick (switching.Params.NoPark; tests check that parking changes
	// nothing).
	noPark bool
	// shuffleTicks runs each cycle's ticks, NICs and switches together, in
	// a random order drawn from the seed, after every other event of the
	// cycle (tests check that the order of the ticks in a cycle changes
	// nothing).
	shuffleTicks bool
	// deferCalls holds back the calls a switch makes on another across
	// their link (a run arriving, the credits of the room it frees, news
	// of that room upstream) until the
	// event that made them has been handled, and then makes them in
	// reverse order (callQueue): what partitioning the network among
	// threads would do to the calls crossing partitions.
	deferCalls bool
	// oldestFirst numbers packets otherwise (flit.Pool.SetOldestFirst).
	oldestFirst bool
}

// BinsPerMeasure is how many bins (Stats.Bins) every Measure cycles of a
// measurement window are split into (each Measure cycles if Measure is
// shorter).
const BinsPerMeasure = 32

// FirstLookBins and LookBins place the interim looks at the window
// (Config.Decided): after its FirstLookBins-th bin, then every LookBins
// bins, the last before the window's BinsPerMeasure-th. A window of
// fewer than BinsPerMeasure bins (Measure below BinsPerMeasure cycles)
// has no interim look.
const (
	FirstLookBins = 8
	LookBins      = 4
)

// InterimLooks returns the cycles into a measurement window of measure
// cycles at which Config.Decided is asked: the starts of its bins
// FirstLookBins, FirstLookBins + LookBins, … below BinsPerMeasure.
func InterimLooks(measure int64) []int64 {
	if measure < BinsPerMeasure {
		return nil
	}
	var at []int64
	for b := int64(FirstLookBins); b < BinsPerMeasure; b += LookBins {
		at = append(at, b*measure/BinsPerMeasure)
	}
	return at
}

// Bin is one stretch of a measurement window: what was generated,
// accepted and delivered in it.
type Bin struct {
	nic.Bin
	// Cycles is the bin's length.
	Cycles int64
}

// maxMeasure returns the longest the measurement window may grow to.
func (c *Config) maxMeasure() int64 { return max(c.MaxMeasure, c.Measure) }

// Stats are the measurements of one simulation point: those written to
// results lines (results.Measures), and those the run reports besides.
type Stats struct {
	// Offered is the configured load (flits/host/cycle).
	Offered float64
	// Measures are the measurements of the window written to results
	// lines: generated and accepted load, latencies, hops (in all and by
	// priority), measured packets and those delivered, cycles. The hops by
	// priority are NaN in a record read back from a results line written
	// before netsim measured them.
	results.Measures
	// QueueStart and QueueEnd are the total source-queue lengths, in flits,
	// at the start and end of the measurement window.
	QueueStart, QueueEnd int64
	// RTTAvg is the mean round trip of the measured requests answered,
	// with Outstanding (0 otherwise, or when none was: a round trip takes
	// at least a cycle).
	RTTAvg float64
	// InjectedFlits and EjectedFlits count all flits over the whole run;
	// InFlight is what remained inside the network at the end.
	InjectedFlits, EjectedFlits, InFlight int64
	// FlitHops counts flits moved across links (host links included).
	FlitHops int64
	// Events is the number of kernel events processed (on several
	// threads, more: each part has its own batch events).
	Events int64
	// Links are the links' load over the window, with Config.LinkStats
	// (nil otherwise).
	Links *LinkStats
	// Timeline is the run's load over time, with Config.Timeline (nil
	// otherwise).
	Timeline *results.Timeline
	// Distribution is the latency distribution, with
	// Config.LatencyDistribution (nil otherwise).
	Distribution *results.Distribution
	// Bins split the measurement window into BinsPerMeasure stretches per
	// Measure cycles, in order: the verdict's batches.
	Bins []Bin
	// DrainSkipped says the run ended with the measurement window because
	// Config.SkipDrain returned true: latency and hops then describe only
	// the measured packets delivered within the window, the earliest ones.
	DrainSkipped bool
}

// Sources returns the number of hosts that send: those Active marks, or
// every host.
func (c *Config) Sources() int {
	if c.Active == nil {
		return len(c.Net.Hosts)
	}
	n := 0
	for _, a := range c.Active {
		if a {
			n++
		}
	}
	return n
}
