package experiments

import (
	"context"
	"fmt"
	"io"

	"netsim/fabric"
	"netsim/nic"
	"netsim/results"
)

// ExchangeSimulator runs the exchange x on patterns patterns of one kind
// (fabric.RandomBisection or fabric.BridgePattern); fabric.RunEBB is the
// real one.
type ExchangeSimulator func(ctx context.Context, cfg fabric.Config, kind string, patterns int, x fabric.Exchange) (fabric.EBB, error)

// runExchange runs the exchange of gr, or takes it from the resumed
// results.
func (gr *group) runExchange(ctx context.Context, rn *run) (Record, error) {
	p := gr.exp.Traffic.Patterns[gr.pattern]
	return gr.runClosed(ctx, rn, gr.exp.ebbKey(p), func() (Record, error) { return runExchange(ctx, rn.exch, gr.exp, p) })
}

// runClosed runs the task of gr whose result is key, an exchange or a
// workload, by run, or takes it from the resumed results.
func (gr *group) runClosed(_ context.Context, rn *run, key string, run func() (Record, error)) (Record, error) {
	if rec, ok := rn.Resume.take(gr.exp, key); ok {
		rn.update(func(p *Progress) { p.Done++; p.Resumed++ })
		return rec, nil
	}
	rn.update(func(p *Progress) { p.Running++; p.Current = key })
	rec, err := run()
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
	results.Quantize(&ebb)
	rec.EBB = ebb
	return rec, nil
}

// ebbLine fills the fields of l that an exchange record r adds to the
// identity: the hosts, the dispersion (dispersionLine) and route_lag
// (above 0), then the results.
func ebbLine(l *results.Line, r Record) {
	e := r.Experiment
	l.Hosts = e.Hosts()
	l.Exchange = r.EBB
	dispersionLine(l, e)
	if e.NIC.RouteLag != 0 {
		l.RouteLag = &e.NIC.RouteLag
	}
}

// dispersionLine fills the fields of l that say how e's NICs chose
// routes: the dispersion, with its threshold and probability (adaptive
// and probing), max_probes (probing) and receive_rate (below 1).
func dispersionLine(l *results.Line, e *Experiment) {
	l.Dispersion = e.NIC.Dispersion.String()
	if d := e.NIC.Dispersion; d == nic.Adaptive || d == nic.Probing {
		l.Threshold = &e.NIC.Threshold
		l.Probability = &e.NIC.Probability
	}
	if e.NIC.Dispersion == nic.Probing {
		l.MaxProbes = &e.NIC.MaxProbes
	}
	if e.NIC.ReceiveRate != 0 {
		l.ReceiveRate = &e.NIC.ReceiveRate
	}
}

// writeEBBText writes the exchange record r as one readable line.
func writeEBBText(w io.Writer, r Record) error {
	e := r.Experiment
	_, err := fmt.Fprintf(w, "%s  %d hosts  %s  %s ×%d  EBB min %.1f%%  avg %.1f%%  max %.1f%%  out of order %d/%d packets\n",
		e.DisplayName(), e.Hosts(), e.NIC.Dispersion, r.Pattern, r.EBB.Patterns,
		100*r.EBB.Min, 100*r.EBB.Avg, 100*r.EBB.Max, r.EBB.OutOfOrder, r.EBB.Packets)
	return err
}
