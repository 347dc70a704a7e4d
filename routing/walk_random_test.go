package routing

import (
	"testing"

	"netsim/kernel"
	"netsim/topologies"
)

// vlHop is one switch-to-switch step of a randomly walked path, with the
// candidates offered at its switch.
type vlHop struct {
	from, to int // switches
	port     int // output port taken
	dim      int // Port.Dim of the link taken
	vl       int // VL on the link taken
	cands    []Candidate
}

// walkRandom follows r from host src to host dst, taking a random
// candidate at every switch, and returns the switch-to-switch hops and
// the source VL. It checks what every routing must keep, whatever its VL
// rules: a source VL and OutVLs in [0, vls), at least one candidate,
// all High, no duplicates, only switch ports before the destination
// switch, exactly the destination's host port (and the VL unchanged)
// there, and arrival within maxHops.
func walkRandom(t *testing.T, net *topologies.Network, r Routing, vls, src, dst int, rng *kernel.RNG, maxHops int) ([]vlHop, int) {
	t.Helper()
	dlid, sl, vl := r.Source(src, dst)
	if int(dlid) != dst || vl < 0 || vl >= vls {
		t.Fatalf("Source(%d,%d) = %d,%d, want dlid %d and a VL in [0,%d)", src, dst, dlid, vl, dst, vls)
	}
	srcVL := vl
	sw, inPort := int(net.Hosts[src].Switch), int(net.Hosts[src].Port)
	var hops []vlHop
	for {
		cands := r.Route(sw, inPort, vl, sl, dlid, nil)
		if len(cands) == 0 {
			t.Fatalf("%d→%d: no candidates at switch %d (in port %d, VL %d)", src, dst, sw, inPort, vl)
		}
		seen := map[int32]bool{}
		for _, c := range cands {
			if c.Priority != High || seen[c.Port] || c.Port < 0 || int(c.Port) >= len(net.Switches[sw].Ports) {
				t.Fatalf("%d→%d at switch %d: bad candidates %v", src, dst, sw, cands)
			}
			seen[c.Port] = true
		}
		if sw == int(net.Hosts[dst].Switch) {
			if len(cands) != 1 || cands[0].Port != net.Hosts[dst].Port {
				t.Fatalf("%d→%d at destination switch %d: candidates %v, want host port %d", src, dst, sw, cands, net.Hosts[dst].Port)
			}
			if got := r.OutVL(sw, inPort, vl, sl, int(cands[0].Port)); got != vl {
				t.Fatalf("%d→%d: OutVL to the host = %d, want %d", src, dst, got, vl)
			}
			return hops, srcVL
		}
		c := cands[rng.IntN(len(cands))]
		port := net.Switches[sw].Ports[c.Port]
		if port.Kind != topologies.SwitchPort {
			t.Fatalf("%d→%d at switch %d: candidate port %d is not a switch link", src, dst, sw, c.Port)
		}
		out := r.OutVL(sw, inPort, vl, sl, int(c.Port))
		if out < 0 || out >= vls {
			t.Fatalf("%d→%d at switch %d: OutVL = %d, outside [0,%d)", src, dst, sw, out, vls)
		}
		hops = append(hops, vlHop{from: sw, to: int(port.Peer), port: int(c.Port), dim: int(port.Dim), vl: out, cands: cands})
		if len(hops) > maxHops {
			t.Fatalf("%d→%d: more than %d hops", src, dst, maxHops)
		}
		sw, inPort, vl = int(port.Peer), int(port.PeerPort), out
	}
}
