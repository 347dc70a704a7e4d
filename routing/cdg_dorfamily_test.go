package routing

import (
	"fmt"
	"testing"

	"netsim/topologies"
)

// channel is a (link, VL) pair, named by the receiving end of the link: the
// switch and its input port.
type channel struct{ sw, port, vl int }

// String names the channel for failure messages.
func (c channel) String() string {
	return fmt.Sprintf("(switch %d, port %d, VL %d)", c.sw, c.port, c.vl)
}

// exploration is what explore found.
type exploration struct {
	maxHops int       // the longest path, in switch-to-switch hops
	cycle   []channel // a cycle of the channel dependency graph, or nil
}

// explore follows every candidate r can return from every source to every
// destination, over the states (switch, input port, input VL) reachable
// from the sources, and builds the channel dependency graph of those
// states: the channel a packet arrives on depends on every channel it may
// leave on. It fails the test if some state has no candidates, a
// candidate is not a port of the switch, the candidates at the destination
// switch are not exactly the destination's host port, an output VL is out
// of range, a source SL is not 0 (the states leave the SL out), or a
// packet can cycle through states (a livelock). It returns the longest
// path and a cycle of the dependency graph, if any.
func explore(t *testing.T, net *topologies.Network, r Routing, vls int) exploration {
	t.Helper()
	const sl = 0
	maxPorts := 0
	for s := range net.Switches {
		maxPorts = max(maxPorts, len(net.Switches[s].Ports))
	}
	id := func(c channel) int { return (c.sw*maxPorts+c.port)*vls + c.vl }
	nch := len(net.Switches) * maxPorts * vls
	deps := make([]map[int]bool, nch)
	// Per destination: the longest remaining path from a state, -1 while
	// the state is on the DFS stack, -2 unvisited.
	remain := make([]int, nch)
	var res exploration
	var visit func(c channel, dst int) int
	visit = func(c channel, dst int) int {
		i := id(c)
		switch remain[i] {
		case -1:
			t.Fatalf("%s: a packet to host %d can return to state %v (livelock)", r.Name(), dst, c)
		case -2:
		default:
			return remain[i]
		}
		remain[i] = -1
		cands := r.Route(c.sw, c.port, c.vl, sl, int32(dst), nil)
		if len(cands) == 0 {
			t.Fatalf("%s: no candidates at %v for host %d", r.Name(), c, dst)
		}
		h := net.Hosts[dst]
		if c.sw == int(h.Switch) {
			if len(cands) != 1 || cands[0].Port != h.Port {
				t.Fatalf("%s: at the destination switch %v candidates %v, want host port %d", r.Name(), c, cands, h.Port)
			}
			remain[i] = 0
			return 0
		}
		longest := 0
		for _, cand := range cands {
			ports := net.Switches[c.sw].Ports
			if cand.Port < 0 || int(cand.Port) >= len(ports) || ports[cand.Port].Kind != topologies.SwitchPort {
				t.Fatalf("%s: at %v for host %d: candidate %v is not a switch link", r.Name(), c, dst, cand)
			}
			vl := r.OutVL(c.sw, c.port, c.vl, sl, int(cand.Port))
			if vl < 0 || vl >= vls {
				t.Fatalf("%s: at %v OutVL to port %d = %d, outside [0,%d)", r.Name(), c, cand.Port, vl, vls)
			}
			p := ports[cand.Port]
			next := channel{int(p.Peer), int(p.PeerPort), vl}
			if deps[i] == nil {
				deps[i] = map[int]bool{}
			}
			deps[i][id(next)] = true
			longest = max(longest, 1+visit(next, dst))
		}
		remain[i] = longest
		return longest
	}
	for dst := range net.Hosts {
		for i := range remain {
			remain[i] = -2
		}
		for src := range net.Hosts {
			dlid, srcSL, vl := r.Source(src, dst)
			if int(dlid) != dst || srcSL != sl || vl < 0 || vl >= vls {
				t.Fatalf("%s: Source(%d,%d) = %d, %d, %d", r.Name(), src, dst, dlid, srcSL, vl)
			}
			h := net.Hosts[src]
			res.maxHops = max(res.maxHops, visit(channel{int(h.Switch), int(h.Port), vl}, dst))
		}
	}
	res.cycle = findCycle(deps, func(i int) channel {
		return channel{i / vls / maxPorts, i / vls % maxPorts, i % vls}
	})
	return res
}

// findCycle returns a cycle of the graph deps (nil if it is acyclic), its
// vertices named by name.
func findCycle(deps []map[int]bool, name func(int) channel) []channel {
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, len(deps))
	parent := make([]int, len(deps))
	for root := range deps {
		if color[root] != white {
			continue
		}
		// Iterative DFS: stack of (vertex, remaining successors).
		type frame struct {
			v    int
			next []int
		}
		succ := func(v int) []int {
			var s []int
			for w := range deps[v] {
				s = append(s, w)
			}
			return s
		}
		stack := []frame{{root, succ(root)}}
		color[root] = grey
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if len(f.next) == 0 {
				color[f.v] = black
				stack = stack[:len(stack)-1]
				continue
			}
			w := f.next[0]
			f.next = f.next[1:]
			switch color[w] {
			case grey:
				cycle := []channel{name(w)}
				for v := f.v; v != w; v = parent[v] {
					cycle = append(cycle, name(v))
				}
				return cycle
			case white:
				color[w], parent[w] = grey, f.v
				stack = append(stack, frame{w, succ(w)})
			}
		}
	}
	return nil
}

// TestExploreFindsCycles checks the checker: minimal routing on a ring
// without datelines has a dependency cycle, FlatFly DOR has none and its
// longest path is the diameter.
func TestExploreFindsCycles(t *testing.T) {
	ring := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 5, HostsPerSwitch: 1})
	r, err := New(Spec{Algorithm: "dor-nodateline", VLs: 1}, ring)
	if err != nil {
		t.Fatal(err)
	}
	if ex := explore(t, ring, r, 1); ex.cycle == nil || ex.maxHops != 2 {
		t.Fatalf("ring dor-nodateline: cycle %v, longest path %d; want a cycle and 2", ex.cycle, ex.maxHops)
	}
	ff := mustBuild(t, topologies.Spec{Kind: "flatfly", Dims: []int{3, 3}, HostsPerSwitch: 1})
	r, err = New(Spec{Algorithm: "dor", VLs: 1}, ff)
	if err != nil {
		t.Fatal(err)
	}
	if ex := explore(t, ff, r, 1); ex.cycle != nil || ex.maxHops != 2 {
		t.Fatalf("flatfly dor: cycle %v, longest path %d; want none and 2", ex.cycle, ex.maxHops)
	}
}
