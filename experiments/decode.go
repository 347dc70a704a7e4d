package experiments

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"unicode"
	"unicode/utf8"

	"netsim/fabric"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"netsim/flowctl"
	"netsim/internal/fileio"
	"netsim/internal/sysmem"
	"netsim/keyerr"
	"netsim/routing"
	switching "netsim/switch"
	"netsim/topologies"
	"netsim/traffic"
)

// Defaults of optional keys; [sim] drain defaults to the measure value.
const (
	DefaultSeed           = 1             // seed
	DefaultFlowControl    = "credit"      // [flow_control] kind
	DefaultVLs            = 1             // [flow_control] vls
	DefaultBufferFlits    = 64            // [flow_control] buffer_flits
	DefaultSwitching      = "cut-through" // [switch] switching
	DefaultSpeedup        = 1             // [switch] speedup
	DefaultLinkLatency    = 1             // [switch] link_latency
	DefaultRoutingDelay   = 1             // [switch] routing_delay
	DefaultCrossbarDelay  = 1             // [switch] crossbar_delay
	DefaultSelection      = "credits"     // [switch] selection
	DefaultPacketFlits    = 16            // [traffic] packet_flits
	DefaultWarmup         = 2000          // [sim] warmup
	DefaultMeasure        = 10000         // [sim] measure
	DefaultDeadlockWindow = 10000         // [sim] deadlock_window
	DefaultMaxMeasure     = 4             // [sim] max_measure, times measure
	DefaultReplications   = 1             // [sim] replications
	DefaultThreads        = 1             // [sim] threads
	maxReplications       = 1000
	DefaultResolution     = 128  // [sweep] resolution
	DefaultTolerance      = 0.02 // [sweep] tolerance
)

// parse decodes and checks the text of an experiment file that sweeps
// nothing, without building the network. All problems are returned, joined,
// in order of discovery; each is an *InputError. The decoder is returned for
// the build step.
func parse(file string, data []byte) (*Experiment, *decoder, error) {
	root, src, err := readTree(file, data, nil)
	if err != nil {
		return nil, nil, err
	}
	d := &decoder{src: src}
	e := d.decodeTree(file, root)
	if len(d.errs) > 0 {
		d.sortErrors()
		return nil, nil, errors.Join(d.errs...)
	}
	return e, d, nil
}

// decodeTree decodes and checks the merged tree of one variant of the
// experiment file called file, without building the network. Problems are
// recorded in d.errs, each an *InputError.
func (d *decoder) decodeTree(file string, root map[string]any) *Experiment {
	e := &Experiment{File: file, src: d.src}
	d.checkKeys(root, "", sectionKeys(""))

	base := filepath.Base(file)
	e.Name = strings.TrimSuffix(base, filepath.Ext(base))
	if s, ok := d.str(root, "", "name"); ok {
		if strings.TrimSpace(s) == "" {
			d.fail("", "name", "must not be empty")
		} else {
			e.Name = s
		}
	}
	if bad := strings.IndexFunc(e.Name, func(r rune) bool { return r == '|' || unicode.IsControl(r) }); bad >= 0 {
		what := "name"
		if _, ok := root["name"]; !ok {
			what = "the file's name, the default name,"
		}
		d.fail("", "name", "%q: %s must not hold %q (a result's key is EXPERIMENT|VARIANT|PATTERN|…, and table headers are lines)", e.Name, what, e.Name[bad:bad+utf8.RuneLen([]rune(e.Name[bad:])[0])])
	}
	e.Description, _ = d.str(root, "", "description")
	e.Seed = uint64(d.intKey(root, "", "seed"))

	d.topology(e, d.table(root, "topology", true))
	d.routing(e, d.table(root, "routing", true))
	d.switchSection(e, d.table(root, "switch", false))
	d.flowControl(e, d.table(root, "flow_control", false))
	d.nicSection(e, d.table(root, "nic", false))
	// [traffic] is needed by netsim run, not by a congestion study.
	d.traffic(e, d.table(root, "traffic", root["congestion"] == nil))
	d.sim(e, d.table(root, "sim", false))
	d.sweep(e, d.table(root, "sweep", false))
	d.congestion(e, d.table(root, "congestion", false))
	d.crossChecks(e)
	return e
}

// syntaxError converts a TOML decoding error into an *InputError. The line
// is computed from the error's byte offset, which points at the offending
// character.
func syntaxError(file, text string, err error) error {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return &InputError{File: file, Msg: "invalid TOML: " + err.Error()}
	}
	line := pe.Position.Line
	if s := pe.Position.Start; s > 0 && s <= len(text) {
		line = strings.Count(text[:s], "\n") + 1
	}
	return &InputError{File: file, Line: line, Msg: "invalid TOML: " + pe.Message}
}

// topology decodes [topology]. Values are checked by topologies.Build when
// the experiment is built.
func (d *decoder) topology(e *Experiment, t map[string]any) {
	const sec = "topology"
	if t == nil {
		return
	}
	d.checkKeys(t, sec, sectionKeys(sec))
	e.Topology.Preset = d.nonEmpty(t, sec, "preset")
	d.topologyKeys(&e.Topology, t, sec)
	if _, present := t["kind"]; !present && t["preset"] == nil {
		d.fail(sec, "kind", "missing (expected one of: %s; or preset = \"NAME\")", strings.Join(schemaKey(sec, "kind").Values, ", "))
	}
	e.Topology.Factors = d.factors(t, sec)
	if e.Topology.Preset == "" {
		// Keys the kind does not use, every one of them, now: the builder
		// would report only the first, and only once the file decodes.
		for _, err := range topologies.UnusedKeys(e.Topology) {
			var ke *keyerr.Error
			if errors.As(err, &ke) {
				d.fail(sec, ke.Key, "%s", ke.Msg)
			}
		}
	}
}

// topologyKeys decodes the keys of a topology table other than preset and
// factors into s: those of [topology] and of each of its factors. Each key
// sets the field of topologies.Spec whose toml tag it is, with the type
// and range of its schema entry.
func (d *decoder) topologyKeys(s *topologies.Spec, t map[string]any, sec string) {
	v := reflect.ValueOf(s).Elem()
	for i, name := range topologies.Keys() {
		if name == "preset" || name == "factors" || name == "path" || name == "format" || name == "oversubscription" {
			continue // below, or in topology and factors
		}
		f, k := v.Field(i), schemaKey("topology", name)
		switch k.Type {
		case TypeInt:
			if _, ok := t[name]; !ok {
				continue
			}
			n := d.integer(t, sec, name, 0, k.Min, k.Max)
			if f.Kind() == reflect.Uint64 {
				f.SetUint(uint64(n))
			} else {
				f.SetInt(n)
			}
		case TypeInts:
			f.Set(reflect.ValueOf(d.intList(t, sec, name, k.Min, k.Max)))
		case TypeString:
			if str, ok := d.str(t, sec, name); ok {
				f.SetString(str)
			}
		case TypeBool:
			f.Set(reflect.ValueOf(d.boolean(t, sec, name)))
		default:
			panic(fmt.Sprintf("experiments: [topology] %s: type %v not decoded", name, k.Type))
		}
	}
	s.Oversubscription = d.nonEmpty(t, sec, "oversubscription")
	if p, ok := d.str(t, sec, "path"); ok {
		if p == "" {
			d.fail(sec, "path", "empty (expected the topology file, relative to the experiment file's directory)")
		} else {
			if !filepath.IsAbs(p) {
				p = filepath.Join(d.src.dirOf(sec, "path"), p)
			}
			s.Path = p
		}
	}
	if f, ok := d.str(t, sec, "format"); ok {
		if f == "" {
			d.fail(sec, "format", "empty (expected \"dot\" or \"ibnetdiscover\")")
		}
		s.Format = f
	}
}

// nonEmpty returns the string value of key, "" when absent, and reports an
// empty string given explicitly (it would read as "not given").
func (d *decoder) nonEmpty(t map[string]any, section, key string) string {
	s, ok := d.str(t, section, key)
	if ok && s == "" {
		d.fail(section, key, "must not be empty (omit the key instead)")
	}
	return s
}

// factors decodes the factors of a product: an array of tables
// ([[topology.factors]], or an inline array), each with the keys of a
// topology table but preset and factors. A problem in factor i is reported
// against the factors key as "factor i: key: ...", on the key's line
// within the i-th [[topology.factors]] table when there is one.
func (d *decoder) factors(t map[string]any, sec string) []topologies.Spec {
	v, ok := t["factors"]
	if !ok {
		return nil
	}
	var tables []map[string]any
	switch x := v.(type) {
	case []map[string]any:
		tables = x
	case []any:
		for i, el := range x {
			m, ok := el.(map[string]any)
			if !ok {
				d.fail(sec, "factors", "element %d: expected a table, got %s", i+1, describe(el))
				return nil
			}
			tables = append(tables, m)
		}
	default:
		d.fail(sec, "factors", "expected an array of tables ([[topology.factors]]), got %s", describe(v))
		return nil
	}
	fsec := sec + ".factors"
	var accepted []string
	for _, k := range sectionKeys(sec) {
		if k != "preset" && k != "factors" {
			accepted = append(accepted, k)
		}
	}
	out := make([]topologies.Spec, len(tables))
	for i, ft := range tables {
		mark := len(d.errs)
		d.checkKeys(ft, fsec, accepted)
		d.topologyKeys(&out[i], ft, fsec)
		if _, ok := ft["kind"]; !ok {
			d.fail(fsec, "kind", "missing (expected slimfly, flatfly, hyperx or hypercube)")
		}
		for _, err := range d.errs[mark:] {
			var ie *InputError
			if !errors.As(err, &ie) {
				continue
			}
			if file, line := d.src.arrayLine(fsec, i, ie.Key); line > 0 {
				ie.File, ie.Line = file, line
			} else {
				ie.File, ie.Line = d.src.locate(sec, "factors")
			}
			ie.Section, ie.Key, ie.Msg = sec, "factors", fmt.Sprintf("factor %d: %s: %s", i+1, ie.Key, ie.Msg)
		}
	}
	return out
}

// factorLine returns the file and line of the key a builder error about a
// product factor names ("factors: factor 1 (slimfly): q: ..."): ke is
// about element ke.Index of factors, and its cause the factor's own key
// error, whose key is looked up in that factor's [[topology.factors]]
// table. It returns line 0 when it cannot tell.
func (d *decoder) factorLine(ke *keyerr.Error) (string, int) {
	if ke.Index < 1 {
		return "", 0
	}
	key := ""
	var inner *keyerr.Error
	if errors.As(ke.Err, &inner) {
		key = inner.Key
	}
	return d.src.arrayLine("topology.factors", ke.Index-1, key)
}

// routing decodes [routing].
func (d *decoder) routing(e *Experiment, t map[string]any) {
	const sec = "routing"
	if t == nil {
		return
	}
	d.checkKeys(t, sec, sectionKeys(sec))
	if s, ok := d.str(t, sec, "algorithm"); ok {
		e.Routing = s
	} else if _, present := t["algorithm"]; !present {
		d.fail(sec, "algorithm", "missing (expected a routing algorithm such as \"dor\")")
	}
	for _, f := range []struct {
		key, what string
		to        *string
	}{
		{"path", "the file of forwarding tables", &e.RoutingPath},
		{"sl2vl", "the fabric's SL2VL tables (opensm-sl2vl.dump or smpquery sl2vl output)", &e.RoutingSL2VL},
		{"path_sls", "the fabric's path records (saquery -p output)", &e.RoutingPathSLs},
		{"roots", "the root switches of updn, ftree or dmodk (GUIDs or switch names, one a line)", &e.RoutingRoots},
		{"torus_config", "OpenSM's torus-2QoS.conf", &e.RoutingTorusConfig},
		{"compute_nodes", "the compute nodes of ftree (port GUIDs or host names, one a line)", &e.RoutingComputeNodes},
		{"io_nodes", "the I/O nodes of ftree (port GUIDs or host names, one a line)", &e.RoutingIONodes},
	} {
		if p, ok := d.str(t, sec, f.key); ok {
			if p == "" {
				d.fail(sec, f.key, "empty (expected %s, relative to the experiment file's directory)", f.what)
				continue
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(d.src.dirOf(sec, f.key), p)
			}
			*f.to = p
		}
	}
	if f, ok := d.str(t, sec, "format"); ok {
		if f != "lft" && f != "dot" {
			d.fail(sec, "format", "unknown table format %q (expected \"lft\" or \"dot\")", f)
		}
		e.RoutingFormat = f
	}
	if u, ok := d.str(t, sec, "unreachable"); ok {
		if u != routing.UnreachableError && u != routing.UnreachableSkip {
			d.fail(sec, "unreachable", "unknown value %q (expected %q or %q)", u, routing.UnreachableError, routing.UnreachableSkip)
		}
		e.RoutingUnreachable = u
	}
	if e.Routing != "" && e.Routing != "file" {
		for _, key := range []string{"path", "format", "sl2vl", "path_sls", "unreachable"} {
			if _, ok := t[key]; ok && !(key == "unreachable" && (e.Routing == "updn" || e.Routing == "dnup")) {
				d.fail(sec, key, "only used with algorithm = \"file\"")
			}
		}
	}
	if _, ok := t["roots"]; ok && e.Routing != "" && e.Routing != "updn" && e.Routing != "ftree" && e.Routing != "dmodk" {
		d.fail(sec, "roots", "only used with algorithm = \"updn\", \"ftree\" or \"dmodk\"")
	}
	e.RoutingLMC = int(d.intKey(t, sec, "lmc"))
	e.RoutingMaxReverseHops = int(d.intKey(t, sec, "max_reverse_hops"))
	for _, key := range []string{"compute_nodes", "io_nodes", "max_reverse_hops"} {
		if _, ok := t[key]; ok && e.Routing != "" && e.Routing != "ftree" {
			d.fail(sec, key, "only used with algorithm = \"ftree\"")
		}
	}
	if _, ok := t["lmc"]; ok && e.Routing != "" && e.Routing != "minhop" && e.Routing != "updn" && e.Routing != "dnup" {
		d.fail(sec, "lmc", "only used with algorithm = \"minhop\", \"updn\" or \"dnup\" (a dump's LIDs come with its tables)")
	}
	if _, ok := t["torus_config"]; ok && e.Routing != "" && e.Routing != "torus-2QoS" {
		d.fail(sec, "torus_config", "only used with algorithm = \"torus-2QoS\"")
	}
}

// switchSection decodes [switch].
func (d *decoder) switchSection(e *Experiment, t map[string]any) {
	const sec = "switch"
	d.checkKeys(t, sec, sectionKeys(sec))
	s := &e.Switch
	s.Switching, _ = switching.ParseMode(d.choiceKey(t, sec, "switching")) // one of its names
	s.Speedup = int(d.intKey(t, sec, "speedup"))
	s.LinkLatency = int(d.intKey(t, sec, "link_latency"))
	if _, ok := t["link_latencies"]; ok {
		s.LinkLatencies = d.intList(t, sec, "link_latencies", 1, maxLinkClassLatency)
		if s.LinkLatencies != nil && len(s.LinkLatencies) == 0 {
			d.fail(sec, "link_latencies", "empty list (expected one latency per link class)")
		}
	}
	if _, ok := t["host_link_latency"]; ok {
		s.HostLinkLatency = int(d.intKey(t, sec, "host_link_latency"))
	}
	if p, ok := d.str(t, sec, "layout"); ok {
		if p == "" {
			d.fail(sec, "layout", "empty (expected a CSV file of switch,x,y[,z] lines in meters, relative to the experiment file's directory)")
		} else if !filepath.IsAbs(p) {
			p = filepath.Join(d.src.dirOf(sec, "layout"), p)
		}
		s.Layout = p
		s.CyclesPerMeter = d.numberKey(t, sec, "cycles_per_meter")
	} else if _, ok := t["cycles_per_meter"]; ok {
		d.fail(sec, "cycles_per_meter", "only used with layout (the switches' floorplan)")
	}
	s.RoutingDelay = int(d.intKey(t, sec, "routing_delay"))
	s.CrossbarDelay = int(d.intKey(t, sec, "crossbar_delay"))
	s.Selection, _ = switching.ParseSelection(d.choiceKey(t, sec, "selection"))
	s.VLAllocDelay = int(d.intKey(t, sec, "vl_alloc_delay"))
	s.SwAllocDelay = int(d.intKey(t, sec, "sw_alloc_delay"))
	s.Buffers, _ = switching.ParseBuffers(d.choiceKey(t, sec, "buffers"))
	if s.Buffers == switching.BuffersShared {
		s.SharedReserve = int(d.intKey(t, sec, "shared_reserve"))
		s.SharedAlpha = d.numberKey(t, sec, "shared_alpha")
		s.SharedLimit = int(d.intKey(t, sec, "shared_limit"))
	} else {
		for _, k := range []string{"shared_reserve", "shared_alpha", "shared_limit"} {
			if _, ok := t[k]; ok {
				d.fail(sec, k, "only used with buffers = %q", switching.BuffersShared)
			}
		}
	}
	s.VLChoice, _ = switching.ParseVLChoice(d.choiceKey(t, sec, "vl_choice"))
	s.Allocator, _ = switching.ParseAllocator(d.choiceKey(t, sec, "allocator"))
	if s.Allocator != switching.AllocOldestFirst {
		s.Iterations = int(d.intKey(t, sec, "allocator_iterations"))
	} else if _, ok := t["allocator_iterations"]; ok {
		d.fail(sec, "allocator_iterations", "only used with allocator = %q or %q", switching.AllocISLIP, switching.AllocInputFirst)
	}
}

// flowControl decodes [flow_control]; it needs e.Switch decoded first for
// the STOP/GO round trip.
func (d *decoder) flowControl(e *Experiment, t map[string]any) {
	const sec = "flow_control"
	d.checkKeys(t, sec, sectionKeys(sec))
	f := &e.FlowControl
	f.Kind = flowctl.Kind(d.choiceKey(t, sec, "kind"))
	f.VLs = int(d.intKey(t, sec, "vls"))
	f.BufferFlits = int(d.intKey(t, sec, "buffer_flits"))
	_, hasStop := t["stop_mark"]
	_, hasGo := t["go_mark"]
	if f.Kind != flowctl.KindStopGo {
		if hasStop {
			d.fail(sec, "stop_mark", "only used with kind = \"stopgo\"")
		}
		if hasGo {
			d.fail(sec, "go_mark", "only used with kind = \"stopgo\"")
		}
		return
	}
	// A flit takes switch allocation, crossbar delay and link latency to
	// the next buffer.
	lat := max(e.Switch.LinkLatency, e.Switch.HostLinkLatency)
	for _, l := range e.Switch.LinkLatencies {
		lat = max(lat, l)
	}
	slack := flowctl.Params{Delay: e.Switch.SwAllocDelay + e.Switch.CrossbarDelay + lat, Latency: lat}.Slack()
	limit := f.BufferFlits - slack
	if limit < 1 {
		d.fail(sec, "buffer_flits", "%d is too small for stopgo (expected > %d, the flits in flight after STOP: sw_alloc_delay + crossbar_delay + 2·link_latency − 1)",
			f.BufferFlits, slack)
		return
	}
	f.StopMark = int(d.intKeyOr(t, sec, "stop_mark", int64(limit)))
	f.GoMark = int(d.intKeyOr(t, sec, "go_mark", int64(f.StopMark/2)))
	f.stopSet, f.goSet = hasStop, hasGo
	if f.StopMark > limit {
		d.fail(sec, "stop_mark", "%d lets the buffer overflow (expected ≤ buffer_flits − (sw_alloc_delay + crossbar_delay + 2·link_latency − 1) = %d)", f.StopMark, limit)
	}
	if f.GoMark >= f.StopMark {
		d.fail(sec, "go_mark", "%d must be below stop_mark %d", f.GoMark, f.StopMark)
	}
}

// traffic decodes [traffic]. Pattern names are checked when the experiment
// is built, against the network's host count.
func (d *decoder) traffic(e *Experiment, t map[string]any) {
	const sec = "traffic"
	if t == nil {
		return
	}
	d.checkKeys(t, sec, sectionKeys(sec))
	e.Traffic.Kind = d.choiceKey(t, sec, "kind")
	switch e.Traffic.Kind {
	case KindExchange:
		d.exchangeTraffic(e, t)
		return
	case KindWorkload:
		d.workloadTraffic(e, t)
		return
	}
	for _, k := range append(exchangeKeys(), workloadKeys()...) {
		if _, ok := t[k]; ok {
			d.fail(sec, k, "only used with kind = %q", closedKindOf(k))
		}
	}
	_, hasList := t["patterns"]
	_, hasOne := t["pattern"]
	d.patternKey = "patterns"
	if hasOne {
		d.patternKey = "pattern"
	}
	switch {
	case hasList && hasOne:
		d.fail(sec, "pattern", "give either pattern or patterns, not both")
	case hasOne:
		if s, ok := d.str(t, sec, "pattern"); ok {
			e.Traffic.Patterns = []string{s}
		}
	case hasList:
		e.Traffic.Patterns = d.strList(t, sec, "patterns")
		if e.Traffic.Patterns != nil && len(e.Traffic.Patterns) == 0 {
			d.fail(sec, "patterns", "empty list (expected at least one pattern)")
		}
	default:
		d.fail(sec, "patterns", "missing (expected a list of patterns such as [\"uniform\"])")
	}
	for i, p := range e.Traffic.Patterns {
		if slices.Contains(e.Traffic.Patterns[:i], p) {
			d.fail(sec, d.patternKey, "pattern %q appears twice", p)
		}
	}
	e.Traffic.PacketFlits = int(d.intKey(t, sec, "packet_flits"))
	if slices.Contains(e.Traffic.Patterns, "hotspot") {
		e.Traffic.HotspotFraction = d.numberKey(t, sec, "hotspot_fraction")
		e.Traffic.HotspotHosts = int(d.intKey(t, sec, "hotspot_hosts"))
	} else {
		for _, k := range []string{"hotspot_fraction", "hotspot_hosts"} {
			if _, ok := t[k]; ok {
				d.fail(sec, k, "only used with pattern \"hotspot\"")
			}
		}
	}
	if s, ok := d.str(t, sec, "message_size"); ok {
		dir := d.src.dirOf(sec, "message_size")
		m, err := traffic.ParseMessageSizes(s, func(p string) ([]byte, error) {
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			return fileio.ReadFile(p, fileio.MaxSmall)
		})
		if err != nil {
			d.fail(sec, "message_size", "%v", err)
		} else {
			e.Traffic.MessageSize, e.Traffic.messageSizes = s, m
			if f := strings.Fields(s); len(f) == 2 && f[0] == "histogram" {
				p := f[1]
				if !filepath.IsAbs(p) {
					p = filepath.Join(dir, p)
				}
				e.Traffic.MessageSize = "histogram " + p
			}
		}
	}
	if _, ok := t["outstanding"]; ok {
		e.Traffic.Outstanding = int(d.intKey(t, sec, "outstanding"))
		e.Traffic.ReplyFlits = int(d.intKeyOr(t, sec, "reply_flits", int64(e.Traffic.PacketFlits)))
		switch {
		case e.Traffic.ReplyFlits > e.Traffic.PacketFlits:
			d.fail(sec, "reply_flits", "%d is more than packet_flits = %d (a reply is at most a packet)", e.Traffic.ReplyFlits, e.Traffic.PacketFlits)
		case t["message_size"] != nil:
			d.fail(sec, "outstanding", "not with message_size (requests are single packets of packet_flits)")
		}
	} else if _, ok := t["reply_flits"]; ok {
		d.fail(sec, "reply_flits", "needs outstanding (the requests a host may have unanswered)")
	}
	_, hasBurst := t["burst"]
	_, hasIdle := t["idle"]
	switch {
	case hasBurst && hasIdle:
		e.Traffic.Burst, e.Traffic.Idle = d.numberKey(t, sec, "burst"), d.numberKey(t, sec, "idle")
	case hasBurst:
		d.fail(sec, "burst", "needs idle too (the mean idle period between bursts)")
	case hasIdle:
		d.fail(sec, "idle", "needs burst too (the mean burst length)")
	}
	if p, ok := d.str(t, sec, "matrix"); ok {
		switch {
		case p == "":
			d.fail(sec, "matrix", "empty (expected a CSV file of src,dst,weight lines, relative to the experiment file's directory)")
		case !slices.Contains(e.Traffic.Patterns, "matrix"):
			d.fail(sec, "matrix", "only used with pattern \"matrix\"")
		default:
			if !filepath.IsAbs(p) {
				p = filepath.Join(d.src.dirOf(sec, "matrix"), p)
			}
			e.Traffic.Matrix = p
		}
	}
}

// sim decodes [sim].
func (d *decoder) sim(e *Experiment, t map[string]any) {
	const sec = "sim"
	d.checkKeys(t, sec, sectionKeys(sec))
	s := &e.Sim
	s.Warmup = d.intKey(t, sec, "warmup")
	s.Measure = d.intKey(t, sec, "measure")
	s.Drain = d.intKeyOr(t, sec, "drain", s.Measure)
	s.DeadlockWindow = d.intKey(t, sec, "deadlock_window")
	s.MaxMeasure = d.intKeyOr(t, sec, "max_measure", DefaultMaxMeasure*s.Measure)
	if m := s.Measure; m > 0 && (s.MaxMeasure%m != 0 || s.MaxMeasure/m > fabric.MaxMeasureFactor) {
		d.fail(sec, "max_measure", "must be measure (%d cycles) times 1 to %d, got %d", m, fabric.MaxMeasureFactor, s.MaxMeasure)
	}
	s.Replications = int(d.intKey(t, sec, "replications"))
	if b := d.boolean(t, sec, "latency_distribution"); b != nil {
		s.LatencyDistribution = *b
	}
	s.Timeline = d.intKey(t, sec, "timeline")
	if b := d.boolean(t, sec, "link_stats"); b != nil {
		s.LinkStats = *b
	}
	s.Threads = int(d.intKey(t, sec, "threads"))
	s.MaxMemory = sysmem.Limit()
	if _, ok := t["max_memory"]; ok {
		s.MaxMemory = int64(d.numberKey(t, sec, "max_memory") * (1 << 30))
	}
	if b := d.boolean(t, sec, "stop_early"); b != nil {
		s.StopEarly = *b
		if s.StopEarly && s.Measure > 0 && s.Measure < fabric.BinsPerMeasure {
			d.fail(sec, "stop_early", "needs measure of at least %d cycles (the looks come at bins of measure/%d), got %d", fabric.BinsPerMeasure, fabric.BinsPerMeasure, s.Measure)
		}
	}
	if run := s.Warmup + s.MaxMeasure + s.Drain; s.Timeline > 0 && run/s.Timeline >= fabric.MaxTimelineWindows {
		d.fail(sec, "timeline", "a window of %d cycles splits warmup + max_measure + drain (%d cycles) into more than %d windows: give at least %d",
			s.Timeline, run, fabric.MaxTimelineWindows, run/fabric.MaxTimelineWindows+1)
	}
	if e.closed() {
		for _, key := range []string{"warmup", "measure", "drain", "max_measure", "latency_distribution", "timeline", "link_stats", "stop_early"} {
			if _, ok := t[key]; ok {
				d.fail(sec, key, "not used with kind = %q (%s runs until every flit has arrived)", e.Traffic.Kind, closedWhat(e))
			}
		}
	}
}

// sweep decodes [sweep].
func (d *decoder) sweep(e *Experiment, t map[string]any) {
	const sec = "sweep"
	if t == nil {
		t = map[string]any{} // no [sweep]: a saturation search with defaults
	}
	if e.closed() {
		for _, key := range slices.Sorted(maps.Keys(t)) {
			if slices.Contains(sectionKeys(sec), key) { // others: unknown key, below
				d.fail(sec, key, "not used with kind = %q (%s is one task per pattern, not a load sweep)", e.Traffic.Kind, closedWhat(e))
			}
		}
	}
	d.checkKeys(t, sec, sectionKeys(sec))
	s := &e.Sweep
	s.Loads = d.numberListKey(t, sec, "loads")
	def := ModeSaturation
	if s.Loads != nil {
		def = ModeLoads
	}
	s.Mode = d.choiceKeyOr(t, sec, "mode", def)
	for i, l := range s.Loads {
		if slices.Contains(s.Loads[:i], l) {
			d.fail(sec, "loads", "element %d: load %v appears twice", i+1, l)
		}
	}
	if s.Mode == ModeLoads && len(s.Loads) == 0 {
		d.fail(sec, "loads", "missing or empty (mode = \"loads\" needs a list such as [0.1, 0.2])")
	}
	s.Resolution = int(d.intKey(t, sec, "resolution"))
	if _, ok := t["resolution"]; ok && s.Mode != ModeSaturation {
		d.fail(sec, "resolution", "only used with mode = \"saturation\"")
	}
	s.Search = d.choiceKey(t, sec, "search")
	if _, ok := t["search"]; ok && s.Mode != ModeSaturation {
		d.fail(sec, "search", "only used with mode = \"saturation\"")
	}
	s.Guide = d.choiceKey(t, sec, "guide")
	if _, ok := t["guide"]; ok && s.Mode != ModeSaturation {
		d.fail(sec, "guide", "only used with mode = \"saturation\"")
	}
	if b := d.boolean(t, sec, "bound"); b != nil {
		s.Bound = *b
		if s.Mode != ModeSaturation {
			d.fail(sec, "bound", "only used with mode = \"saturation\"")
		}
	}
	s.Tolerance = d.numberKey(t, sec, "tolerance")
}

// crossChecks validates constraints between sections.
func (d *decoder) crossChecks(e *Experiment) {
	if e.Switch.Switching == switching.CutThrough && e.FlowControl.BufferFlits < e.Traffic.PacketFlits {
		d.fail("flow_control", "buffer_flits",
			"%d cannot hold a whole packet, which virtual cut-through needs (expected ≥ packet_flits = %d, or switching = \"wormhole\")",
			e.FlowControl.BufferFlits, e.Traffic.PacketFlits)
	}
	d.exchangeChecks(e)
}

// DisplayName returns the experiment's name, followed by its variant in
// brackets when the file sweeps keys: "ff [routing.algorithm=dor]".
func (e *Experiment) DisplayName() string {
	name := e.Name
	if e.Variant != "" {
		name += " [" + e.Variant + "]"
	}
	if e.Replication > 0 {
		name += fmt.Sprintf(" (replication %d)", e.Replication)
	}
	return name
}

// String describes the experiment's configuration on one line.
func (e *Experiment) String() string {
	sel := ""
	if e.Switch.Selection != switching.SelectCredits {
		sel = ", " + e.Switch.Selection.String() + " selection"
	}
	if e.Switch.Buffers != switching.BuffersFIFO {
		sel += ", " + e.Switch.Buffers.String() + " buffers"
	}
	if e.Switch.Allocator != switching.AllocOldestFirst {
		sel += fmt.Sprintf(", %s allocator × %d", e.Switch.Allocator, e.Switch.Iterations)
	}
	if e.Switch.VLChoice != switching.VLStatic {
		sel += ", " + e.Switch.VLChoice.String() + " VL choice"
	}
	return fmt.Sprintf("%s: %s, %s, %s %d VL × %d flits, %s%s, %d-flit packets",
		e.DisplayName(), e.label, e.Routing, e.FlowControl.Kind, e.FlowControl.VLs,
		e.FlowControl.BufferFlits, e.Switch.Switching, sel, e.Traffic.PacketFlits)
}
