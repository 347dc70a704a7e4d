package structure

import (
	"fmt"

	"netsim/topologies"
)

// Link is one bidirectional inter-switch link: a cable from port PortA of
// switch A to port PortB of switch B. A port is -1 when unknown.
type Link struct {
	A, B         int
	PortA, PortB int
}

// Graph is a network given as a link list: the input of the mappings.
type Graph struct {
	// Names holds one name per switch; the switch index is the position.
	Names []string
	// Hosts holds the number of hosts on each switch; nil when unknown.
	Hosts []int
	// Links lists the inter-switch links; parallel links are listed once
	// each.
	Links []Link
}

// Switches returns the number of switches.
func (g *Graph) Switches() int { return len(g.Names) }

// Validate checks that every link joins two distinct known switches, that
// no port carries two links, and that Hosts, when given, has one
// non-negative entry per switch.
func (g *Graph) Validate() error {
	n := len(g.Names)
	if g.Hosts != nil && len(g.Hosts) != n {
		return fmt.Errorf("hosts: %d entries for %d switches", len(g.Hosts), n)
	}
	for s, h := range g.Hosts {
		if h < 0 {
			return fmt.Errorf("hosts: switch %s has %d hosts", g.Names[s], h)
		}
	}
	type port struct{ s, p int }
	used := make(map[port]int)
	for i, l := range g.Links {
		if l.A < 0 || l.A >= n || l.B < 0 || l.B >= n {
			return fmt.Errorf("link %d: switch out of range (%d, %d; %d switches)", i, l.A, l.B, n)
		}
		if l.A == l.B {
			return fmt.Errorf("link %d: joins switch %s to itself", i, g.Names[l.A])
		}
		for _, p := range []port{{l.A, l.PortA}, {l.B, l.PortB}} {
			if p.p < -1 {
				return fmt.Errorf("link %d: switch %s port %d is negative", i, g.Names[p.s], p.p)
			}
			if p.p < 0 {
				continue
			}
			if j, ok := used[p]; ok {
				return fmt.Errorf("link %d: switch %s port %d already carries link %d", i, g.Names[p.s], p.p, j)
			}
			used[p] = i
		}
	}
	return nil
}

// FromNetwork returns the link list of net: one switch per switch of net,
// named "s<index>", its host count, and one Link per inter-switch cable.
// Coordinates, dimensions and the network kind are dropped.
func FromNetwork(net *topologies.Network) *Graph {
	g := &Graph{
		Names: make([]string, len(net.Switches)),
		Hosts: make([]int, len(net.Switches)),
	}
	for s := range net.Switches {
		g.Names[s] = fmt.Sprintf("s%d", s)
		for p, port := range net.Switches[s].Ports {
			switch port.Kind {
			case topologies.HostPort:
				g.Hosts[s]++
			case topologies.SwitchPort:
				peer, pp := int(port.Peer), int(port.PeerPort)
				if s < peer || (s == peer && p < pp) {
					g.Links = append(g.Links, Link{A: s, B: peer, PortA: p, PortB: pp})
				}
			}
		}
	}
	return g
}
