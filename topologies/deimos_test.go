package topologies

import (
	"fmt"
	"slices"
	"testing"
)

func TestDeimos(t *testing.T) {
	tests := []struct {
		ports    int
		boxHosts []int
		chain    int
		links    int // 2-level boxes (ports·ports/2 links each) plus chains
		diameter int
	}{
		// Seeds 000/002: three 288-port switches of 24-port crossbars
		// (24 leaves with 12 external ports and 12 uplinks, 12 spines),
		// 30 links between neighbours, 258/228/258 hosts.
		{24, []int{258, 228, 258}, 30, 3*288 + 2*30, 6},
		{8, []int{28, 24, 28}, 4, 3*32 + 2*4, 8},
		{8, []int{30, 24, 24, 30}, 2, 4*32 + 3*2, 7},
		{4, []int{7, 7}, 1, 2*8 + 1, 5},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d-port %v chain %d", tc.ports, tc.boxHosts, tc.chain), func(t *testing.T) {
			net, err := Build(Spec{Kind: "deimos", Ports: tc.ports, BoxHosts: tc.boxHosts, ChainLinks: tc.chain})
			if err != nil {
				t.Fatal(err)
			}
			checkDeimos(t, net, tc.ports, tc.boxHosts, tc.chain)
			if net.Links() != tc.links || net.Radix() != tc.ports {
				t.Errorf("links %d radix %d, want %d and %d", net.Links(), net.Radix(), tc.links, tc.ports)
			}
			if d := diameter(t, net); d != tc.diameter {
				t.Errorf("diameter %d, want %d", d, tc.diameter)
			}
		})
	}
}

// checkDeimos checks the layout documented on Deimos: per box ports leaves
// then ports/2 spines, numbered level-major over the boxes with Coord =
// [level, index, box]; every leaf has one uplink to each spine of its box;
// hosts leaf-major from box 0 on the first external ports, then the chain
// ports to the previous and the next box, chain ports to a box joined in
// order, with Dim 1.
func checkDeimos(t *testing.T, net *Network, ports int, boxHosts []int, chain int) {
	t.Helper()
	if err := net.Validate(); err != nil {
		t.Fatal(err)
	}
	boxes, half := len(boxHosts), ports/2
	leaves, spines := boxes*ports, boxes*half
	if len(net.Switches) != leaves+spines || net.Kind != "deimos" || net.HostsPerSwitch != 0 {
		t.Fatalf("%d switches, kind %q, C %d; want %d, deimos, 0", len(net.Switches), net.Kind, net.HostsPerSwitch, leaves+spines)
	}
	for s := range net.Switches {
		level, index, box := 0, s, s/ports
		if s >= leaves {
			level, index, box = 1, s-leaves, (s-leaves)/half
		}
		if c := net.Switches[s].Coord; !slices.Equal(c, []int32{int32(level), int32(index), int32(box)}) {
			t.Fatalf("switch %d: Coord %v, want [%d %d %d]", s, c, level, index, box)
		}
	}
	// External port e of box b, in order: hosts, chain to b−1, chain to b+1.
	host := 0
	chainPorts := make([][2][]Port, boxes) // [b][0]: to b−1, [b][1]: to b+1
	for b, hb := range boxHosts {
		for e := range ports * half {
			s, p := b*ports+e/half, e%half
			port := net.Switches[s].Ports[p]
			lo := hb
			switch {
			case e < hb:
				if port.Kind != HostPort || int(port.Peer) != host {
					t.Fatalf("box %d external port %d (switch %d port %d) = %+v, want host %d", b, e, s, p, port, host)
				}
				host++
				continue
			case b > 0 && e < hb+chain:
				chainPorts[b][0] = append(chainPorts[b][0], port)
				continue
			case b > 0:
				lo += chain
			}
			if b < boxes-1 && e < lo+chain {
				chainPorts[b][1] = append(chainPorts[b][1], port)
			} else if port.Kind != Unused {
				t.Fatalf("box %d external port %d = %+v, want unused", b, e, port)
			}
		}
		// Uplinks: port half+j of every leaf goes to spine j of its box.
		for l := range ports {
			for j := range half {
				s := b*ports + l
				want := Port{Kind: SwitchPort, Peer: int32(leaves + b*half + j), PeerPort: int32(l), Dim: 0}
				if got := net.Switches[s].Ports[half+j]; got != want {
					t.Fatalf("switch %d port %d = %+v, want %+v", s, half+j, got, want)
				}
			}
		}
	}
	if host != len(net.Hosts) {
		t.Fatalf("%d hosts on external ports, network has %d", host, len(net.Hosts))
	}
	for b := range boxes - 1 {
		next, prev := chainPorts[b][1], chainPorts[b+1][0]
		if len(next) != chain || len(prev) != chain {
			t.Fatalf("boxes %d and %d: %d and %d chain ports, want %d", b, b+1, len(next), len(prev), chain)
		}
		for r := range chain {
			// Link r of the chain: next[r] names the switch and port of prev[r].
			x, y := next[r], prev[r]
			if x.Kind != SwitchPort || y.Kind != SwitchPort || x.Dim != 1 || y.Dim != 1 ||
				int(x.Peer)/ports != b+1 || int(y.Peer)/ports != b || net.Switches[x.Peer].Ports[x.PeerPort] != y {
				t.Fatalf("boxes %d and %d: chain link %d = %+v / %+v", b, b+1, r, x, y)
			}
		}
	}
}

// TestDeimosDetail pins concrete ports of the full-size Deimos chain.
func TestDeimosDetail(t *testing.T) {
	net, err := Deimos(24, []int{258, 228, 258}, 30)
	if err != nil {
		t.Fatal(err)
	}
	// Box 0: leaves 0..20 carry 12 hosts each, leaf 21 six hosts and six
	// chain ports to box 1, leaves 22 and 23 twelve chain ports each.
	perLeaf := make([]int, 72)
	for _, a := range net.Hosts {
		perLeaf[a.Switch]++
	}
	if perLeaf[20] != 12 || perLeaf[21] != 6 || perLeaf[22] != 0 || perLeaf[24] != 12 || perLeaf[42] != 12 || perLeaf[43] != 0 {
		t.Errorf("hosts on leaves 20, 21, 22, 24, 42, 43: %d %d %d %d %d %d, want 12 6 0 12 12 0",
			perLeaf[20], perLeaf[21], perLeaf[22], perLeaf[24], perLeaf[42], perLeaf[43])
	}
	// Box 0's first chain port (leaf 21 port 6) meets box 1's first (leaf
	// 24+19 = 43, port 0: external port 228); box 1's link to box 2 leaves
	// from external port 258 (leaf 45 port 6) to box 2's 258 (leaf 69 port 6).
	for _, c := range []struct{ s, p, peer, peerPort int }{{21, 6, 43, 0}, {45, 6, 69, 6}, {23, 11, 45, 5}} {
		if got := net.Switches[c.s].Ports[c.p]; got != (Port{Kind: SwitchPort, Peer: int32(c.peer), PeerPort: int32(c.peerPort), Dim: 1}) {
			t.Errorf("switch %d port %d = %+v, want a chain link to switch %d port %d", c.s, c.p, got, c.peer, c.peerPort)
		}
	}
	// Hosts per box 258/228/258.
	for b, want := range []int{258, 228, 258} {
		n := 0
		for _, a := range net.Hosts {
			if net.Switches[a.Switch].Coord[2] == int32(b) {
				n++
			}
		}
		if n != want {
			t.Errorf("box %d has %d hosts, want %d", b, n, want)
		}
	}
}
