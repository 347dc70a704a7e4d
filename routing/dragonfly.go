package routing

import (
	"fmt"

	"netsim/topologies"
)

// Port classes of a Dragonfly switch as the Dragonfly routings see them.
const (
	dfUnused uint8 = iota
	dfHost
	dfLocal  // a link to a switch of the same group
	dfGlobal // a link to a switch of another group
)

// dragonfly is the structure of a Dragonfly, recovered from a network's
// coordinates and links and shared by the Dragonfly routings: the group of
// every switch, the class of every port, the local ports between the
// switches of a group, and which switches of a group hold the global links
// to every other group. Nothing here relies on the global-link arrangement
// or on the port layout of the builder.
type dragonfly struct {
	hosts  hostTable
	k      int32   // switches per group
	ng     int32   // groups
	group  []int32 // group of each switch
	index  []int32 // index of each switch within its group
	member []int32 // member[g·k+i]: the switch with index i in group g
	// class[portStart[s]+p] is the class of port p of switch s.
	portStart []int32
	class     []uint8
	// The ports of switch s to the switch with index i of its group are
	// localFirst[s·k+i] … localFirst[s·k+i] + localN[s·k+i] − 1.
	localFirst, localN []int32
	// The global links from group a to group b are (glSw[j], glPort[j])
	// for glStart[a·ng+b] ≤ j < glStart[a·ng+b+1], by switch then port.
	glStart, glSw, glPort []int32
	// The global ports of switch s are gpPort[j], leading to group
	// gpGroup[j], for gpStart[s] ≤ j < gpStart[s+1].
	gpStart, gpPort, gpGroup []int32
	// only[s] is the group every global link of s leads to, -1 when they
	// lead to several groups and -2 when s has none.
	only []int32
}

// newDragonfly recovers the Dragonfly structure of net: Switch.Coord must
// be [group, index within group] with groups of equal size, every two
// switches of a group must be linked (parallel links contiguous), and every
// two groups joined by at least one global link.
func newDragonfly(net *topologies.Network, vls int) (*dragonfly, error) {
	hosts, err := newHostTable(net, vls)
	if err != nil {
		return nil, err
	}
	d := &dragonfly{hosts: hosts}
	if err := d.groups(net); err != nil {
		return nil, fmt.Errorf("network is not a Dragonfly: %w", err)
	}
	if err := d.links(net); err != nil {
		return nil, fmt.Errorf("network is not a Dragonfly: %w", err)
	}
	return d, nil
}

// groups reads the coordinates and fills k, ng, group, index and member.
func (d *dragonfly) groups(net *topologies.Network) error {
	n := len(net.Switches)
	d.group = make([]int32, n)
	d.index = make([]int32, n)
	for s := range net.Switches {
		c := net.Switches[s].Coord
		if len(c) != 2 || c[0] < 0 || c[1] < 0 || int(c[0]) >= n || int(c[1]) >= n {
			return fmt.Errorf("switch %d has coordinates %v, want [group, index within group]", s, c)
		}
		d.group[s], d.index[s] = c[0], c[1]
		d.ng = max(d.ng, c[0]+1)
		d.k = max(d.k, c[1]+1)
	}
	if int(d.ng)*int(d.k) != n {
		return fmt.Errorf("%d switches do not make %d groups of %d", n, d.ng, d.k)
	}
	if d.ng < 2 {
		return fmt.Errorf("a single group of %d switches", d.k)
	}
	d.member = make([]int32, n)
	for i := range d.member {
		d.member[i] = -1
	}
	for s := range net.Switches {
		slot := &d.member[d.group[s]*d.k+d.index[s]]
		if *slot >= 0 {
			return fmt.Errorf("switches %d and %d both have coordinates [%d %d]", *slot, s, d.group[s], d.index[s])
		}
		*slot = int32(s)
	}
	return nil
}

// links classifies every port and fills the local and global link tables.
func (d *dragonfly) links(net *topologies.Network) error {
	n, k, ng := len(net.Switches), int(d.k), int(d.ng)
	d.portStart = make([]int32, n+1)
	for s := range net.Switches {
		d.portStart[s+1] = d.portStart[s] + int32(len(net.Switches[s].Ports))
	}
	d.class = make([]uint8, d.portStart[n])
	d.localFirst = make([]int32, n*k)
	d.localN = make([]int32, n*k)
	d.glStart = make([]int32, ng*ng+1)
	d.gpStart = make([]int32, n+1)
	for s := range net.Switches {
		for p, port := range net.Switches[s].Ports {
			c := &d.class[int(d.portStart[s])+p]
			switch {
			case port.Kind == topologies.HostPort:
				*c = dfHost
			case port.Kind != topologies.SwitchPort:
				*c = dfUnused
			case int(port.Peer) == s:
				return fmt.Errorf("switch %d port %d links the switch to itself", s, p)
			case d.group[port.Peer] == d.group[s]:
				*c = dfLocal
				i := s*k + int(d.index[port.Peer])
				if err := extendRun(s, p, port.Peer, &d.localFirst[i], &d.localN[i]); err != nil {
					return err
				}
			default:
				*c = dfGlobal
				d.glStart[int(d.group[s])*ng+int(d.group[port.Peer])+1]++
				d.gpStart[s+1]++
			}
		}
		for i := range k {
			if i != int(d.index[s]) && d.localN[s*k+i] == 0 {
				return fmt.Errorf("switch %d has no local link to switch %d of its group %d", s, d.member[int(d.group[s])*k+i], d.group[s])
			}
		}
	}
	for a := range ng {
		for b := range ng {
			if a != b && d.glStart[a*ng+b+1] == 0 {
				return fmt.Errorf("no global link joins group %d to group %d", a, b)
			}
		}
	}
	for i := range ng * ng {
		d.glStart[i+1] += d.glStart[i]
	}
	for s := range n {
		d.gpStart[s+1] += d.gpStart[s]
	}
	links := d.glStart[ng*ng]
	d.glSw, d.glPort = make([]int32, links), make([]int32, links)
	d.gpPort, d.gpGroup = make([]int32, links), make([]int32, links)
	d.only = make([]int32, n)
	fill := append([]int32(nil), d.glStart[:ng*ng]...)
	for s := range net.Switches {
		j := d.gpStart[s]
		d.only[s] = -2
		for p, port := range net.Switches[s].Ports {
			if d.class[int(d.portStart[s])+p] != dfGlobal {
				continue
			}
			b := d.group[port.Peer]
			pair := int(d.group[s])*ng + int(b)
			d.glSw[fill[pair]], d.glPort[fill[pair]] = int32(s), int32(p)
			fill[pair]++
			d.gpPort[j], d.gpGroup[j] = int32(p), b
			j++
			switch d.only[s] {
			case -2:
				d.only[s] = b
			case b:
			default:
				d.only[s] = -1
			}
		}
	}
	return nil
}

// portClass returns the class of port p of switch sw (dfUnused when out of
// range).
func (d *dragonfly) portClass(sw, p int) uint8 {
	if uint(sw) >= uint(len(d.group)) || uint(p) >= uint(d.portStart[sw+1]-d.portStart[sw]) {
		return dfUnused
	}
	return d.class[int(d.portStart[sw])+p]
}

// gateways returns the range of the global links from group a to group b in
// glSw and glPort.
func (d *dragonfly) gateways(a, b int32) (lo, hi int32) {
	i := a*d.ng + b
	return d.glStart[i], d.glStart[i+1]
}

// isGateway reports whether switch v has a global link to group b.
func (d *dragonfly) isGateway(v int, b int32) bool {
	lo, hi := d.gateways(d.group[v], b)
	for j := lo; j < hi; j++ {
		if int(d.glSw[j]) == v {
			return true
		}
	}
	return false
}

// hasExitAvoiding reports whether switch v has a global link to a group
// other than b.
func (d *dragonfly) hasExitAvoiding(v int, b int32) bool {
	o := d.only[v]
	return o == -1 || (o >= 0 && o != b)
}

// appendGlobal appends the global ports of sw to group b.
func (d *dragonfly) appendGlobal(out []Candidate, sw int, b int32, prio Priority) []Candidate {
	lo, hi := d.gateways(d.group[sw], b)
	for j := lo; j < hi; j++ {
		if int(d.glSw[j]) == sw {
			out = append(out, Candidate{Port: d.glPort[j], Priority: prio})
		}
	}
	return out
}

// appendGlobalAvoiding appends the global ports of sw to every group but b.
func (d *dragonfly) appendGlobalAvoiding(out []Candidate, sw int, b int32, prio Priority) []Candidate {
	for j := d.gpStart[sw]; j < d.gpStart[sw+1]; j++ {
		if d.gpGroup[j] != b {
			out = append(out, Candidate{Port: d.gpPort[j], Priority: prio})
		}
	}
	return out
}

// appendLocal appends the ports of sw to switch v of its group.
func (d *dragonfly) appendLocal(out []Candidate, sw, v int, prio Priority) []Candidate {
	i := sw*int(d.k) + int(d.index[v])
	first := d.localFirst[i]
	for p := first; p < first+d.localN[i]; p++ {
		out = append(out, Candidate{Port: p, Priority: prio})
	}
	return out
}

// appendToGateways appends the local ports of sw to every switch of its
// group with a global link to group b, other than sw itself.
func (d *dragonfly) appendToGateways(out []Candidate, sw int, b int32, prio Priority) []Candidate {
	lo, hi := d.gateways(d.group[sw], b)
	for j := lo; j < hi; j++ {
		if v := int(d.glSw[j]); v != sw && (j == lo || d.glSw[j-1] != d.glSw[j]) {
			out = d.appendLocal(out, sw, v, prio)
		}
	}
	return out
}
