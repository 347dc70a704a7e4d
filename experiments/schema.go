package experiments

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"netsim/congestion"
	"netsim/fabric"
	"netsim/flowctl"
	"netsim/nic"
	"netsim/routing"
	switching "netsim/switch"
	"netsim/topologies"
	"netsim/workload"
)

// Type is the type of a key's value in an experiment file.
type Type uint8

// Types of keys.
const (
	TypeString          Type = iota // a string
	TypeStrings                     // an array of strings
	TypeStringOrStrings             // a string, or an array of strings
	TypeInt                         // an integer
	TypeInts                        // an array of integers
	TypeNumber                      // a number (an integer is accepted)
	TypeNumbers                     // an array of numbers
	TypeBool                        // a boolean
	TypeTables                      // an array of tables
	TypeTable                       // a table (a section)
)

// String names the type as the reference writes it.
func (t Type) String() string {
	return [...]string{"string", "strings", "string or strings", "integer", "integers", "number", "numbers",
		"boolean", "array of tables", "table"}[t]
}

// Key is one key of an experiment file: the schema of the file is the
// list of them (Schema). Decoding takes each key's type, default, range
// and allowed values from it, unknown keys are found with it, and the key
// tables of docs/experiment-file.md are generated from it.
type Key struct {
	// Section is the key's table ("topology", "sweep", ...), "" for a
	// top-level key; Name the key.
	Section, Name string
	// Type is the type of its value.
	Type Type
	// Default is the value of a key left out: an int64, float64, string
	// or bool, nil when there is none (a required key, or one whose
	// default depends on other keys: DefaultDoc then says what it is).
	Default any
	// DefaultDoc describes the default in the reference when Default
	// cannot ("required", "`measure`", ...).
	DefaultDoc string
	// Min and Max bound an integer, or each integer of a list.
	Min, Max int64
	// Range bounds a number, or each number of a list; nil: any finite
	// number.
	Range *Interval
	// Values are the values a string key may have; nil: any, checked
	// where the value is used.
	Values []string
	// Doc says what the key means, in one line of markdown.
	Doc string
	// ExchangeOnly marks a key only a bisection exchange uses
	// ([traffic] kind = "bisection_exchange"), WorkloadOnly one only
	// workloads use (kind = "workload"), both one they share: an error
	// with load traffic.
	ExchangeOnly, WorkloadOnly bool
}

// Interval is the range of a number key: Lo to Hi, each end included
// unless it is open.
type Interval struct {
	Lo, Hi         float64
	LoOpen, HiOpen bool
}

// Holds reports whether x lies in the interval.
func (iv Interval) Holds(x float64) bool {
	return (x > iv.Lo || !iv.LoOpen && x == iv.Lo) && (x < iv.Hi || !iv.HiOpen && x == iv.Hi)
}

// String writes the interval as the reference does: (0, 1], [0, 1).
func (iv Interval) String() string {
	lo, hi := "[", "]"
	if iv.LoOpen {
		lo = "("
	}
	if iv.HiOpen {
		hi = ")"
	}
	return fmt.Sprintf("%s%v, %v%s", lo, iv.Lo, iv.Hi, hi)
}

// expect writes the interval as an error expects it, of the value named
// name: "0 < load ≤ 1".
func (iv Interval) expect(name string) string {
	op := func(open bool) string {
		if open {
			return "<"
		}
		return "≤"
	}
	return fmt.Sprintf("%v %s %s %s %v", iv.Lo, op(iv.LoOpen), name, op(iv.HiOpen), iv.Hi)
}

// maxTopoInt bounds the integers of [topology].
const maxTopoInt = math.MaxInt32

// Upper bounds of integer keys: far beyond useful values, they keep a typo
// from asking for an impossible simulation; buffers, VLs and packets are
// bounded by the simulator's compact state.
const (
	maxCycles      = 1 << 40
	maxBufferFlits = flowctl.MaxBuffer
	maxVLs         = flowctl.MaxVLs
	maxSpeedup     = 64
	maxDelay       = 1 << 16
	// maxLinkClassLatency bounds link_latencies and host_link_latency.
	maxLinkClassLatency = 1 << 20
	maxPacketFlits      = switching.MaxPacketFlits
	maxResolution       = 1 << 20
)

// topologyKey is a key of [topology] (and of its factors) with a positive
// integer value or list.
func topologyKey(name string, t Type, doc string) Key {
	return Key{Section: "topology", Name: name, Type: t, Min: 1, Max: maxTopoInt, Doc: doc}
}

// schemaKeys returns the keys of an experiment file, section by section in
// the order of the file (sectionNames), keys in the order of the
// reference.
func schemaKeys() []Key {
	return []Key{
		{Name: "name", Type: TypeString, DefaultDoc: "file name without extension", Doc: "experiment name in results; must be unique among the files of one run"},
		{Name: "description", Type: TypeString, Default: "", Doc: "free text"},
		{Name: "seed", Type: TypeInt, Default: int64(DefaultSeed), Min: 0, Max: math.MaxInt64, Doc: "experiment seed; every point's seed derives from it"},
		{Name: includeKey, Type: TypeStringOrStrings, Doc: "files merged under this one (Including files)"},

		{Section: "topology", Name: "preset", Type: TypeString, Doc: "a named topology (the seed-004 presets, `myrinet512`, `deimos`); keys given with it replace its values"},
		{Section: "topology", Name: "kind", Type: TypeString, DefaultDoc: "required unless `preset`", Values: topologies.Kinds(), Doc: "the family: `flatfly` (alias `hyperx`): Flattened Butterfly / HyperX; `crossbar`: one switch; `ring`: a ring of switches; `torus`, `hypercube`, `dragonfly`, `slimfly`, `product`, `kautz`, `random`, and trees of crossbars `clos`, `fattree`, `xgft`, `deimos`; `file`: read from a topology file"},
		topologyKey("dims", TypeInts, "flatfly, torus: switches per dimension, K₀, K₁, … (torus: each ≥ 2; K = 2 gets 2·L links, both wrap-around directions)"),
		withDefaultDoc(topologyKey("widths", TypeInts, "flatfly, torus, ring: parallel links between neighbouring switches, per dimension (a ring has one)"), "1 per dimension"),
		topologyKey("hosts_per_switch", TypeInt, "flatfly, torus, ring, hypercube, dragonfly, slimfly, product, kautz, random: hosts on each switch (C); a product's applies to the product, not its factors"),
		topologyKey("hosts", TypeInt, "crossbar, clos: number of hosts; xgft: hosts spread over level-0 switches"),
		topologyKey("switches", TypeInt, "ring (≥ 3), random (≥ 2): number of switches"),
		topologyKey("ports", TypeInt, "clos, deimos: ports of each crossbar; random: ports per switch, hosts included (limits the links per switch; default no limit)"),
		topologyKey("k", TypeInt, "fattree: the k of the k-ary n-tree"),
		topologyKey("n", TypeInt, "fattree: the n of the k-ary n-tree; kautz: word length n of K(b, n)"),
		topologyKey("m", TypeInts, "xgft: m₁…m_h of XGFT(h; m₁…m_h; w₁…w_h)"),
		topologyKey("w", TypeInts, "xgft: w₁…w_h of XGFT(h; m₁…m_h; w₁…w_h)"),
		{Section: "topology", Name: "oversubscription", Type: TypeString, DefaultDoc: "`\"1:1\"`", Doc: "clos, fattree: host ports to uplinks of a leaf, `\"D:U\"`"},
		topologyKey("box_hosts", TypeInts, "deimos: hosts on each fat-tree switch of the chain"),
		topologyKey("chain_links", TypeInt, "deimos: links between consecutive switches of the chain"),
		{Section: "topology", Name: "path", Type: TypeString, Doc: "file: the topology file, relative to the experiment file's directory"},
		{Section: "topology", Name: "format", Type: TypeString, DefaultDoc: "`dot` for a `.dot` file, else required", Doc: "file: `dot` (ORCS dot, as `netsim topo export` writes it) or `ibnetdiscover` (the output of InfiniBand's `ibnetdiscover`)"},
		topologyKey("dimension", TypeInt, "hypercube: dimension n (1..18)"),
		withDefaultDoc(topologyKey("width", TypeInt, "hypercube, slimfly: parallel links between adjacent switches (L)"), "1"),
		topologyKey("group_size", TypeInt, "dragonfly: switches per group (K)"),
		topologyKey("global_per_switch", TypeInt, "dragonfly: global links per switch (G)"),
		{Section: "topology", Name: "arrangement", Type: TypeString, DefaultDoc: "`absolute`", Doc: "dragonfly: global links `absolute`, `relative` or `palmtree` (rules in `topologies.Dragonfly`)"},
		{Section: "topology", Name: "omit_one_global", Type: TypeBool, DefaultDoc: "false", Doc: "dragonfly: K·G groups (K²·G switches, seed 004's variant) instead of K·G + 1"},
		topologyKey("q", TypeInt, "slimfly: a prime power 3..362 (q = 4w + δ, δ ∈ {−1, 0, 1})"),
		{Section: "topology", Name: "factors", Type: TypeTables, Doc: "product: `[[topology.factors]]` tables, each a slimfly, flatfly/hyperx or hypercube with its own keys (no `hosts_per_switch`)"},
		topologyKey("b", TypeInt, "kautz: degree b ≥ 2 of the Kautz graph K(b, n), (b+1)·bⁿ⁻¹ switches"),
		topologyKey("links", TypeInt, "random: inter-switch links (≥ switches − 1)"),
		{Section: "topology", Name: "seed", Type: TypeInt, Default: int64(0), Min: 0, Max: math.MaxInt64, Doc: "random: seed of the random graph (the same seed gives the same network)"},

		{Section: "routing", Name: "algorithm", Type: TypeString, DefaultDoc: "required", Doc: "the routing algorithm: `dor` and the DOR family, the Dragonfly's `static`, `S`, … `GSID`, slimfly `minimal`, `source`, `distance`, `distance+E`, `deflection+E`, the table engines `minhop`, `dor` (OpenSM's, where the topology has no dor of its own), `updn`, `dnup`, `sssp`, `p2sssp`, `dfsssp`, `lash`, `nue`, `ftree`, `dmodk`, `torus-2QoS`, or `file` (Routing algorithms)"},
		{Section: "routing", Name: "path", Type: TypeString, Doc: "algorithm `file` only: the forwarding tables, relative to the experiment file"},
		{Section: "routing", Name: "format", Type: TypeString, DefaultDoc: "by extension", Values: []string{"lft", "dot"}, Doc: "algorithm `file` only: `lft` (OpenSM's `opensm-lfts.dump` or `opensm.fdbs`, `dump_fts`, `dump_lfts` or `ibroute` output) or `dot` (ORCS dot with routing comments); `.dot` files default to `dot`, others to `lft`"},
		{Section: "routing", Name: "sl2vl", Type: TypeString, DefaultDoc: "VL = SL", Doc: "algorithm `file` on an ibnetdiscover import only: the fabric's SL2VL tables per port (OpenSM's `opensm-sl2vl.dump` or `smpquery sl2vl` output), relative to the experiment file"},
		{Section: "routing", Name: "unreachable", Type: TypeString, Default: "error", Values: []string{"error", "skip"}, Doc: "algorithm `file` (LFT tables), `dnup`, and `updn` with `roots` only: `error` refuses tables that leave a pair of hosts unreachable (a LID without a port); `skip` accepts them, lists the unreachable pairs, and runs traffic and metrics over the reachable pairs only (uniform among each host's reachable destinations; a host of a fixed pattern whose destination is unreachable does not send; loads per sending host, `sources` in results)"},
		{Section: "routing", Name: "roots", Type: TypeString, DefaultDoc: "automatic", Doc: "algorithms `updn`, `ftree` and `dmodk` only: the root switches, one a line, by node GUID (`0x…`, as OpenSM's root_guid_file `-a`; on an ibnetdiscover import) or by switch name, relative to the experiment file; ranks are distances from the nearest root, and switches of equal rank are ordered by GUID as OpenSM orders them (updn), or the roots are the top level of the fat tree, its leaves the switches farthest from them (ftree, dmodk, as OpenSM's ftree `-a`). With `unreachable = \"skip\"`, roots that leave pairs without an up*/down* path are accepted as OpenSM accepts them"},
		{Section: "routing", Name: "path_sls", Type: TypeString, DefaultDoc: "the tables' SL blocks, else SL 0", Doc: "algorithm `file` on an ibnetdiscover import only: the SL of every path, from the fabric's path records (`saquery -p --slid S --dlid D` output for every pair of hosts), relative to the experiment file"},
		{Section: "routing", Name: "lmc", Type: TypeInt, Default: int64(0), Min: 0, Max: routing.MaxLMC, Doc: "algorithms `minhop`, `updn` and `dnup` only: each host answers to 2^`lmc` LIDs (InfiniBand's LID mask count, as OpenSM's `-l`), each routed as OpenSM routes it (a further LID prefers a port toward a switch the host's earlier LIDs do not pass); the NIC chooses among them by `[nic] dispersion` (`static`: the base LID)"},
		{Section: "routing", Name: "compute_nodes", Type: TypeString, DefaultDoc: "every host", Doc: "algorithm `ftree` only: the compute nodes, one a line, by CA port GUID (`0x…`, as OpenSM's `cn_guid_file` `-u`) or host name, relative to the experiment file; only their switches are the fat tree's leaves and they are routed first, the other hosts after them"},
		{Section: "routing", Name: "io_nodes", Type: TypeString, DefaultDoc: "none", Doc: "algorithm `ftree` with `compute_nodes` only: the I/O nodes among the other hosts (as OpenSM's `io_guid_file` `-G`), whose routes may take `max_reverse_hops` hops down and up again, e.g. to reach an I/O node on a top switch"},
		{Section: "routing", Name: "max_reverse_hops", Type: TypeInt, Default: int64(0), Min: 0, Max: routing.MaxReverseHops, Doc: "algorithm `ftree` with `io_nodes` only: the reverse hops an I/O node's routes may take (OpenSM's `-H`); such routes are no longer up*/down*, so run `netsim check`"},
		{Section: "routing", Name: "torus_config", Type: TypeString, DefaultDoc: "a built torus's coordinates", Doc: "algorithm `torus-2QoS` only: OpenSM's torus-2QoS.conf (`torus`/`mesh` radices, seed links `xp_link` … `zm_link` by node GUID or switch name, `next_seed`, `x_dateline` …), relative to the experiment file; needed on a fabric without coordinates (an ibnetdiscover import)"},

		{Section: "flow_control", Name: "kind", Type: TypeString, Default: DefaultFlowControl, Values: names(flowctl.Kinds()), Doc: "`credit` (credit-based, as InfiniBand) or `stopgo` (STOP/GO watermarks, as Myrinet)"},
		{Section: "flow_control", Name: "vls", Type: TypeInt, Default: int64(DefaultVLs), Min: 1, Max: maxVLs, Doc: "virtual lanes per link; at least what the routing needs"},
		{Section: "flow_control", Name: "buffer_flits", Type: TypeInt, Default: int64(DefaultBufferFlits), Min: 1, Max: maxBufferFlits, Doc: "input buffer per port and per VL, in flits"},
		{Section: "flow_control", Name: "stop_mark", Type: TypeInt, DefaultDoc: "`buffer_flits` − slack", Min: 1, Max: maxBufferFlits, Doc: "stopgo only: occupancy at which the receiver signals STOP"},
		{Section: "flow_control", Name: "go_mark", Type: TypeInt, DefaultDoc: "`stop_mark` / 2", Min: 0, Max: maxBufferFlits, Doc: "stopgo only: occupancy at which the receiver signals GO again"},

		{Section: "switch", Name: "switching", Type: TypeString, Default: DefaultSwitching, Values: names(switching.Modes()), Doc: "`cut-through` (virtual cut-through: a packet advances only when the next buffer can hold all of it; needs `buffer_flits ≥ packet_flits`) or `wormhole` (flit by flit)"},
		{Section: "switch", Name: "speedup", Type: TypeInt, Default: int64(DefaultSpeedup), Min: 1, Max: maxSpeedup, Doc: "crossbar speedup: runs (so flits per cycle) an input port may feed at once"},
		{Section: "switch", Name: "link_latency", Type: TypeInt, Default: int64(DefaultLinkLatency), Min: 1, Max: maxDelay, Doc: "cycles a flit (and a credit or STOP/GO signal) takes on a link"},
		{Section: "switch", Name: "routing_delay", Type: TypeInt, Default: int64(DefaultRoutingDelay), Min: 0, Max: maxDelay, Doc: "cycles to route a packet's head"},
		{Section: "switch", Name: "crossbar_delay", Type: TypeInt, Default: int64(DefaultCrossbarDelay), Min: 0, Max: maxDelay, Doc: "cycles to cross the switch"},
		{Section: "switch", Name: "selection", Type: TypeString, Default: DefaultSelection, Values: names(switching.Selections()), Doc: "the selection function among a routing's candidate ports: `credits` (a port is available when its output VL is free and its flow control admits the packet) or `idle` (it must also be able to start the packet now); `idle` adds `\"selection\":\"idle\"` to results lines"},
		{Section: "switch", Name: "vl_alloc_delay", Type: TypeInt, Default: int64(0), Min: 0, Max: maxDelay, Doc: "cycles of VL allocation: a routed head may first be granted this much later (netsim allocates the output VL and the switch in one step)"},
		{Section: "switch", Name: "sw_alloc_delay", Type: TypeInt, Default: int64(0), Min: 0, Max: maxDelay, Doc: "cycles of switch allocation: a granted flit reaches the crossbar this much after leaving its buffer"},
		{Section: "switch", Name: "allocator", Type: TypeString, Default: switching.AllocOldestFirst.String(), Values: names(switching.Allocators()), Doc: "how heads are matched to outputs each cycle: `oldest-first` (greedy, oldest head first, each selecting knowing the grants before it), `islip` (iSLIP: requests, round-robin grants and accepts), `input-first` (separable input-first: each input picks a lane, each output an input); the others add `\"allocator\"` and `\"iterations\"` to results lines"},
		{Section: "switch", Name: "allocator_iterations", Type: TypeInt, Default: int64(1), Min: 1, Max: switching.MaxIterations, Doc: "`islip` and `input-first` only: rounds of matching per cycle"},
		{Section: "switch", Name: "buffers", Type: TypeString, Default: switching.BuffersFIFO.String(), Values: names(switching.BuffersKinds()), Doc: "input buffers: `fifo` (one FIFO per input port and VL, only its head may leave), `voq` (virtual output queues: every packet of the buffer is routed and may leave when its output can take it; read one packet at a time, packets to one destination in order) or `shared` (an output-queued shared memory of `buffer_flits` per input port and VL, credits given from it by a dynamic threshold; credit flow control and `speedup = 1` only); docs/model.md; `voq` and `shared` add `\"buffers\"` to results lines, `shared` its three keys"},
		{Section: "switch", Name: "shared_reserve", Type: TypeInt, Default: int64(0), Min: 0, Max: flowctl.MaxBuffer, Doc: "`shared` only: flits of the memory each input port and VL keeps for itself (its sender's first credits); 0: `packet_flits` (at most `buffer_flits`); under `cut-through` at least `packet_flits`, at most `buffer_flits`"},
		{Section: "switch", Name: "shared_alpha", Type: TypeNumber, Default: 1.0, Range: &Interval{Lo: 0, LoOpen: true, Hi: 1024}, Doc: "`shared` only: the dynamic threshold's factor: an input port and VL is given credits while it holds less than its reserve + `shared_alpha` × the free pool"},
		{Section: "switch", Name: "shared_limit", Type: TypeInt, Default: int64(0), Min: 0, Max: flowctl.MaxBuffer, Doc: "`shared` only: the most flits one input port and VL may hold; 0: 2 × `buffer_flits` (never more than its reserve and the pool, nor what 61 of the shortest packets fill)"},
		{Section: "switch", Name: "vl_choice", Type: TypeString, Default: switching.VLStatic.String(), Values: names(switching.VLChoices()), Doc: "how a packet's VL is chosen on each link: `static` (the routing's VL map names it; a routing given more `vls` than it needs spreads packets over copies of its VL layout, by destination) or `dynamic` (the routing is built on the VLs its deadlock argument needs, its classes, the `vls` are split among them, and a packet takes at each hop the free VL of its class that admits it with the most room downstream; `netsim check` checks the graph over classes, which is exact); docs/model.md; `dynamic` adds `\"vl_choice\"` to results lines"},
		{Section: "switch", Name: "link_latencies", Type: TypeInts, DefaultDoc: "`link_latency` for every class", Min: 1, Max: maxLinkClassLatency, Doc: "the latency of each class of switch-to-switch links, in cycles: one per dimension of a coordinate family (flatfly, hyperx, torus, ring, hypercube, product), `[local, global]` on a Dragonfly, one per pair of levels of a tree (clos, fattree, xgft: level 0–1 first); Slim Fly has one class; random and Kautz graphs and networks read from files none (an error)"},
		{Section: "switch", Name: "host_link_latency", Type: TypeInt, DefaultDoc: "`link_latency`", Min: 1, Max: maxLinkClassLatency, Doc: "the latency of the links between hosts and switches, in cycles"},
		{Section: "switch", Name: "layout", Type: TypeString, Doc: "the switches' floorplan: a CSV file of `switch,x,y[,z]` lines (a switch by name or index; meters), relative to the experiment file; every switch-to-switch link's latency grows by its cable's, the Manhattan distance between its switches times `cycles_per_meter`, rounded up"},
		{Section: "switch", Name: "cycles_per_meter", Type: TypeNumber, Default: 1.0, Range: &Interval{Lo: 0, Hi: 1e3}, Doc: "with `layout`: a meter of cable's delay in cycles (about 5 ns a meter of copper or fibre: 1 at a 5 ns cycle, a 64-byte flit at 100 Gb/s)"},

		{Section: "nic", Name: "dispersion", Type: TypeString, Default: DefaultDispersion, Values: names(nic.Modes()), Doc: "how a NIC picks among the routes of `routing = \"source\"`: `static` (one fixed route per destination), `random` (a random route per packet), `adaptive`, `probing`; all but `static` need `source`"},
		{Section: "nic", Name: "threshold", Type: TypeInt, Default: int64(DefaultThreshold), Min: 0, Max: 1<<16 - 1, Doc: "adaptive and probing: packets to a destination that flow control must have stopped (0 acts as 1) before the NIC considers a new route"},
		{Section: "nic", Name: "probability", Type: TypeNumber, Default: DefaultProbability, Range: &Interval{Lo: 0, Hi: 1}, Doc: "adaptive and probing: the chance it then moves to (adaptive) or probes (probing) another route"},
		{Section: "nic", Name: "max_probes", Type: TypeInt, Default: int64(DefaultMaxProbes), Min: 1, Max: 1<<16 - 1, Doc: "probing only: blocked replies in a row after which the NIC changes route anyway"},
		{Section: "nic", Name: "receive_rate", Type: TypeNumber, Default: 1.0, Range: &Interval{Lo: 0, Hi: 1, LoOpen: true}, Doc: "fraction of the link bandwidth a NIC absorbs: below 1 it drains its receive buffer at that rate, so a full buffer pushes back on the switch"},
		{Section: "nic", Name: "route_lag", Type: TypeInt, Default: int64(0), Min: 0, Max: nic.MaxLag, Doc: "`bisection_exchange` only: packets the NIC prepares ahead of the wire, so an adaptive or probing NIC's route decision takes effect `route_lag` packets late"},

		{Section: "traffic", Name: "patterns", Type: TypeStrings, DefaultDoc: "required (or `pattern`)", Doc: "destination patterns, each simulated separately: `uniform`, `complement`, `reverse`, `rotation`, `shuffle`, `transpose`, `randperm` (aliases `random_permutation`, `permutation`), `tornado` and `neighbor` (coordinate families), `hotspot`, `adversarial` and `adversarial+H` (Dragonfly: group g to g + 1, g + H), `randpair`, `matrix` (see Traffic patterns); exchanges: `bisection` (default), `bridge`"},
		{Section: "traffic", Name: "pattern", Type: TypeString, Doc: "a single pattern, instead of `patterns`"},
		{Section: "traffic", Name: "packet_flits", Type: TypeInt, Default: int64(DefaultPacketFlits), Min: 1, Max: maxPacketFlits, Doc: "packet length in flits"},
		{Section: "traffic", Name: "kind", Type: TypeString, Default: KindLoad, Values: []string{KindLoad, KindExchange, KindWorkload}, Doc: "`load` (Bernoulli sources swept over offered load), `bisection_exchange` (seed 001's effective-bisection benchmark) or `workload` (collectives and MPI traces run to completion, docs/workloads.md)"},
		{Section: "traffic", Name: "messages", Type: TypeInt, Default: int64(DefaultMessages), Min: 1, Max: 1 << 30, Doc: "exchange: messages each host sends to its partner", ExchangeOnly: true},
		{Section: "traffic", Name: "message_bytes", Type: TypeInt, Default: int64(DefaultMessageBytes), Min: 1, Max: 1 << 40, Doc: "exchange and workload: bytes per message, split into packets of `mtu_bytes` (the last one shorter); a collective's message: to each peer (alltoall), the vector (allreduce), the broadcast, each face (halo3d)", ExchangeOnly: true, WorkloadOnly: true},
		{Section: "traffic", Name: "mtu_bytes", Type: TypeInt, Default: int64(DefaultMTUBytes), Min: 1, Max: 1 << 30, Doc: "exchange and workload: bytes per packet (at most 65535 flits)", ExchangeOnly: true, WorkloadOnly: true},
		{Section: "traffic", Name: "flit_bytes", Type: TypeInt, Default: int64(DefaultFlitBytes), Min: 1, Max: 1 << 30, Doc: "exchange and workload: bytes per flit (a link carries one flit per cycle)", ExchangeOnly: true, WorkloadOnly: true},
		{Section: "traffic", Name: "bisections", Type: TypeInt, Default: int64(DefaultBisections), Min: 1, Max: 1 << 20, Doc: "exchange: random bisection patterns drawn", ExchangeOnly: true},
		{Section: "traffic", Name: "ranks", Type: TypeInt, DefaultDoc: "every host (a trace: its own)", Min: 1, Max: workload.MaxRanks, Doc: "workload: the ranks of a collective, one per host", WorkloadOnly: true},
		{Section: "traffic", Name: "placement", Type: TypeString, Default: DefaultPlacement, Values: workload.Placements(), Doc: "workload: how ranks are placed on hosts: `linear` (rank r on host r), `random` (drawn from the seed), `by_switch` (dealt round robin over the switches) or `file` (`placement_file`)", WorkloadOnly: true},
		{Section: "traffic", Name: "placement_file", Type: TypeString, Doc: "workload, placement = `file`: each rank's host, one per line (a name or an index), rank 0 first, relative to the experiment file", WorkloadOnly: true},
		{Section: "traffic", Name: "halo_grid", Type: TypeInts, DefaultDoc: "the most cubic grid of the ranks", Min: 1, Max: workload.MaxRanks, Doc: "workload `halo3d`: the process grid `[px, py, pz]`, whose product is the ranks", WorkloadOnly: true},
		{Section: "traffic", Name: "trace", Type: TypeString, Doc: "workload `trace`: the trace in netsim's format to replay (docs/workloads.md; `netsim trace convert` makes one from DUMPI), relative to the experiment file", WorkloadOnly: true},
		{Section: "traffic", Name: "repeat", Type: TypeInt, Default: int64(1), Min: 1, Max: 1 << 20, Doc: "workload: times each rank runs its program over, one after the other", WorkloadOnly: true},
		{Section: "traffic", Name: "link_gbps", Type: TypeNumber, Default: DefaultLinkGbps, Range: &Interval{Lo: 0, Hi: 1e6, LoOpen: true}, Doc: "workload: the link rate in Gb/s, which makes a cycle `flit_bytes` × 8 / `link_gbps` ns: a trace's computes become cycles by it, and completion times are given in µs too", WorkloadOnly: true},
		{Section: "traffic", Name: "hotspot_fraction", Type: TypeNumber, Default: DefaultHotspotFraction, Range: &Interval{Lo: 0, Hi: 1}, Doc: "pattern `hotspot`: the share of every host's packets sent to a hot host; the others go uniformly to every host"},
		{Section: "traffic", Name: "hotspot_hosts", Type: TypeInt, Default: int64(1), Min: 1, Max: 1 << 24, Doc: "pattern `hotspot`: the hot hosts, spread evenly over the host indices (host ⌊i·H/k⌋ for i < k)"},
		{Section: "traffic", Name: "burst", Type: TypeNumber, DefaultDoc: "none (Bernoulli)", Range: &Interval{Lo: 1, Hi: 1e9}, Doc: "on/off injection: the mean length in cycles of a host's bursts, during which it creates packets at load × (burst + idle) / burst (at most one packet a cycle); needs `idle`"},
		{Section: "traffic", Name: "idle", Type: TypeNumber, DefaultDoc: "none (Bernoulli)", Range: &Interval{Lo: 1, Hi: 1e9}, Doc: "on/off injection: the mean length in cycles of the idle periods between bursts (both lengths geometric: a Markov-modulated Bernoulli process with the same mean load); needs `burst`"},
		{Section: "traffic", Name: "message_size", Type: TypeString, DefaultDoc: "single packets", Doc: "each generation is a message of a length in flits drawn from `\"fixed N\"`, `\"uniform A B\"`, `\"bimodal S L P\"` (S with probability P, else L) or `\"histogram FILE\"` (`flits,weight` lines, relative to the experiment file), split into packets of `packet_flits` (the last shorter) to one destination; the offered load stays in flits"},
		{Section: "traffic", Name: "outstanding", Type: TypeInt, DefaultDoc: "none (open loop)", Min: 1, Max: fabric.MaxOutstanding, Doc: "request–reply traffic: every packet is a request, a host sends one only while fewer than this many of its requests are unanswered (the others wait in its source queue, so offered loads beyond what the loop sustains are unstable), and each request's destination answers it, in the cycle its tail arrives, with a reply of `reply_flits` queued behind its own packets; `generated` and `accepted` count the replies too, and points get `rtt_avg`, the mean round trip from a request's issue to its reply's tail"},
		{Section: "traffic", Name: "reply_flits", Type: TypeInt, DefaultDoc: "`packet_flits`", Min: 1, Max: maxPacketFlits, Doc: "request–reply traffic: the length of a reply, at most `packet_flits`; needs `outstanding`"},
		{Section: "traffic", Name: "matrix", Type: TypeString, Doc: "pattern `matrix`: a CSV file of `src,dst,weight` lines (hosts by name or 0-based index; a source's packets go to its destinations in proportion to the weights; sources without a line do not send), relative to the experiment file"},

		{Section: "sim", Name: "warmup", Type: TypeInt, Default: int64(DefaultWarmup), Min: 0, Max: maxCycles, Doc: "cycles simulated before measuring; near saturation an adaptive routing may need far more before its detours fill"},
		{Section: "sim", Name: "measure", Type: TypeInt, Default: int64(DefaultMeasure), Min: 1, Max: maxCycles, Doc: "measurement window in cycles; packets created in it are the measured ones"},
		{Section: "sim", Name: "drain", Type: TypeInt, DefaultDoc: "`measure`", Min: 0, Max: maxCycles, Doc: "cycles after the window for measured packets to arrive; a point already unstable at the end of its window is not drained"},
		{Section: "sim", Name: "deadlock_window", Type: TypeInt, Default: int64(DefaultDeadlockWindow), Min: 1, Max: maxCycles, Doc: "cycles without any flit moving, while flits are in flight, after which the point stops with a deadlock error naming the cycle of waiting; a run shorter than 4 windows uses a quarter of its warm-up and measurement, at least 1,000 cycles and 16 stalls of a live network (docs/model.md)"},
		{Section: "sim", Name: "max_measure", Type: TypeInt, DefaultDoc: "4 × `measure`", Min: 1, Max: maxCycles, Doc: "the longest a point's measurement window may grow to, a multiple of `measure`: a point whose verdict the window leaves undecided runs on, its window doubled (the last time to `max_measure`), until it is decided; `measure` turns the growth off"},
		{Section: "sim", Name: "replications", Type: TypeInt, Default: int64(DefaultReplications), Min: 1, Max: maxReplications, Doc: "runs of every point and saturation search, each with its own seed (the first with the experiment's, as without the key); tables and charts show the mean and its 95 % confidence interval across them"},
		{Section: "sim", Name: "latency_distribution", Type: TypeBool, DefaultDoc: "false", Doc: "write each point's latency distribution: median, 90th and 99.9th percentiles, the wait at the source and the network latency apart, and a CDF (`latency_cdf`), drawn as a chart per topology, pattern and routing"},
		{Section: "sim", Name: "timeline", Type: TypeInt, Default: int64(0), Min: 0, Max: maxCycles, Doc: "if above 0, write each point's load generated and accepted over the whole run in windows of this many cycles (`timeline`), drawn as a chart per topology, pattern and routing that shows the warm-up and, past saturation, the decline; 0: off"},
		{Section: "sim", Name: "link_stats", Type: TypeBool, DefaultDoc: "false", Doc: "measure every link's flits and flow-control stalls over each point's window, per VL, and write them with `netsim run -o DIR` into DIR/links/: a CSV, a sorted utilisation chart, a heatmap over the switches' first two coordinates and a Graphviz graph coloured by utilisation"},
		{Section: "sim", Name: "stop_early", Type: TypeBool, DefaultDoc: "false", Doc: "end a point's measurement window as soon as it is clearly unstable: at looks after a quarter of `measure` and every eighth after it, a point whose backlog growth is above 4 times the limit at 99.9 % ends its window there (and, unstable, is not drained); a point never found so runs its whole window, as without the key"},
		{Section: "sim", Name: "threads", Type: TypeInt, Default: int64(DefaultThreads), Min: 1, Max: fabric.MaxThreads, Doc: "threads that simulate each point: the switches, each with its hosts, are split into this many contiguous parts of about equal work that run each cycle in parallel and exchange what crosses between them at its end (at most one per switch); the results are the same for any number, so it is not part of a point's identity. It pays on large networks (thousands of hosts) when there are fewer points to run than cores; `netsim run --threads` overrides it (docs/performance.md)"},
		{Section: "sim", Name: "max_memory", Type: TypeNumber, DefaultDoc: "the machine's memory (or the cgroup's or `ulimit -v` limit, if lower)", Range: &Interval{Lo: 0, Hi: 1e6}, Doc: "GiB the simulation may use (0: no limit): a file whose network and routing (built first, as loaded) and a point's switches, NICs and packets (estimated before they are allocated) need more is refused with the estimate; `netsim run` runs fewer points at once than `-j` when that many would need more"},

		{Section: "sweep", Name: "mode", Type: TypeString, DefaultDoc: "`\"loads\"` if `loads` is given, else `\"saturation\"`", Values: []string{ModeLoads, ModeSaturation}, Doc: "`loads`: measure each listed load; `saturation`: search the highest stable load"},
		{Section: "sweep", Name: "loads", Type: TypeNumbers, Range: &Interval{Lo: 0, Hi: 1, LoOpen: true}, Doc: "loads to measure; required with `loads`; with `saturation`, measured in addition to the loads the search tests"},
		{Section: "sweep", Name: "resolution", Type: TypeInt, Default: int64(DefaultResolution), Min: 1, Max: maxResolution, Doc: "saturation only: the search tests loads k/resolution"},
		{Section: "sweep", Name: "tolerance", Type: TypeNumber, Default: DefaultTolerance, Range: &Interval{Lo: 0, Hi: 1, HiOpen: true}, Doc: "stability tolerance"},
		{Section: "sweep", Name: "search", Type: TypeString, Default: SearchBisect, Values: []string{SearchBisect, SearchFollow}, Doc: "saturation only: `bisect`, or `follow`: each variant after the first starts from the saturation the previous variant of the file found for the same pattern"},
		{Section: "sweep", Name: "guide", Type: TypeString, Default: GuideNone, Values: []string{GuideNone, GuideAccepted}, Doc: "saturation only: `accepted`: after an unstable point the search tests next the load that point accepted; `none`: as `search` says"},
		{Section: "sweep", Name: "bound", Type: TypeBool, DefaultDoc: "false", Doc: "saturation only: before each search compute the channel-load bound of the routing under the pattern, as `netsim load` does; where it is a bound (every flow on one path, no detours, static NICs), the search tests no load above it, which cannot be stable, and starts at it (unless `follow` gives a lower guess); elsewhere it changes nothing"},

		{Section: "congestion", Name: "patterns", Type: TypeStrings, DefaultDoc: "required (or `pattern`)", Doc: "ORCS patterns, each studied separately: `rand`, `null`, `bisect`, `bisect_fb_sym`, `tree`, `bruck`, `gather`, `scatter`, `ring`, `recdbl`, `2neighbor`, `4neighbor`, `6neighbor`, `ptrnvsptrn`"},
		{Section: "congestion", Name: "pattern", Type: TypeString, Doc: "a single pattern, instead of `patterns`"},
		{Section: "congestion", Name: "runs", Type: TypeInt, Default: int64(congestion.DefaultRuns), Min: 1, Max: congestion.MaxRuns, Doc: "random mappings per pattern (`--runs` overrides)"},
		{Section: "congestion", Name: "commsize", Type: TypeInt, Default: int64(0), DefaultDoc: "0 (all hosts)", Min: 0, Max: math.MaxInt32, Doc: "hosts taking part"},
		{Section: "congestion", Name: "subset", Type: TypeString, Default: congestion.DefaultSubset, Values: []string{congestion.SubsetLinearBFS, congestion.SubsetRand}, Doc: "which hosts: the first in breadth-first order from host 0, or `rand` (a new random set each run)"},
		{Section: "congestion", Name: "metrics", Type: TypeStrings, DefaultDoc: "all", Doc: "`sum_max_cong`, `hist_max_cong`, `hist_acc_band`, `dep_max_delay`"},
		{Section: "congestion", Name: "level", Type: TypeInt, Default: int64(-1), DefaultDoc: "all levels", Min: 0, Max: math.MaxInt32, Doc: "study only this level of each pattern"},
		{Section: "congestion", Name: "first", Type: TypeString, Doc: "`ptrnvsptrn`: the pattern on ranks 0..part_commsize−1"},
		{Section: "congestion", Name: "second", Type: TypeString, Doc: "`ptrnvsptrn`: the pattern on the other ranks, merged level by level"},
		{Section: "congestion", Name: "part_commsize", Type: TypeInt, Default: int64(0), DefaultDoc: "—", Min: 1, Max: math.MaxInt32, Doc: "`ptrnvsptrn`: the ranks of `first`"},
		{Section: "congestion", Name: "paths", Type: TypeString, Default: congestion.DefaultPolicy, Values: congestion.Policies(), Doc: "candidate a path takes where the routing offers several: `first`, or `dest` (dst mod n)"},
	}
}

// names returns the names of xs, the values of a package's enumeration,
// as experiment files write them.
func names[T any](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprint(x)
	}
	return out
}

// withDefaultDoc returns k with its default described as doc.
func withDefaultDoc(k Key, doc string) Key {
	k.DefaultDoc = doc
	return k
}

// fileSchema is the schema, indexed; read-only once built.
type fileSchema struct {
	keys  []Key
	index map[string]int // by section + "." + name
}

var theSchema = newFileSchema(schemaKeys())

// newFileSchema indexes keys.
func newFileSchema(keys []Key) *fileSchema {
	s := &fileSchema{keys: keys, index: make(map[string]int, len(keys))}
	for i, k := range keys {
		s.index[k.Section+"."+k.Name] = i
	}
	return s
}

// Schema returns the keys of an experiment file, section by section in
// the order of the file, keys in the order of the reference.
func Schema() []Key { return slices.Clone(theSchema.keys) }

// schemaKey returns the key name of section; it panics for a key the
// schema lacks, a programming error the tests catch.
func schemaKey(section, name string) *Key {
	i, ok := theSchema.index[section+"."+name]
	if !ok {
		panic(fmt.Sprintf("experiments: key %q of [%s] is not in the schema", name, section))
	}
	return &theSchema.keys[i]
}

// sectionKeys lists the keys of section ("" for the top level, which also
// accepts the sections themselves), in the order of the schema.
func sectionKeys(section string) []string {
	var names []string
	for _, k := range theSchema.keys {
		if k.Section == section {
			names = append(names, k.Name)
		}
	}
	if section == "" {
		names = append(names, sectionNames()...)
	}
	return names
}

// exchangeKeys returns the [traffic] keys an exchange uses (some shared
// with workloads).
func exchangeKeys() []string {
	var names []string
	for _, k := range theSchema.keys {
		if k.ExchangeOnly {
			names = append(names, k.Name)
		}
	}
	return names
}

// sectionNames lists the sections of an experiment file, in file order.
func sectionNames() []string {
	return []string{"topology", "routing", "flow_control", "switch", "nic", "traffic", "sim", "sweep", "congestion"}
}

// defaultText renders the default of k for the reference.
func (k Key) defaultText() string {
	switch v := k.Default; {
	case k.DefaultDoc != "":
		return k.DefaultDoc
	case v == nil:
		return "—"
	default:
		switch x := v.(type) {
		case string:
			if x == "" {
				return `""`
			}
			return "`\"" + x + "\"`"
		case int64:
			return strconv.FormatInt(x, 10)
		case float64:
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
		return fmt.Sprint(v)
	}
}

// typeText renders the type of k, with its range, for the reference.
func (k Key) typeText() string {
	s := k.Type.String()
	if k.Range != nil {
		s += " in " + k.Range.String()
	}
	if k.Type == TypeInt || k.Type == TypeInts {
		switch {
		case k.Max == math.MaxInt64 || k.Max == maxTopoInt && k.Section == "topology":
			if k.Min != 1 || k.Section != "topology" {
				s += fmt.Sprintf(" ≥ %d", k.Min)
			}
		default:
			s += fmt.Sprintf(" %d..%s", k.Min, bound(k.Max))
		}
	}
	return s
}

// bound renders an upper bound, powers of two above 2²⁰ as such (2⁴⁰).
func bound(v int64) string {
	if v <= 1<<20 || v&(v-1) != 0 {
		return strconv.FormatInt(v, 10)
	}
	sup := strings.NewReplacer("0", "⁰", "1", "¹", "2", "²", "3", "³", "4", "⁴", "5", "⁵", "6", "⁶", "7", "⁷", "8", "⁸", "9", "⁹")
	return "2" + sup.Replace(strconv.Itoa(bits.Len64(uint64(v))-1))
}

// KeyReference returns the key table of section ("" for the top level) in
// markdown, as docs/experiment-file.md shows it: key, type, default and
// meaning.
func KeyReference(section string) string {
	var b strings.Builder
	b.WriteString("| key | type | default | meaning |\n|---|---|---|---|\n")
	for _, k := range theSchema.keys {
		if k.Section != section {
			continue
		}
		doc := k.Doc
		if len(k.Values) > 0 && !strings.Contains(doc, "`"+k.Values[0]+"`") {
			doc += " (" + strings.Join(quoteAll(k.Values), ", ") + ")"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", k.Name, k.typeText(), k.defaultText(), strings.ReplaceAll(doc, "|", `\|`))
	}
	return b.String()
}

// quoteAll writes each of vs as code.
func quoteAll(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = "`" + v + "`"
	}
	return out
}

// suggest returns the accepted key nearest to key when it is a near miss
// (a typo: at most two edits, and fewer than half of its letters), else "".
func suggest(key string, accepted []string) string {
	best, bestD := "", 3
	for _, a := range accepted {
		if d := editDistance(strings.ToLower(key), a); d < bestD && 2*d < len(key) {
			best, bestD = a, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, counting an
// exchange of two neighbouring letters as one edit.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
