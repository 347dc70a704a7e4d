// Package linkload computes the channel load a routing puts on the links of
// a network under a traffic pattern: the traffic each link would carry if
// every host offered a load of 1 (one flit per cycle) and the network
// delivered it all, in units of a link's bandwidth. The largest load on a
// link between two switches, L, bounds what the network can sustain: no
// offered load above 1/L is stable, as that link would have to carry more
// than one flit per cycle (Dally and Towles, ch. 3.3). netsim load prints
// it for the routings and patterns of experiment files.
//
// A flow follows the candidates of the highest priority the routing
// offers at each switch, with an equal share on each. A routing with one
// path per flow, whose top candidates at a switch are parallel links to
// one neighbour (dimension-order routings, static tables), is split only
// over those links, which the switch's selection function balances, and
// the loads are exact: 1/L bounds the saturation. An adaptive routing
// whose top candidates lead to different switches is counted as if it
// balanced its choices evenly; Loads.Spread reports it, and 1/L is then an
// estimate, not a bound. Lower-priority candidates (sideways, non-minimal
// or deflecting ports) are not counted, as they are taken only when the
// higher ones are busy; a routing that offers them (Loads.Detours) can
// carry more than its preferred paths let through, and 1/L is then not a
// bound either.
package linkload

import (
	"context"
	"fmt"
	"sync"

	"netsim/routing"
	"netsim/topologies"
	"netsim/traffic"
)

// Link is an output port of a switch: the link it drives.
type Link struct {
	Switch, Port int
}

// Loads accumulates the loads of flows on the links of a network under a
// routing.
type Loads struct {
	net  *topologies.Network
	r    routing.Routing
	vls  int
	base []int  // load[base[s]+p] is the load on port p of switch s
	w    walker // walks AddFlow's flows and fixed patterns
}

// walker walks flows through the network, adding their shares to load.
type walker struct {
	net    *topologies.Network
	r      routing.Routing
	vls    int
	base   []int
	load   []float64 // in flows of rate 1, that is in link bandwidths
	spread bool
	detour bool

	cands     []routing.Candidate
	cur, next []subFlow
	srcs      []source

	// queues, when not nil, collects the load leaving each input queue
	// (switch, input port, VL) towards each neighbour switch (see
	// sharedBusiestQueues in the tests). Only Loads.w has it: uniform
	// traffic, walked by walkers of their own, does not fill it.
	queues map[queueHop]float64
}

// source is what a flow's source host gives it.
type source struct {
	host int
	dlid int32
	sl   int
	vl   int
	done bool // walked
}

// subFlow is the share w of a flow at switch sw, arrived on port in with
// VL vl.
type subFlow struct {
	sw, in, vl int
	w          float64
}

// queueHop is the hop of a flow from the input queue (sw, in, vl) to the
// neighbour switch peer.
type queueHop struct{ sw, in, vl, peer int }

// New returns empty loads on the links of net under r, whose links have
// vls virtual lanes: a VL the routing gives a flow must lie below it.
func New(net *topologies.Network, r routing.Routing, vls int) *Loads {
	l := &Loads{net: net, r: r, vls: vls, base: make([]int, len(net.Switches)+1)}
	for s, sw := range net.Switches {
		l.base[s+1] = l.base[s] + len(sw.Ports)
	}
	l.w = l.walker()
	return l
}

// walker returns a walker of l's network and routing with loads of its
// own.
func (l *Loads) walker() walker {
	return walker{net: l.net, r: l.r, vls: l.vls, base: l.base, load: make([]float64, l.base[len(l.net.Switches)])}
}

// AddFlow adds a flow of rate w (a fraction of a host's injection
// bandwidth) from host src to host dst. A flow from a host to itself
// crosses no link between switches and is ignored. It returns an error if
// the routing gives the flow no destination LID, an SL or VL out of
// range, no way on at a switch or a port with nothing attached, delivers
// it to another host or does not deliver it within as many hops as the
// network has switches; the loads are then incomplete.
func (l *Loads) AddFlow(src, dst int, w float64) error {
	if n := len(l.net.Hosts); src < 0 || src >= n || dst < 0 || dst >= n {
		return fmt.Errorf("linkload: flow %d→%d: hosts are 0 to %d", src, dst, n-1)
	}
	if src == dst {
		return nil
	}
	dlid, sl, vl := l.r.Source(src, dst)
	if err := l.w.checkSource(src, dst, dlid, sl, vl); err != nil {
		return err
	}
	h := l.net.Hosts[src]
	l.w.cur = append(l.w.cur[:0], subFlow{int(h.Switch), int(h.Port), vl, w})
	return l.w.walk(src, dst, sl, dlid)
}

// flow names the flow src→dst in the fabric's names.
func (wk *walker) flow(src, dst int) string {
	return wk.net.HostLabel(src) + " → " + wk.net.HostLabel(dst)
}

// checkSource reports what is wrong with what the routing's Source gave
// the flow src→dst, if anything.
func (wk *walker) checkSource(src, dst int, dlid int32, sl, vl int) error {
	switch {
	case dlid < 0:
		return fmt.Errorf("linkload: routing %s gives no destination LID from host %s to host %s", wk.r.Name(), wk.net.HostLabel(src), wk.net.HostLabel(dst))
	case sl < 0 || sl >= wk.r.SLs():
		return fmt.Errorf("linkload: routing %s gives the flow %s SL %d, out of 0..%d", wk.r.Name(), wk.flow(src, dst), sl, wk.r.SLs()-1)
	case vl < 0 || vl >= wk.vls:
		return fmt.Errorf("linkload: routing %s gives the flow %s VL %d at its source, out of 0..%d", wk.r.Name(), wk.flow(src, dst), vl, wk.vls-1)
	}
	return nil
}

// AddPattern adds the traffic of pattern p with every host offering rate 1:
// host a sends to p.Dest(a) if the pattern is a fixed map (a
// permutation), or to every host alike, 1/N each, itself included, under
// uniform traffic (as the simulator's uniform pattern draws them), or by
// the shares of a traffic.Mixture (hotspot, a weighted matrix); a
// matrix's hosts without a line do not send. Uniform
// traffic walks N² flows, on up to workers goroutines (0: one); the loads,
// and the error if a flow fails, do not depend on workers. It stops early,
// with ctx's error, when ctx is done.
func (l *Loads) AddPattern(ctx context.Context, p traffic.Pattern, workers int) error {
	n := len(l.net.Hosts)
	var active []bool // a traffic matrix's sources
	if a, ok := p.(interface{ Active() []bool }); ok {
		active = a.Active()
	}
	if !traffic.Random(p) {
		for a := range n {
			if a%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if active != nil && !active[a] {
				continue
			}
			if err := l.AddFlow(a, p.Dest(a, nil), 1); err != nil {
				return fmt.Errorf("pattern %s: %w", p.Name(), err)
			}
		}
		return nil
	}
	u := 1.0
	mix, isMix := p.(traffic.Mixture)
	if isMix {
		u = mix.Uniform()
	}
	if u > 0 {
		if err := l.addUniform(ctx, u/float64(n), workers); err != nil {
			return fmt.Errorf("pattern %s: %w", p.Name(), err)
		}
	}
	if isMix {
		var shares []traffic.Share
		for a := range n {
			if a%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			shares = mix.Shares(a, shares[:0])
			for _, s := range shares {
				if err := l.AddFlow(a, s.Dst, s.Weight); err != nil {
					return fmt.Errorf("pattern %s: %w", p.Name(), err)
				}
			}
		}
	}
	return nil
}

// chunkSwitches is the number of source switches of a chunk of uniform
// traffic: the chunks' loads are summed in chunk order, so the result does
// not depend on how many goroutines walk them.
const chunkSwitches = 8

// addUniform adds a flow of rate w between every two distinct hosts, in
// chunks of source switches walked on up to workers goroutines at a time.
func (l *Loads) addUniform(ctx context.Context, w float64, workers int) error {
	onSwitch := make([][]int, len(l.net.Switches))
	for h, host := range l.net.Hosts {
		onSwitch[host.Switch] = append(onSwitch[host.Switch], h)
	}
	chunks := (len(onSwitch) + chunkSwitches - 1) / chunkSwitches
	workers = max(1, min(workers, chunks))
	walkers := make([]walker, workers)
	for i := range walkers {
		walkers[i] = l.walker()
	}
	errs := make([]error, workers)
	for wave := 0; wave < chunks; wave += workers {
		var wg sync.WaitGroup
		for i := range walkers {
			c := wave + i
			if c >= chunks {
				break
			}
			wk := &walkers[i]
			clear(wk.load)
			wk.spread, wk.detour = false, false
			wg.Go(func() {
				errs[i] = nil
				for _, hosts := range onSwitch[c*chunkSwitches : min(len(onSwitch), (c+1)*chunkSwitches)] {
					if err := ctx.Err(); err != nil {
						errs[i] = err
						return
					}
					if err := wk.fromSwitch(hosts, w); err != nil {
						errs[i] = err
						return
					}
				}
			})
		}
		wg.Wait()
		// The first chunk's error, whichever goroutine stopped first.
		for i := range walkers {
			if wave+i < chunks && errs[i] != nil {
				return errs[i]
			}
		}
		for i := range walkers {
			if wave+i >= chunks {
				break
			}
			for j, v := range walkers[i].load {
				l.w.load[j] += v
			}
			l.w.spread = l.w.spread || walkers[i].spread
			l.w.detour = l.w.detour || walkers[i].detour
		}
	}
	return nil
}

// fromSwitch adds a flow of rate w from each of hosts, the hosts of one
// switch, to every other host. The flows to one destination with the same
// destination LID and SL are walked as one: their shares merge where they
// reach the same switch, input port and VL, so past the first hop they
// cost one walk.
func (wk *walker) fromSwitch(hosts []int, w float64) error {
	for dst := range wk.net.Hosts {
		wk.srcs = wk.srcs[:0]
		for _, src := range hosts {
			if src == dst {
				continue
			}
			dlid, sl, vl := wk.r.Source(src, dst)
			if err := wk.checkSource(src, dst, dlid, sl, vl); err != nil {
				return err
			}
			wk.srcs = append(wk.srcs, source{src, dlid, sl, vl, false})
		}
		for i := range wk.srcs {
			first := wk.srcs[i]
			if first.done {
				continue
			}
			wk.cur = wk.cur[:0]
			for j := i; j < len(wk.srcs); j++ {
				if s := &wk.srcs[j]; !s.done && s.dlid == first.dlid && s.sl == first.sl {
					s.done = true
					h := wk.net.Hosts[s.host]
					wk.cur = append(wk.cur, subFlow{int(h.Switch), int(h.Port), s.vl, w})
				}
			}
			if err := wk.walk(first.host, dst, first.sl, first.dlid); err != nil {
				return err
			}
		}
	}
	return nil
}

// walk moves the sub-flows in wk.cur, all of one flow (or of flows with
// the same destination, LID and SL), hop by hop to host dst, adding their
// shares to the links they cross. src names the flow in errors.
func (wk *walker) walk(src, dst, sl int, dlid int32) error {
	net := wk.net
	for hops := 0; len(wk.cur) > 0; hops++ {
		if hops > len(net.Switches) {
			return fmt.Errorf("linkload: flow %s under %s not delivered after %d hops (a routing loop?)", wk.flow(src, dst), wk.r.Name(), hops)
		}
		wk.next = wk.next[:0]
		for _, f := range wk.cur {
			cands := wk.r.Route(f.sw, f.in, f.vl, sl, dlid, wk.cands[:0])
			wk.cands = cands[:0]
			if len(cands) == 0 {
				return fmt.Errorf("linkload: flow %s under %s: no candidate port at switch %s (arrived on port %d, VL %d)", wk.flow(src, dst), wk.r.Name(), net.SwitchLabel(f.sw), f.in+1, f.vl)
			}
			best := cands[0].Priority
			for _, c := range cands[1:] {
				best = max(best, c.Priority)
			}
			n := 0
			for _, c := range cands {
				if c.Priority == best {
					cands[n] = c
					n++
				}
			}
			if n < len(cands) {
				wk.detour = true
			}
			cands = cands[:n]
			ports := net.Switches[f.sw].Ports
			share := f.w / float64(n)
			for _, c := range cands {
				if c.Port < 0 || int(c.Port) >= len(ports) {
					return fmt.Errorf("linkload: flow %s under %s: port %d at switch %s, which has %d", wk.flow(src, dst), wk.r.Name(), c.Port+1, net.SwitchLabel(f.sw), len(ports))
				}
				port := ports[c.Port]
				if first := ports[cands[0].Port]; port.Kind != first.Kind || port.Peer != first.Peer {
					wk.spread = true
				}
				wk.load[wk.base[f.sw]+int(c.Port)] += share
				switch port.Kind {
				case topologies.HostPort:
					if int(port.Peer) != dst {
						return fmt.Errorf("linkload: flow %s under %s delivered to host %s at switch %s", wk.flow(src, dst), wk.r.Name(), net.HostLabel(int(port.Peer)), net.SwitchLabel(f.sw))
					}
					continue
				case topologies.SwitchPort:
				default:
					return fmt.Errorf("linkload: flow %s under %s sent to port %d of switch %s, which has nothing attached", wk.flow(src, dst), wk.r.Name(), c.Port+1, net.SwitchLabel(f.sw))
				}
				if wk.queues != nil {
					wk.queues[queueHop{f.sw, f.in, f.vl, int(port.Peer)}] += share
				}
				vl := wk.r.OutVL(f.sw, f.in, f.vl, sl, int(c.Port))
				if vl < 0 || vl >= wk.vls {
					return fmt.Errorf("linkload: flow %s under %s given VL %d on port %d of switch %s, out of 0..%d", wk.flow(src, dst), wk.r.Name(), vl, c.Port+1, net.SwitchLabel(f.sw), wk.vls-1)
				}
				wk.push(subFlow{int(port.Peer), int(port.PeerPort), vl, share})
			}
		}
		wk.cur, wk.next = wk.next, wk.cur
	}
	return nil
}

// push adds f to the next hop's sub-flows, merging it with one in the same
// state.
func (wk *walker) push(f subFlow) {
	for i := range wk.next {
		if g := &wk.next[i]; g.sw == f.sw && g.in == f.in && g.vl == f.vl {
			g.w += f.w
			return
		}
	}
	wk.next = append(wk.next, f)
}

// At returns the load on port p of switch sw: the link it drives.
func (l *Loads) At(sw, p int) float64 { return l.w.load[l.base[sw]+p] }

// Max returns the largest load on a link between two switches (0 when no
// flow crosses one).
func (l *Loads) Max() float64 {
	m := 0.0
	for s, sw := range l.net.Switches {
		for p, port := range sw.Ports {
			if port.Kind == topologies.SwitchPort {
				m = max(m, l.w.load[l.base[s]+p])
			}
		}
	}
	return m
}

// Busiest returns the links between switches that carry the largest load,
// within a relative 1e-9 of it, in switch and port order; none when no flow
// crosses a link.
func (l *Loads) Busiest() []Link {
	m := l.Max()
	if m == 0 {
		return nil
	}
	var out []Link
	for s, sw := range l.net.Switches {
		for p, port := range sw.Ports {
			if port.Kind == topologies.SwitchPort && l.w.load[l.base[s]+p] >= m*(1-1e-9) {
				out = append(out, Link{s, p})
			}
		}
	}
	return out
}

// Bound returns 1/Max, at most 1: the highest offered load the busiest
// link lets through, a bound on the saturation when neither Spread nor
// Detours holds.
func (l *Loads) Bound() float64 {
	if m := l.Max(); m > 1 {
		return 1 / m
	}
	return 1
}

// Spread reports whether some flow was spread over candidates leading to
// different switches: the loads then assume an adaptive routing balances
// its choices evenly, and Bound is an estimate.
func (l *Loads) Spread() bool { return l.w.spread }

// Detours reports whether the routing offered some flow candidates of a
// lower priority than those it took (sideways, non-minimal or deflecting
// ports): an adaptive routing takes them when its preferred ports are
// busy, so it may carry more than Bound.
func (l *Loads) Detours() bool { return l.w.detour }
