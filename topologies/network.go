// Package topologies builds interconnection-network graphs: switches, the
// hosts attached to them, and the links between their ports.
//
// Every builder returns a *Network. Hosts are numbered switch-major
// (host = switch·C + local index for regular families), so bit-permutation
// traffic patterns act on the same addresses as in the seed papers.
//
// Networks also come from files (kind "file"): ReadDot reads the ORCS dot
// format of seed 003, with its routing comments, and ReadIBNetDiscover the
// output of InfiniBand's ibnetdiscover; WriteDot writes the dot format.
package topologies

import "fmt"

// PortKind says what a switch port is connected to.
type PortKind uint8

const (
	// Unused is a port with nothing attached.
	Unused PortKind = iota
	// HostPort connects a switch to a host adapter (NIC).
	HostPort
	// SwitchPort connects a switch to another switch.
	SwitchPort
)

// Port is one port of a switch. A bidirectional link between two switches
// appears once on each side, each naming the other.
type Port struct {
	Kind PortKind
	// Peer is the host index (HostPort) or the switch index (SwitchPort).
	Peer int32
	// PeerPort is the port index on the peer switch (SwitchPort only).
	PeerPort int32
	// Dim labels the link class: for coordinate families the dimension the
	// link spans (0-based); -1 for host ports and unlabelled links.
	Dim int16
}

// Switch is one switch of the network.
type Switch struct {
	// Ports lists the switch's ports; the port index is the position here.
	Ports []Port
	// Coord holds the switch's coordinates: one per dimension in the
	// coordinate families (FlatFly, torus, ring, hypercube, product); the
	// family's own coordinates otherwise ([group, index in group] in a
	// Dragonfly, [t, x, y] in a Slim Fly, the symbols of the word in a
	// Kautz graph, [level, index within the level] in tree families, see
	// Clos); nil when there are none (crossbar, random, file).
	Coord []int32
}

// Host is one host adapter, attached to exactly one switch port.
type Host struct {
	Switch int32
	Port   int32
}

// Network is a built topology.
type Network struct {
	// Kind is the family ("flatfly", "crossbar", "ring", ...).
	Kind string
	// Switches lists the switches; the switch index is the position here.
	Switches []Switch
	// Hosts lists the hosts; the host index is the position here.
	Hosts []Host
	// Dims holds K_n for coordinate families, nil otherwise.
	Dims []int
	// Widths holds L_n (parallel links per neighbour pair) for coordinate
	// families, nil otherwise.
	Widths []int
	// HostsPerSwitch is C for regular families, 0 when it varies. Tree
	// families (clos, fattree, xgft) give the hosts per leaf switch: their
	// leaves are switches 0..L−1, so host = switch·C + local index holds.
	HostsPerSwitch int
	// Names holds the node names of an imported network, so that an export
	// keeps them; nil for built families, which export default names.
	Names *Names
	// IB holds the InfiniBand identities (GUIDs, LIDs, node descriptions)
	// of a network imported from ibnetdiscover output, by which dumped
	// forwarding tables are matched to it; nil otherwise.
	IB *IBInfo
	// Bisection is the relative bisection bandwidth: the links crossing
	// the narrowest balanced cut (parallel links counted) divided by half
	// the hosts, as a fraction (0.5 = 50 %). It is set where a formula is
	// known (FlatFly/HyperX and torus with even sizes, hypercube,
	// Dragonfly, Slim Fly with q = 2^p, products of those) and 0
	// otherwise.
	Bisection float64
	// Spec is the specification Build built the network from, with any
	// preset expanded and defaults filled in.
	Spec Spec
}

// Names holds the names of a network's nodes, as read from a topology file.
type Names struct {
	// Switches holds one name per switch, by switch index.
	Switches []string
	// Hosts holds one name per host, by host index.
	Hosts []string
}

// Radix returns the largest number of used ports on any switch.
func (n *Network) Radix() int {
	r := 0
	for i := range n.Switches {
		used := 0
		for _, p := range n.Switches[i].Ports {
			if p.Kind != Unused {
				used++
			}
		}
		r = max(r, used)
	}
	return r
}

// Links returns the number of bidirectional inter-switch links.
func (n *Network) Links() int {
	l := 0
	for i := range n.Switches {
		for _, p := range n.Switches[i].Ports {
			if p.Kind == SwitchPort {
				l++
			}
		}
	}
	return l / 2
}

// Validate checks that every link is symmetric and every host is attached
// to the port that names it.
func (n *Network) Validate() error {
	if len(n.Switches) == 0 {
		return fmt.Errorf("network %q has no switches", n.Kind)
	}
	for s := range n.Switches {
		for pi, p := range n.Switches[s].Ports {
			switch p.Kind {
			case SwitchPort:
				if p.Peer < 0 || int(p.Peer) >= len(n.Switches) {
					return fmt.Errorf("switch %d port %d: peer switch %d out of range", s, pi, p.Peer)
				}
				peer := n.Switches[p.Peer].Ports
				if p.PeerPort < 0 || int(p.PeerPort) >= len(peer) {
					return fmt.Errorf("switch %d port %d: peer port %d out of range", s, pi, p.PeerPort)
				}
				q := peer[p.PeerPort]
				if q.Kind != SwitchPort || int(q.Peer) != s || int(q.PeerPort) != pi {
					return fmt.Errorf("switch %d port %d: link to switch %d port %d is not symmetric", s, pi, p.Peer, p.PeerPort)
				}
			case HostPort:
				if p.Peer < 0 || int(p.Peer) >= len(n.Hosts) {
					return fmt.Errorf("switch %d port %d: host %d out of range", s, pi, p.Peer)
				}
				h := n.Hosts[p.Peer]
				if int(h.Switch) != s || int(h.Port) != pi {
					return fmt.Errorf("switch %d port %d: host %d is attached elsewhere (switch %d port %d)", s, pi, p.Peer, h.Switch, h.Port)
				}
			}
		}
	}
	for h, a := range n.Hosts {
		if a.Switch < 0 || int(a.Switch) >= len(n.Switches) {
			return fmt.Errorf("host %d: switch %d out of range", h, a.Switch)
		}
		ports := n.Switches[a.Switch].Ports
		if a.Port < 0 || int(a.Port) >= len(ports) || ports[a.Port].Kind != HostPort || int(ports[a.Port].Peer) != h {
			return fmt.Errorf("host %d: switch %d port %d does not name it", h, a.Switch, a.Port)
		}
	}
	return nil
}
