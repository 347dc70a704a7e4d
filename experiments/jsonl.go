package experiments

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"netsim/internal/numfmt"
)

// Decimal places of measured values in JSON output: fixed so output is
// byte-stable, enough to tell apart the loads of a 1/128 grid.
const (
	loadPlaces    = 6
	latencyPlaces = 3
	hopsPlaces    = 4
)

// decimal is a float rendered with a fixed number of decimal places
// (places < 0: the shortest exact representation), trailing zeros removed.
type decimal struct {
	v      float64
	places int
}

// MarshalJSON implements json.Marshaler; NaN and infinities become null.
func (d decimal) MarshalJSON() ([]byte, error) {
	if math.IsNaN(d.v) || math.IsInf(d.v, 0) {
		return []byte("null"), nil
	}
	return []byte(numfmt.Decimal(d.v, d.places)), nil
}

// measured returns v as a decimal of places, or nil if v is NaN (not
// measured) or infinite.
func measured(v float64, places int) *decimal {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &decimal{v, places}
}

// identity holds the fields that identify a record.
type identity struct {
	Kind        string          `json:"kind"`
	Experiment  string          `json:"experiment"`
	Topology    string          `json:"topology"`
	Routing     string          `json:"routing"`
	Pattern     string          `json:"pattern"`
	FlowControl string          `json:"flow_control"`
	Switching   string          `json:"switching"`
	Selection   string          `json:"selection,omitempty"` // left out when "credits", the default
	VLs         int             `json:"vls"`
	PacketFlits int             `json:"packet_flits"`
	Seed        uint64          `json:"seed"`
	Variant     string          `json:"variant"`
	Params      json.RawMessage `json:"params,omitempty"`
	Point       string          `json:"point"`
	Config      string          `json:"config"`
}

// pointLine is the JSON form of a point record.
type pointLine struct {
	identity
	Offered    decimal `json:"offered"`
	Generated  decimal `json:"generated"`
	Accepted   decimal `json:"accepted"`
	LatencyAvg decimal `json:"latency_avg"`
	LatencyP99 decimal `json:"latency_p99"`
	HopsAvg    decimal `json:"hops_avg"`
	// HopsMedium and HopsLow are left out of a line rebuilt from one
	// written before netsim measured them (NaN in its Stats), so it is
	// written again as it was.
	HopsMedium      *decimal `json:"hops_medium,omitempty"`
	HopsLow         *decimal `json:"hops_low,omitempty"`
	Delivered       int64    `json:"delivered"`
	MeasuredPackets int64    `json:"measured_packets"`
	Cycles          int64    `json:"cycles"`
	Stable          bool     `json:"stable"`
	DrainSkipped    bool     `json:"drain_skipped,omitempty"`
}

// saturationLine is the JSON form of a saturation record.
type saturationLine struct {
	identity
	Saturation decimal `json:"saturation"`
	Resolution int     `json:"resolution"`
	Tolerance  decimal `json:"tolerance"`
}

// errorLine is the JSON form of an error record; a failed exchange has no
// offered load.
type errorLine struct {
	identity
	Offered  *decimal `json:"offered,omitempty"`
	Deadlock bool     `json:"deadlock"`
	Error    string   `json:"error"`
}

// WriteJSON writes r as one line of JSON.
func WriteJSON(w io.Writer, r Record) error {
	e := r.Experiment
	id := identity{
		Kind:        r.Kind,
		Experiment:  e.Name,
		Topology:    e.label,
		Routing:     e.Routing,
		Pattern:     r.Pattern,
		FlowControl: e.FlowControl.Kind,
		Switching:   e.Switch.Switching,
		Selection:   nonDefault(e.Switch.Selection, DefaultSelection),
		VLs:         e.FlowControl.VLs,
		PacketFlits: e.Traffic.PacketFlits,
		Seed:        r.Seed,
		Variant:     e.Variant,
		Params:      paramsJSON(e.Params),
		Point:       r.Key(),
		Config:      e.config,
	}
	var v any
	switch r.Kind {
	case KindPoint:
		s := r.Stats
		v = pointLine{
			identity:        id,
			Offered:         decimal{r.Offered, -1},
			Generated:       decimal{s.Generated, loadPlaces},
			Accepted:        decimal{s.Accepted, loadPlaces},
			LatencyAvg:      decimal{s.LatencyAvg, latencyPlaces},
			LatencyP99:      decimal{s.LatencyP99, latencyPlaces},
			HopsAvg:         decimal{s.HopsAvg, hopsPlaces},
			HopsMedium:      measured(s.HopsMediumAvg, hopsPlaces),
			HopsLow:         measured(s.HopsLowAvg, hopsPlaces),
			Delivered:       s.Delivered,
			MeasuredPackets: s.MeasuredPackets,
			Cycles:          s.Cycles,
			Stable:          r.Stable,
			DrainSkipped:    s.DrainSkipped,
		}
	case KindSaturation:
		v = saturationLine{
			identity:   id,
			Saturation: decimal{r.Saturation, -1},
			Resolution: e.Sweep.Resolution,
			Tolerance:  decimal{e.Sweep.Tolerance, -1},
		}
	case KindError:
		msg := ""
		if r.Err != nil {
			msg = r.Err.Error()
		}
		var offered *decimal
		if !e.IsExchange() {
			offered = &decimal{r.Offered, -1}
		}
		v = errorLine{
			identity: id,
			Offered:  offered,
			Deadlock: r.Deadlock(),
			Error:    msg,
		}
	case KindEBB:
		v = newEBBLine(id, r)
	default:
		return fmt.Errorf("writing JSON: unknown record kind %q", r.Kind)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding %s record: %w", r.Kind, err)
	}
	b = append(b, '\n')
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	return nil
}

// nonDefault returns v, or "" if it is the default def: a field left out
// of results lines when it has its default keeps them as they were before
// the field existed.
func nonDefault(v, def string) string {
	if v == def {
		return ""
	}
	return v
}
