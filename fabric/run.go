package fabric

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"

	"netsim/flit"
	"netsim/flowctl"
	"netsim/kernel"
	"netsim/nic"
	"netsim/routing"
	switching "netsim/switch"
	"netsim/topologies"
	"netsim/traffic"
)

// Event kinds dispatched by a point's engine.
const (
	kindSwitchTick uint8 = iota
	kindNICTick
	kindNICGenerate
	kindBatch
	kindWakeAll // tests only: wake every component, every cycle
)

// chunk is how many cycles run between checks for cancellation and for the
// end of drain.
const chunk = 256

// maxCycles bounds a run so every time fits the model's counters.
const maxCycles = 1 << 40

// Validate checks the configuration, naming the experiment key at fault.
func (c *Config) Validate() error {
	switch {
	case c.Net == nil:
		return errors.New("topology: missing")
	case c.Routing == nil:
		return errors.New("routing: missing")
	case c.Pattern == nil:
		return errors.New("pattern: missing")
	case !(c.Load > 0 && c.Load <= 1):
		return fmt.Errorf("load: must be in (0, 1] flits/host/cycle, got %v", c.Load)
	}
	return c.ValidateHardware()
}

// ValidateHardware checks what Validate checks but the load and the
// pattern: the configuration of a closed workload (RunExchange).
func (c *Config) ValidateHardware() error {
	switch {
	case c.Net == nil:
		return errors.New("topology: missing")
	case c.Routing == nil:
		return errors.New("routing: missing")
	case c.PacketFlits < 1 || c.PacketFlits > switching.MaxPacketFlits:
		return fmt.Errorf("packet_flits: must be between 1 and %d, got %d", switching.MaxPacketFlits, c.PacketFlits)
	case c.VLs < c.Routing.VLs():
		return fmt.Errorf("vls: routing %s needs %d VLs, got %d", c.Routing.Name(), c.Routing.VLs(), c.VLs)
	case c.Routing.SLs() < 1 || c.Routing.SLs() > routing.MaxSLs:
		return fmt.Errorf("algorithm: routing %s uses %d SLs, want 1 to %d", c.Routing.Name(), c.Routing.SLs(), routing.MaxSLs)
	case c.Speedup < 1:
		return fmt.Errorf("speedup: must be at least 1, got %d", c.Speedup)
	case c.RoutingDelay < 0:
		return fmt.Errorf("routing_delay: must be at least 0, got %d", c.RoutingDelay)
	case c.CrossbarDelay < 0:
		return fmt.Errorf("crossbar_delay: must be at least 0, got %d", c.CrossbarDelay)
	case c.Warmup < 0 || c.Warmup > maxCycles:
		return fmt.Errorf("warmup: must be between 0 and %d cycles, got %d", int64(maxCycles), c.Warmup)
	case c.Measure < 1 || c.Measure > maxCycles:
		return fmt.Errorf("measure: must be between 1 and %d cycles, got %d", int64(maxCycles), c.Measure)
	case c.Drain < 0 || c.Drain > maxCycles:
		return fmt.Errorf("drain: must be between 0 and %d cycles, got %d", int64(maxCycles), c.Drain)
	case c.Warmup+c.Measure+c.Drain > maxCycles:
		return fmt.Errorf("drain: warmup + measure + drain must not exceed %d cycles", int64(maxCycles))
	case c.DeadlockWindow < 1:
		return fmt.Errorf("deadlock_window: must be at least 1 cycle, got %d", c.DeadlockWindow)
	}
	if err := c.Dispersion.Validate(); err != nil {
		return err
	}
	if _, ok := c.Routing.(routing.Multipath); !ok && c.Dispersion.Mode != nic.Static {
		return fmt.Errorf("dispersion: %s needs a multipath source routing (routing \"source\"), not %s",
			c.Dispersion.Mode, c.Routing.Name())
	}
	mode, err := switching.ParseMode(c.Switching)
	if err != nil {
		return fmt.Errorf("switching: %w", err)
	}
	if _, err := c.selection(); err != nil {
		return err
	}
	if mode == switching.CutThrough && c.BufferFlits < c.PacketFlits {
		return fmt.Errorf("buffer_flits: virtual cut-through needs room for a whole packet (packet_flits = %d), got %d",
			c.PacketFlits, c.BufferFlits)
	}
	if err := c.linkParams(c.LinkLatency + c.CrossbarDelay).Validate(); err != nil {
		return err
	}
	if err := c.Net.Validate(); err != nil {
		return fmt.Errorf("topology: %w", err)
	}
	for i, sw := range c.Net.Switches {
		if lanes := len(sw.Ports) * c.VLs; lanes > switching.MaxLanes {
			return fmt.Errorf("vls: switch %d has %d ports × %d VLs = %d lanes, more than the %d a switch supports",
				i, len(sw.Ports), c.VLs, lanes, switching.MaxLanes)
		}
	}
	return nil
}

// selection returns the switches' selection function: "" is "credits".
func (c *Config) selection() (switching.Selection, error) {
	if c.Selection == "" {
		return switching.SelectCredits, nil
	}
	return switching.ParseSelection(c.Selection)
}

func (c *Config) linkParams(delay int) flowctl.Params {
	return flowctl.Params{
		Kind:     flowctl.Kind(c.FlowControl),
		VLs:      c.VLs,
		Buffer:   c.BufferFlits,
		Latency:  c.LinkLatency,
		Delay:    delay,
		Rate:     c.Speedup,
		StopMark: c.StopMark,
		GoMark:   c.GoMark,
	}
}

// point is one assembled simulation.
type point struct {
	cfg      *Config
	eng      *kernel.Engine
	pool     flit.Pool
	meter    nic.Meter
	switches []*switching.Switch
	nics     []*nic.NIC

	switchTicks, nicTicks tickSet
	batched               bool

	// Config.shuffleTicks: whether the cycle's batch event has been put
	// back behind the cycle's other events, the stream that orders the
	// ticks, and the ticks to run (NICs as −1−index).
	deferred bool
	tickRNG  kernel.RNG
	ticks    []int32
}

// Handle implements kernel.Handler.
//
// A cycle has two steps. First every packet due in the cycle is generated
// (generation events were all scheduled in earlier cycles, so they come
// before the cycle's batch event); a packet generated in cycle t may be
// injected in cycle t. Then the cycle's ticks, gathered in a bitmap per
// kind as their events arrive, run in index order from one batch event —
// NICs, then switches — so consecutive ticks touch neighbouring memory. A
// NIC woken by a packet generated after the batch event was scheduled
// ticks in a second batch, after the switches. The order of the ticks in a
// cycle does not change the results (TestTickOrderChangesNothing): what a
// component sends or frees takes effect in a later cycle, a switch sees a
// run that arrives behind another only from the next cycle on
// (flit.Queue.FrontRun), a lane's next head waits for the end of its
// predecessor's last run whether it was queued before that run started or
// after (switching.Switch.AcceptRun), a NIC acts on a route probe or a
// reply in the cycle its flit arrives, and a tick that finds nothing to do
// leaves no trace. What a component sees of another's same-cycle actions
// otherwise (news of credits on their way, generation counters, alarms)
// moves only when it looks again, not what it decides.
func (p *point) Handle(now kernel.Time, ev kernel.Event) {
	switch ev.Kind {
	case kindSwitchTick:
		p.switchTicks.mark(ev.Target)
		p.batch(now)
	case kindNICTick:
		p.nicTicks.mark(ev.Target)
		p.batch(now)
	case kindNICGenerate:
		p.nics[ev.Target].Generate(now)
	case kindBatch:
		p.batched = false
		if p.cfg.shuffleTicks {
			p.shuffledBatch(now, ev)
			break
		}
		p.nicTicks.drain(func(i int32) { p.nics[i].Tick(now) })
		p.switchTicks.drain(func(i int32) { p.switches[i].Tick(now) })
	case kindWakeAll:
		for _, n := range p.nics {
			n.Wake(now)
		}
		for _, s := range p.switches {
			s.Wake(now)
		}
		p.eng.Schedule(now+1, ev)
	}
}

// batch makes sure a batch event runs later in this cycle.
func (p *point) batch(now kernel.Time) {
	if !p.batched {
		p.batched = true
		p.eng.Schedule(now, kernel.Event{Kind: kindBatch})
	}
}

// tickSet is a set of component indices, drained in increasing order.
type tickSet struct {
	bits []uint64
	any  bool
}

func newTickSet(n int) tickSet { return tickSet{bits: make([]uint64, (n+63)/64)} }

func (t *tickSet) mark(i int32) {
	t.bits[i/64] |= 1 << (i % 64)
	t.any = true
}

func (t *tickSet) drain(f func(int32)) {
	if !t.any {
		return
	}
	t.any = false
	for w, word := range t.bits {
		if word == 0 {
			continue
		}
		t.bits[w] = 0
		for word != 0 {
			f(int32(w*64 + bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
}

// shuffledBatch runs the cycle's ticks in a random order, once every
// other event of the cycle has been handled (Config.shuffleTicks): the
// first call puts the batch event back at the end of the cycle's events,
// so NICs woken by packets generated after it join the shuffle too.
func (p *point) shuffledBatch(now kernel.Time, ev kernel.Event) {
	if !p.deferred {
		p.deferred, p.batched = true, true
		p.eng.Schedule(now, ev)
		return
	}
	p.deferred = false
	p.ticks = p.ticks[:0]
	p.nicTicks.drain(func(i int32) { p.ticks = append(p.ticks, -1-i) })
	p.switchTicks.drain(func(i int32) { p.ticks = append(p.ticks, i) })
	for i := len(p.ticks) - 1; i > 0; i-- {
		j := p.tickRNG.IntN(i + 1)
		p.ticks[i], p.ticks[j] = p.ticks[j], p.ticks[i]
	}
	for _, i := range p.ticks {
		if i < 0 {
			p.nics[-1-i].Tick(now)
		} else {
			p.switches[i].Tick(now)
		}
	}
}

// queued returns the flits in the source queues now, flit by flit: those of
// runs still going onto the links count as queued.
func (p *point) queued() int64 {
	q := p.meter.Queued
	for _, n := range p.nics {
		q += n.Unsent(p.eng.Now())
	}
	return q
}

// inFlight returns the flits sent by a source and not yet delivered.
func (p *point) inFlight() int64 { return p.meter.Injected - p.meter.Ejected }

func assemble(cfg *Config) (*point, error) {
	mode, _ := switching.ParseMode(cfg.Switching)
	sel, _ := cfg.selection()
	proc, err := traffic.NewBernoulli(cfg.Load, cfg.PacketFlits)
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	p := &point{cfg: cfg, tickRNG: kernel.NewRNG(cfg.Seed, 3)}
	p.eng = kernel.NewEngine(p)
	p.meter.From = kernel.Time(cfg.Warmup)
	p.meter.To = kernel.Time(cfg.Warmup + cfg.Measure)
	net := cfg.Net
	fd := cfg.CrossbarDelay + cfg.LinkLatency
	p.switches = make([]*switching.Switch, len(net.Switches))
	params := make([]switching.Params, len(net.Switches))
	for i := range net.Switches {
		params[i] = switching.Params{
			ID:           i,
			Ports:        len(net.Switches[i].Ports),
			VLs:          cfg.VLs,
			Buffer:       cfg.BufferFlits,
			Mode:         mode,
			Speedup:      cfg.Speedup,
			RoutingDelay: cfg.RoutingDelay,
			FlitDelay:    fd,
			TickKind:     kindSwitchTick,
			MaxRun:       cfg.maxRun,
			Selection:    sel,
			NoPark:       cfg.noPark,
		}
	}
	// All switches' ports, lanes and buffers live in a few huge-page slabs.
	st := switching.NewStorage(params)
	for i := range net.Switches {
		p.switches[i] = switching.New(params[i], p.eng, &p.pool, cfg.Routing, kernel.NewRNG(cfg.Seed, 1, uint64(i)), st)
	}
	p.nics = make([]*nic.NIC, len(net.Hosts))
	for h := range net.Hosts {
		p.nics[h] = nic.New(nic.Params{
			Host:        h,
			CutThrough:  mode == switching.CutThrough,
			VLs:         cfg.VLs,
			PacketFlits: cfg.PacketFlits,
			LinkLatency: cfg.LinkLatency,
			MaxRun:      cfg.maxRun,
			TickKind:    kindNICTick,
			GenKind:     kindNICGenerate,
			Dispersion:  cfg.Dispersion,
			Hosts:       len(net.Hosts),
			ReceiveRate: cfg.ReceiveRate,
		}, p.eng, &p.pool, &p.meter, cfg.Routing, cfg.Pattern, proc, kernel.NewRNG(cfg.Seed, 2, uint64(h)))
	}
	// Wire every link, one flow-control state per direction, kept by the
	// receiver.
	for si, sw := range net.Switches {
		for pi, port := range sw.Ports {
			switch port.Kind {
			case topologies.SwitchPort:
				peer := p.switches[port.Peer]
				fc, err := peer.ConnectIn(int(port.PeerPort), cfg.linkParams(fd), p.switches[si].Sender(pi))
				if err != nil {
					return nil, err
				}
				p.switches[si].ConnectOut(pi, fc, peer, int(port.PeerPort))
			case topologies.HostPort:
				n := p.nics[port.Peer]
				up, err := p.switches[si].ConnectIn(pi, cfg.linkParams(cfg.LinkLatency), n)
				if err != nil {
					return nil, err
				}
				n.ConnectOut(up, p.switches[si], pi)
				down, err := n.ConnectIn(cfg.linkParams(fd), p.switches[si].Sender(pi))
				if err != nil {
					return nil, err
				}
				p.switches[si].ConnectOut(pi, down, n, 0)
			}
		}
	}
	p.switchTicks = newTickSet(len(p.switches))
	p.nicTicks = newTickSet(len(p.nics))
	p.eng.SetWatchdog(kernel.Time(cfg.DeadlockWindow), func() bool { return p.inFlight() > 0 })
	return p, nil
}

// runTo advances the simulation to cycle end, checking ctx between chunks.
// stop, if not nil, ends the run early when it reports true.
func (p *point) runTo(ctx context.Context, end kernel.Time, stop func() bool) error {
	for p.eng.Now() < end {
		if err := ctx.Err(); err != nil {
			return err
		}
		if stop != nil && stop() {
			return nil
		}
		if err := p.eng.Run(min(end, p.eng.Now()+chunk)); err != nil {
			if errors.Is(err, kernel.ErrStopped) {
				for _, s := range p.switches {
					if s.Err() != nil {
						return s.Err()
					}
				}
			}
			var dl *kernel.DeadlockError
			if errors.As(err, &dl) {
				return fmt.Errorf("%w (%d flits in flight, %d in source queues)", err, p.inFlight(), p.meter.Queued)
			}
			return err
		}
	}
	return nil
}

// Run simulates one point: warm-up, measurement, then drain until every
// packet created during measurement has arrived (traffic keeps flowing so
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
	if live := p.pool.Live(); live != 0 {
		bad = append(bad, fmt.Sprintf("%d packets never fully delivered", live))
	}
	if n := p.buffered(); n != 0 {
		bad = append(bad, fmt.Sprintf("%d flits left in switch buffers", n))
	}
	if len(bad) > 0 {
		return st, fmt.Errorf("conservation violated: %s", strings.Join(bad, "; "))
	}
	return st, nil
}

func (p *point) buffered() int {
	n := 0
	for _, s := range p.switches {
		n += s.Buffered()
	}
	return n
}

func run(ctx context.Context, cfg *Config, flush bool) (Stats, *point, error) {
	if err := cfg.Validate(); err != nil {
		return Stats{}, nil, err
	}
	p, err := assemble(cfg)
	if err != nil {
		return Stats{}, nil, err
	}
	for _, n := range p.nics {
		n.Start(0)
	}
	if cfg.wakeAll {
		p.eng.Schedule(0, kernel.Event{Kind: kindWakeAll})
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
	if err := p.runTo(ctx, kernel.Time(cfg.Warmup+cfg.Measure), nil); err != nil {
		return fail(err)
	}
	st.QueueEnd = p.queued()
	arrived := func() bool { return p.meter.Delivered == p.meter.MeasuredPackets }
	if cfg.SkipDrain != nil && cfg.Drain > 0 && !arrived() {
		p.fill(&st)
		st.DrainSkipped = cfg.SkipDrain(st)
	}
	if !st.DrainSkipped {
		if err := p.runTo(ctx, kernel.Time(cfg.Warmup+cfg.Measure+cfg.Drain), arrived); err != nil {
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

func (p *point) fill(st *Stats) {
	m := &p.meter
	hosts := float64(len(p.nics))
	window := float64(p.cfg.Measure)
	st.Generated = float64(m.GeneratedFlits) / hosts / window
	st.Accepted = float64(m.EjectedFlits) / hosts / window
	st.LatencyAvg = m.LatencyAvg()
	st.LatencyP99 = m.LatencyQuantile(0.99)
	st.HopsAvg = m.HopsAvg()
	st.HopsMediumAvg, st.HopsLowAvg = m.HopsByPriority()
	st.MeasuredPackets, st.Delivered = m.MeasuredPackets, m.Delivered
	st.InjectedFlits, st.EjectedFlits = m.Injected, m.Ejected
	st.InFlight = p.inFlight()
	st.FlitHops = m.FlitHops
	for _, s := range p.switches {
		st.FlitHops += s.FlitHops
	}
	st.Cycles = p.eng.Now()
	st.Events = p.eng.Events()
}
