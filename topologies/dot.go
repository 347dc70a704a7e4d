package topologies

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// SwitchRoutes gives WriteDot the routing of one switch: for each port
// position p of switch sw, the destination hosts whose packets leave sw
// through port p (the comment of that edge). A nil result, or one shorter
// than the port list, leaves the remaining edges with an empty comment.
// Routing engines provide it, so this package need not know them.
type SwitchRoutes func(sw int) [][]int32

// WriteDot writes net in the ORCS dot format of seed 003 §2.1: a digraph
// whose nodes are hosts (names starting with "H") and switches (all other
// names), with one directed edge per direction of every link, so a link
// gives two edges and parallel links give one edge each.
//
// Names are net.Names when set, else "S1", "S2", … for switches and "H1",
// "H2", … for hosts (index + 1, as in the seed's listing). The output is
//
//	digraph network {
//		"S1" -> "H1" [ srcport = 1 ];
//		"S1" -> "S2" [ srcport = 3, dstport = 4 ];
//		…
//		"H1" -> "S1" [ dstport = 1 ];
//		…
//	}
//
// with first, for each switch in index order, one edge per used port in
// port order (a switch without used ports gets a node statement "S5";
// instead), then one edge per host in index order. srcport and dstport
// are the switch port numbers at the tail and the head, counted from 1
// (port position + 1, which is the InfiniBand port number of a network
// read from ibnetdiscover output); hosts' ports are not numbered. ReadDot
// uses the order of the file to number switches, hosts and ports, and the
// port attributes to restore the exact ports and pairing of the two
// directions of each link.
//
// With routes non-nil every edge also carries a routing comment, first:
// `[ comment = "H2,H7", srcport = 3, dstport = 4 ]`. On a switch's edge
// it lists the hosts routes(sw)[port] names, in increasing index order,
// separated by commas without spaces; "*" when that is every host of the
// network, "" when none. A host's edge always carries "*" (all its
// traffic leaves on its only link).
func WriteDot(w io.Writer, net *Network, routes SwitchRoutes) error {
	if err := net.Validate(); err != nil {
		return fmt.Errorf("dot export: %w", err)
	}
	swNames, hostNames, err := dotNames(net)
	if err != nil {
		return fmt.Errorf("dot export: %w", err)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("digraph network {\n")
	var scratch []int32
	for s, sw := range net.Switches {
		var r [][]int32
		if routes != nil {
			r = routes(s)
			if len(r) > len(sw.Ports) {
				return fmt.Errorf("dot export: routes of switch %d give %d ports, the switch has %d", s, len(r), len(sw.Ports))
			}
		}
		used := false
		for p, port := range sw.Ports {
			var head string
			switch port.Kind {
			case SwitchPort:
				head = swNames[port.Peer]
			case HostPort:
				head = hostNames[port.Peer]
			default:
				continue
			}
			used = true
			fmt.Fprintf(bw, "\t\"%s\" -> \"%s\" [ ", swNames[s], head)
			if routes != nil {
				var dests []int32
				if p < len(r) {
					dests = r[p]
				}
				scratch = append(scratch[:0], dests...)
				c, err := hostList(scratch, hostNames)
				if err != nil {
					return fmt.Errorf("dot export: routes of switch %d port %d: %w", s, p, err)
				}
				fmt.Fprintf(bw, "comment = \"%s\", ", c)
			}
			fmt.Fprintf(bw, "srcport = %d", p+1)
			if port.Kind == SwitchPort {
				fmt.Fprintf(bw, ", dstport = %d", port.PeerPort+1)
			}
			bw.WriteString(" ];\n")
		}
		if !used {
			fmt.Fprintf(bw, "\t\"%s\";\n", swNames[s])
		}
	}
	for h, a := range net.Hosts {
		fmt.Fprintf(bw, "\t\"%s\" -> \"%s\" [ ", hostNames[h], swNames[a.Switch])
		if routes != nil {
			bw.WriteString(`comment = "*", `)
		}
		fmt.Fprintf(bw, "dstport = %d ];\n", a.Port+1)
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// hostList formats a routing comment: the named hosts of dests (sorted and
// deduplicated in place) separated by commas, or "*" for every host.
func hostList(dests []int32, names []string) (string, error) {
	slices.Sort(dests)
	dests = slices.Compact(dests)
	if len(dests) > 0 && (dests[0] < 0 || int(dests[len(dests)-1]) >= len(names)) {
		return "", fmt.Errorf("host index out of range [0,%d): %v", len(names), dests)
	}
	if len(dests) == len(names) && len(names) > 0 {
		return "*", nil
	}
	var b strings.Builder
	for i, h := range dests {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(names[h])
	}
	return b.String(), nil
}

// DisplayNames returns the names of net's switches and hosts as the dot
// and LFT files write them: net.Names when it names every switch and host,
// else "S1", "S2", … and "H1", "H2", ….
func (net *Network) DisplayNames() (switches, hosts []string) {
	if n := net.Names; n != nil && len(n.Switches) == len(net.Switches) && len(n.Hosts) == len(net.Hosts) {
		return n.Switches, n.Hosts
	}
	switches = make([]string, len(net.Switches))
	for i := range switches {
		switches[i] = "S" + strconv.Itoa(i+1)
	}
	hosts = make([]string, len(net.Hosts))
	for i := range hosts {
		hosts[i] = "H" + strconv.Itoa(i+1)
	}
	return switches, hosts
}

// dotNames returns the names of net's switches and hosts: net.Names, checked
// to be usable in a dot file and unique, or the default names.
func dotNames(net *Network) (switches, hosts []string, err error) {
	if net.Names == nil {
		switches, hosts = net.DisplayNames()
		return switches, hosts, nil
	}
	n := net.Names
	if len(n.Switches) != len(net.Switches) || len(n.Hosts) != len(net.Hosts) {
		return nil, nil, fmt.Errorf("names: %d switch and %d host names for %d switches and %d hosts",
			len(n.Switches), len(n.Hosts), len(net.Switches), len(net.Hosts))
	}
	seen := make(map[string]bool, len(n.Switches)+len(n.Hosts))
	for i, list := range [][]string{n.Switches, n.Hosts} {
		for _, name := range list {
			if err := checkName(name, i == 1); err != nil {
				return nil, nil, fmt.Errorf("names: %w", err)
			}
			if seen[name] {
				return nil, nil, fmt.Errorf("names: %q names two nodes", name)
			}
			seen[name] = true
		}
	}
	return n.Switches, n.Hosts, nil
}

// DotRoutes holds the routing comments of an ORCS dot file (seed 003 §2.1):
// a destination-based routing, per switch port. Comments on hosts' edges
// are checked but not kept (a host has one port).
type DotRoutes struct {
	// Ports[s][p] is the comment of the edge leaving port p of switch s.
	Ports [][]DotRoute
}

// DotRoute is the routing comment of one switch edge.
type DotRoute struct {
	// Given reports whether the edge had a comment attribute.
	Given bool
	// Line is the 1-based line of the file where the comment's value is
	// written, or the line of the edge when it has no comment; 0 for a
	// port without an edge. Errors about the routing name it.
	Line int
	// All is set by the comment "*": the edge leads to every host.
	All bool
	// Hosts are the destination hosts the comment names, in increasing
	// order without duplicates.
	Hosts []int32
}

// Table returns the forwarding table of switch sw for a network of hosts
// hosts: for each destination host, the ports of sw whose comment lists it
// (or is "*"), in increasing order. A destination no comment lists has no
// ports; several ports mean the file gave several choices.
func (r *DotRoutes) Table(sw, hosts int) [][]int32 {
	t := make([][]int32, hosts)
	for p, c := range r.Ports[sw] {
		if c.All {
			for h := range t {
				t[h] = append(t[h], int32(p))
			}
			continue
		}
		for _, h := range c.Hosts {
			if int(h) < hosts {
				t[h] = append(t[h], int32(p))
			}
		}
	}
	return t
}
