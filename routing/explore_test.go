package routing

import (
	"sort"
	"testing"

	"netsim/kernel"
	"netsim/topologies"
)

// routeState is where a packet is: the switch, the port and VL it arrived
// on, and its SL.
type routeState struct{ sw, inPort, inVL, sl int }

// routeGraph collects what exploreRoutes finds over several destinations.
type routeGraph struct {
	net *topologies.Network
	vls int
	// longest is the most switch-to-switch hops of any path found.
	longest int
	// states counts the states visited, summed over destinations.
	states int
	// deps holds the channel dependencies: a channel is the input side of
	// a switch link on one VL, (global port index)·vls + VL.
	deps      map[[2]int32]bool
	portStart []int32
}

// newRouteGraph returns an empty graph for routings on net with vls VLs.
func newRouteGraph(net *topologies.Network, vls int) *routeGraph {
	g := &routeGraph{net: net, vls: vls, deps: map[[2]int32]bool{}, portStart: make([]int32, len(net.Switches)+1)}
	for s := range net.Switches {
		g.portStart[s+1] = g.portStart[s] + int32(len(net.Switches[s].Ports))
	}
	return g
}

// channel returns the channel a packet in state st arrived on.
func (g *routeGraph) channel(st routeState) int32 {
	return (g.portStart[st.sw]+int32(st.inPort))*int32(g.vls) + int32(st.inVL)
}

// state returns the switch, input port and VL of channel c (SL 0).
func (g *routeGraph) state(c int32) routeState {
	gp := int(c) / g.vls
	sw := sort.Search(len(g.net.Switches), func(s int) bool { return int(g.portStart[s+1]) > gp })
	return routeState{sw, gp - int(g.portStart[sw]), int(c) % g.vls, 0}
}

// checkCandidates fails unless cands is a legal answer of r at state st
// for a packet to host dst: at least one candidate, ports in range and in
// use, no port twice, at the destination's switch exactly the
// destination's host port, elsewhere only switch ports, and OutVL within
// [0, vls).
func checkCandidates(t *testing.T, net *topologies.Network, r Routing, vls int, st routeState, dst int, cands []Candidate) {
	t.Helper()
	if len(cands) == 0 {
		t.Fatalf("%s: no candidates at %+v for host %d", r.Name(), st, dst)
	}
	h := net.Hosts[dst]
	ports := net.Switches[st.sw].Ports
	seen := map[int32]bool{}
	for _, c := range cands {
		if c.Port < 0 || int(c.Port) >= len(ports) || seen[c.Port] || c.Priority < Low || c.Priority > High {
			t.Fatalf("%s: bad candidates %v at %+v for host %d", r.Name(), cands, st, dst)
		}
		seen[c.Port] = true
		kind := ports[c.Port].Kind
		atDst := st.sw == int(h.Switch)
		if atDst && (len(cands) != 1 || c.Port != h.Port) || !atDst && kind != topologies.SwitchPort {
			t.Fatalf("%s: candidates %v at %+v for host %d (on switch %d port %d)", r.Name(), cands, st, dst, h.Switch, h.Port)
		}
		if v := r.OutVL(st.sw, st.inPort, st.inVL, st.sl, int(c.Port)); v < 0 || v >= vls {
			t.Fatalf("%s: OutVL %d outside [0,%d) at %+v port %d", r.Name(), v, vls, st, c.Port)
		}
	}
}

// explore follows every candidate of r from every other host to host dst,
// checking every state with checkCandidates and then with check (if not
// nil), and records the channel dependencies and the longest path. A path
// that can revisit a state fails the test (the packet could loop).
func (g *routeGraph) explore(t *testing.T, r Routing, dst int, check func(st routeState, cands []Candidate)) {
	t.Helper()
	net := g.net
	index := map[routeState]int{}
	var states []routeState
	var next [][]int
	add := func(st routeState) int {
		i, ok := index[st]
		if !ok {
			i = len(states)
			index[st] = i
			states = append(states, st)
			next = append(next, nil)
		}
		return i
	}
	for src, h := range net.Hosts {
		if src == dst {
			continue
		}
		dlid, sl, vl := r.Source(src, dst)
		if int(dlid) != dst || vl < 0 || vl >= g.vls {
			t.Fatalf("%s: Source(%d, %d) = %d, %d", r.Name(), src, dst, dlid, vl)
		}
		add(routeState{int(h.Switch), int(h.Port), vl, sl})
	}
	var cands []Candidate
	for i := 0; i < len(states); i++ {
		st := states[i]
		cands = r.Route(st.sw, st.inPort, st.inVL, st.sl, int32(dst), cands[:0])
		checkCandidates(t, net, r, g.vls, st, dst, cands)
		if check != nil {
			check(st, cands)
		}
		for _, c := range cands {
			port := net.Switches[st.sw].Ports[c.Port]
			if port.Kind != topologies.SwitchPort {
				continue
			}
			to := routeState{int(port.Peer), int(port.PeerPort), r.OutVL(st.sw, st.inPort, st.inVL, st.sl, int(c.Port)), st.sl}
			j := add(to)
			next[i] = append(next[i], j)
			g.deps[[2]int32{g.channel(st), g.channel(to)}] = true
		}
	}
	g.states += len(states)
	// Longest path by depth-first search; a grey state met again is a loop.
	const white, grey, black = 0, 1, 2
	colour := make([]uint8, len(states))
	depth := make([]int, len(states))
	var visit func(i int)
	visit = func(i int) {
		colour[i] = grey
		for _, j := range next[i] {
			switch colour[j] {
			case grey:
				t.Fatalf("%s: packets to host %d can loop through %+v", r.Name(), dst, states[j])
			case white:
				visit(j)
			}
			depth[i] = max(depth[i], depth[j]+1)
		}
		colour[i] = black
	}
	for i := range states {
		if colour[i] == white {
			visit(i)
		}
		g.longest = max(g.longest, depth[i])
	}
}

// acyclic reports whether the channel dependency graph has no cycle, and
// returns one cycle's channels when it has.
func (g *routeGraph) acyclic() (bool, []int32) {
	adj := map[int32][]int32{}
	for d := range g.deps {
		adj[d[0]] = append(adj[d[0]], d[1])
	}
	colour := map[int32]uint8{}
	var stack []int32
	var cycle []int32
	var visit func(c int32) bool
	visit = func(c int32) bool {
		colour[c] = 1
		stack = append(stack, c)
		for _, n := range adj[c] {
			switch colour[n] {
			case 1:
				for i := len(stack) - 1; i >= 0; i-- {
					if stack[i] == n {
						cycle = append([]int32(nil), stack[i:]...)
						break
					}
				}
				return false
			case 0:
				if !visit(n) {
					return false
				}
			}
		}
		colour[c] = 2
		stack = stack[:len(stack)-1]
		return true
	}
	for c := range adj {
		if colour[c] == 0 && !visit(c) {
			return false, cycle
		}
	}
	return true, nil
}

// walkStep is one switch-to-switch hop of a random walk.
type walkStep struct {
	from, to, port int
	vl             int // VL on the hop (OutVL)
	prio           Priority
}

// randomWalk follows r from host src to host dst taking a random
// candidate at every switch, checking every state with checkCandidates,
// and returns the switch-to-switch hops and the source VL. It fails after
// more than maxHops hops.
func randomWalk(t *testing.T, net *topologies.Network, r Routing, vls, src, dst, maxHops int, rng *kernel.RNG) ([]walkStep, int) {
	t.Helper()
	dlid, sl, vl := r.Source(src, dst)
	if int(dlid) != dst {
		t.Fatalf("%s: Source(%d, %d) dlid = %d", r.Name(), src, dst, dlid)
	}
	st := routeState{int(net.Hosts[src].Switch), int(net.Hosts[src].Port), vl, sl}
	var steps []walkStep
	var cands []Candidate
	for {
		cands = r.Route(st.sw, st.inPort, st.inVL, st.sl, dlid, cands[:0])
		checkCandidates(t, net, r, vls, st, dst, cands)
		c := cands[rng.IntN(len(cands))]
		port := net.Switches[st.sw].Ports[c.Port]
		if port.Kind == topologies.HostPort {
			return steps, vl
		}
		if len(steps) == maxHops {
			t.Fatalf("%s: %d→%d: more than %d hops: %v", r.Name(), src, dst, maxHops, steps)
		}
		ov := r.OutVL(st.sw, st.inPort, st.inVL, st.sl, int(c.Port))
		steps = append(steps, walkStep{from: st.sw, to: int(port.Peer), port: int(c.Port), vl: ov, prio: c.Priority})
		st = routeState{int(port.Peer), int(port.PeerPort), ov, st.sl}
	}
}
