package fabric

import (
	"fmt"

	"netsim/flit"
	"netsim/kernel"
	"netsim/nic"
	"netsim/routing"
	switching "netsim/switch"
	"netsim/topologies"
	"netsim/traffic"
)

// point is one assembled simulation.
type point struct {
	cfg      *Config
	switches []*switching.Switch
	nics     []*nic.NIC

	// parts are the partitions of the network (Config.Threads), each
	// with its engine, pool and meter; there is one without threads.
	parts []*part
	// meter is the meter of the whole point: the only part's, or the sum
	// of the parts' meters (meters) as of the end of the last run.
	meter  *nic.Meter
	meters []*nic.Meter
	// pools are the parts' pools (flit.Rebalance after a parallel run).
	pools []*flit.Pool
	// bar, clocks and errs are runParallel's, kept from run to run.
	bar    *barrier
	clocks []clock
	errs   []error
	// clock is the point's time when several parts run in lockstep.
	clock clock

	// links meters the links, with Config.LinkStats.
	links *linkMeter
	// work runs a workload (RunWorkload), nil otherwise.
	work *workloadRun
}

// now returns the point's current cycle.
func (p *point) now() kernel.Time {
	if len(p.parts) == 1 {
		return p.parts[0].eng.Now()
	}
	return p.clock.now
}

// events returns the kernel events the point's engines processed.
func (p *point) events() int64 {
	var n int64
	for _, q := range p.parts {
		n += q.eng.Events()
	}
	return n
}

// live returns the packets not yet released.
func (p *point) live() int {
	n := 0
	for _, q := range p.parts {
		n += q.pool.Live()
	}
	return n
}

// forMeters calls f on every part's meter, then gathers them.
func (p *point) forMeters(f func(m *nic.Meter)) {
	for _, m := range p.meters {
		f(m)
	}
	if len(p.meters) > 1 {
		p.meter.Gather(p.meters)
	}
}

func assemble(cfg *Config) (*point, error) {
	mode, sel := cfg.Switching, cfg.Selection
	proc, err := traffic.NewBernoulli(cfg.Load, cfg.PacketFlits)
	if cfg.Burst > 0 || cfg.Idle > 0 {
		proc, err = traffic.NewOnOff(cfg.Load, cfg.PacketFlits, cfg.Burst, cfg.Idle)
	}
	if err == nil && cfg.MessageSizes != nil {
		proc, err = proc.WithMessages(cfg.MessageSizes.Mean())
	}
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	p := &point{cfg: cfg}
	net := cfg.Net
	threads := min(max(cfg.Threads, 1), len(net.Switches))
	if threads > 1 && (cfg.deferCalls || cfg.shuffleTicks || cfg.wakeAll) {
		return nil, fmt.Errorf("threads: %d with a test-only tick order", threads)
	}
	of := make([]int32, len(net.Switches))
	if threads > 1 {
		of = partition(net, threads)
	}
	p.parts = make([]*part, threads)
	for i := range p.parts {
		q := &part{p: p, index: i, tickRNG: kernel.NewRNG(cfg.Seed, 3)}
		q.eng = kernel.NewEngine(q)
		if i == 0 {
			q.pool = new(flit.Pool)
			if cfg.oldestFirst {
				q.pool.SetOldestFirst()
			}
		} else {
			q.pool = p.parts[0].pool.Share()
		}
		if threads > 1 {
			q.out = make([][]crossCall, threads)
		}
		m := &q.meter
		m.From = kernel.Time(cfg.Warmup)
		m.To = kernel.Time(cfg.Warmup + cfg.Measure)
		if cfg.Timeline > 0 {
			m.SetTimeline(cfg.Timeline, int((cfg.Warmup+cfg.maxMeasure()+cfg.Drain)/cfg.Timeline+1))
		}
		per := min(BinsPerMeasure, cfg.Measure)
		m.SetBins(cfg.Measure, per, int(per*(cfg.maxMeasure()/cfg.Measure)))
		p.parts[i] = q
		p.meters = append(p.meters, m)
		p.pools = append(p.pools, q.pool)
	}
	p.meter = p.meters[0]
	if threads > 1 {
		p.meter = new(nic.Meter)
		p.meter.Gather(p.meters)
	}
	if cfg.deferCalls {
		p.parts[0].calls = &callQueue{}
	}
	shortest := cfg.shortestPacket()
	var classes *routing.Classes
	if cfg.VLChoice == switching.VLDynamic {
		if classes, err = routing.NewClasses(cfg.Routing.VLs(), cfg.VLs); err != nil {
			return nil, fmt.Errorf("vl_choice: %w", err)
		}
	}
	p.switches = make([]*switching.Switch, len(net.Switches))
	params := cfg.allSwitchParams(mode, sel, shortest, classes)
	// All switches' ports, lanes and buffers live in a few huge-page slabs.
	st := switching.NewStorage(params)
	for i := range net.Switches {
		q := p.parts[of[i]]
		p.switches[i] = switching.New(params[i], q.eng, q.pool, cfg.Routing, kernel.NewRNG(cfg.Seed, 1, uint64(i)), st)
	}
	p.nics = make([]*nic.NIC, len(net.Hosts))
	for h := range net.Hosts {
		q := p.parts[of[net.Hosts[h].Switch]]
		p.nics[h] = nic.New(nic.Params{
			Host:        h,
			CutThrough:  mode == switching.CutThrough,
			VLs:         cfg.VLs,
			PacketFlits: cfg.PacketFlits,
			LinkLatency: cfg.hostLatency(),
			Sizes:       cfg.MessageSizes,
			MaxRun:      cfg.maxRun,
			TickKind:    kindNICTick,
			GenKind:     kindNICGenerate,
			Dispersion:  cfg.Dispersion,
			Hosts:       len(net.Hosts),
			ReceiveRate: cfg.ReceiveRate,
			Outstanding: cfg.Outstanding,
			ReplyFlits:  cfg.ReplyFlits,
			Classes:     classes,
		}, q.eng, q.pool, &q.meter, cfg.Routing, cfg.Pattern, proc, kernel.NewRNG(cfg.Seed, 2, uint64(h)))
	}
	// Wire every link, one flow-control state per direction, kept by the
	// receiver.
	for si, sw := range net.Switches {
		for pi, port := range sw.Ports {
			switch port.Kind {
			case topologies.SwitchPort:
				peer := p.switches[port.Peer]
				var to flit.Receiver = peer
				from := p.switches[si].Sender(pi)
				if calls := p.parts[0].calls; calls != nil {
					to, from = deferredReceiver{to: peer, q: calls}, deferredSender{to: from, q: calls}
				}
				if a, b := of[si], of[port.Peer]; a != b {
					to = crossReceiver{to: peer, out: &p.parts[a].out[b]}
				}
				lat := cfg.linkLatency(si, port)
				fc, err := peer.ConnectIn(int(port.PeerPort), cfg.linkParams(cfg.flitDelay(lat), lat), from)
				if err != nil {
					return nil, err
				}
				p.switches[si].ConnectOut(pi, fc, to, int(port.PeerPort))
				p.switches[si].SetLinkDelay(pi, cfg.flitDelay(lat))
			case topologies.HostPort:
				n := p.nics[port.Peer]
				lat := cfg.hostLatency()
				up, err := p.switches[si].ConnectIn(pi, cfg.linkParams(lat, lat), n)
				if err != nil {
					return nil, err
				}
				n.ConnectOut(up, p.switches[si], pi)
				down, err := n.ConnectIn(cfg.linkParams(cfg.flitDelay(lat), lat), p.switches[si].Sender(pi))
				if err != nil {
					return nil, err
				}
				p.switches[si].ConnectOut(pi, down, n, 0)
				p.switches[si].SetLinkDelay(pi, cfg.flitDelay(lat))
			}
		}
	}
	if calls := p.parts[0].calls; calls != nil {
		for si, sw := range net.Switches {
			held := make([]bool, len(sw.Ports))
			for pi, port := range sw.Ports {
				held[pi] = port.Kind == topologies.SwitchPort
			}
			p.switches[si].HoldCredits(held, calls.holdCredits)
		}
	}
	if threads > 1 {
		p.holdCrossCredits(of)
	}
	for _, q := range p.parts {
		q.switchTicks = newTickSet(len(p.switches))
		q.nicTicks = newTickSet(len(p.nics))
	}
	if threads == 1 {
		q := p.parts[0]
		q.eng.SetWatchdog(kernel.Time(cfg.deadlockWindow()), func() bool { return p.inFlight() > 0 })
	}
	return p, nil
}

// allSwitchParams returns the parameters of every switch of cfg's network.
func (cfg *Config) allSwitchParams(mode switching.Mode, sel switching.Selection, shortest int, classes *routing.Classes) []switching.Params {
	params := make([]switching.Params, len(cfg.Net.Switches))
	for i := range cfg.Net.Switches {
		params[i] = switching.Params{
			ID:             i,
			Ports:          len(cfg.Net.Switches[i].Ports),
			VLs:            cfg.VLs,
			Buffer:         cfg.BufferFlits,
			Mode:           mode,
			Speedup:        cfg.Speedup,
			RoutingDelay:   cfg.RoutingDelay + cfg.VLAllocDelay,
			FlitDelay:      cfg.flitDelay(cfg.LinkLatency),
			TickKind:       kindSwitchTick,
			MaxRun:         cfg.maxRun,
			Selection:      sel,
			NoPark:         cfg.noPark,
			Allocator:      cfg.Allocator,
			Buffers:        cfg.Buffers,
			ShortestPacket: shortest,
			LongestPacket:  cfg.PacketFlits,
			Reserve:        cfg.SharedReserve,
			Alpha:          cfg.SharedAlpha,
			Limit:          cfg.SharedLimit,
			Iterations:     cfg.AllocIterations,
			Classes:        classes,
		}
	}
	return params
}

// holdCrossCredits makes every switch hold the credits of its input
// ports whose sender is in another part, of the part to switch index of:
// they go into its part's out queue for the sender's part, which gives
// them to the link (switching.Switch.Freed) once the cycle has run.
func (p *point) holdCrossCredits(of []int32) {
	for si, sw := range p.cfg.Net.Switches {
		held := make([]bool, len(sw.Ports))
		upPart := make([]int32, len(sw.Ports))
		any := false
		for pi, port := range sw.Ports {
			if port.Kind == topologies.SwitchPort && of[port.Peer] != of[si] {
				held[pi], upPart[pi], any = true, of[port.Peer], true
			}
		}
		if !any {
			continue
		}
		out := p.parts[of[si]].out
		p.switches[si].HoldCredits(held, func(s *switching.Switch, port int32, vl, n int, now kernel.Time) {
			o := &out[upPart[port]]
			*o = append(*o, crossCall{sw: s, now: now, port: port, vl: int32(vl), k: int32(n)})
		})
	}
}
