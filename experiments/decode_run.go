package experiments

// The decoding of the sections that describe what runs on the network:
// [traffic], [sim] and [sweep].

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"netsim/fabric"
	"netsim/internal/fileio"
	"netsim/internal/sysmem"
	"netsim/traffic"
)

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
