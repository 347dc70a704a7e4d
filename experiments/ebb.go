package experiments

import (
	"context"
	"fmt"
	"io"

	"netsim/fabric"
)

// ExchangeSimulator runs the exchange x on patterns patterns of one kind
// (fabric.RandomBisection or fabric.BridgePattern); fabric.RunEBB is the
// real one.
type ExchangeSimulator func(ctx context.Context, cfg fabric.Config, kind string, patterns int, x fabric.Exchange) (fabric.EBB, error)

// ebbPlaces are the decimal places of EBB values (fractions of the link
// bandwidth) in JSON output.
const ebbPlaces = loadPlaces

// runExchange runs the exchange of gr, or takes it from the resumed
// results.
func (gr *group) runExchange(ctx context.Context, rn *run) (Record, error) {
	e := gr.exp
	pattern := e.Traffic.Patterns[gr.pattern]
	key := e.ebbKey(pattern)
	if rec, ok := rn.Resume.take(e, key); ok {
		rn.update(func(p *Progress) { p.Done++; p.Resumed++ })
		return rec, nil
	}
	rn.update(func(p *Progress) { p.Running++; p.Current = key })
	rec, err := runExchange(ctx, rn.exch, e, pattern)
	if err != nil {
		rn.update(func(p *Progress) { p.Running-- })
		return rec, err
	}
	return rec, rn.finished(rec, func(p *Progress) { p.Running--; p.Done++ })
}

// runExchange runs the exchange pattern kind pattern of e and returns its
// record: KindEBB, or an error record if the exchange failed. It returns
// an error only when ctx was cancelled.
func runExchange(ctx context.Context, sim ExchangeSimulator, e *Experiment, pattern string) (Record, error) {
	cfg := e.exchangeConfig()
	cfg.Seed = PointSeed(e.Seed, pattern, 0)
	rec := Record{Kind: KindEBB, Experiment: e, Pattern: pattern, Seed: cfg.Seed}
	x := fabric.Exchange{Messages: e.Traffic.Messages, MessageBytes: e.Traffic.MessageBytes,
		MTUBytes: e.Traffic.MTUBytes, FlitBytes: e.Traffic.FlitBytes}
	ebb, err := sim(ctx, cfg, pattern, e.Traffic.Bisections, x)
	if err != nil {
		if ctx.Err() != nil {
			return Record{}, ctx.Err()
		}
		rec.Kind = KindError
		rec.Err = fmt.Errorf("experiment %s, exchange %s: %w", e.DisplayName(), pattern, err)
		return rec, nil
	}
	round := func(v float64) float64 { return roundPlaces(v, ebbPlaces) }
	ebb.Min, ebb.Avg, ebb.Max = round(ebb.Min), round(ebb.Avg), round(ebb.Max)
	rec.EBB = ebb
	return rec, nil
}

// ebbLine is the JSON form of an exchange record: the identity, then the
// hosts and the dispersion (threshold and probability with adaptive and
// probing, max_probes with probing, receive_rate below 1, route_lag above
// 0), then the
// results (min, avg, max are fractions of the link bandwidth).
type ebbLine struct {
	identity
	Hosts           int      `json:"hosts"`
	Dispersion      string   `json:"dispersion"`
	Threshold       *int     `json:"threshold,omitempty"`
	Probability     *decimal `json:"probability,omitempty"`
	MaxProbes       *int     `json:"max_probes,omitempty"`
	ReceiveRate     *decimal `json:"receive_rate,omitempty"`
	RouteLag        *int     `json:"route_lag,omitempty"`
	Patterns        int      `json:"patterns"`
	Min             decimal  `json:"min"`
	Avg             decimal  `json:"avg"`
	Max             decimal  `json:"max"`
	Packets         int64    `json:"packets"`
	OutOfOrder      int64    `json:"out_of_order"`
	MaxDisplacement int64    `json:"max_displacement"`
	RouteChanges    int64    `json:"route_changes"`
	Probes          int64    `json:"probes"`
}

// newEBBLine returns the JSON form of the exchange record r.
func newEBBLine(id identity, r Record) ebbLine {
	e := r.Experiment
	l := ebbLine{
		identity:        id,
		Hosts:           e.Hosts(),
		Dispersion:      e.NIC.Dispersion,
		Patterns:        r.EBB.Patterns,
		Min:             decimal{r.EBB.Min, ebbPlaces},
		Avg:             decimal{r.EBB.Avg, ebbPlaces},
		Max:             decimal{r.EBB.Max, ebbPlaces},
		Packets:         r.EBB.Packets,
		OutOfOrder:      r.EBB.OutOfOrder,
		MaxDisplacement: r.EBB.MaxDisplacement,
		RouteChanges:    r.EBB.RouteChanges,
		Probes:          r.EBB.Probes,
	}
	if d := e.NIC.Dispersion; d == "adaptive" || d == "probing" {
		l.Threshold = &e.NIC.Threshold
		l.Probability = &decimal{e.NIC.Probability, -1}
	}
	if e.NIC.Dispersion == "probing" {
		l.MaxProbes = &e.NIC.MaxProbes
	}
	if e.NIC.ReceiveRate != 0 {
		l.ReceiveRate = &decimal{e.NIC.ReceiveRate, -1}
	}
	if e.NIC.RouteLag != 0 {
		l.RouteLag = &e.NIC.RouteLag
	}
	return l
}

// writeEBBText writes the exchange record r as one readable line.
func writeEBBText(w io.Writer, r Record) error {
	e := r.Experiment
	_, err := fmt.Fprintf(w, "%s  %d hosts  %s  %s ×%d  EBB min %.1f%%  avg %.1f%%  max %.1f%%  out of order %d/%d packets\n",
		e.DisplayName(), e.Hosts(), e.NIC.Dispersion, r.Pattern, r.EBB.Patterns,
		100*r.EBB.Min, 100*r.EBB.Avg, 100*r.EBB.Max, r.EBB.OutOfOrder, r.EBB.Packets)
	return err
}
