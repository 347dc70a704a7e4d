package experiments

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"netsim/fabric"
	"netsim/flowctl"
	"netsim/internal/fileio"
	"netsim/keyerr"
	"netsim/routing"
	switching "netsim/switch"
	"netsim/topologies"
	"netsim/traffic"
	"netsim/workload"
)

// buildCache holds the networks and routings built for the variants of
// one file, so variants that differ elsewhere share them (they are
// read-only once built).
type buildCache struct {
	nets     map[string]builtNetwork
	routings map[string]builtRouting
	traces   map[string]builtTrace
}

// builtTrace is a trace read, with the key that identifies its contents
// in the configuration hash, or why it could not be read.
type builtTrace struct {
	w   *workload.Workload
	key string
	err error
}

// builtNetwork is a network built, or why it could not be.
type builtNetwork struct {
	net *topologies.Network
	err error
}

// builtRouting is a routing built, or why it could not be.
type builtRouting struct {
	r   routing.Routing
	err error
}

// newBuildCache returns an empty cache.
func newBuildCache() *buildCache {
	return &buildCache{nets: map[string]builtNetwork{}, routings: map[string]builtRouting{}, traces: map[string]builtTrace{}}
}

// build builds the network, the routing and the patterns of e, recording
// every problem against the key at fault. Variants whose [topology] (and
// routing and VLs) agree share the network (and routing) through cache.
// Only what decoded cleanly is built: the network when [topology] has no
// problem, the routing when [routing] and [flow_control] have none too,
// the patterns when [traffic] has none, so a file's independent problems
// are all reported in one pass.
func (d *decoder) build(e *Experiment, cache *buildCache) {
	clean, decoded := d.cleanSections(), len(d.errs) == 0
	var topoParams []Param
	for _, p := range e.Params {
		if strings.HasPrefix(p.Key, "topology.") {
			topoParams = append(topoParams, p)
		}
	}
	topoKey := variantKey(topoParams)
	if !clean("topology") {
		return // nothing else can be built without the network
	}
	bn, ok := cache.nets[topoKey]
	if !ok {
		bn.net, bn.err = topologies.Build(e.Topology)
		cache.nets[topoKey] = bn
	}
	if bn.err != nil {
		d.builderError("topology", bn.err)
		return
	}
	net := bn.net
	e.net = net
	e.label = topologyLabel(net)
	if e.Topology.Kind == "file" {
		e.label = fmt.Sprintf("file %s h%d", filepath.Base(e.Topology.Path), len(net.Hosts))
	}
	if e.Switch.Layout != "" && clean("switch") {
		d.buildFloorplan(e)
	}

	if !clean("routing") || !clean("flow_control") {
		d.buildPatterns(e, net, clean)
		return
	}
	classes := e.Switch.VLChoice == switching.VLDynamic
	routeKey := fmt.Sprintf("%s\x00%s\x00%d\x00%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%d\x00%s\x00%s\x00%d\x00%t", topoKey, e.Routing, e.FlowControl.VLs, e.RoutingPath, e.RoutingFormat,
		e.RoutingSL2VL, e.RoutingPathSLs, e.RoutingUnreachable, e.RoutingRoots, e.RoutingTorusConfig, e.RoutingLMC,
		e.RoutingComputeNodes, e.RoutingIONodes, e.RoutingMaxReverseHops, classes)
	br, ok := cache.routings[routeKey]
	if !ok {
		br.r, br.err = routing.New(routing.Spec{Algorithm: e.Routing, VLs: e.FlowControl.VLs, Path: e.RoutingPath, Format: e.RoutingFormat,
			SL2VL: e.RoutingSL2VL, PathSLs: e.RoutingPathSLs, Unreachable: e.RoutingUnreachable, Roots: e.RoutingRoots,
			TorusConfig: e.RoutingTorusConfig, LMC: e.RoutingLMC, ComputeNodes: e.RoutingComputeNodes, IONodes: e.RoutingIONodes,
			MaxReverseHops: e.RoutingMaxReverseHops, Classes: classes}, net)
		cache.routings[routeKey] = br
	}
	if br.err != nil {
		d.builderError("routing", br.err)
	} else {
		e.routing = br.r
	}
	if pr, ok := e.routing.(routing.Partial); ok && pr.UnreachablePairs() > 0 && e.Traffic.Outstanding > 0 {
		d.fail("traffic", "outstanding", "the tables leave %d pairs of hosts unreachable, and a reply goes back the way its request came (expected tables that connect every pair for request–reply traffic)", pr.UnreachablePairs())
		return
	}
	if pr, ok := e.routing.(routing.Partial); ok && pr.UnreachablePairs() > 0 && e.closed() {
		d.fail("routing", "unreachable", "the tables leave %d pairs of hosts unreachable, and %s needs every pair its messages use (expected tables that connect every pair, or load traffic)", pr.UnreachablePairs(), closedWhat(e))
		return
	}

	if e.closed() {
		if !decoded {
			d.buildPatterns(e, net, clean)
			return
		}
		cfg := e.exchangeConfig()
		if err := cfg.ValidateHardware(); err != nil {
			d.builderError("switch", err)
			return
		}
		if !d.checkMemory(e) {
			return
		}
		if e.IsWorkload() {
			d.buildWorkload(e, cache)
		}
		d.buildCongestion(e) // one file may serve netsim run and netsim congestion
		e.config = configHash(e)
		return
	}
	d.buildPatterns(e, net, clean)
	if len(d.errs) > 0 {
		return
	}
	e.config = configHash(e)
	if len(e.patterns) == 0 { // a congestion study only
		return
	}
	// The fabric's own check, on the first point, as a backstop.
	cfg := e.Config(0, 1)
	if err := cfg.Validate(); err != nil {
		d.builderError("switch", err)
		return
	}
	if !d.checkMemory(e) {
		return
	}
	for i := range e.patterns {
		if e.Sources(i) == 0 {
			d.fail("traffic", d.patternKey, "pattern %s: no host reaches its destination by the routing's tables (every pair it uses is unreachable)", e.Traffic.Patterns[i])
		}
	}
}

// buildPatterns builds the traffic patterns of e on net (load traffic;
// an exchange's are checked when decoded) and checks [congestion] against
// net, each when its section decoded cleanly.
func (d *decoder) buildPatterns(e *Experiment, net *topologies.Network, clean func(string) bool) {
	if !e.closed() && clean("traffic") {
		e.patternOpts = traffic.Options{HotspotFraction: e.Traffic.HotspotFraction, HotspotHosts: e.Traffic.HotspotHosts}
		if e.Traffic.Matrix != "" {
			data, err := fileio.ReadFile(e.Traffic.Matrix, fileio.MaxLarge)
			if err == nil {
				e.patternOpts.Matrix, err = traffic.ReadMatrix(data, e.Traffic.Matrix, net)
			}
			if err != nil {
				d.fail("traffic", "matrix", "%v", err)
				return
			}
		}
		for _, name := range e.Traffic.Patterns {
			p, err := traffic.NewNetworkPattern(name, net, e.Seed, e.patternOpts)
			if err != nil {
				d.fail("traffic", d.patternKey, "%s", strings.TrimPrefix(err.Error(), "traffic: "))
				continue
			}
			e.patterns = append(e.patterns, p)
		}
		if len(e.patterns) != len(e.Traffic.Patterns) {
			return
		}
		d.restrictPatterns(e, net)
		// A matrix's sources without a line do not send.
		for i, p := range e.patterns {
			m, ok := p.(*traffic.Matrix)
			if !ok {
				continue
			}
			if e.active == nil {
				e.active = make([][]bool, len(e.patterns))
			}
			e.active[i] = m.Active()
		}
	}
	if clean("congestion") {
		d.buildCongestion(e)
	}
}

// restrictPatterns restricts e's patterns to the pairs of hosts its
// routing connects when its tables leave some unreachable ([routing]
// unreachable = "skip"; routing.Partial): uniform draws among the
// reachable destinations, and a source of a fixed map whose destination
// is unreachable does not send (traffic.Restrict).
func (d *decoder) restrictPatterns(e *Experiment, net *topologies.Network) {
	pr, ok := e.routing.(routing.Partial)
	if !ok || pr.UnreachablePairs() == 0 {
		return
	}
	for _, p := range e.patterns {
		if _, mix := p.(traffic.Mixture); mix {
			d.fail("traffic", d.patternKey, "pattern %s cannot be restricted to the pairs the routing connects (it leaves %d unreachable); use uniform or a fixed pattern", p.Name(), pr.UnreachablePairs())
			return
		}
	}
	class := make([]int32, len(net.Hosts))
	first := make([]int, len(net.Switches)) // a host of each switch
	for h := len(net.Hosts) - 1; h >= 0; h-- {
		class[h] = net.Hosts[h].Switch
		first[class[h]] = h
	}
	reach := func(c int32, dst int) bool { return pr.Reachable(first[c], dst) }
	e.active = make([][]bool, len(e.patterns))
	for i, p := range e.patterns {
		e.patterns[i], e.active[i] = traffic.Restrict(p, class, reach)
	}
}

// cleanSections returns whether a section has no problem recorded so far.
func (d *decoder) cleanSections() func(section string) bool {
	bad := map[string]bool{}
	for _, err := range d.errs {
		var ie *InputError
		if errors.As(err, &ie) {
			bad[ie.Section] = true
		}
	}
	return func(section string) bool { return !bad[section] }
}

// builderError records err, a builder's error, against the key at fault
// when it is a *keyerr.Error ("dims: need at least one dimension"): in
// home when home has the key, else in the section that does. A compound
// key ("dims/widths: ...") is reported once, on the line of the first of
// its keys the files set; a product factor's, on the line of the
// factor's own key (factorLine). Other errors are recorded against home.
func (d *decoder) builderError(home string, err error) {
	var ke *keyerr.Error
	if !errors.As(err, &ke) {
		d.fail(home, "", "%s", err.Error())
		return
	}
	parts := ke.Keys()
	section := ""
	for _, s := range append([]string{home}, sectionNames()...) {
		if slices.Contains(sectionKeys(s), parts[0]) {
			section = s
			break
		}
	}
	if section == "" {
		d.fail(home, "", "%s", err.Error())
		return
	}
	if ke.Key == "factors" {
		if file, line := d.factorLine(ke); line > 0 {
			d.failAt(file, line, section, ke.Key, "%s", ke.Msg)
			return
		}
	}
	at := parts[0]
	for _, p := range parts {
		if d.src.has(section, p) {
			at = p
			break
		}
	}
	file, line := d.src.locate(section, at)
	d.failAt(file, line, section, ke.Key, "%s", ke.Msg)
}

// topologyLabel describes a network compactly and stably: the family, the
// dimension sizes, the link widths and the hosts per switch
// ("flatfly 8x8 w1,1 c8", "ring 8 w1 c2", "torus 8x16x16 w3,5,5 c8"), the
// parameters of families without such dimensions ("hypercube d11 w2 c8",
// "dragonfly k16 g8 c8 absolute omit", "slimfly q5 w1 c4",
// "product[slimfly q4 w2; flatfly 8x8 w1,1] c8", "kautz b3 n4 c2",
// "random s64 l128 c16 seed1", with " p32" for a port limit), the
// parameters of a tree family (treeLabel), or the host count otherwise
// ("crossbar h16").
func topologyLabel(n *topologies.Network) string {
	if l := treeLabel(n); l != "" {
		return l
	}
	if l, ok := familyLabel(n); ok {
		return l
	}
	var b strings.Builder
	b.WriteString(n.Kind)
	if len(n.Dims) == 0 {
		fmt.Fprintf(&b, " h%d", len(n.Hosts))
		return b.String()
	}
	b.WriteByte(' ')
	b.WriteString(joinInts(n.Dims, "x"))
	if len(n.Widths) > 0 {
		b.WriteString(" w")
		b.WriteString(joinInts(n.Widths, ","))
	}
	if n.HostsPerSwitch > 0 {
		fmt.Fprintf(&b, " c%d", n.HostsPerSwitch)
	}
	return b.String()
}

// treeLabel labels the tree families by their parameters, from the
// resolved spec the network was built from: "clos p32 h512", "fattree k4
// n3", "xgft m6,6 w3,3 h512" (h only when level 0 is switches), "deimos
// p24 h258,228,258 l30"; an oversubscription other than 1:1 is appended as
// " o3:1". It returns "" for other kinds.
func treeLabel(n *topologies.Network) string {
	s := n.Spec
	var l string
	switch n.Kind {
	case "clos":
		l = fmt.Sprintf("clos p%d h%d", s.Ports, s.Hosts)
	case "fattree":
		l = fmt.Sprintf("fattree k%d n%d", s.K, s.N)
	case "xgft":
		l = "xgft m" + joinInts(s.M, ",") + " w" + joinInts(s.W, ",")
		if s.Hosts > 0 {
			l += fmt.Sprintf(" h%d", s.Hosts)
		}
	case "deimos":
		return fmt.Sprintf("deimos p%d h%s l%d", s.Ports, joinInts(s.BoxHosts, ","), s.ChainLinks)
	default:
		return ""
	}
	if o := s.Oversubscription; o != "" && o != "1:1" {
		l += " o" + o
	}
	return l
}

// joinInts joins xs with sep.
func joinInts(xs []int, sep string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, sep)
}

// buildFloorplan reads e's switch layout on its network and, under
// STOP/GO, fits the watermarks the file left to their defaults to the
// longest link, cables included (a watermark the file gave that lets a
// buffer overflow is an error).
func (d *decoder) buildFloorplan(e *Experiment) {
	data, err := fileio.ReadFile(e.Switch.Layout, fileio.MaxSmall)
	if err == nil {
		e.floorplan, err = topologies.ReadFloorplan(data, e.Switch.Layout, e.net, e.Switch.CyclesPerMeter)
		e.layoutKey = dataKey(e.Switch.Layout, data)
	}
	if err != nil {
		d.fail("switch", "layout", "%v", err)
		return
	}
	f := &e.FlowControl
	if f.Kind != flowctl.KindStopGo {
		return
	}
	hw := e.hardware()
	lat := hw.MaxLatency()
	limit := f.BufferFlits - flowctl.Params{Delay: e.Switch.SwAllocDelay + e.Switch.CrossbarDelay + lat, Latency: lat}.Slack()
	if !f.stopSet {
		f.StopMark = limit
	}
	if !f.goSet {
		f.GoMark = f.StopMark / 2
	}
	switch {
	case limit < 1:
		d.fail("flow_control", "buffer_flits", "%d is too small for stopgo with the layout's cables (links of up to %d cycles)", f.BufferFlits, lat)
	case f.StopMark > limit:
		d.fail("flow_control", "stop_mark", "%d lets the buffer overflow on the layout's longest link of %d cycles (expected ≤ %d)", f.StopMark, lat, limit)
	case f.GoMark >= f.StopMark || f.GoMark < 0:
		d.fail("flow_control", "go_mark", "%d must be below stop_mark %d", f.GoMark, f.StopMark)
	}
}

// PointMemory returns the memory a point of e allocates when it is
// simulated (fabric.EstimateMemory): its switches, NICs, packets and
// kernel, beyond the network and routing already built.
func (e *Experiment) PointMemory() fabric.Memory {
	if e.closed() {
		return fabric.EstimateMemory(e.exchangeConfig())
	}
	return fabric.EstimateMemory(e.Config(0, 1))
}

// HeapInUse returns the bytes the process's heap holds now, garbage
// collected first: the networks and routings loaded, before any point
// runs.
func HeapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}

// heapNow is HeapInUse without a collection: what the heap holds at most.
func heapNow() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}

// checkMemory refuses e when what is loaded and one of its points would
// need more than [sim] max_memory, before the point allocates anything.
func (d *decoder) checkMemory(e *Experiment) bool {
	limit := e.Sim.MaxMemory
	if limit <= 0 {
		return true
	}
	m := e.PointMemory()
	if heapNow()+m.Total() <= limit {
		return true // without paying for a collection
	}
	if loaded := HeapInUse(); loaded+m.Total() > limit {
		d.fail("sim", "max_memory", "a point of this network needs about %s, and %s is loaded (the network and its routing): more than the %s netsim may use (raise [sim] max_memory if the machine has more, or simulate a smaller network)",
			m, fabric.GiB(loaded), fabric.GiB(limit))
		return false
	}
	return true
}
