package fabric

import (
	"fmt"
	"strings"

	"netsim/topologies"
)

// minDeadlockWindow is the shortest watchdog window a point uses, and
// stallFactor how many times the longest stall of a network that is not
// deadlocked it is at least (deadlockWindow).
const (
	minDeadlockWindow = 1000
	stallFactor       = 16
)

// deadlockWindow returns the watchdog window of a point: the cycles
// without any flit moving, with flits in flight, after which it stops
// with a deadlock. It is Config.DeadlockWindow, or a quarter of the
// warm-up and measurement if that is shorter, so a deadlock that sets in
// during the first three quarters of a run is found whatever its length;
// but not below minDeadlockWindow cycles nor stallFactor times the
// longest a network that is not deadlocked can go without moving a flit
// (stall), unless that is longer than the run: then the whole run, or 4
// stalls if the run is shorter still.
func (c *Config) deadlockWindow() int64 {
	w, run := c.DeadlockWindow, c.Warmup+c.Measure
	if run/4 < w {
		w = min(max(run/4, minDeadlockWindow, stallFactor*c.stall()), max(run, 4*c.stall()))
	}
	return min(w, c.DeadlockWindow)
}

// stall bounds the cycles a network that is not deadlocked goes without
// moving a flit while flits are in flight: some packet can move, and it
// moves once its credits have come back over a link and its flit has
// crossed one (two link latencies), it has been routed and allocated and
// has crossed the crossbar (the pipeline delays), and the packet ahead of
// it at a host has been received at the receive rate.
func (c *Config) stall() int64 {
	rate := c.ReceiveRate
	if rate <= 0 || rate > 1 {
		rate = 1
	}
	eject := int64(float64(c.PacketFlits)/rate) + 1
	return int64(2*c.maxLatency()+c.RoutingDelay+c.CrossbarDelay+c.VLAllocDelay+c.SwAllocDelay) + eject
}

// buffer is an input buffer of a switch: one input port and VL.
type buffer struct{ sw, port, vl int }

// waitCycle returns a cycle of waiting among the switches' input buffers
// that hold flits, read from the simulation state (switching.Switch.Waits):
// buffer i's packet waits for room in buffer i+1, the last one's in the
// first. It returns nil if there is none. Of the cycles, it returns the
// first a depth-first search finds visiting the buffers in order of
// switch, port and VL, so the same state gives the same cycle.
func (p *point) waitCycle() []buffer {
	net := p.cfg.Net
	vls := p.cfg.VLs
	first := make([]int, len(net.Switches)+1) // node of switch i's port 0, VL 0
	for i, sw := range net.Switches {
		first[i+1] = first[i] + len(sw.Ports)*vls
	}
	n := first[len(net.Switches)]
	holds := make([]bool, n)
	for i, sw := range net.Switches {
		for port := range sw.Ports {
			for vl := 0; vl < vls; vl++ {
				holds[first[i]+port*vls+vl] = p.switches[i].Holds(port, vl)
			}
		}
	}
	adj := make([][]int32, n)
	for i, sw := range net.Switches {
		p.switches[i].Waits(func(inPort, inVL, outPort, outVL int) {
			from := first[i] + inPort*vls + inVL
			to := sw.Ports[outPort]
			if !holds[from] || to.Kind != topologies.SwitchPort {
				return // a host always takes its flits
			}
			if t := first[to.Peer] + int(to.PeerPort)*vls + outVL; holds[t] {
				adj[from] = append(adj[from], int32(t))
			}
		})
	}
	// Depth-first search, iterative: state 1 on the path, 2 done.
	state := make([]uint8, n)
	type frame struct{ node, next int }
	var path []frame
	for root := range n {
		if state[root] != 0 || len(adj[root]) == 0 {
			continue
		}
		path = append(path[:0], frame{node: root})
		state[root] = 1
		for len(path) > 0 {
			f := &path[len(path)-1]
			if f.next == len(adj[f.node]) {
				state[f.node] = 2
				path = path[:len(path)-1]
				continue
			}
			t := int(adj[f.node][f.next])
			f.next++
			switch state[t] {
			case 0:
				state[t] = 1
				path = append(path, frame{node: t})
			case 1: // back to the path: a cycle from t
				k := len(path) - 1
				for path[k].node != t {
					k--
				}
				cycle := make([]buffer, 0, len(path)-k)
				for _, f := range path[k:] {
					cycle = append(cycle, p.bufferOf(f.node, first))
				}
				return cycle
			}
		}
	}
	return nil
}

// bufferOf returns the buffer of graph node v (waitCycle).
func (p *point) bufferOf(v int, first []int) buffer {
	sw := 0
	for first[sw+1] <= v {
		sw++
	}
	v -= first[sw]
	return buffer{sw: sw, port: v / p.cfg.VLs, vl: v % p.cfg.VLs}
}

// name returns buffer b as "switch S (C) port P VL V", with C the
// switch's coordinates when it has any.
func (p *point) name(b buffer) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "switch %d", b.sw)
	if c := p.cfg.Net.Switches[b.sw].Coord; len(c) > 0 {
		fmt.Fprintf(&sb, " %v", c)
	}
	fmt.Fprintf(&sb, " port %d VL %d", b.port, b.vl)
	return sb.String()
}

// describeWait returns what a deadlock report says of the waiting: the
// cycle of waiting, or that there is none among the switches' buffers.
func (p *point) describeWait() string {
	cycle := p.waitCycle()
	if cycle == nil {
		return "no cycle of waiting among the switches' input buffers"
	}
	names := make([]string, len(cycle)+1)
	for i, b := range cycle {
		names[i] = p.name(b)
	}
	names[len(cycle)] = names[0]
	return fmt.Sprintf("cycle of waiting (%d input buffers, each waiting for room in the next): %s", len(cycle), strings.Join(names, " -> "))
}
