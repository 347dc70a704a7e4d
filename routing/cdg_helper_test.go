package routing

import (
	"fmt"
	"testing"

	"netsim/topologies"
)

// depChannel is a channel of the dependency graph: output port port of
// switch sw, on VL vl.
type depChannel struct{ sw, port, vl int }

func (c depChannel) String() string {
	return fmt.Sprintf("(switch %d, port %d, VL %d)", c.sw, c.port, c.vl)
}

// dependencyCycle builds the channel dependency graph of r on net, with
// vls VLs, from every candidate r offers on every path it can take from
// every source to every destination, and returns one cycle of it, or nil
// when it is acyclic. A channel is a switch output port to another switch
// with a VL; a packet holding the channel into (switch, inPort) with VL
// inVL depends on every (switch, candidate port, OutVL) it may ask for.
// Links to hosts are sinks and are left out. (A test-only version of the
// check netsim check makes; kept small on purpose.)
func dependencyCycle(t *testing.T, net *topologies.Network, r Routing, vls int) []depChannel {
	t.Helper()
	start := make([]int, len(net.Switches)+1)
	for s, sw := range net.Switches {
		start[s+1] = start[s] + len(sw.Ports)
	}
	id := func(c depChannel) int { return (start[c.sw]+c.port)*vls + c.vl }
	channel := make([]depChannel, start[len(net.Switches)]*vls)
	for s, sw := range net.Switches {
		for p := range sw.Ports {
			for v := range vls {
				c := depChannel{s, p, v}
				channel[id(c)] = c
			}
		}
	}
	edges := make([]map[int]bool, len(channel))
	type state struct{ sw, inPort, inVL int }
	var cands []Candidate
	for dst := range net.Hosts {
		seen := map[state]bool{}
		var queue []state
		for src := range net.Hosts {
			dlid, vl := r.Source(src, dst)
			if int(dlid) != dst || vl < 0 || vl >= vls {
				t.Fatalf("Source(%d,%d) = %d,%d", src, dst, dlid, vl)
			}
			st := state{int(net.Hosts[src].Switch), int(net.Hosts[src].Port), vl}
			if !seen[st] {
				seen[st] = true
				queue = append(queue, st)
			}
		}
		for len(queue) > 0 {
			st := queue[0]
			queue = queue[1:]
			in := -1
			if p := net.Switches[st.sw].Ports[st.inPort]; p.Kind == topologies.SwitchPort {
				in = id(depChannel{int(p.Peer), int(p.PeerPort), st.inVL})
			}
			cands = r.Route(st.sw, st.inPort, st.inVL, int32(dst), cands[:0])
			for _, c := range cands {
				p := net.Switches[st.sw].Ports[c.Port]
				if p.Kind != topologies.SwitchPort {
					continue
				}
				vl := r.OutVL(st.sw, st.inPort, st.inVL, int(c.Port))
				if vl < 0 || vl >= vls {
					t.Fatalf("OutVL at switch %d = %d, outside [0,%d)", st.sw, vl, vls)
				}
				if in >= 0 {
					if edges[in] == nil {
						edges[in] = map[int]bool{}
					}
					edges[in][id(depChannel{st.sw, int(c.Port), vl})] = true
				}
				next := state{int(p.Peer), int(p.PeerPort), vl}
				if !seen[next] {
					seen[next] = true
					queue = append(queue, next)
				}
			}
		}
	}
	// Depth-first search with colours; a grey successor closes a cycle.
	const white, grey, black = 0, 1, 2
	colour := make([]uint8, len(channel))
	parent := make([]int, len(channel))
	var cycle []depChannel
	var visit func(u int) bool
	visit = func(u int) bool {
		colour[u] = grey
		for v := range edges[u] {
			switch colour[v] {
			case grey:
				for w := u; w != v; w = parent[w] {
					cycle = append([]depChannel{channel[w]}, cycle...)
				}
				cycle = append([]depChannel{channel[v]}, cycle...)
				return true
			case white:
				parent[v] = u
				if visit(v) {
					return true
				}
			}
		}
		colour[u] = black
		return false
	}
	for u := range channel {
		if colour[u] == white && visit(u) {
			return cycle
		}
	}
	return nil
}

// TestDependencyGraphsAcyclic: the routings of this package that are
// deadlock-free by their proofs have acyclic channel dependency graphs on
// small instances of their topologies.
func TestDependencyGraphsAcyclic(t *testing.T) {
	cube4 := topologies.Spec{Kind: "hypercube", Dimension: 4, Width: 2, HostsPerSwitch: 2}
	cube5 := topologies.Spec{Kind: "hypercube", Dimension: 5, HostsPerSwitch: 1}
	tests := []struct {
		spec topologies.Spec
		alg  string
		vls  int
	}{
		{topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 1}, "dor", 4},
		{topologies.Spec{Kind: "torus", Dims: []int{5, 3, 4}, Widths: []int{1, 2, 1}, HostsPerSwitch: 1}, "dor", 8},
		{topologies.Spec{Kind: "torus", Dims: []int{6, 2, 5}, Widths: []int{1, 2, 1}, HostsPerSwitch: 2}, "dor", 4},
		{topologies.Spec{Kind: "torus", Dims: []int{8}, HostsPerSwitch: 2}, "dor", 2},
		{topologies.Spec{Kind: "ring", Switches: 9, Widths: []int{2}, HostsPerSwitch: 1}, "dor", 3},
		{topologies.Spec{Kind: "torus", Dims: []int{4, 4, 4, 4}, HostsPerSwitch: 1}, "dor", 16},
		{cube4, "dor", 1},
		{cube4, "mixed-dor", 4},
		{cube4, "negative-first", 1},
		{cube4, "abo-negative-first", 2},
		{cube4, "abo-positive-last", 1},
		{cube5, "mixed-dor", 8},
		{cube5, "negative-first", 1},
		{cube5, "abo-negative-first", 1},
		{cube5, "abo-positive-last", 1},
	}
	for _, tc := range tests {
		net := mustBuild(t, tc.spec)
		name := fmt.Sprintf("%s %v %s vls=%d", tc.spec.Kind, net.Dims, tc.alg, tc.vls)
		t.Run(name, func(t *testing.T) {
			r, err := New(Spec{Algorithm: tc.alg, VLs: tc.vls}, net)
			if err != nil {
				t.Fatal(err)
			}
			if c := dependencyCycle(t, net, r, tc.vls); c != nil {
				t.Fatalf("dependency cycle %v", c)
			}
		})
	}
}

// TestDependencyCyclesFound: the check finds the cycles it must: minimal
// routing on a ring without datelines, fully adaptive minimal routing on
// one VL of a hypercube (which the turn models restrict), and torus dor
// with its dateline bits cleared.
func TestDependencyCyclesFound(t *testing.T) {
	ring := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 6, HostsPerSwitch: 1})
	cube := mustBuild(t, topologies.Spec{Kind: "hypercube", Dimension: 3, HostsPerSwitch: 1})
	torus := mustBuild(t, topologies.Spec{Kind: "torus", Dims: []int{4, 5}, HostsPerSwitch: 1})
	build := func(alg string, vls int, net *topologies.Network) Routing {
		r, err := New(Spec{Algorithm: alg, VLs: vls}, net)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	noDateline := build("dor", 4, torus).(*torusDOR)
	noDateline.bit = []int8{-1, -1}
	for _, tc := range []struct {
		name string
		net  *topologies.Network
		r    Routing
		vls  int
	}{
		{"ring dor-nodateline", ring, build("dor-nodateline", 1, ring), 1},
		{"hypercube distance on 1 VL", cube, build("distance", 1, cube), 1},
		{"torus dor without datelines", torus, noDateline, 4},
	} {
		c := dependencyCycle(t, tc.net, tc.r, tc.vls)
		if len(c) < 2 {
			t.Errorf("%s: no dependency cycle found", tc.name)
			continue
		}
		for i, ch := range c {
			next := c[(i+1)%len(c)]
			if p := tc.net.Switches[ch.sw].Ports[ch.port]; int(p.Peer) != next.sw {
				t.Errorf("%s: cycle %v: channel %v does not lead to switch %d", tc.name, c, ch, next.sw)
			}
		}
	}
}
