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

	// calls holds the calls between switches back, with
	// Config.deferCalls (nil otherwise).
	calls *callQueue

	// links meters the links, with Config.LinkStats.
	links *linkMeter
}

func assemble(cfg *Config) (*point, error) {
	mode, sel := cfg.Switching, cfg.Selection
	proc, err := traffic.NewBernoulli(cfg.Load, cfg.PacketFlits)
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	p := &point{cfg: cfg, tickRNG: kernel.NewRNG(cfg.Seed, 3)}
	if cfg.deferCalls {
		p.calls = &callQueue{}
	}
	if cfg.oldestFirst {
		p.pool.SetOldestFirst()
	}
	p.eng = kernel.NewEngine(p)
	p.meter.From = kernel.Time(cfg.Warmup)
	p.meter.To = kernel.Time(cfg.Warmup + cfg.Measure)
	if cfg.Timeline > 0 {
		p.meter.SetTimeline(cfg.Timeline, int((cfg.Warmup+cfg.maxMeasure()+cfg.Drain)/cfg.Timeline+1))
	}
	per := min(BinsPerMeasure, cfg.Measure)
	p.meter.SetBins(cfg.Measure, per, int(per*(cfg.maxMeasure()/cfg.Measure)))
	net := cfg.Net
	fd := cfg.flitDelay()
	shortest := cfg.shortestPacket()
	var classes *routing.Classes
	if cfg.VLChoice == switching.VLDynamic {
		if classes, err = routing.NewClasses(cfg.Routing.VLs(), cfg.VLs); err != nil {
			return nil, fmt.Errorf("vl_choice: %w", err)
		}
	}
	p.switches = make([]*switching.Switch, len(net.Switches))
	params := make([]switching.Params, len(net.Switches))
	for i := range net.Switches {
		params[i] = switching.Params{
			ID:             i,
			Ports:          len(net.Switches[i].Ports),
			VLs:            cfg.VLs,
			Buffer:         cfg.BufferFlits,
			Mode:           mode,
			Speedup:        cfg.Speedup,
			RoutingDelay:   cfg.RoutingDelay + cfg.VLAllocDelay,
			FlitDelay:      fd,
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
			Classes:     classes,
		}, p.eng, &p.pool, &p.meter, cfg.Routing, cfg.Pattern, proc, kernel.NewRNG(cfg.Seed, 2, uint64(h)))
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
				if p.calls != nil {
					to, from = deferredReceiver{to: peer, q: p.calls}, deferredSender{to: from, q: p.calls}
				}
				fc, err := peer.ConnectIn(int(port.PeerPort), cfg.linkParams(fd), from)
				if err != nil {
					return nil, err
				}
				p.switches[si].ConnectOut(pi, fc, to, int(port.PeerPort))
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
	if p.calls != nil {
		for si, sw := range net.Switches {
			held := make([]bool, len(sw.Ports))
			for pi, port := range sw.Ports {
				held[pi] = port.Kind == topologies.SwitchPort
			}
			p.switches[si].HoldCredits(held, p.calls.holdCredits)
		}
	}
	p.switchTicks = newTickSet(len(p.switches))
	p.nicTicks = newTickSet(len(p.nics))
	p.eng.SetWatchdog(kernel.Time(cfg.deadlockWindow()), func() bool { return p.inFlight() > 0 })
	return p, nil
}
