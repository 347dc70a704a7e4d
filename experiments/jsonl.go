package experiments

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"netsim/results"
	switching "netsim/switch"
)

// WriteJSON writes r as one line of JSON (a results.Line).
func WriteJSON(w io.Writer, r Record) error {
	l, err := r.line()
	if err != nil {
		return err
	}
	b, err := l.AppendJSON(nil)
	if err != nil {
		return fmt.Errorf("encoding %s record: %w", r.Kind, err)
	}
	b = append(b, '\n')
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	return nil
}

// line returns the results line of r.
func (r Record) line() (results.Line, error) {
	e := r.Experiment
	l := results.Line{
		Kind:        r.Kind,
		Experiment:  e.Name,
		Topology:    e.label,
		Routing:     e.Routing,
		Pattern:     r.Pattern,
		FlowControl: string(e.FlowControl.Kind),
		Switching:   e.Switch.Switching.String(),
		Selection:   e.Switch.Selection.String(),
		Buffers:     e.Switch.Buffers.String(),
		Allocator:   e.Switch.Allocator.String(),
		Iterations:  e.Switch.Iterations,
		VLChoice:    e.Switch.VLChoice.String(),
		VLs:         e.FlowControl.VLs,
		PacketFlits: e.Traffic.PacketFlits,
		Seed:        r.Seed,
		Variant:     e.Variant,
		Replication: e.Replication,
		Params:      paramsJSON(e.Params),
		Point:       r.Key(),
		Config:      e.config,
		Offered:     r.Offered,
	}
	if e.Switch.Buffers == switching.BuffersShared {
		// The values in effect, as the switches read them.
		p := switching.Params{Buffer: e.FlowControl.BufferFlits, LongestPacket: e.Traffic.PacketFlits,
			Reserve: e.Switch.SharedReserve, Limit: e.Switch.SharedLimit}
		reserve, alpha, limit := p.SharedReserve(), e.Switch.SharedAlpha, p.LimitSetting()
		l.SharedReserve, l.SharedAlpha, l.SharedLimit = &reserve, &alpha, &limit
	}
	switch r.Kind {
	case KindPoint:
		l.Measures = r.Stats.Measures
		if rtt := r.Stats.RTTAvg; e.Traffic.Outstanding > 0 && rtt > 0 {
			rtt = results.Round(rtt, 3)
			l.RTTAvg = &rtt
		}
		l.Hosts = r.Hosts
		l.Sources, l.Unreachable = r.Sources, r.Unreachable
		l.Stable = r.Stable
		if r.Stats.Timeline != nil {
			b, err := json.Marshal(r.Stats.Timeline)
			if err != nil {
				return results.Line{}, fmt.Errorf("timeline of %s: %w", r.Key(), err)
			}
			l.Timeline = b
		}
		l.Distribution = results.NoDistribution()
		if r.Stats.Distribution != nil {
			l.Distribution = *r.Stats.Distribution
		}
		l.Verdict = r.Verdict
		if r.Verdict.Outcome == "" {
			l.Verdict = results.NoVerdict() // a record made without one
		}
		l.DrainSkipped = r.Stats.DrainSkipped
	case KindSaturation:
		l.Saturation = r.Saturation
		l.Hosts = r.Hosts
		l.Sources, l.Unreachable = r.Sources, r.Unreachable
		l.Resolution = e.Sweep.Resolution
		l.Tolerance = e.Sweep.Tolerance
		l.Undecided, l.Contrary = r.Undecided, r.Contrary
		if r.Bound > 0 {
			b := r.Bound
			l.Bound = &b
		}
	case KindError:
		if r.Err != nil {
			l.Error = r.Err.Error()
		}
		if e.closed() {
			l.Offered = math.NaN()
		}
		l.Deadlock = r.Deadlock()
	case KindEBB:
		ebbLine(&l, r)
	case KindWorkload:
		workloadLine(&l, r)
	default:
		return l, fmt.Errorf("writing JSON: unknown record kind %q", r.Kind)
	}
	return l, nil
}
