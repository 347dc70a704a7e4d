package experiments

import (
	"netsim/congestion"
	"netsim/flowctl"
	"netsim/nic"
	"netsim/routing"
	switching "netsim/switch"
	"netsim/topologies"
	"netsim/traffic"
	"netsim/workload"
)

// Sweep modes.
const (
	// ModeLoads measures each load of Sweep.Loads.
	ModeLoads = "loads"
	// ModeSaturation searches the highest stable load (see Sweep.Search).
	ModeSaturation = "saturation"
)

// Saturation searches (Sweep.Search).
const (
	// SearchBisect bisects over the loads k/Resolution.
	SearchBisect = "bisect"
	// SearchFollow starts the search of each variant after the first of
	// a file at the saturation the previous variant found for the same
	// pattern, and moves out from it (see gallop): the same answer as
	// SearchBisect where stability is monotone in load, in fewer points
	// when consecutive variants saturate close to each other.
	SearchFollow = "follow"
)

// Guides of a saturation search (Sweep.Guide).
const (
	// GuideNone leaves the search as Sweep.Search defines it.
	GuideNone = "none"
	// GuideAccepted makes the search test next, after an unstable point,
	// the load that point accepted (see guided): the same answer where
	// stability is monotone in load, in fewer points, most of all past
	// saturation, where points cost most.
	GuideAccepted = "accepted"
)

// Experiment is one validated experiment file: a network, its routing and
// flow control, traffic patterns and a sweep over offered load.
type Experiment struct {
	// File is the file name as given to Load.
	File string
	// Name identifies the experiment in results (default: the file's base
	// name without extension).
	Name string
	// Description is free text.
	Description string
	// Seed is the experiment seed; every point's seed derives from it.
	Seed uint64
	// Variant identifies the variant of a file that sweeps keys:
	// "section.key=value" pairs joined by ";" (see Params), "" when the
	// file sweeps nothing.
	Variant string
	// Params are the swept keys' values in this variant, in canonical
	// order.
	Params []Param
	// Replication numbers the copies of a variant that [sim] replications
	// asks for, from 0 (the variant itself, seeded with Seed as without
	// replications); replication r > 0 is seeded with ReplicaSeed(seed, r)
	// and its result keys end in "|replication r".
	Replication int

	// Topology is the [topology] section, as topologies.Build takes it.
	Topology topologies.Spec
	// Routing is the [routing] algorithm.
	Routing string
	// RoutingPath and RoutingFormat are the [routing] path and format of
	// algorithm "file" (forwarding tables read from a file; the path
	// relative to the experiment file's directory is made absolute).
	RoutingPath, RoutingFormat string
	// RoutingSL2VL and RoutingPathSLs are the [routing] sl2vl and path_sls
	// of algorithm "file": the fabric's SL2VL tables and its path records
	// (made absolute like RoutingPath); empty when not given.
	RoutingSL2VL, RoutingPathSLs string
	// RoutingUnreachable is the [routing] unreachable of algorithm "file":
	// "error" (the default, "") or "skip" (routing.Spec.Unreachable).
	RoutingUnreachable string
	// RoutingRoots is the [routing] roots of algorithms "updn", "ftree"
	// and "dmodk": a file of root switches (made absolute like
	// RoutingPath); empty: automatic.
	RoutingRoots string
	// RoutingTorusConfig is the [routing] torus_config of algorithm
	// "torus-2QoS": its torus-2QoS.conf (made absolute like RoutingPath);
	// empty: a built torus's own coordinates.
	RoutingTorusConfig string
	// RoutingLMC is the [routing] lmc of algorithms "minhop", "updn" and
	// "dnup": 2^LMC LIDs per host (routing.Spec.LMC).
	RoutingLMC int
	// RoutingComputeNodes, RoutingIONodes and RoutingMaxReverseHops are
	// the [routing] compute_nodes, io_nodes and max_reverse_hops of
	// algorithm "ftree" (routing.Spec; files made absolute like
	// RoutingPath).
	RoutingComputeNodes, RoutingIONodes string
	RoutingMaxReverseHops               int
	// FlowControl is the [flow_control] section.
	FlowControl FlowControl
	// Switch is the [switch] section.
	Switch Switch
	// NIC is the [nic] section.
	NIC NIC
	// Traffic is the [traffic] section.
	Traffic Traffic
	// Sim is the [sim] section.
	Sim Sim
	// Sweep is the [sweep] section.
	Sweep Sweep
	// Congestion is the [congestion] section, nil when absent.
	Congestion *congestion.Spec

	// Built by Load: the network, the routing on it, one pattern per
	// Traffic.Patterns entry, and the topology's label.
	net      *topologies.Network
	routing  routing.Routing
	patterns []traffic.Pattern
	// patternOpts are the patterns' options (hotspot's, the matrix).
	patternOpts traffic.Options
	// floorplan is the Layout read, nil without one, and layoutKey
	// identifies the bytes read in the hash.
	floorplan *topologies.Floorplan
	layoutKey string
	// trace is the trace of workload pattern trace, read, and traceKey
	// identifies the bytes read in the hash; placementData and
	// placementKey are the placement file's.
	trace                  *workload.Workload
	traceKey, placementKey string
	placementData          []byte
	// active[i] marks the hosts that send under pattern i when the
	// routing leaves pairs unreachable (restrictPatterns); nil otherwise.
	active [][]bool
	label  string
	// config is the hash of the point-independent configuration (see
	// configHash).
	config string
	// src locates keys in the file and its includes, for errors found
	// after loading.
	src *sources
}

// FlowControl is the [flow_control] section.
type FlowControl struct {
	// Kind is flowctl.KindCredit or flowctl.KindStopGo.
	Kind flowctl.Kind
	// VLs is the number of virtual lanes per link.
	VLs int
	// BufferFlits is the input buffer per port and VL, in flits.
	BufferFlits int
	// StopMark and GoMark are the STOP/GO watermarks in flits (stopgo).
	StopMark, GoMark int
	// stopSet and goSet say the file gave the watermarks: a floorplan
	// lengthens links after decoding, and the defaults follow it.
	stopSet, goSet bool
}

// Switch is the [switch] section.
type Switch struct {
	// Switching is the switching mode (in the configuration hash by its
	// name, "cut-through" or "wormhole").
	Switching switching.Mode
	// Speedup is the crossbar speedup.
	Speedup int
	// LinkLatency, RoutingDelay and CrossbarDelay are in cycles.
	LinkLatency, RoutingDelay, CrossbarDelay int
	// LinkLatencies and HostLinkLatency are the latencies per link class
	// and of host links (fabric.Config); absent (nil, 0), they are
	// LinkLatency and left out of the hash.
	LinkLatencies   []int `json:",omitempty"`
	HostLinkLatency int   `json:",omitempty"`
	// Layout is the floorplan file of the switches (made absolute; hashed
	// by its contents), CyclesPerMeter its cables' delay; absent, "" and
	// 0.
	Layout         string  `json:",omitempty"`
	CyclesPerMeter float64 `json:",omitempty"`
	// VLAllocDelay and SwAllocDelay are the allocation stages' cycles
	// (fabric.Config); 0, the default, leaves them out of the
	// configuration hash.
	VLAllocDelay int `json:",omitempty"`
	SwAllocDelay int `json:",omitempty"`
	// Buffers is the organisation of the input buffers (the default,
	// fifo, left out of the hash).
	Buffers switching.Buffers `json:",omitempty"`
	// SharedReserve, SharedAlpha and SharedLimit configure the shared
	// buffers (fabric.Config; zero, and so out of the hash, under the
	// others).
	SharedReserve int     `json:",omitempty"`
	SharedAlpha   float64 `json:",omitempty"`
	SharedLimit   int     `json:",omitempty"`
	// Allocator is the switches' allocator, Iterations its rounds (0 with
	// the default, oldest-first, which the hash leaves out).
	Allocator  switching.Allocator `json:",omitempty"`
	Iterations int                 `json:",omitempty"`
	// VLChoice is how packets take VLs (the default, static, left out of
	// the hash).
	VLChoice switching.VLChoice `json:",omitempty"`
	// Selection is the selection function; the configuration hash leaves
	// out the default, switching.SelectCredits (the zero value), so it is
	// what it was before the key existed, and writes the others by name.
	Selection switching.Selection `json:",omitempty"`
}

// NIC is the [nic] section: how NICs choose among the routes of a
// multipath source routing (routing "source").
type NIC struct {
	// Dispersion is the NICs' route choice.
	Dispersion nic.Mode
	// Threshold and Probability configure "adaptive" and "probing",
	// MaxProbes "probing" (see nic.Dispersion).
	Threshold   int
	Probability float64
	MaxProbes   int
	// ReceiveRate is the fraction of the link bandwidth a NIC can absorb
	// (nic.Params.ReceiveRate); 0 stands for the default 1 and leaves
	// the configuration hash as it was.
	ReceiveRate float64 `json:",omitempty"`
	// RouteLag is how many packets ahead of the wire a NIC prepares the
	// packets of an exchange (nic.Dispersion.Lag): adaptive and probing
	// NICs choose routes then, static and random ones are unaffected; 0
	// leaves the configuration hash as it was.
	RouteLag int `json:",omitempty"`
}

// Traffic is the [traffic] section.
type Traffic struct {
	// Kind is KindLoad (open Bernoulli traffic swept over load),
	// KindExchange (seed 001's effective-bisection benchmark) or
	// KindWorkload (collectives and traces run to completion).
	Kind string
	// Patterns are the destination patterns, each simulated separately;
	// with KindExchange the exchange patterns, "bisection" or "bridge".
	Patterns []string
	// PacketFlits is the packet length in flits (with KindExchange, the
	// flits of an MTU packet).
	PacketFlits int
	// Messages, MessageBytes, MTUBytes and FlitBytes size an exchange;
	// Bisections is the number of random bisections it draws.
	Messages, MessageBytes, MTUBytes, FlitBytes, Bisections int
	// HotspotFraction and HotspotHosts are pattern hotspot's
	// (traffic.Options); Matrix is the traffic matrix file of pattern
	// matrix (made absolute like RoutingPath). They are hashed apart
	// (patternHash), only when a pattern uses them.
	HotspotFraction float64 `json:"-"`
	HotspotHosts    int     `json:"-"`
	Matrix          string  `json:"-"`
	// Burst and Idle are the mean lengths in cycles of the on/off
	// injection's bursts and idle periods (fabric.Config); 0: plain
	// Bernoulli. Hashed apart (injectionHash), only when set.
	Burst, Idle float64 `json:"-"`
	// Outstanding, if positive, makes the traffic request–reply, with
	// replies of ReplyFlits (fabric.Config); hashed apart, only when set.
	Outstanding, ReplyFlits int `json:"-"`
	// MessageSize is the message length distribution (traffic.ParseMessageSizes),
	// "" for single packets; hashed apart, only when set.
	MessageSize string `json:"-"`
	// messageSizes is MessageSize parsed (a histogram file read).
	messageSizes *traffic.MessageSizes
	// Workload is what application workloads run (KindWorkload), hashed
	// apart (workloadHash).
	Workload WorkloadSpec `json:"-"`
}

// DefaultHotspotFraction is the default [traffic] hotspot_fraction.
const DefaultHotspotFraction = 0.1

// Sim is the [sim] section: phase lengths in cycles.
type Sim struct {
	// Warmup, Measure and Drain are the phases of a point; DeadlockWindow
	// is how long nothing may move while flits are in flight.
	Warmup, Measure, Drain, DeadlockWindow int64
	// MaxMeasure is the longest an undecided point's window may grow to,
	// a multiple of Measure. It is hashed apart (configHash), only when
	// it is not the default.
	MaxMeasure int64 `json:"-"`
	// Replications is how many times each point and search is run, each
	// replication with its own seed (ReplicaSeed); it is not hashed: a
	// replication's seed is.
	Replications int `json:"-"`
	// LatencyDistribution writes each point's latency distribution
	// (results.Distribution); hashed apart, only when set.
	LatencyDistribution bool `json:"-"`
	// Timeline, if positive, writes each point's load over time in
	// windows of Timeline cycles; hashed apart, only when set.
	Timeline int64 `json:"-"`
	// LinkStats measures every link's load over each point's window
	// (fabric.LinkStats, Runner.Links); hashed apart, only when set.
	LinkStats bool `json:"-"`
	// StopEarly ends each point's measurement window at the first interim
	// look (fabric.InterimLooks) at which its verdict is unstable at the
	// interim level (InterimQuantile); hashed apart, only when set.
	StopEarly bool `json:"-"`
	// Threads is the number of threads that simulate each point
	// (fabric.Config.Threads); not hashed: the results do not depend on
	// it.
	Threads int `json:"-"`
	// MaxMemory is the bytes the simulation may use ([sim] max_memory,
	// by default sysmem.Limit; 0: unknown, no check); not hashed.
	MaxMemory int64 `json:"-"`
}

// Sweep is the [sweep] section.
type Sweep struct {
	// Mode is ModeLoads or ModeSaturation.
	Mode string
	// Loads are offered loads in (0, 1]; in saturation mode they are
	// measured in addition to the loads the search tests.
	Loads []float64
	// Resolution is the saturation search's step: loads are k/Resolution.
	Resolution int
	// Tolerance is the stability tolerance (see Stable).
	Tolerance float64
	// Search is SearchBisect or SearchFollow.
	Search string
	// Guide is GuideNone or GuideAccepted.
	Guide string
	// Bound caps each search at the channel-load bound of its routing
	// and pattern where that is a bound (channelBound).
	Bound bool
}

// Hosts returns the number of hosts of the experiment's network.
func (e *Experiment) Hosts() int { return len(e.net.Hosts) }

// Sources returns the hosts that send under pattern index pattern: every
// host, or, when the routing leaves pairs of hosts unreachable, those
// whose destinations it reaches, or a traffic matrix's sources. Loads are
// per sending host.
func (e *Experiment) Sources(pattern int) int {
	if e.active == nil || e.active[pattern] == nil {
		return e.Hosts()
	}
	n := 0
	for _, a := range e.active[pattern] {
		if a {
			n++
		}
	}
	return n
}

// Unreachable returns the ordered pairs of hosts the routing leaves
// unconnected (0 when it connects all) and up to max examples.
func (e *Experiment) Unreachable(max int) (pairs int64, examples [][2]int) {
	return routing.Unreachable(e.routing, e.Hosts(), max)
}

// partialSources returns what a results line of pattern index pattern
// records of its senders: how many hosts send and the pairs the routing
// leaves unreachable, when not every host sends to a reachable
// destination (partial tables, a traffic matrix); 0, 0 otherwise, and the
// line leaves them out.
func (e *Experiment) partialSources(pattern int) (sources int, pairs int64) {
	pairs, _ = e.Unreachable(0)
	if s := e.Sources(pattern); pairs > 0 || s < e.Hosts() {
		return s, pairs
	}
	return 0, 0
}

// TopologyLabel returns a compact, stable description of the network, such
// as "flatfly 8x8 w1,1 c8".
func (e *Experiment) TopologyLabel() string { return e.label }

// Network returns the experiment's network, built by Load.
func (e *Experiment) Network() *topologies.Network { return e.net }

// Pattern returns the experiment's traffic pattern i (of
// Traffic.Patterns), built by Load for its network.
func (e *Experiment) Pattern(i int) traffic.Pattern { return e.patterns[i] }

// RoutingFunc returns the experiment's routing on its network, built by
// Load.
func (e *Experiment) RoutingFunc() routing.Routing { return e.routing }
