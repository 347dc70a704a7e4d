package experiments

// The decoding of the sections that describe the network: [topology],
// [routing], [switch] and [flow_control].

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"

	"netsim/flowctl"
	"netsim/keyerr"
	"netsim/routing"
	switching "netsim/switch"
	"netsim/topologies"
)

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
