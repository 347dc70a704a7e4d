package routing

import (
	"fmt"

	"netsim/topologies"
)

// TablesFromDot builds forwarding tables for net from the routing comments
// of an ORCS dot file (topologies.ReadDot), read as a network dotNet that
// must be net: the same switch and host names in the same order, and the
// same links on the same ports. Every switch must list every host on
// exactly one port, its own hosts on their ports, and the tables must
// send every host's packets from every switch to that host. Errors name
// file and the switches, hosts and ports (from 1) as the file does; those
// about the routing comments are *topologies.FileError values with the
// line of the comment at fault (of the switch's first edge when no comment
// lists a host).
func TablesFromDot(routes *topologies.DotRoutes, dotNet, net *topologies.Network, file string, vls int) (*Tables, error) {
	if routes == nil {
		return nil, fmt.Errorf("%s: the dot file has no routing comments", file)
	}
	if err := sameNetwork(dotNet, net); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(routes.Ports) != len(net.Switches) {
		return nil, fmt.Errorf("%s: routing comments for %d switches (expected the network's %d)", file, len(routes.Ports), len(net.Switches))
	}
	t := newTables("file", net, vls)
	t.fabricVLs = true // VLs as the file gives them
	swNames, hostNames := net.DisplayNames()
	for s := range net.Switches {
		comments := routes.Ports[s]
		for h, ports := range routes.Table(s, len(net.Hosts)) {
			switch len(ports) {
			case 0:
				return nil, topologies.FileErrorf(file, firstLine(comments), "switch %q routes host %q on no port (expected the comment of one of its edges to list %q or be \"*\")", swNames[s], hostNames[h], hostNames[h])
			case 1:
				t.lft[s*t.hosts+h] = uint16(ports[0])
			default:
				a, b := ports[0], ports[1]
				la, lb := comments[a].Line, comments[b].Line
				if lb < la {
					a, b, la, lb = b, a, lb, la
				}
				if la == lb {
					return nil, topologies.FileErrorf(file, lb, "switch %q routes host %q on several ports (%d and %d, both on this line; expected one)", swNames[s], hostNames[h], min(a, b)+1, max(a, b)+1)
				}
				return nil, topologies.FileErrorf(file, lb, "switch %q routes host %q on several ports (%d here and %d on line %d; expected one)", swNames[s], hostNames[h], b+1, a+1, la)
			}
		}
	}
	err := checkFileTables(t, net, file, false, func(s, d int) int {
		if p := int(t.lft[s*t.hosts+d]); p < len(routes.Ports[s]) {
			return routes.Ports[s][p].Line
		}
		return firstLine(routes.Ports[s])
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// firstLine returns the first line of the file among comments, the routing
// comments of one switch's ports; 0 when none has a line.
func firstLine(comments []topologies.DotRoute) int {
	line := 0
	for _, c := range comments {
		if c.Line > 0 && (line == 0 || c.Line < line) {
			line = c.Line
		}
	}
	return line
}

// sameNetwork checks that the network read from a dot file is net: the
// same switches and hosts, by name and order, with the same links on the
// same ports.
func sameNetwork(dotNet, net *topologies.Network) error {
	if len(dotNet.Switches) != len(net.Switches) || len(dotNet.Hosts) != len(net.Hosts) {
		return fmt.Errorf("the dot file has %d switches and %d hosts (expected the network's %d and %d)",
			len(dotNet.Switches), len(dotNet.Hosts), len(net.Switches), len(net.Hosts))
	}
	fileSw, fileHost := dotNet.DisplayNames()
	swNames, hostNames := net.DisplayNames()
	for i := range swNames {
		if fileSw[i] != swNames[i] {
			return fmt.Errorf("switch %d of the dot file is %q (expected the network's switch %d, %q)", i+1, fileSw[i], i+1, swNames[i])
		}
	}
	for i := range hostNames {
		if fileHost[i] != hostNames[i] {
			return fmt.Errorf("host %d of the dot file is %q (expected the network's host %d, %q)", i+1, fileHost[i], i+1, hostNames[i])
		}
	}
	peer := func(p topologies.Port) string {
		switch p.Kind {
		case topologies.SwitchPort:
			return fmt.Sprintf("switch %q", swNames[p.Peer])
		case topologies.HostPort:
			return fmt.Sprintf("host %q", hostNames[p.Peer])
		}
		return "no link"
	}
	for s, sw := range net.Switches {
		filePorts := dotNet.Switches[s].Ports
		if len(filePorts) != len(sw.Ports) {
			return fmt.Errorf("switch %q has %d ports in the dot file (expected the network's %d)", swNames[s], len(filePorts), len(sw.Ports))
		}
		for p, port := range sw.Ports {
			if fp := filePorts[p]; fp.Kind != port.Kind || (fp.Kind != topologies.Unused && fp.Peer != port.Peer) {
				return fmt.Errorf("port %d of switch %q leads to %s in the dot file (expected the network's link, to %s)", p+1, swNames[s], peer(fp), peer(port))
			}
		}
	}
	return nil
}
