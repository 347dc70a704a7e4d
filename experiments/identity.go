package experiments

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"netsim/internal/fileio"
	"netsim/internal/numfmt"
	"netsim/routing"
	"netsim/topologies"
)

// configHash returns a short hash of everything that determines the
// results of e's points other than the pattern and the load: the
// experiment seed, the network, routing, flow control, switch, packet
// length, phases and stability tolerance. Results read back for resuming
// must carry the hash of the experiment they are resumed into, so a file
// edited since they were computed is noticed. The list of patterns and of
// loads and the search resolution are left out: adding a load or a pattern
// keeps the points already computed.
func configHash(e *Experiment) string {
	topo := e.Topology
	topo.Path = filepath.Base(topo.Path) // "." without a file: the hashes of built topologies stay
	if e.Topology.Path != "" {
		topo.Path = fileKey(e.Topology.Path) // the same file from another directory; an edited one is another
	}
	sw := e.Switch          // the default selection is left out: the hash of files without the key is unchanged
	sw.Layout = e.layoutKey // the bytes read (buildFloorplan)
	routingKey := e.Routing
	if e.RoutingPath != "" || e.RoutingFormat != "" {
		// "vl=sl": tables read from a file travel on their SLs' VLs, no
		// longer spread over copies: lines computed before are stale.
		routingKey += "\x00" + fileKey(e.RoutingPath) + "\x00" + e.RoutingFormat + "\x00vl=sl"
	}
	if e.Topology.Format == topologies.FormatIBNetDiscover {
		// The engines route an imported fabric as OpenSM does (its order
		// of destinations, GUIDs breaking ties): lines computed before are
		// stale.
		routingKey += "\x00opensm"
	}
	if e.RoutingSL2VL != "" || e.RoutingPathSLs != "" || e.RoutingUnreachable == routing.UnreachableSkip || e.RoutingRoots != "" { // left out when absent: older hashes stay
		routingKey += "\x00" + fileKey(e.RoutingSL2VL) + "\x00" + fileKey(e.RoutingPathSLs) + "\x00" + e.RoutingUnreachable + "\x00" + fileKey(e.RoutingRoots)
	}
	if e.RoutingComputeNodes != "" || e.RoutingIONodes != "" || e.RoutingMaxReverseHops > 0 {
		routingKey += "\x00nodes\x00" + fileKey(e.RoutingComputeNodes) + "\x00" + fileKey(e.RoutingIONodes) + fmt.Sprintf("\x00%d", e.RoutingMaxReverseHops)
	}
	if e.RoutingLMC > 0 {
		routingKey += fmt.Sprintf("\x00lmc=%d", e.RoutingLMC)
	}
	if e.RoutingTorusConfig != "" {
		routingKey += "\x00torus_config\x00" + fileKey(e.RoutingTorusConfig)
	}
	b, err := json.Marshal(struct {
		Seed        uint64
		Topology    any
		Label       string
		Routing     string
		FlowControl FlowControl
		Switch      Switch
		PacketFlits int
		Sim         Sim
		Tolerance   float64
		NIC         *NIC     `json:",omitempty"`
		Traffic     *Traffic `json:",omitempty"`
		MaxMeasure  int64    `json:",omitempty"`
		Latencies   bool     `json:",omitempty"`
		Timeline    int64    `json:",omitempty"`
		LinkStats   bool     `json:",omitempty"`
		StopEarly   bool     `json:",omitempty"`
		Patterns    string   `json:",omitempty"`
		Workload    any      `json:",omitempty"`
	}{e.Seed, topo, e.label, routingKey, e.FlowControl, sw, e.Traffic.PacketFlits, e.Sim, e.Sweep.Tolerance, e.nicHash(), e.exchangeHash(), e.maxMeasureHash(),
		e.Sim.LatencyDistribution, e.Sim.Timeline, e.Sim.LinkStats, e.Sim.StopEarly, e.patternHash(), e.workloadHash()})
	if err != nil {
		b = fmt.Appendf(nil, "%v", err) // cannot happen: plain data
	}
	h := fnv.New64a()
	h.Write(b)
	return fmt.Sprintf("%016x", h.Sum64())
}

// patternHash returns the parameters of the experiment's traffic beyond
// its patterns' names — hotspot's share and hot hosts, the matrix file's
// contents, on/off injection, request–reply — or "" (left out) when none
// is used, so
// other hashes do not change.
func (e *Experiment) patternHash() string {
	var parts []string
	if slices.Contains(e.Traffic.Patterns, "hotspot") {
		parts = append(parts, fmt.Sprintf("hotspot=%g/%d", e.Traffic.HotspotFraction, e.Traffic.HotspotHosts))
	}
	if e.Traffic.Matrix != "" {
		parts = append(parts, "matrix="+fileKey(e.Traffic.Matrix))
	}
	if m := e.Traffic.MessageSize; m != "" {
		if f := strings.Fields(m); len(f) == 2 && f[0] == "histogram" {
			m = "histogram " + fileKey(f[1])
		}
		parts = append(parts, "messages="+m)
	}
	if e.Traffic.Burst > 0 {
		parts = append(parts, fmt.Sprintf("onoff=%g/%g", e.Traffic.Burst, e.Traffic.Idle))
	}
	if e.Traffic.Outstanding > 0 {
		parts = append(parts, fmt.Sprintf("requests=%d/%d", e.Traffic.Outstanding, e.Traffic.ReplyFlits))
	}
	return strings.Join(parts, "\x00")
}

// fileKey identifies a file an experiment reads (a topology, tables, SL2VL
// tables, path records, roots) in the hash: its base name, so the same
// file in another directory matches, and a digest of its contents, so a
// file regenerated since the results were computed does not. "" stays "".
func fileKey(path string) string {
	if path == "" {
		return ""
	}
	data, err := fileio.ReadFile(path, fileio.MaxTables)
	if err != nil {
		return filepath.Base(path) // unreadable: loading it has failed already
	}
	return dataKey(path, data)
}

// dataKey is fileKey of the contents data read from path.
func dataKey(path string, data []byte) string {
	h := fnv.New64a()
	h.Write(data)
	return fmt.Sprintf("%s@%016x", filepath.Base(path), h.Sum64())
}

// maxMeasureHash returns [sim] max_measure for the hash, or 0 (left out)
// when it is the default, so the hashes of files written before the key
// existed do not change.
func (e *Experiment) maxMeasureHash() int64 {
	if e.Sim.MaxMeasure == DefaultMaxMeasure*e.Sim.Measure {
		return 0
	}
	return e.Sim.MaxMeasure
}

// keySep separates the fields of a point key.
const keySep = "|"

// pointKey returns the identity of the point of e at pattern and load:
// "EXPERIMENT|VARIANT|PATTERN|LOAD", the load in its shortest exact form.
func (e *Experiment) pointKey(pattern string, load float64) string {
	return e.key(pattern, numfmt.Decimal(load, -1))
}

// key returns the key of e's result called what for pattern:
// "EXPERIMENT|VARIANT|PATTERN|WHAT", then "|replication R" for a
// replication R > 0.
func (e *Experiment) key(pattern, what string) string {
	k := strings.Join([]string{e.Name, e.Variant, pattern, what}, keySep)
	if e.Replication > 0 {
		k += keySep + fmt.Sprintf("replication %d", e.Replication)
	}
	return k
}

// saturationKey returns the identity of the saturation result of e for
// pattern: "EXPERIMENT|VARIANT|PATTERN|saturation 1/RESOLUTION".
func (e *Experiment) saturationKey(pattern string) string {
	return e.key(pattern, fmt.Sprintf("saturation 1/%d", e.Sweep.Resolution))
}

// followChain identifies the chain of saturation searches of pattern
// index pattern in the variants of e's file under SearchFollow (variants
// share their file's name, which no other file of a run has).
func (e *Experiment) followChain(pattern int) string {
	return e.Name + keySep + e.Traffic.Patterns[pattern] + keySep + strconv.Itoa(e.Replication)
}

// ebbKey returns the identity of the exchange result of e for the
// exchange pattern kind pattern: "EXPERIMENT|VARIANT|PATTERN|ebb".
func (e *Experiment) ebbKey(pattern string) string {
	return e.key(pattern, KindEBB)
}

// Key returns the record's point key, the identity under which results
// files store it and resumed runs find it: "EXPERIMENT|VARIANT|PATTERN|LOAD"
// for points and failed points, "EXPERIMENT|VARIANT|PATTERN|saturation
// 1/RESOLUTION" for saturation results, "EXPERIMENT|VARIANT|PATTERN|ebb"
// for exchange results and failed exchanges.
func (r Record) Key() string {
	switch {
	case r.Kind == KindSaturation:
		return r.Experiment.saturationKey(r.Pattern)
	case r.Kind == KindEBB || r.Experiment.IsExchange():
		return r.Experiment.ebbKey(r.Pattern)
	case r.Kind == KindWorkload || r.Experiment.IsWorkload():
		return r.Experiment.workloadKey(r.Pattern)
	}
	return r.Experiment.pointKey(r.Pattern, r.Offered)
}
