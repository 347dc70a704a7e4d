package experiments

import (
	"netsim/congestion"
)

// congestion decodes [congestion], the congestion study of netsim
// congestion (package congestion). Values that depend on the network (the
// communicator size, the levels) are checked when it is built.
func (d *decoder) congestion(e *Experiment, t map[string]any) {
	const sec = "congestion"
	if t == nil {
		return
	}
	d.checkKeys(t, sec, sectionKeys(sec))
	s := &congestion.Spec{Seed: e.Seed, Level: -1}
	_, hasList := t["patterns"]
	_, hasOne := t["pattern"]
	switch {
	case hasList && hasOne:
		d.fail(sec, "pattern", "give either pattern or patterns, not both")
	case hasOne:
		if p, ok := d.str(t, sec, "pattern"); ok {
			s.Patterns = []string{p}
		}
	case hasList:
		s.Patterns = d.strList(t, sec, "patterns")
	default:
		d.fail(sec, "patterns", "missing (expected a list of patterns such as [\"bisect\"])")
	}
	s.Runs = int(d.intKey(t, sec, "runs"))
	s.Commsize = int(d.intKey(t, sec, "commsize"))
	s.Subset = d.choiceKey(t, sec, "subset")
	s.Metrics = d.strList(t, sec, "metrics")
	s.Level = int(d.intKey(t, sec, "level"))
	s.First = d.nonEmpty(t, sec, "first")
	s.Second = d.nonEmpty(t, sec, "second")
	s.PartCommsize = int(d.intKey(t, sec, "part_commsize"))
	s.Policy = d.choiceKey(t, sec, "paths")
	e.Congestion = s
}

// buildCongestion checks [congestion] against the built network.
func (d *decoder) buildCongestion(e *Experiment) {
	if e.Congestion == nil || e.net == nil {
		return
	}
	if err := e.Congestion.Check(len(e.net.Hosts)); err != nil {
		d.builderError("congestion", err)
	}
}
