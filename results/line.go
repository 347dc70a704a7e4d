package results

import (
	"encoding/json"
	"math"
)

// Kinds of results lines (field kind).
const (
	// KindPoint is a measured load.
	KindPoint = "point"
	// KindSaturation is the result of a saturation search.
	KindSaturation = "saturation"
	// KindEBB is the effective bisection bandwidth of an exchange.
	KindEBB = "ebb"
	// KindWorkload is the completion of an application workload.
	KindWorkload = "workload"
	// KindError is a point, exchange or workload whose simulation failed.
	KindError = "error"
)

// Kinds returns the kinds of results lines, in the order of the reference.
func Kinds() []string {
	return []string{KindPoint, KindSaturation, KindEBB, KindWorkload, KindError}
}

// Line is one line of a results file. Its fields, in order, are the
// fields of the line; which of them a line carries depends on its kind
// (see the package documentation for the tags).
type Line struct {
	Kind          string          `json:"kind" results:"required,outcome" doc:"point, saturation, ebb (an exchange), workload or error"`
	Experiment    string          `json:"experiment" doc:"experiment name"`
	Topology      string          `json:"topology" results:"required" doc:"compact label of the topology: kind and parameters, hosts per switch (flatfly 8x8 w1,1 c8, dragonfly k16 g8 c8 absolute omit, clos p32 h512, ...)"`
	Routing       string          `json:"routing" results:"required" doc:"routing algorithm"`
	Pattern       string          `json:"pattern" results:"required" label:"traffic pattern" doc:"traffic pattern"`
	FlowControl   string          `json:"flow_control" doc:"credit or stopgo"`
	Switching     string          `json:"switching" doc:"cut-through or wormhole"`
	Selection     string          `json:"selection" results:"default=credits" doc:"the switches' selection function; absent for the default, credits"`
	Buffers       string          `json:"buffers" results:"default=fifo" doc:"the switches' input buffers; absent for the default, fifo"`
	Allocator     string          `json:"allocator" results:"default=oldest-first" doc:"the switches' allocator; absent for the default, oldest-first"`
	VLChoice      string          `json:"vl_choice" results:"default=static" doc:"how packets take VLs: dynamic (any free VL of the routing's class at each hop); absent for the default, static"`
	Iterations    int             `json:"iterations" results:"omitnan,min=1" doc:"rounds of matching per cycle of the islip and input-first allocators (absent with oldest-first)"`
	SharedReserve *int            `json:"shared_reserve" results:"min=1" doc:"flits each input port and VL keeps of the shared memory, as in effect (buffers = shared only)"`
	SharedAlpha   *float64        `json:"shared_alpha" results:"places=-1,min=0" doc:"the shared memory's dynamic threshold factor (buffers = shared only)"`
	SharedLimit   *int            `json:"shared_limit" results:"min=1" doc:"the most flits one input port and VL may hold of the shared memory, as configured or its default, 2 × buffer_flits (buffers = shared only; a switch may hold less, Params.SharedLimit)"`
	VLs           int             `json:"vls" doc:"virtual lanes per link"`
	PacketFlits   int             `json:"packet_flits" doc:"packet length in flits"`
	Seed          uint64          `json:"seed" doc:"the point's seed (point, error, ebb), or the experiment seed (saturation)"`
	Variant       string          `json:"variant" doc:"the variant's swept values, empty when the file sweeps nothing"`
	Replication   int             `json:"replication" results:"omitnan,min=1" doc:"the replication of the point or search, 1 to N − 1 under [sim] replications = N (absent for the first, seeded as without replications)"`
	Params        json.RawMessage `json:"params" results:"omitnan,outcome" doc:"the swept values as an object, {\"routing.algorithm\":\"dor\"} (absent without sweeps)"`
	Point         string          `json:"point" results:"outcome" doc:"the result's key, unique in a run: EXPERIMENT|VARIANT|PATTERN|LOAD, ...|PATTERN|saturation 1/RESOLUTION, or ...|PATTERN|ebb, then |replication R for a replication R > 0"`
	Config        string          `json:"config" results:"outcome" doc:"a hash of the variant's configuration (all but the patterns, loads and resolution): resuming refuses lines whose hash differs"`

	Offered float64 `json:"offered" results:"point|error,required=point,places=-1,omitnan,min=0,max=1" label:"offered load (flits/host/cycle)" doc:"offered load, flits/host/cycle (not in the error line of a failed exchange)"`
	Measures
	Distribution
	Stable bool `json:"stable" results:"point,outcome" doc:"whether the point sustained its load: verdict stable (in lines written before netsim gave verdicts: accepted within the tolerance of offered and source queues not growing)"`
	Verdict
	RTTAvg       *float64 `json:"rtt_avg" results:"point,places=3,min=0,max=inf,outcome,value=15,show=1" label:"average round trip (cycles)" doc:"request–reply traffic ([traffic] outstanding): the mean round trip of the measured requests answered, from a request's issue (when it took one of its host's outstanding slots) to its reply's tail, in cycles (absent for other traffic)"`
	DrainSkipped bool     `json:"drain_skipped" results:"point,omitnan,outcome" doc:"true (absent otherwise) when the point ended with its window: its verdict, which needs only the window, was unstable, so the drain was not run"`

	Timeline json.RawMessage `json:"timeline" results:"point,omitnan,outcome" doc:"with [sim] timeline = W: the load over the whole run in windows of W cycles (those that ended by the run's end), {\"window\":W,\"warmup\":CYCLE,\"end\":CYCLE,\"generated\":[...],\"accepted\":[...]} (flits/host/cycle; warmup and end bound the measurement window)"`

	Deadlock bool   `json:"deadlock" results:"error,outcome" doc:"true when the network deadlocked"`
	Error    string `json:"error" results:"error,outcome" doc:"the message, naming the point"`

	Saturation float64  `json:"saturation" results:"saturation,required,places=-1,min=0,max=1,outcome,value=1,show=1,precise=6,percent" label:"saturation (highest stable offered load, % of link bandwidth)" doc:"the highest stable load found, a fraction of the link bandwidth"`
	Resolution int      `json:"resolution" results:"saturation,min=1" doc:"the search's resolution: loads are multiples of 1/resolution"`
	Tolerance  float64  `json:"tolerance" results:"saturation,places=-1,min=0,max=1" doc:"the stability tolerance of the search"`
	Undecided  int      `json:"undecided" results:"saturation,omitnan,min=0,outcome" doc:"loads the search tested whose verdict stayed undecided at max_measure, counted as not stable (absent when none)"`
	Bound      *float64 `json:"bound" results:"saturation,places=-1,min=0,max=1" doc:"with [sweep] bound: the channel-load bound of the routing under the pattern (netsim load), where it capped the search: loads above it were not tested (absent when it did not: no bound, or one at or above the highest load)"`
	Contrary   int      `json:"contrary" results:"saturation,omitnan,min=0,outcome" doc:"1 when the load two steps above the saturation, which the search tests unless it did, was stable against the unstable step between: the verdicts are not monotone in the load (absent otherwise)"`

	Hosts       int      `json:"hosts" results:"point|saturation|ebb|workload,required=ebb|workload,omitnan,min=1" doc:"hosts of the network (absent from point and saturation lines written before netsim wrote it there)"`
	Sources     int      `json:"sources" results:"point|saturation,omitnan,min=1" doc:"with [routing] unreachable = \"skip\" and tables that leave pairs of hosts unreachable: the hosts that send under the pattern (uniform: all, each among the destinations it reaches; a fixed map: those whose destination is reachable); loads are per sending host (absent when the routing connects every pair)"`
	Unreachable int64    `json:"unreachable_pairs" results:"point|saturation,omitnan,min=1" doc:"the ordered pairs of hosts the routing's tables leave unreachable, which no traffic uses (absent when none)"`
	Dispersion  string   `json:"dispersion" results:"ebb|workload,required" doc:"how the NICs chose among routes (static, source, random, adaptive, probing, ...)"`
	Threshold   *int     `json:"threshold" results:"ebb|workload" doc:"the dispersion's threshold (adaptive and probing only)"`
	Probability *float64 `json:"probability" results:"ebb|workload,places=-1" doc:"the dispersion's probability (adaptive and probing only)"`
	MaxProbes   *int     `json:"max_probes" results:"ebb|workload" doc:"probes per message at most (probing only)"`
	ReceiveRate *float64 `json:"receive_rate" results:"ebb|workload,places=-1" doc:"fraction of the link bandwidth a NIC drains (below 1 only)"`
	RouteLag    *int     `json:"route_lag" results:"ebb" doc:"cycles before a NIC's route change takes effect (above 0 only)"`
	Exchange
	Workload

	// present marks the fields a decoded line holds, by index in Fields.
	present [2]uint64
}

// Measures are the measurements of a point (kind point), as fabric.Run
// returns them: loads are fractions of the link bandwidth
// (flits/host/cycle) over the measurement window, latencies and hops are
// averages over the measured packets (those created in the window)
// delivered before the end of drain, or of the window if the drain was
// skipped.
type Measures struct {
	Generated  float64 `json:"generated" results:"point,places=6,null,min=0,max=inf,outcome" doc:"load the hosts generated during the window, flits/host/cycle"`
	Accepted   float64 `json:"accepted" results:"point,places=6,null,min=0,max=inf,outcome,value=2,show=4" label:"accepted load (flits/host/cycle)" doc:"load delivered to hosts during the window, flits/host/cycle"`
	LatencyAvg float64 `json:"latency_avg" results:"point,places=3,null,min=0,max=inf,outcome,sample,value=3,show=1" label:"average latency (cycles)" doc:"mean latency of the measured packets delivered, from creation to tail arrival, in cycles"`
	LatencyP99 float64 `json:"latency_p99" results:"point,places=3,null,min=0,max=inf,outcome,sample,value=4,show=1" label:"99th-percentile latency (cycles)" doc:"99th-percentile latency of the measured packets delivered, in cycles"`
	HopsAvg    float64 `json:"hops_avg" results:"point,places=4,null,min=0,max=inf,outcome,sample,value=5,show=3" label:"average hops (switches per packet)" doc:"mean number of switches a measured packet traversed"`
	HopsMedium float64 `json:"hops_medium" results:"point,places=4,omitnan,min=0,max=inf,outcome,sample,value=6,show=3" label:"average sideways hops (Medium-priority ports per packet)" doc:"mean hops per measured packet taken on a candidate port of priority Medium (sideways); absent from lines written before netsim measured it"`
	HopsLow    float64 `json:"hops_low" results:"point,places=4,omitnan,min=0,max=inf,outcome,sample,value=7,show=3" label:"average deflection or other non-minimal hops (Low-priority ports per packet)" doc:"mean hops per measured packet taken on a candidate port of priority Low (deflection; for the Dragonfly's adaptive routings, any non-minimal hop); absent from lines written before netsim measured it"`
	// Delivered is also what the sample fields average over.
	Delivered       int64 `json:"delivered" results:"point,outcome" doc:"measured packets delivered before the end of drain (of the window, if the drain was skipped)"`
	MeasuredPackets int64 `json:"measured_packets" results:"point,outcome" doc:"packets created during the window"`
	Cycles          int64 `json:"cycles" results:"point,outcome" doc:"simulated cycles"`
	Window          int64 `json:"window" results:"point,omitnan,min=1,outcome" doc:"cycles measured: [sim] measure, more when an undecided verdict extended the window (up to [sim] max_measure), less when [sim] stop_early ended a clearly unstable point's window at an interim look; absent from lines written before netsim extended windows"`
}

// Distribution is the latency distribution of a point's measured packets
// delivered, written with [sim] latency_distribution = true (absent
// otherwise): more quantiles, the latency split at the moment the head
// left its source, and a CDF.
type Distribution struct {
	LatencyP50  float64 `json:"latency_p50" results:"point,places=3,omitnan,min=0,max=inf,outcome,sample" label:"median latency (cycles)" doc:"median latency of the measured packets delivered, in cycles"`
	LatencyP90  float64 `json:"latency_p90" results:"point,places=3,omitnan,min=0,max=inf,outcome,sample" label:"90th-percentile latency (cycles)" doc:"90th-percentile latency, in cycles"`
	LatencyP999 float64 `json:"latency_p999" results:"point,places=3,omitnan,min=0,max=inf,outcome,sample" label:"99.9th-percentile latency (cycles)" doc:"99.9th-percentile latency, in cycles"`
	SourceAvg   float64 `json:"latency_source_avg" results:"point,places=3,omitnan,min=0,max=inf,outcome,sample" label:"average wait at the source (cycles)" doc:"mean cycles a measured packet delivered waited in its source queue, from its creation until its head left the NIC"`
	NetworkAvg  float64 `json:"latency_network_avg" results:"point,places=3,omitnan,min=0,max=inf,outcome,sample" label:"average network latency (cycles)" doc:"mean cycles from the head leaving the NIC to the tail's arrival: latency_avg less latency_source_avg"`
	// LatencyCDF is a JSON array of [latency, fraction] pairs.
	LatencyCDF json.RawMessage `json:"latency_cdf" results:"point,omitnan,outcome,array" doc:"the latencies' distribution: [latency, fraction] pairs, the quantiles at fractions 1/64, 2/64, …, 1, and 0.999, in order of latency"`
}

// Timeline is a point's load over time: generated and accepted in
// flits/host/cycle in windows of Window cycles from cycle 0, every window
// that ended by the end of the run, with the warm-up's end and the
// measurement window's.
type Timeline struct {
	Window    int64     `json:"window"`
	Warmup    int64     `json:"warmup"`
	End       int64     `json:"end"`
	Generated []float64 `json:"generated"`
	Accepted  []float64 `json:"accepted"`
}

// NoDistribution returns the Distribution of a line without one.
func NoDistribution() Distribution {
	nan := math.NaN()
	return Distribution{LatencyP50: nan, LatencyP90: nan, LatencyP999: nan, SourceAvg: nan, NetworkAvg: nan}
}

// Verdicts of a point (field verdict).
const (
	// VerdictStable says the point sustained its load: the growth of its
	// backlog is below the limit with 95 % confidence.
	VerdictStable = "stable"
	// VerdictUnstable says it did not: the growth is above the limit with
	// 95 % confidence.
	VerdictUnstable = "unstable"
	// VerdictUndecided says the window, as long as [sim] max_measure
	// allows, could not tell, or that too few measured packets were
	// delivered to call the point stable.
	VerdictUndecided = "undecided"
)

// Verdict is the verdict of a point (kind point) and its basis: the 95 %
// confidence intervals, by batch means, of accepted load and latency,
// and the backlog's growth over the second half of the window, tested
// against its limit (docs/experiment-file.md, "The verdict"). The
// fields are absent from lines written before netsim gave verdicts.
type Verdict struct {
	Outcome     string  `json:"verdict" results:"point,omitnan,outcome" doc:"stable, unstable or undecided: the backlog's growth is below growth_limit with 95 % confidence, above it, or neither within max_measure cycles (or fewer than 100 measured packets were delivered)"`
	Batches     int     `json:"batches" results:"point,omitnan,min=1,outcome" doc:"batches the window was split into for the confidence intervals"`
	AcceptedCI  float64 `json:"accepted_ci" results:"point,places=6,omitnan,min=0,max=inf,outcome" doc:"half-width of the 95 % confidence interval of accepted, by batch means, flits/host/cycle"`
	LatencyCI   float64 `json:"latency_ci" results:"point,places=3,omitnan,min=0,max=inf,outcome" doc:"half-width of the 95 % confidence interval of latency_avg, by batch means over the packets' creation batches, in cycles"`
	Growth      float64 `json:"growth" results:"point,places=6,omitnan,max=inf,outcome" doc:"growth of the backlog (flits generated and not yet delivered) over the second half of the window, least-squares slope, flits/host/cycle"`
	GrowthCI    float64 `json:"growth_ci" results:"point,places=6,omitnan,min=0,max=inf,outcome" doc:"half-width of the 95 % confidence interval of growth (widened for the residuals' autocorrelation)"`
	GrowthLimit float64 `json:"growth_limit" results:"point,places=6,omitnan,min=0,max=inf,outcome" doc:"the growth a stable point stays below: tolerance times generated"`
}

// GrowthPassed reports whether the backlog's growth is below its limit
// with 95 % confidence: v is stable, or undecided only for want of
// measured packets.
func (v Verdict) GrowthPassed() bool { return v.Growth+v.GrowthCI <= v.GrowthLimit }

// NoVerdict returns the Verdict of a line written before netsim gave
// verdicts: no field held (the floats NaN).
func NoVerdict() Verdict {
	nan := math.NaN()
	return Verdict{AcceptedCI: nan, LatencyCI: nan, Growth: nan, GrowthCI: nan, GrowthLimit: nan}
}

// Exchange is the result of an exchange (kind ebb): the effective
// bisection bandwidth of seed 001 §5, the average pair bandwidth of each
// pattern (a fraction of the link bandwidth), and its minimum, mean and
// maximum over the patterns; the counts sum over the patterns.
type Exchange struct {
	Patterns        int     `json:"patterns" results:"ebb,outcome" doc:"exchange patterns run"`
	Min             float64 `json:"min" results:"ebb,required,places=6,min=0,max=1,outcome,value=9,show=1,precise=4,percent" label:"effective bisection bandwidth, worst pattern (% of link bandwidth)" doc:"effective bisection bandwidth of the worst pattern, a fraction of the link bandwidth"`
	Avg             float64 `json:"avg" results:"ebb,required,places=6,min=0,max=1,outcome,value=8,show=1,precise=4,percent" label:"effective bisection bandwidth, average over the patterns (% of link bandwidth)" doc:"effective bisection bandwidth averaged over the patterns"`
	Max             float64 `json:"max" results:"ebb,required,places=6,min=0,max=1,outcome,value=10,show=1,precise=4,percent" label:"effective bisection bandwidth, best pattern (% of link bandwidth)" doc:"effective bisection bandwidth of the best pattern"`
	Packets         int64   `json:"packets" results:"ebb|workload,min=0,outcome" doc:"packets delivered"`
	OutOfOrder      int64   `json:"out_of_order" results:"ebb,min=0,outcome" doc:"packets that arrived out of order"`
	MaxDisplacement int64   `json:"max_displacement" results:"ebb,outcome" doc:"the largest displacement of an out-of-order packet"`
	RouteChanges    int64   `json:"route_changes" results:"ebb|workload,outcome" doc:"route changes of the NICs' dispersion"`
	Probes          int64   `json:"probes" results:"ebb|workload,outcome" doc:"probes sent (probing)"`
}

// Workload is the result of an application workload (kind workload): a
// collective or a replayed trace, the ranks placed on hosts, run until
// every rank finished. Times are in cycles (a flit's time on a link) and
// in microseconds at the link rate of [traffic] link_gbps; bandwidths
// are fractions of the link bandwidth.
type Workload struct {
	Ranks          int             `json:"ranks" results:"workload,required,min=1" doc:"ranks of the workload, one per host"`
	Placement      string          `json:"placement" results:"workload,required" doc:"how ranks were placed on hosts: linear, random, by_switch or file (with the file's name: file ranks.txt)"`
	MessageBytes   int64           `json:"message_bytes" results:"workload,omitnan,min=0" doc:"a collective's message size in bytes (per peer for alltoall, the vector for allreduce, the face for halo3d; absent for a trace)"`
	Trace          string          `json:"trace" results:"workload,omitnan" doc:"the replayed trace file's name (pattern trace only)"`
	Repeat         int             `json:"repeat" results:"workload,omitnan,min=2" doc:"times each rank ran its program over ([traffic] repeat; absent for 1)"`
	CycleNS        float64         `json:"cycle_ns" results:"workload,places=-1,min=0,max=inf" doc:"nanoseconds per cycle: flit_bytes × 8 / link_gbps"`
	Completion     int64           `json:"completion" results:"workload,required,min=0,outcome,value=11,show=0" label:"completion time (cycles)" doc:"cycles until the last rank finished: the workload's completion time"`
	CompletionUS   float64         `json:"completion_us" results:"workload,places=6,min=0,max=inf,outcome,value=12,show=3" label:"completion time (µs)" doc:"completion in microseconds (completion × cycle_ns / 1000)"`
	RankMin        int64           `json:"rank_min" results:"workload,min=0,outcome" doc:"cycles until the first rank finished"`
	RankAvg        float64         `json:"rank_avg" results:"workload,places=3,min=0,max=inf,outcome" doc:"mean cycles until a rank finished"`
	Bandwidth      float64         `json:"bandwidth" results:"workload,places=6,min=0,max=inf,outcome,value=13,show=1,precise=4,percent" label:"effective bandwidth (% of link bandwidth)" doc:"effective bandwidth: the flits all ranks sent over ranks × completion, a fraction of the link bandwidth"`
	BandwidthMin   float64         `json:"bandwidth_min" results:"workload,places=6,min=0,max=inf,outcome" doc:"the lowest rank's effective bandwidth: the flits it sent over the cycles it took, among ranks that sent"`
	LowerBound     int64           `json:"lower_bound" results:"workload,omitnan,min=0,outcome" doc:"a collective's lower bound in cycles: the flits its busiest rank sends one step after another, ignoring latency (workload.Bound; absent for a trace)"`
	Efficiency     float64         `json:"efficiency" results:"workload,places=6,omitnan,min=0,max=1,outcome,value=14,show=1,precise=4,percent" label:"efficiency (% of the collective's bound)" doc:"bound over completion (absent for a trace)"`
	Messages       int64           `json:"messages" results:"workload,min=0,outcome" doc:"messages the ranks sent"`
	Flits          int64           `json:"flits" results:"workload,min=0,outcome" doc:"flits the ranks sent"`
	RankCompletion json.RawMessage `json:"rank_completion" results:"workload,outcome,array" doc:"the cycle each rank finished, by rank: [c0, c1, …]"`
}
