package experiments

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"netsim/fabric"
	"netsim/internal/fileio"
	"netsim/results"
	"netsim/workload"
)

// KindWorkload is application traffic ([traffic] kind = "workload"):
// collectives and replayed traces run to completion; also the record
// kind of their results.
const KindWorkload = results.KindWorkload

// PatternTrace is the workload pattern that replays [traffic] trace.
const PatternTrace = "trace"

// Defaults of the workload keys of [traffic].
const (
	DefaultLinkGbps     = 100.0 // InfiniBand EDR 4x
	DefaultPlacement    = workload.PlaceLinear
	DefaultWorkloadRank = 0 // every host, or the trace's ranks
)

// WorkloadSimulator runs one workload; fabric.RunWorkload is the real
// one.
type WorkloadSimulator func(ctx context.Context, cfg fabric.Config, x fabric.Workload) (fabric.WorkloadStats, error)

// WorkloadSpec is what a workload experiment runs, beyond its patterns
// (the collectives, or trace): sizes, ranks and their placement. It is
// hashed into the configuration (workloadHash).
type WorkloadSpec struct {
	// Ranks is the ranks of a collective; 0: every host. A trace has its
	// own.
	Ranks int
	// Placement is a workload.Place kind; PlacementFile its file
	// (placement = "file"), made absolute.
	Placement, PlacementFile string
	// HaloGrid is halo3d's process grid; nil: the most cubic.
	HaloGrid []int
	// Trace is the trace file of pattern trace, made absolute.
	Trace string
	// Repeat is how many times each rank runs its program over.
	Repeat int
	// LinkGbps is the link rate, which sets a cycle's duration.
	LinkGbps float64
}

// IsWorkload reports whether e runs application workloads: a run of it
// gives one KindWorkload record per pattern.
func (e *Experiment) IsWorkload() bool { return e.Traffic.Kind == KindWorkload }

// closed reports whether e's traffic runs to completion (an exchange or a
// workload): one task per pattern, no load sweep, no phases.
func (e *Experiment) closed() bool { return e.IsExchange() || e.IsWorkload() }

// workloadPatterns are the pattern names of workload traffic.
func workloadPatterns() []string { return append(workload.Collectives(), PatternTrace) }

// workloadTraffic decodes the [traffic] section of application workloads.
func (d *decoder) workloadTraffic(e *Experiment, t map[string]any) {
	const sec = "traffic"
	tr := &e.Traffic
	d.patternKey = "patterns"
	for _, k := range []string{"pattern", "packet_flits", "burst", "idle", "hotspot_fraction", "hotspot_hosts", "matrix", "message_size", "outstanding", "reply_flits"} {
		if _, ok := t[k]; ok {
			d.fail(sec, k, "not used with kind = %q (ranks send the messages of their programs, in packets of mtu_bytes)", KindWorkload)
		}
	}
	for _, k := range exchangeKeys() {
		if _, ok := t[k]; ok && !slices.Contains(workloadKeys(), k) {
			d.fail(sec, k, "only used with kind = %q", KindExchange)
		}
	}
	tr.Patterns = d.strList(t, sec, "patterns")
	switch {
	case t["patterns"] == nil:
		d.fail(sec, "patterns", "missing (expected a list of workloads: %s)", strings.Join(workloadPatterns(), ", "))
	case len(tr.Patterns) == 0:
		d.fail(sec, "patterns", "empty list (expected workloads: %s)", strings.Join(workloadPatterns(), ", "))
	}
	for i, p := range tr.Patterns {
		if !slices.Contains(workloadPatterns(), p) {
			d.fail(sec, "patterns", "unknown workload %q (known: %s)", p, strings.Join(workloadPatterns(), ", "))
		} else if slices.Contains(tr.Patterns[:i], p) {
			d.fail(sec, "patterns", "workload %q appears twice", p)
		}
	}
	tr.MessageBytes = int(d.intKey(t, sec, "message_bytes"))
	tr.MTUBytes = int(d.intKey(t, sec, "mtu_bytes"))
	tr.FlitBytes = int(d.intKey(t, sec, "flit_bytes"))
	if tr.MTUBytes < tr.FlitBytes {
		d.fail(sec, "mtu_bytes", "%d is less than flit_bytes = %d", tr.MTUBytes, tr.FlitBytes)
	} else if tr.PacketFlits = (tr.MTUBytes + tr.FlitBytes - 1) / tr.FlitBytes; tr.PacketFlits > maxPacketFlits {
		d.fail(sec, "mtu_bytes", "%d bytes are %d flits of %d bytes, more than the %d a packet may have",
			tr.MTUBytes, tr.PacketFlits, tr.FlitBytes, maxPacketFlits)
	}
	if packets := (tr.MessageBytes-1)/max(tr.MTUBytes, 1) + 1; packets > fabric.MaxMessagePackets {
		d.fail(sec, "message_bytes", "%d bytes are %d packets of mtu_bytes = %d, more than the %d a message may have",
			tr.MessageBytes, packets, tr.MTUBytes, fabric.MaxMessagePackets)
	}
	w := &tr.Workload
	w.Ranks = int(d.intKeyOr(t, sec, "ranks", DefaultWorkloadRank))
	w.Placement = d.choiceKey(t, sec, "placement")
	w.Repeat = int(d.intKey(t, sec, "repeat"))
	w.LinkGbps = d.numberKey(t, sec, "link_gbps")
	path := func(key, what string) string {
		p, ok := d.str(t, sec, key)
		if !ok {
			return ""
		}
		if p == "" {
			d.fail(sec, key, "empty (expected %s, relative to the experiment file's directory)", what)
			return ""
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(d.src.dirOf(sec, key), p)
		}
		return p
	}
	w.PlacementFile = path("placement_file", "a file of hosts, one per rank")
	switch {
	case w.Placement == workload.PlaceFile && w.PlacementFile == "" && t["placement_file"] == nil:
		d.fail(sec, "placement_file", "missing (placement = \"file\" reads each rank's host from it)")
	case w.Placement != workload.PlaceFile && t["placement_file"] != nil:
		d.fail(sec, "placement_file", "only used with placement = \"file\"")
	}
	hasTrace := slices.Contains(tr.Patterns, PatternTrace)
	w.Trace = path("trace", "a trace in netsim's format (netsim trace convert makes one from DUMPI)")
	switch {
	case hasTrace && t["trace"] == nil:
		d.fail(sec, "trace", "missing (pattern trace replays it)")
	case !hasTrace && t["trace"] != nil:
		d.fail(sec, "trace", "only used with pattern \"trace\"")
	}
	if _, ok := t["halo_grid"]; ok {
		w.HaloGrid = d.intList(t, sec, "halo_grid", 1, workload.MaxRanks)
		if !slices.Contains(tr.Patterns, workload.Halo3DName) {
			d.fail(sec, "halo_grid", "only used with pattern %q", workload.Halo3DName)
		} else if w.HaloGrid != nil && len(w.HaloGrid) != 3 {
			d.fail(sec, "halo_grid", "expected 3 dimensions [px, py, pz], got %d", len(w.HaloGrid))
		}
	}
}

// workloadKeys returns the [traffic] keys a workload uses.
func workloadKeys() []string {
	var names []string
	for _, k := range theSchema.keys {
		if k.WorkloadOnly {
			names = append(names, k.Name)
		}
	}
	return names
}

// buildWorkload checks e's workloads against its network: reads the
// trace (once for the variants that share it, through cache) and the
// placement file, and places each pattern's ranks, so a bad file is
// reported when the experiment loads. The configuration hash identifies
// the very bytes read.
func (d *decoder) buildWorkload(e *Experiment, cache *buildCache) {
	w := &e.Traffic.Workload
	if w.Trace != "" {
		bt, ok := cache.traces[w.Trace]
		if !ok {
			var data []byte
			data, bt.err = fileio.ReadFile(w.Trace, fileio.MaxLarge)
			if bt.err == nil {
				bt.w, bt.err = workload.ReadTrace(bytes.NewReader(data), w.Trace)
				bt.key = dataKey(w.Trace, data)
			}
			cache.traces[w.Trace] = bt
		}
		if bt.err != nil {
			d.fail("traffic", "trace", "%v", bt.err)
			return
		}
		e.trace, e.traceKey = bt.w, bt.key
	}
	if w.Placement == workload.PlaceFile {
		data, err := fileio.ReadFile(w.PlacementFile, fileio.MaxSmall)
		if err != nil {
			d.fail("traffic", "placement_file", "%v", err)
			return
		}
		e.placementData, e.placementKey = data, dataKey(w.PlacementFile, data)
	}
	for _, p := range e.Traffic.Patterns {
		x, _, err := e.workload(p)
		if err == nil && p == PatternTrace {
			err = x.CheckMessages()
		}
		if err != nil {
			d.fail("traffic", "patterns", "%s: %v", p, err)
		}
	}
}

// workloadRanks returns the ranks of workload pattern p: the trace's, or
// [traffic] ranks (every host by default).
func (e *Experiment) workloadRanks(p string) (int, error) {
	w := e.Traffic.Workload
	hosts := len(e.net.Hosts)
	if p == PatternTrace {
		n := len(e.trace.Ranks)
		if w.Ranks != 0 && w.Ranks != n {
			return 0, fmt.Errorf("ranks = %d, but the trace has %d ranks", w.Ranks, n)
		}
		if n > hosts {
			return 0, fmt.Errorf("the trace has %d ranks, more than the %d hosts", n, hosts)
		}
		return n, nil
	}
	if w.Ranks == 0 {
		return hosts, nil
	}
	if w.Ranks > hosts {
		return 0, fmt.Errorf("ranks = %d, more than the %d hosts", w.Ranks, hosts)
	}
	return w.Ranks, nil
}

// placement returns the host of each of ranks ranks.
func (e *Experiment) placement(ranks int) ([]int, error) {
	w := e.Traffic.Workload
	return workload.Place(w.Placement, ranks, e.net, e.Seed, e.placementData, w.PlacementFile)
}

// workloadHash returns what a workload experiment runs beyond its
// patterns, for the configuration hash; nil for other traffic.
func (e *Experiment) workloadHash() any {
	if !e.IsWorkload() {
		return nil
	}
	w := e.Traffic.Workload
	w.PlacementFile, w.Trace = e.placementKey, e.traceKey
	return struct {
		MessageBytes, MTUBytes, FlitBytes int
		Workload                          WorkloadSpec
	}{e.Traffic.MessageBytes, e.Traffic.MTUBytes, e.Traffic.FlitBytes, w}
}

// workloadKey returns the identity of the result of workload pattern p:
// "EXPERIMENT|VARIANT|PATTERN|workload".
func (e *Experiment) workloadKey(p string) string { return e.key(p, KindWorkload) }

// cycleNS returns the nanoseconds of a cycle: a flit's time on a link.
func (e *Experiment) cycleNS() float64 {
	return float64(e.Traffic.FlitBytes) * 8 / e.Traffic.Workload.LinkGbps
}

// runWorkload runs the workload of gr, or takes it from the resumed
// results.
func (gr *group) runWorkload(ctx context.Context, rn *run) (Record, error) {
	p := gr.exp.Traffic.Patterns[gr.pattern]
	return gr.runClosed(ctx, rn, gr.exp.workloadKey(p), func() (Record, error) { return runWorkload(ctx, rn.work, gr.exp, p) })
}

// runWorkload runs workload pattern p of e and returns its record:
// KindWorkload, or an error record if it failed. It returns an error only
// when ctx was cancelled.
func runWorkload(ctx context.Context, sim WorkloadSimulator, e *Experiment, p string) (Record, error) {
	cfg := e.exchangeConfig()
	cfg.Seed = PointSeed(e.Seed, p, 0)
	rec := Record{Kind: KindWorkload, Experiment: e, Pattern: p, Seed: cfg.Seed}
	fail := func(err error) (Record, error) {
		if ctx.Err() != nil {
			return Record{}, ctx.Err()
		}
		rec.Kind = KindError
		rec.Err = fmt.Errorf("experiment %s, workload %s: %w", e.DisplayName(), p, err)
		return rec, nil
	}
	x, bound, err := e.workload(p)
	if err != nil {
		return fail(err)
	}
	st, err := sim(ctx, cfg, x)
	if err != nil {
		return fail(err)
	}
	rec.Workload = e.workloadResult(p, x, st, bound)
	rec.EBB = fabric.EBB{Packets: st.Packets, RouteChanges: st.RouteChanges, Probes: st.Probes}
	return rec, nil
}

// workload builds workload pattern p of e on its network, with the
// collective's bound (0 for a trace).
func (e *Experiment) workload(p string) (fabric.Workload, int64, error) {
	tr := e.Traffic
	ranks, err := e.workloadRanks(p)
	if err != nil {
		return fabric.Workload{}, 0, err
	}
	hosts, err := e.placement(ranks)
	if err != nil {
		return fabric.Workload{}, 0, err
	}
	x := fabric.Workload{Hosts: hosts, Repeat: tr.Workload.Repeat, MTUBytes: tr.MTUBytes, FlitBytes: tr.FlitBytes, CycleNS: e.cycleNS()}
	var bound int64
	if p == PatternTrace {
		x.W = e.trace
	} else {
		if x.W, err = workload.Collective(p, ranks, int64(tr.MessageBytes), tr.Workload.HaloGrid); err != nil {
			return x, 0, err
		}
		bound = workload.Bound(p, ranks, int64(tr.MessageBytes), tr.Workload.HaloGrid, x.Flits) * int64(tr.Workload.Repeat)
	}
	return x, bound, nil
}

// workloadResult computes the results of workload p from its run.
func (e *Experiment) workloadResult(p string, x fabric.Workload, st fabric.WorkloadStats, bound int64) results.Workload {
	w := e.Traffic.Workload
	r := results.Workload{Ranks: len(x.Hosts), Placement: w.Placement, Repeat: w.Repeat, CycleNS: x.CycleNS,
		Completion: st.Cycles, Messages: st.Messages, Flits: st.Flits, RankMin: math.MaxInt64, BandwidthMin: math.NaN(),
		Efficiency: math.NaN()}
	if w.Repeat == 1 {
		r.Repeat = 0
	}
	if w.Placement == workload.PlaceFile {
		r.Placement += " " + filepath.Base(w.PlacementFile)
	}
	if p == PatternTrace {
		r.Trace = filepath.Base(w.Trace)
	} else {
		r.MessageBytes = int64(e.Traffic.MessageBytes)
		r.LowerBound = bound
		if st.Cycles > 0 {
			r.Efficiency = float64(bound) / float64(st.Cycles)
		}
	}
	r.CompletionUS = float64(st.Cycles) * x.CycleNS / 1000
	sum := 0.0
	comp := make([]byte, 0, 8*len(st.Completion)+2)
	comp = append(comp, '[')
	for rank, c := range st.Completion {
		r.RankMin = min(r.RankMin, c)
		sum += float64(c)
		if rank > 0 {
			comp = append(comp, ',')
		}
		comp = strconv.AppendInt(comp, c, 10)
		if f := float64(x.Flits(st.Sent[rank])); st.Sent[rank] > 0 && c > 0 {
			if bw := f / float64(c); math.IsNaN(r.BandwidthMin) || bw < r.BandwidthMin {
				r.BandwidthMin = bw
			}
		}
	}
	r.RankCompletion = append(comp, ']')
	r.RankAvg = sum / float64(max(len(st.Completion), 1))
	if st.Cycles > 0 {
		r.Bandwidth = float64(st.Flits) / float64(int64(len(x.Hosts))*st.Cycles)
	}
	if math.IsNaN(r.BandwidthMin) {
		r.BandwidthMin = 0
	}
	results.Quantize(&r)
	return r
}

// workloadLine fills the fields of l that a workload record r adds: the
// hosts and the dispersion, then the results.
func workloadLine(l *results.Line, r Record) {
	e := r.Experiment
	l.Hosts = e.Hosts()
	l.Dispersion = e.NIC.Dispersion.String()
	l.Workload = r.Workload
	l.Exchange = r.EBB // its packets, route changes and probes
	dispersionLine(l, e)
}

// writeWorkloadText writes the workload record r as one readable line.
func writeWorkloadText(w io.Writer, r Record) error {
	e, x := r.Experiment, r.Workload
	what := r.Pattern
	if x.Trace != "" {
		what += " " + x.Trace
	} else {
		what += fmt.Sprintf(" %d B", x.MessageBytes)
	}
	eff := ""
	if !math.IsNaN(x.Efficiency) {
		eff = fmt.Sprintf("  %.1f%% of bound", 100*x.Efficiency)
	}
	_, err := fmt.Fprintf(w, "%s  %d hosts  %s  %d ranks %s  completion %d cycles (%.3f µs)  bandwidth %.1f%%%s\n",
		e.DisplayName(), e.Hosts(), what, x.Ranks, x.Placement, x.Completion, x.CompletionUS, 100*x.Bandwidth, eff)
	return err
}

// closedKindOf names the traffic kind that uses [traffic] key k, of those
// that run to completion.
func closedKindOf(k string) string {
	ex, wl := slices.Contains(exchangeKeys(), k), slices.Contains(workloadKeys(), k)
	switch {
	case ex && wl:
		return KindExchange + `" or "` + KindWorkload
	case wl:
		return KindWorkload
	}
	return KindExchange
}

// closedWhat names what e runs to completion, in messages.
func closedWhat(e *Experiment) string {
	if e.IsWorkload() {
		return "a workload"
	}
	return "an exchange"
}
