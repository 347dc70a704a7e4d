package experiments

import (
	"context"
	"fmt"

	"netsim/fabric"
	"netsim/results"
)

// Simulator simulates one point; fabric.Run is the real one.
type Simulator func(context.Context, fabric.Config) (fabric.Stats, error)

// Config returns the simulation point of e for pattern index pattern (into
// Traffic.Patterns) at offered load load.
func (e *Experiment) Config(pattern int, load float64) fabric.Config {
	c := e.hardware()
	c.Pattern = e.patterns[pattern]
	if e.active != nil {
		c.Active = e.active[pattern]
	}
	c.Load = load
	c.Warmup, c.Measure, c.Drain = e.Sim.Warmup, e.Sim.Measure, e.Sim.Drain
	c.LatencyDistribution, c.Timeline, c.LinkStats = e.Sim.LatencyDistribution, e.Sim.Timeline, e.Sim.LinkStats
	c.Seed = PointSeed(e.Seed, e.Traffic.Patterns[pattern], load)
	return c
}

// hardware returns the part of a simulation configuration every kind of
// run of e shares: network, routing, packets, flow control, switches,
// NICs and the deadlock window.
func (e *Experiment) hardware() fabric.Config {
	return fabric.Config{
		Net:             e.net,
		Routing:         e.routing,
		PacketFlits:     e.Traffic.PacketFlits,
		Burst:           e.Traffic.Burst,
		MessageSizes:    e.Traffic.messageSizes,
		Idle:            e.Traffic.Idle,
		Outstanding:     e.Traffic.Outstanding,
		ReplyFlits:      e.Traffic.ReplyFlits,
		FlowControl:     e.FlowControl.Kind,
		VLs:             e.FlowControl.VLs,
		BufferFlits:     e.FlowControl.BufferFlits,
		StopMark:        e.FlowControl.StopMark,
		GoMark:          e.FlowControl.GoMark,
		Switching:       e.Switch.Switching,
		Selection:       e.Switch.Selection,
		Speedup:         e.Switch.Speedup,
		LinkLatency:     e.Switch.LinkLatency,
		LinkLatencies:   e.Switch.LinkLatencies,
		HostLinkLatency: e.Switch.HostLinkLatency,
		Floorplan:       e.floorplan,
		RoutingDelay:    e.Switch.RoutingDelay,
		CrossbarDelay:   e.Switch.CrossbarDelay,
		VLAllocDelay:    e.Switch.VLAllocDelay,
		SwAllocDelay:    e.Switch.SwAllocDelay,
		Allocator:       e.Switch.Allocator,
		Buffers:         e.Switch.Buffers,
		SharedReserve:   e.Switch.SharedReserve,
		SharedAlpha:     e.Switch.SharedAlpha,
		SharedLimit:     e.Switch.SharedLimit,
		AllocIterations: e.Switch.Iterations,
		VLChoice:        e.Switch.VLChoice,
		DeadlockWindow:  e.Sim.DeadlockWindow,
		Threads:         e.Sim.Threads,
		Dispersion:      e.dispersion(),
		ReceiveRate:     e.NIC.ReceiveRate,
	}
}

// runPoint simulates pattern index pattern of e at load and returns its
// record: a point with its verdict (judge), or an error record if the
// simulation failed. A point undecided at the end of its measurement
// window runs on, up to [sim] max_measure (fabric.Config.Extend); one
// whose backlog grew too fast is not drained (fabric.Config.SkipDrain). It returns an error only when ctx was
// cancelled.
func runPoint(ctx context.Context, sim Simulator, e *Experiment, pattern int, load float64) (Record, error) {
	cfg := e.Config(pattern, load)
	rec := Record{
		Kind:       KindPoint,
		Experiment: e,
		Pattern:    e.Traffic.Patterns[pattern],
		Offered:    load,
		Hosts:      e.Hosts(),
		Seed:       cfg.Seed,
	}
	rec.Sources, rec.Unreachable = e.partialSources(pattern)
	// The verdict needs only the window's statistics: an undecided point
	// runs on, and one the growth of its backlog did not pass ends with
	// its window instead of running its whole drain.
	tol, hosts, measure := e.Sweep.Tolerance, e.Sources(pattern), e.Sim.Measure
	cfg.MaxMeasure = e.Sim.MaxMeasure
	cfg.Extend = func(w fabric.Stats) bool { return judge(w, tol, hosts, measure).Outcome == results.VerdictUndecided }
	cfg.SkipDrain = func(w fabric.Stats) bool { return !judge(w, tol, hosts, measure).GrowthPassed() }
	if e.Sim.StopEarly {
		// Only an unstable verdict, by a wide margin, ends a window
		// early: near saturation a backlog may grow slowly at first and
		// faster later, as the buffers behind a bottleneck fill (the
		// scaled FlatFly's mixed-dor under shuffle at 5/32: growth
		// 0.0015 ± 0.0004 against a limit of 0.0031 after 6,250 cycles,
		// 0.0038 ± 0.0004 after 10,000), so a stable look is no forecast
		// of the window's verdict; nor is one a little above the limit
		// (InterimMargin).
		cfg.Decided = func(w fabric.Stats) bool { return clearlyUnstable(w, tol, hosts, measure) }
	}
	st, err := sim(ctx, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return Record{}, ctx.Err()
		}
		rec.Kind = KindError
		rec.Err = fmt.Errorf("experiment %s, pattern %s, load %v: %w", e.DisplayName(), rec.Pattern, load, err)
		return rec, nil
	}
	rec.Verdict = judge(st, tol, hosts, measure)
	rec.Stable = rec.Verdict.Outcome == results.VerdictStable
	if rec.Verdict.Outcome == results.VerdictUndecided && rec.Verdict.GrowthPassed() && st.Delivered < MinVerdictPackets {
		rec.Kind = KindError
		rec.Err = fmt.Errorf("experiment %s, pattern %s, load %v: %w", e.DisplayName(), rec.Pattern, load, &FewPacketsError{
			Delivered: st.Delivered, Measured: st.MeasuredPackets, Window: st.Window})
		return rec, nil
	}
	results.Quantize(&rec.Verdict)
	if st.Distribution != nil {
		results.Quantize(st.Distribution)
	}
	results.Quantize(&st.Measures)
	rec.Stats = st
	return rec, nil
}
