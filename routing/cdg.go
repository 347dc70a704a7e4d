package routing

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"netsim/keyerr"
	"netsim/topologies"
)

// MaxCDGBits bounds the dependency bitsets CheckDeadlock keeps: one bit per
// (input port, input VL, output port, output VL) of every switch, that is
// Σ (ports × VLs)² over the switches (512 MiB at the limit).
const MaxCDGBits = 1 << 32

// CheckOptions configures CheckDeadlock.
type CheckOptions struct {
	// VLs is the number of virtual lanes of every link (the [flow_control]
	// vls of an experiment); a VL the routing returns outside [0, VLs) is
	// an error. It must be at least 1 and at most MaxVLs.
	VLs int
	// Workers is the number of destinations searched at once; 0 means
	// GOMAXPROCS. The report does not depend on it.
	Workers int
	// AllRoutes searches every route of a Multipath routing (each LID of
	// a destination under LMC, each source route), as NICs that disperse
	// their packets use them; otherwise only the route Source gives, the
	// one a static NIC takes.
	AllRoutes bool
}

// Channel is one (link, VL) channel: the link out of port Port of switch
// Switch, into port PeerPort of switch PeerSwitch, on virtual lane VL.
type Channel struct {
	Switch, Port         int
	PeerSwitch, PeerPort int
	VL                   int
}

// String returns the channel as "switch S port P -> switch S' port P' VL V".
func (c Channel) String() string {
	return fmt.Sprintf("switch %d port %d -> switch %d port %d VL %d", c.Switch, c.Port, c.PeerSwitch, c.PeerPort, c.VL)
}

// Cycle is a cycle of the channel dependency graph: a packet holding
// channel i may wait for channel i+1, and one holding the last channel for
// the first. Every channel is a switch-to-switch link on one VL.
type Cycle []Channel

// Report is the outcome of CheckDeadlock.
type Report struct {
	// Channels is the number of switch-to-switch (link, VL) channels some
	// route uses.
	Channels int
	// Injection and Ejection count the host channels routes use: (host
	// link into the source switch, VL) and (host link out of the
	// destination switch, VL). A host channel has dependencies only out of
	// it (injection) or only into it (ejection), so it is never on a cycle.
	Injection, Ejection int
	// Dependencies is the number of edges of the channel dependency graph,
	// those out of injection and into ejection channels included.
	Dependencies int
	// States is the number of (switch, input port, input VL, SL, DLID)
	// states the search visited, summed over the destinations.
	States int64
	// Cycle is one cycle of the graph, nil when the graph is acyclic.
	Cycle Cycle
}

// Acyclic reports whether the channel dependency graph has no cycle, which
// makes the routing deadlock-free (Dally and Seitz; for adaptive routings
// the condition is sufficient, not necessary).
func (r *Report) Acyclic() bool { return r.Cycle == nil }

// CheckDeadlock builds the channel dependency graph (CDG) of r on net over
// (link, VL) channels from every candidate r can return, and looks for a
// cycle in it.
//
// For every destination host dst it asks Source(src, dst) for every other
// host src, and from each injection state (src's switch, src's port, VL,
// SL, DLID) searches every state (switch, input port, input VL, SL, DLID)
// a packet can reach by following every candidate of Route, with the VL of
// OutVL; the SL stays the source's. Each step from the channel a state
// arrived on to the channel it leaves on is a dependency: channels are
// (link, VL), whatever the SL of the packets on them. States are
// deduplicated per destination and DLID, so the work is O(destinations ×
// (hosts + reachable states × candidates)), and exact for routings that
// depend on the source (through Source and the SL), on the input port and
// on the input VL.
//
// A routing that returns no candidate for a reachable state, a port that
// is out of range or unused, a host port of another host than the
// destination, a VL outside [0, opt.VLs) or an SL outside [0, SLs()) is
// reported as an error, as are a routing with SLs() outside [1, MaxSLs]
// and networks too large for the bitsets (MaxCDGBits). ctx cancels the
// search.
func CheckDeadlock(ctx context.Context, r Routing, net *topologies.Network, opt CheckOptions) (*Report, error) {
	if r == nil || net == nil {
		return nil, errors.New("routing: deadlock check needs a routing and a network")
	}
	if opt.VLs < 1 || opt.VLs > MaxVLs {
		return nil, keyerr.New("vls", "deadlock check needs 1 to %d virtual lanes, got %d", MaxVLs, opt.VLs)
	}
	if sls := r.SLs(); sls < 1 || sls > MaxSLs {
		return nil, fmt.Errorf("routing %s: uses %d service levels, want 1 to %d", r.Name(), sls, MaxSLs)
	}
	if err := net.Validate(); err != nil {
		return nil, fmt.Errorf("routing %s: %w", r.Name(), err)
	}
	g, err := newCDG(net, opt.VLs, r.SLs())
	if err != nil {
		return nil, fmt.Errorf("routing %s: %w", r.Name(), err)
	}
	if err := g.explore(ctx, r, net, opt.Workers, opt.AllRoutes); err != nil {
		return nil, fmt.Errorf("routing %s: %w", r.Name(), err)
	}
	rep := g.count()
	if cycle := g.findCycle(); cycle != nil {
		rep.Cycle = g.channels(cycle)
	}
	return rep, nil
}

// cdg holds the channel dependency graph of a routing on a network. A state
// (switch, input port, input VL) is numbered gport·V + VL, with gport the
// global index of the input port; for a switch port that state is also the
// channel arriving on it, for a host port the injection channel.
type cdg struct {
	vls       int
	portStart []int32 // global index of port 0 of each switch; len = switches+1
	portSw    []int32 // switch of each global port
	kind      []topologies.PortKind
	// next is, for a switch port, the global index of the peer port, and
	// for a host port the host.
	next []int32
	// The dependencies out of state (sw, p, v) are the bits (q·V + w) of
	// the row at edges[rowStart[sw] + (p·V+v)·rowWords[sw]:], one per
	// (output port q, output VL w).
	rowStart []int
	rowWords []int32
	edges    []atomic.Uint64
	// eject has bit gport·V + VL set for every ejection channel used.
	eject []atomic.Uint64
	// states counts the states the search visited.
	states atomic.Int64
}

// newCDG lays out an empty graph for net with vls VLs, for a routing with
// sls SLs (the search numbers its states with 32 bits).
func newCDG(net *topologies.Network, vls, sls int) (*cdg, error) {
	nsw := len(net.Switches)
	g := &cdg{vls: vls, portStart: make([]int32, nsw+1), rowStart: make([]int, nsw+1), rowWords: make([]int32, nsw)}
	var ports, words int
	for s := range net.Switches {
		n := len(net.Switches[s].Ports)
		ports += n
		g.rowWords[s] = int32((n*vls + 63) / 64)
		words += n * vls * int(g.rowWords[s])
		if ports*vls*sls >= 1<<31 || words > MaxCDGBits/64 {
			return nil, fmt.Errorf("network too large for the deadlock check (more than %d dependency bits or 2^31 channels × SLs)", uint64(MaxCDGBits))
		}
		g.portStart[s+1] = int32(ports)
		g.rowStart[s+1] = words
	}
	g.portSw = make([]int32, ports)
	g.kind = make([]topologies.PortKind, ports)
	g.next = make([]int32, ports)
	for s := range net.Switches {
		for p, port := range net.Switches[s].Ports {
			i := int(g.portStart[s]) + p
			g.portSw[i], g.kind[i], g.next[i] = int32(s), port.Kind, port.Peer
			if port.Kind == topologies.SwitchPort {
				g.next[i] = g.portStart[port.Peer] + port.PeerPort
			}
		}
	}
	g.edges = make([]atomic.Uint64, words)
	g.eject = make([]atomic.Uint64, (ports*vls+63)/64)
	return g, nil
}

// explore searches the states of every destination with workers
// goroutines and records the dependencies. The error reported is that of
// the lowest failing destination, whatever the number of workers.
func (g *cdg) explore(ctx context.Context, r Routing, net *topologies.Network, workers int, allRoutes bool) error {
	hosts := len(net.Hosts)
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, hosts))
	var (
		nextDst atomic.Int64
		mu      sync.Mutex
		failDst = hosts // lowest destination that failed
		failErr error
		wg      sync.WaitGroup
	)
	failed := func() int {
		mu.Lock()
		defer mu.Unlock()
		return failDst
	}
	for range workers {
		wg.Go(func() {
			s := g.newSearcher(r, net)
			if m, ok := r.(Multipath); ok && allRoutes {
				s.multi = m
			}
			if p, ok := r.(Partial); ok && p.UnreachablePairs() > 0 {
				s.partial = p
			}
			for {
				dst := int(nextDst.Add(1) - 1)
				if dst >= failed() {
					return
				}
				err := ctx.Err()
				if err == nil {
					err = s.destination(dst)
				}
				if err != nil {
					mu.Lock()
					if dst < failDst {
						failDst, failErr = dst, err
					}
					mu.Unlock()
					return
				}
			}
		})
	}
	wg.Wait()
	if failErr != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return failErr
}

// searcher is one worker's scratch space. Its states are (switch, input
// port, input VL, SL), numbered (gport·V + VL)·S + SL with S = r.SLs():
// the graph's state times S plus the SL.
type searcher struct {
	g       *cdg
	r       Routing
	multi   Multipath // every route of it, with CheckOptions.AllRoutes; nil otherwise
	partial Partial   // the routing, when it leaves pairs unreachable; nil otherwise
	sls     int
	hostSw  []int32
	hostPt  []int32
	inits   []initState
	queue   []uint32
	visited []uint64
	cands   []Candidate
}

// initState is the state after injection of one source's packets.
type initState struct {
	dlid  int32
	state uint32
}

// newSearcher returns a worker for g.
func (g *cdg) newSearcher(r Routing, net *topologies.Network) *searcher {
	s := &searcher{
		g:       g,
		r:       r,
		sls:     r.SLs(),
		hostSw:  make([]int32, len(net.Hosts)),
		hostPt:  make([]int32, len(net.Hosts)),
		visited: make([]uint64, (len(g.kind)*g.vls*r.SLs()+63)/64),
		cands:   make([]Candidate, 0, 64),
	}
	for h, a := range net.Hosts {
		s.hostSw[h], s.hostPt[h] = a.Switch, a.Port
	}
	return s
}

// destination searches every state of packets to host dst.
func (s *searcher) destination(dst int) error {
	g := s.g
	s.inits = s.inits[:0]
	same := true
	partial := s.partial
	for src := range s.hostSw {
		if src == dst || partial != nil && !partial.Reachable(src, dst) {
			continue
		}
		routes := 1
		if s.multi != nil {
			routes = s.multi.Routes(src, dst)
		}
		for r := range routes {
			dlid, sl, vl := s.r.Source(src, dst)
			if s.multi != nil {
				dlid, sl, vl = s.multi.SourceRoute(src, dst, r)
			}
			if vl < 0 || vl >= g.vls {
				return fmt.Errorf("source VL %d for host %d to host %d is outside [0,%d)", vl, src, dst, g.vls)
			}
			if sl < 0 || sl >= s.sls {
				return fmt.Errorf("source SL %d for host %d to host %d is outside [0,%d)", sl, src, dst, s.sls)
			}
			gp := int(g.portStart[s.hostSw[src]] + s.hostPt[src])
			s.inits = append(s.inits, initState{dlid: dlid, state: uint32((gp*g.vls+vl)*s.sls + sl)})
			same = same && dlid == s.inits[0].dlid
		}
	}
	if !same {
		slices.SortStableFunc(s.inits, func(a, b initState) int { return cmp.Compare(a.dlid, b.dlid) })
	}
	for i := 0; i < len(s.inits); {
		j := i + 1
		for j < len(s.inits) && s.inits[j].dlid == s.inits[i].dlid {
			j++
		}
		if err := s.search(dst, s.inits[i:j]); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// search visits every state reachable from inits, which share one DLID,
// recording the dependencies.
func (s *searcher) search(dst int, inits []initState) error {
	g, vls, sls, dlid := s.g, s.g.vls, s.sls, inits[0].dlid
	s.queue = s.queue[:0]
	for _, in := range inits {
		if s.visit(in.state) {
			s.queue = append(s.queue, in.state)
		}
	}
	defer func() {
		for _, st := range s.queue {
			s.visited[st/64] = 0
		}
		g.states.Add(int64(len(s.queue)))
	}()
	for i := 0; i < len(s.queue); i++ {
		st := int(s.queue[i])
		ch, sl := st/sls, st%sls
		gp, vl := ch/vls, ch%vls
		sw := int(g.portSw[gp])
		inPort := gp - int(g.portStart[sw])
		s.cands = s.r.Route(sw, inPort, vl, sl, dlid, s.cands[:0])
		if len(s.cands) == 0 {
			return fmt.Errorf("no candidate at switch %d for a packet to host %d (DLID %d, SL %d) that arrived on port %d with VL %d", sw, dst, dlid, sl, inPort, vl)
		}
		ports := int(g.portStart[sw+1] - g.portStart[sw])
		row := g.edges[g.rowStart[sw]+(inPort*vls+vl)*int(g.rowWords[sw]):]
		for _, c := range s.cands {
			p := int(c.Port)
			if p < 0 || p >= ports || g.kind[int(g.portStart[sw])+p] == topologies.Unused {
				return fmt.Errorf("switch %d offers port %d, which is out of range or unused, to a packet to host %d (DLID %d, SL %d) that arrived on port %d with VL %d", sw, p, dst, dlid, sl, inPort, vl)
			}
			ov := s.r.OutVL(sw, inPort, vl, sl, p)
			if ov < 0 || ov >= vls {
				return fmt.Errorf("switch %d gives VL %d, outside [0,%d), on port %d to a packet to host %d (DLID %d, SL %d) that arrived on port %d with VL %d", sw, ov, vls, p, dst, dlid, sl, inPort, vl)
			}
			setBit(row, p*vls+ov)
			op := int(g.portStart[sw]) + p
			if g.kind[op] == topologies.HostPort {
				if int(g.next[op]) != dst {
					return fmt.Errorf("switch %d delivers a packet to host %d (DLID %d) to host %d on port %d", sw, dst, dlid, g.next[op], p)
				}
				setBit(g.eject, op*vls+ov)
				continue
			}
			if ns := uint32((int(g.next[op])*vls+ov)*sls + sl); s.visit(ns) {
				s.queue = append(s.queue, ns)
			}
		}
	}
	return nil
}

// visit marks state st visited and reports whether it was not before.
func (s *searcher) visit(st uint32) bool {
	w, b := st/64, uint64(1)<<(st%64)
	if s.visited[w]&b != 0 {
		return false
	}
	s.visited[w] |= b
	return true
}

// setBit sets bit i of the shared bitset b.
func setBit(b []atomic.Uint64, i int) {
	w, m := &b[i/64], uint64(1)<<(i%64)
	if w.Load()&m == 0 {
		w.Or(m)
	}
}

// row returns the dependency row of state st (global port · V + VL).
func (g *cdg) row(st int) []atomic.Uint64 {
	gp, vl := st/g.vls, st%g.vls
	sw := int(g.portSw[gp])
	w := int(g.rowWords[sw])
	start := g.rowStart[sw] + ((gp-int(g.portStart[sw]))*g.vls+vl)*w
	return g.edges[start : start+w]
}

// count fills a report's channel and dependency counts.
func (g *cdg) count() *Report {
	rep := &Report{States: g.states.Load()}
	for st := range len(g.kind) * g.vls {
		n := 0
		for i, row := 0, g.row(st); i < len(row); i++ {
			n += bits.OnesCount64(row[i].Load())
		}
		if n == 0 {
			continue
		}
		rep.Dependencies += n
		if g.kind[st/g.vls] == topologies.HostPort {
			rep.Injection++
		} else {
			rep.Channels++
		}
	}
	for i := range g.eject {
		rep.Ejection += bits.OnesCount64(g.eject[i].Load())
	}
	return rep
}

// channels converts a cycle of states into channels, starting from the
// channel out of the lowest switch, port and VL.
func (g *cdg) channels(states []int) Cycle {
	first := 0
	sender := func(st int) int { return int(g.next[st/g.vls])*g.vls + st%g.vls }
	for i, st := range states {
		if sender(st) < sender(states[first]) {
			first = i
		}
	}
	states = append(states[first:], states[:first]...)
	c := make(Cycle, len(states))
	for i, st := range states {
		gp, vl := st/g.vls, st%g.vls
		from := int(g.next[gp])
		sw, fsw := int(g.portSw[gp]), int(g.portSw[from])
		c[i] = Channel{
			Switch: fsw, Port: from - int(g.portStart[fsw]),
			PeerSwitch: sw, PeerPort: gp - int(g.portStart[sw]),
			VL: vl,
		}
	}
	return c
}
