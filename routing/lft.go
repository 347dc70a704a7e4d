package routing

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"netsim/topologies"
)

// LID numbering of the LFT text: host h has LID h+1 and switch s LID
// hosts+1+s; GUIDs are made up from the indices (switch s: guidSwitch|s+1,
// host h: guidHost|h+1) when the network has no real ones.
const (
	guidSwitch = 0x0002c90300000000
	guidHost   = 0x0002c90400000000
)

// WriteLFT writes the forwarding tables t of net as text in the format of
// OpenSM's LFT dump and ibroute: per switch a header
//
//	Unicast lids [0x1-0x3] of switch Lid 4 guid 0x0002c90300000001 ('S1'):
//	  Lid  Out   Destination
//	       Port     Info
//	0x0001 001 : (Channel Adapter portguid 0x0002c90400000001: 'H1')
//	…
//	3 valid lids dumped
//
// with one line per destination host (LID = host + 1, port = port index
// + 1 as InfiniBand numbers ports from 1). When the paths use more than one
// virtual layer, a block per source switch follows, headed
// "SL of paths from switch Lid 4 guid … ('S1'):", with lines
// "0x0002 001": the SL of the path from that switch to the LID, its
// layer, which Tables.Source gives packets on that path.
func WriteLFT(w io.Writer, t *Tables, net *topologies.Network) error {
	if len(net.Switches) != t.sws || len(net.Hosts) != t.hosts {
		return fmt.Errorf("lft export: tables are for %d switches and %d hosts, network has %d and %d", t.sws, t.hosts, len(net.Switches), len(net.Hosts))
	}
	swNames, hostNames := net.DisplayNames()
	bw := bufio.NewWriter(w)
	header := func(what string, s int) {
		fmt.Fprintf(bw, "%s switch Lid %d guid 0x%016x ('%s'):\n", what, t.hosts+1+s, guidSwitch|uint64(s+1), swNames[s])
	}
	for s := range t.sws {
		fmt.Fprintf(bw, "Unicast lids [0x1-0x%x] of", t.hosts)
		header("", s)
		bw.WriteString("  Lid  Out   Destination\n       Port     Info \n")
		n := 0
		for d := range t.hosts {
			if p := t.lft[s*t.hosts+d]; p != noPort {
				fmt.Fprintf(bw, "0x%04x %03d : (Channel Adapter portguid 0x%016x: '%s')\n", d+1, int(p)+1, guidHost|uint64(d+1), hostNames[d])
				n++
			}
		}
		fmt.Fprintf(bw, "%d valid lids dumped \n", n)
	}
	if t.layer != nil {
		for s := range t.sws {
			header("SL of paths from", s)
			for d := range t.hosts {
				fmt.Fprintf(bw, "0x%04x %03d\n", d+1, t.layer[s*t.hosts+d])
			}
		}
	}
	return bw.Flush()
}

// ReadLFT reads forwarding tables for net from text as WriteLFT writes it,
// or as OpenSM's LFT dump (opensm-lfts.dump) and ibroute print it: a
// switch is found by the name in parentheses at the end of its header, a
// destination by the Channel Adapter name of its line or else as LID − 1
// (hosts numbered as net's; lines for switch LIDs and port 0 are skipped).
// Errors name file and line. The tables must give every switch a path to
// every host.
func ReadLFT(r io.Reader, file string, net *topologies.Network, vls int) (*Tables, error) {
	var (
		lftHeader = regexp.MustCompile(`^(Unicast lids \[0x[0-9a-fA-F]+-0x[0-9a-fA-F]+\] of|SL of paths from) switch .*\(('([^']*)'|([^()]*))\):\s*$`)
		lftEntry  = regexp.MustCompile(`^0x([0-9a-fA-F]+)\s+(\d+)\s*(.*)$`)
		lftCAName = regexp.MustCompile(`Channel Adapter portguid 0x[0-9a-fA-F]+: '([^']*)'`)
	)
	swNames, hostNames := net.DisplayNames()
	swOf := make(map[string]int, len(swNames))
	for s, n := range swNames {
		swOf[n] = s
	}
	hostOf := make(map[string]int, len(hostNames))
	for h, n := range hostNames {
		hostOf[n] = h
	}
	t := newTables("file", net, vls)
	var layer []uint8
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line, sw, slBlock := 0, -1, false
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "Lid ") || strings.HasPrefix(text, "Port ") || strings.HasSuffix(text, "lids dumped") {
			continue
		}
		if m := lftHeader.FindStringSubmatch(text); m != nil {
			name := m[3] + strings.TrimSpace(m[4])
			s, ok := swOf[name]
			if !ok {
				return nil, fmt.Errorf("%s:%d: switch %q is not in the network", file, line, name)
			}
			sw, slBlock = s, strings.HasPrefix(m[1], "SL")
			continue
		}
		m := lftEntry.FindStringSubmatch(text)
		if m == nil {
			return nil, fmt.Errorf("%s:%d: expected a switch header or a line \"0xLID PORT ...\", got %q", file, line, text)
		}
		if sw < 0 {
			return nil, fmt.Errorf("%s:%d: entry before any switch header", file, line)
		}
		lid, err1 := strconv.ParseUint(m[1], 16, 32)
		val, err2 := strconv.Atoi(m[2])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s:%d: bad LID or number in %q", file, line, text)
		}
		d := int(lid) - 1
		if ca := lftCAName.FindStringSubmatch(m[3]); ca != nil {
			h, ok := hostOf[ca[1]]
			if !ok {
				return nil, fmt.Errorf("%s:%d: host %q is not in the network", file, line, ca[1])
			}
			d = h
		} else if strings.Contains(m[3], "Switch") || d < 0 || d >= t.hosts {
			continue // a switch's LID: the tables route hosts only
		}
		if slBlock {
			if val > MaxSLs-1 {
				return nil, fmt.Errorf("%s:%d: SL %d exceeds %d", file, line, val, MaxSLs-1)
			}
			if layer == nil {
				layer = make([]uint8, t.sws*t.hosts)
			}
			layer[sw*t.hosts+d] = uint8(val)
			continue
		}
		if val == 0 {
			continue // the switch itself
		}
		if val > len(net.Switches[sw].Ports) || net.Switches[sw].Ports[val-1].Kind == topologies.Unused {
			return nil, fmt.Errorf("%s:%d: switch %s has no connected port %d", file, line, swNames[sw], val)
		}
		t.lft[sw*t.hosts+d] = uint16(val - 1)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", file, line, err)
	}
	if layer != nil {
		t.layer = layer
		for _, l := range layer {
			t.layers = max(t.layers, int(l)+1)
		}
	}
	if err := t.check(net); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return t, nil
}

// TablesFromDot builds forwarding tables for net from the routing comments
// of an ORCS dot file (topologies.ReadDot), read as a network dotNet that
// must have net's switches and ports. Every switch must list every host on
// exactly one port.
func TablesFromDot(routes *topologies.DotRoutes, dotNet, net *topologies.Network, file string, vls int) (*Tables, error) {
	if routes == nil {
		return nil, fmt.Errorf("%s: the dot file has no routing comments", file)
	}
	if len(dotNet.Switches) != len(net.Switches) || len(dotNet.Hosts) != len(net.Hosts) {
		return nil, fmt.Errorf("%s: the dot file has %d switches and %d hosts, the network %d and %d",
			file, len(dotNet.Switches), len(dotNet.Hosts), len(net.Switches), len(net.Hosts))
	}
	t := newTables("file", net, vls)
	swNames, hostNames := dotNet.DisplayNames()
	for s := range net.Switches {
		if len(dotNet.Switches[s].Ports) != len(net.Switches[s].Ports) {
			return nil, fmt.Errorf("%s: switch %s has %d ports, the network's switch %d has %d", file, swNames[s], len(dotNet.Switches[s].Ports), s, len(net.Switches[s].Ports))
		}
		for h, ports := range routes.Table(s, len(net.Hosts)) {
			switch len(ports) {
			case 0:
				return nil, fmt.Errorf("%s: switch %s routes host %s on no port", file, swNames[s], hostNames[h])
			case 1:
				t.lft[s*t.hosts+h] = uint16(ports[0])
			default:
				return nil, fmt.Errorf("%s: switch %s routes host %s on several ports (%d and %d); tables need one", file, swNames[s], hostNames[h], ports[0]+1, ports[1]+1)
			}
		}
	}
	if err := t.check(net); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return t, nil
}
