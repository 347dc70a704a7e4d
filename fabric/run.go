package fabric

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"netsim/kernel"
	"netsim/nic"
	switching "netsim/switch"
)

// chunk is how many cycles run between checks for cancellation and for the
// end of drain.
const chunk = 256

// advance runs the point's engines to cycle until: the only part's, or
// all parts' in lockstep (runParallel).
func (p *point) advance(until kernel.Time) error {
	if len(p.parts) == 1 {
		return p.parts[0].eng.Run(until)
	}
	return p.runParallel(until)
}

// runTo advances the simulation to cycle end, checking ctx between chunks.
// stop, if not nil, ends the run early when it reports true.
func (p *point) runTo(ctx context.Context, end kernel.Time, stop func() bool) error {
	for p.now() < end {
		if err := ctx.Err(); err != nil {
			return err
		}
		if stop != nil && stop() {
			return nil
		}
		step := min(end, p.now()+chunk)
		if l := p.links; l != nil && l.next < l.end {
			if p.now() == l.next {
				p.sampleLinks(l.next)
				l.next += LinkSampleCycles
			}
			step = min(step, l.next)
		}
		if err := p.advance(step); err != nil {
			if errors.Is(err, kernel.ErrStopped) {
				for _, s := range p.switches {
					if s.Err() != nil {
						return s.Err()
					}
				}
			}
			var dl *kernel.DeadlockError
			if errors.As(err, &dl) {
				return fmt.Errorf("%w (%d flits in flight, %d in source queues); %s", err, p.inFlight(), p.meter.Queued, p.describeWait())
			}
			return err
		}
	}
	return nil
}

// Run simulates one point: warm-up, measurement (extended while
// Config.Extend asks), then drain until every packet created during
// measurement has arrived (traffic keeps flowing so
// they see a loaded network) or Drain cycles have passed; Config.SkipDrain
// may end it with the measurement instead. A deadlock is returned as an
// error wrapping *kernel.DeadlockError.
func Run(ctx context.Context, cfg Config) (Stats, error) {
	st, _, err := run(ctx, &cfg, false)
	return st, err
}

// RunFlushed is Run followed by a flush: sources stop generating and the run
// continues until every generated flit has been delivered. It returns the
// statistics and an error if any flit was lost or duplicated. Tests use it
// to check conservation.
func RunFlushed(ctx context.Context, cfg Config) (Stats, error) {
	st, p, err := run(ctx, &cfg, true)
	if err != nil {
		return st, err
	}
	var bad []string
	if p.meter.Injected != p.meter.Ejected {
		bad = append(bad, fmt.Sprintf("injected %d flits, ejected %d", p.meter.Injected, p.meter.Ejected))
	}
	if live := p.live(); live != 0 {
		bad = append(bad, fmt.Sprintf("%d packets never fully delivered", live))
	}
	if n := p.buffered(); n != 0 {
		bad = append(bad, fmt.Sprintf("%d flits left in switch buffers", n))
	}
	if err := p.checkMemory(); err != nil {
		bad = append(bad, err.Error())
	}
	if len(bad) > 0 {
		return st, fmt.Errorf("conservation violated: %s", strings.Join(bad, "; "))
	}
	return st, nil
}

func run(ctx context.Context, cfg *Config, flush bool) (Stats, *point, error) {
	if err := cfg.Validate(); err != nil {
		return Stats{}, nil, err
	}
	p, err := assemble(cfg)
	if err != nil {
		return Stats{}, nil, err
	}
	for h, n := range p.nics {
		if cfg.Active == nil || cfg.Active[h] {
			n.Start(0)
		}
	}
	if cfg.wakeAll {
		p.parts[0].eng.Schedule(0, kernel.Event{Kind: kindWakeAll})
	}
	st := Stats{Offered: cfg.Load}
	fail := func(err error) (Stats, *point, error) {
		p.fill(&st)
		return st, p, err
	}
	if err := p.runTo(ctx, kernel.Time(cfg.Warmup), nil); err != nil {
		return fail(err)
	}
	st.QueueStart = p.queued()
	if cfg.LinkStats {
		p.links = p.newLinkMeter()
		p.links.end = kernel.Time(cfg.Warmup + cfg.Measure)
		p.startLinks()
	}
	if err := p.checkMemory(); flush && err != nil {
		return fail(err)
	}
	window, decided := cfg.Measure, false
	if cfg.Decided != nil {
		for _, at := range InterimLooks(cfg.Measure) {
			if err := p.runTo(ctx, kernel.Time(cfg.Warmup+at), nil); err != nil {
				return fail(err)
			}
			p.forMeters(func(m *nic.Meter) { m.Truncate(kernel.Time(cfg.Warmup + at)) })
			p.fill(&st)
			st.QueueEnd = p.queued()
			if decided = cfg.Decided(st); decided {
				window = at
				break
			}
			p.forMeters(func(m *nic.Meter) { m.Extend(kernel.Time(cfg.Warmup + cfg.Measure)) })
		}
	}
	if p.links != nil {
		p.links.end = kernel.Time(cfg.Warmup + window)
	}
	if err := p.runTo(ctx, kernel.Time(cfg.Warmup+window), nil); err != nil {
		return fail(err)
	}
	if err := p.checkMemory(); flush && err != nil {
		return fail(err)
	}
	for cfg.Extend != nil && !decided && window < cfg.maxMeasure() {
		p.fill(&st)
		st.QueueEnd = p.queued()
		if !cfg.Extend(st) {
			break
		}
		window = min(2*window, cfg.maxMeasure())
		p.forMeters(func(m *nic.Meter) { m.Extend(kernel.Time(cfg.Warmup + window)) })
		if p.links != nil {
			p.links.end = kernel.Time(cfg.Warmup + window)
		}
		if err := p.runTo(ctx, kernel.Time(cfg.Warmup+window), nil); err != nil {
			return fail(err)
		}
	}
	st.QueueEnd = p.queued()
	if p.links != nil {
		st.Links = p.linkStats(kernel.Time(cfg.Warmup + window))
	}
	arrived := func() bool { return p.meter.Delivered == p.meter.MeasuredPackets }
	if cfg.SkipDrain != nil && cfg.Drain > 0 && !arrived() {
		p.fill(&st)
		st.DrainSkipped = cfg.SkipDrain(st)
	}
	if !st.DrainSkipped {
		if err := p.runTo(ctx, kernel.Time(cfg.Warmup+window+cfg.Drain), arrived); err != nil {
			return fail(err)
		}
	}
	if flush {
		for _, n := range p.nics {
			n.StopGenerating()
		}
		empty := func() bool { return p.meter.Queued == 0 && p.inFlight() == 0 && p.meter.ProbesHeld == 0 }
		if err := p.runTo(ctx, math.MaxInt64/2, empty); err != nil {
			return fail(err)
		}
	}
	p.fill(&st)
	return st, p, nil
}

// checkMemory checks the switches' shared memories
// (switching.Switch.CheckShared), a test of RunFlushed.
func (p *point) checkMemory() error {
	if p.cfg.Buffers != switching.BuffersShared {
		return nil
	}
	for _, s := range p.switches {
		if err := s.CheckShared(); err != nil {
			return err
		}
	}
	return nil
}
