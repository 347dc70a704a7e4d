package routing

import (
	"testing"

	"netsim/topologies"
)

// hop is one switch-to-switch step of a walked path.
type hop struct {
	from, to int // switches
	dim      int // Port.Dim of the link taken
}

// walk follows r from host src to host dst, taking candidate pick mod the
// number of candidates at every switch, and returns the switch-to-switch
// hops. It checks the invariants every routing here must keep: at least one
// candidate, all High, no duplicates, VLs in range and constant, candidates
// at the destination switch = exactly the destination's host port, and
// arrival within maxHops.
func walk(t *testing.T, net *topologies.Network, r Routing, vls, src, dst, pick, maxHops int) []hop {
	t.Helper()
	dlid, sl, vl := r.Source(src, dst)
	if int(dlid) != dst {
		t.Fatalf("Source(%d,%d) dlid = %d, want %d", src, dst, dlid, dst)
	}
	if vl < 0 || vl >= vls {
		t.Fatalf("Source(%d,%d) vl = %d, outside [0,%d)", src, dst, vl, vls)
	}
	want := dst % net.HostsPerSwitch % vls
	if vl != want {
		t.Fatalf("Source(%d,%d) vl = %d, want (dst local index) mod VLs = %d", src, dst, vl, want)
	}
	sw, inPort := int(net.Hosts[src].Switch), int(net.Hosts[src].Port)
	var hops []hop
	buf := make([]Candidate, 0, 16)
	for {
		cands := r.Route(sw, inPort, vl, sl, dlid, buf[:0])
		if len(cands) == 0 {
			t.Fatalf("%d→%d: no candidates at switch %d", src, dst, sw)
		}
		seen := map[int32]bool{}
		for _, c := range cands {
			if c.Priority != High || seen[c.Port] || c.Port < 0 || int(c.Port) >= len(net.Switches[sw].Ports) {
				t.Fatalf("%d→%d at switch %d: bad candidates %v", src, dst, sw, cands)
			}
			seen[c.Port] = true
		}
		if sw == int(net.Hosts[dst].Switch) {
			if len(cands) != 1 || int(cands[0].Port) != int(net.Hosts[dst].Port) {
				t.Fatalf("%d→%d at destination switch %d: candidates %v, want host port %d", src, dst, sw, cands, net.Hosts[dst].Port)
			}
			if got := r.OutVL(sw, inPort, vl, sl, int(cands[0].Port)); got != vl {
				t.Fatalf("%d→%d: OutVL to host = %d, want %d", src, dst, got, vl)
			}
			return hops
		}
		c := cands[pick%len(cands)]
		port := net.Switches[sw].Ports[c.Port]
		if port.Kind != topologies.SwitchPort {
			t.Fatalf("%d→%d at switch %d: candidate port %d is not a switch link", src, dst, sw, c.Port)
		}
		if got := r.OutVL(sw, inPort, vl, sl, int(c.Port)); got != vl {
			t.Fatalf("%d→%d at switch %d: OutVL = %d, want %d (constant)", src, dst, sw, got, vl)
		}
		hops = append(hops, hop{from: sw, to: int(port.Peer), dim: int(port.Dim)})
		if len(hops) > maxHops {
			t.Fatalf("%d→%d: more than %d hops: %v", src, dst, maxHops, hops)
		}
		sw, inPort = int(port.Peer), int(port.PeerPort)
	}
}

// candidatePeers returns the switch every candidate leads to, failing if
// they disagree.
func candidatePeers(t *testing.T, net *topologies.Network, sw int, cands []Candidate) int {
	t.Helper()
	peer := -1
	for _, c := range cands {
		p := int(net.Switches[sw].Ports[c.Port].Peer)
		if peer >= 0 && p != peer {
			t.Fatalf("switch %d: candidates %v lead to different switches", sw, cands)
		}
		peer = p
	}
	return peer
}
