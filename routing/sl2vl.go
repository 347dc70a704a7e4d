package routing

import (
	"bufio"
	"io"
	"regexp"
	"strconv"
	"strings"

	"netsim/topologies"
)

// slsPerTable is the number of SLs an InfiniBand SL2VL table maps.
const slsPerTable = 16

// SL2VL holds the SL-to-VL mapping tables of a fabric, as its subnet
// manager programs them: per switch one table per (input port, output
// port), per host one for its CA port. A packet of service level SL
// entering switch s at port i and leaving at port o travels the next link
// on VL sw[s][i][o][SL]; a host injects it on VL ca[h][SL].
type SL2VL struct {
	ports []int // ports of each switch (InfiniBand ports 1..ports[s]; 0 is the switch itself)
	// sw[s][(i·(ports[s]+1)+o)·16+SL] is the VL, for InfiniBand ports i, o.
	sw [][]uint8
	// ca[h·16+SL] is the VL host h injects SL on.
	ca []uint8
	// seenSw and seenCA mark the rows a file gave, to find missing ones.
	seenSw [][]bool
	seenCA []bool
}

// newSL2VL returns an empty mapping for net.
func newSL2VL(net *topologies.Network) *SL2VL {
	m := &SL2VL{ports: make([]int, len(net.Switches)), sw: make([][]uint8, len(net.Switches)), seenSw: make([][]bool, len(net.Switches)),
		ca: make([]uint8, len(net.Hosts)*slsPerTable), seenCA: make([]bool, len(net.Hosts))}
	for s, sw := range net.Switches {
		p := len(sw.Ports) + 1
		m.ports[s] = len(sw.Ports)
		m.sw[s] = make([]uint8, p*p*slsPerTable)
		m.seenSw[s] = make([]bool, p*p)
	}
	return m
}

// Switch returns the VL of SL from InfiniBand port in to port out of
// switch s.
func (m *SL2VL) Switch(s, in, out, sl int) int {
	return int(m.sw[s][(in*(m.ports[s]+1)+out)*slsPerTable+sl])
}

// CA returns the VL host h injects SL on.
func (m *SL2VL) CA(h, sl int) int { return int(m.ca[h*slsPerTable+sl]) }

// Lines of SL2VL text: OpenSM's opensm-sl2vl.dump has a block per node
// headed "Switch 0xGUID, base LID N, "desc"" or "Channel Adapter 0xGUID,
// base LID N, "desc"" with rows "IN OUT : VL0 … VL15"; smpquery sl2vl
// prints "# SL2VL table: Lid N" then rows "ports: in  I, out  O: | v| …|".
var (
	sl2vlOpenSMHeader = regexp.MustCompile(`^(Switch|Channel Adapter) 0x([0-9a-fA-F]+), base LID (\d+), "(.*)"\s*$`)
	sl2vlOpenSMRow    = regexp.MustCompile(`^(\d+)\s+(\d+)\s*:((?:\s+\d+){16})\s*$`)
	sl2vlSMPHeader    = regexp.MustCompile(`^# SL2VL table: Lid (\d+)\s*$`)
	sl2vlSMPRow       = regexp.MustCompile(`^ports: in\s+(\d+), out\s+(\d+):((?:\s*\|\s*\d+){16})\s*\|\s*$`)
)

// ReadSL2VL reads the SL2VL tables of net's fabric from r (file names it
// in errors): OpenSM's opensm-sl2vl.dump, or the output of smpquery sl2vl
// for the switches' and CAs' LIDs, concatenated. Nodes are matched by GUID
// (switches by node GUID, CA ports by port GUID) and LID, so net must come
// from ibnetdiscover output (net.IB). Every switch must have a row for
// every pair of connected ports (input port 0 included: the switch
// itself), and every host a row for its CA port; errors name the file,
// line, GUID and LID.
func ReadSL2VL(r io.Reader, file string, net *topologies.Network) (*SL2VL, error) {
	x := newIBIndex(net)
	if x == nil {
		return nil, topologies.FileErrorf(file, 0, "SL2VL tables name nodes by GUID and LID (expected a topology imported from ibnetdiscover output, which gives them)")
	}
	ib, hosts := net.IB, len(net.Hosts)
	m := newSL2VL(net)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	node, hdr := -1, 0 // the current block's node and header line
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		var in, out int
		var vls []string
		switch {
		case text == "" || strings.HasPrefix(text, "#in") || strings.HasPrefix(text, "#---") || strings.HasPrefix(text, "#                 SL:"),
			strings.HasPrefix(text, "ibwarn:"):
			continue
		case sl2vlOpenSMHeader.MatchString(text):
			h := sl2vlOpenSMHeader.FindStringSubmatch(text)
			g, err := strconv.ParseUint(h[2], 16, 64)
			if err != nil {
				return nil, topologies.FileErrorf(file, line, "bad GUID 0x%s (expected at most 16 hexadecimal digits)", h[2])
			}
			lid, _ := strconv.Atoi(h[3])
			n, ok := x.hostByGUID[g]
			want := "a CA port's GUID"
			if h[1] == "Switch" {
				var s int
				s, ok = x.swByGUID[g]
				n, want = hosts+s, "a switch's node GUID"
			}
			if !ok {
				return nil, topologies.FileErrorf(file, line, "%s GUID 0x%016x (LID %d, %q) is not in the network (expected %s of the topology file)", strings.ToLower(h[1]), g, lid, h[4], want)
			}
			if want := nodeLID(ib, n, hosts); lid != want && want != 0 {
				return nil, topologies.FileErrorf(file, line, "GUID 0x%016x has LID %d here, but %d in the topology file (expected the same fabric)", g, lid, want)
			}
			node, hdr = n, line
			continue
		case sl2vlSMPHeader.MatchString(text):
			lid, _ := strconv.Atoi(sl2vlSMPHeader.FindStringSubmatch(text)[1])
			n, ok := x.byLID[lid]
			if !ok {
				return nil, topologies.FileErrorf(file, line, "LID %d is no node of the network (expected a LID the topology file gives)", lid)
			}
			node, hdr = n, line
			continue
		case sl2vlOpenSMRow.MatchString(text):
			f := sl2vlOpenSMRow.FindStringSubmatch(text)
			in, _ = strconv.Atoi(f[1])
			out, _ = strconv.Atoi(f[2])
			vls = strings.Fields(f[3])
		case sl2vlSMPRow.MatchString(text):
			f := sl2vlSMPRow.FindStringSubmatch(text)
			in, _ = strconv.Atoi(f[1])
			out, _ = strconv.Atoi(f[2])
			vls = strings.Fields(strings.ReplaceAll(f[3], "|", " "))
		default:
			return nil, topologies.FileErrorf(file, line, "expected an SL2VL block header (\"Switch 0xGUID, base LID N, ...\", \"Channel Adapter 0xGUID, ...\" or \"# SL2VL table: Lid N\") or a row of 16 VLs, got %q", text)
		}
		if node < 0 {
			return nil, topologies.FileErrorf(file, line, "SL2VL row before any block header")
		}
		var row [slsPerTable]uint8
		for sl, v := range vls {
			vl, err := strconv.Atoi(v)
			if err != nil || vl > 14 {
				return nil, topologies.FileErrorf(file, line, "VL %q for SL %d (expected a data VL 0-14; VL 15 is the management VL, which drops data packets)", v, sl)
			}
			row[sl] = uint8(vl)
		}
		if node < hosts {
			if m.seenCA[node] {
				return nil, topologies.FileErrorf(file, line, "a second SL2VL row for the CA port of the block at line %d (expected one)", hdr)
			}
			copy(m.ca[node*slsPerTable:(node+1)*slsPerTable], row[:])
			m.seenCA[node] = true
			continue
		}
		s := node - hosts
		if in > m.ports[s] || out > m.ports[s] || out == 0 {
			return nil, topologies.FileErrorf(file, line, "ports in %d, out %d of the block at line %d: the switch has ports 0-%d (expected an output port 1-%d)", in, out, hdr, m.ports[s], m.ports[s])
		}
		k := in*(m.ports[s]+1) + out
		if m.seenSw[s][k] {
			return nil, topologies.FileErrorf(file, line, "a second SL2VL row for ports in %d, out %d of the block at line %d (expected one)", in, out, hdr)
		}
		copy(m.sw[s][k*slsPerTable:(k+1)*slsPerTable], row[:])
		m.seenSw[s][k] = true
	}
	if err := sc.Err(); err != nil {
		return nil, topologies.FileErrorf(file, line+1, "%v", err)
	}
	swNames, hostNames := net.DisplayNames()
	for s, sw := range net.Switches {
		for o, po := range sw.Ports {
			if po.Kind == topologies.Unused {
				continue
			}
			for i := -1; i < len(sw.Ports); i++ {
				if i >= 0 && (sw.Ports[i].Kind == topologies.Unused || i == o) {
					continue
				}
				if !m.seenSw[s][(i+1)*(m.ports[s]+1)+o+1] {
					return nil, topologies.FileErrorf(file, 0, "switch %s (GUID 0x%s, LID %d) has no SL2VL row for input port %d, output port %d (expected a row for every pair of connected ports)",
						swNames[s], ib.Switches[s].GUID, ib.Switches[s].LID, i+1, o+1)
				}
			}
		}
	}
	for h, ok := range m.seenCA {
		if !ok {
			return nil, topologies.FileErrorf(file, 0, "host %s (port GUID 0x%s, LID %d) has no SL2VL table (expected one per CA port)", hostNames[h], ib.Hosts[h].PortGUID, ib.Hosts[h].LID)
		}
	}
	return m, nil
}

// nodeLID returns the LID the topology gives node n (hosts first, then
// switches), 0 when none.
func nodeLID(ib *topologies.IBInfo, n, hosts int) int {
	if n < hosts {
		return ib.Hosts[n].LID
	}
	return ib.Switches[n-hosts].LID
}

// maxVL returns the largest VL m maps any SL below sls to on a path, for
// the VLs a routing needs.
func (m *SL2VL) maxVL(sls int) int {
	v := 0
	for _, t := range m.sw {
		for i := 0; i < len(t); i += slsPerTable {
			for sl := range sls {
				v = max(v, int(t[i+sl]))
			}
		}
	}
	for i := 0; i < len(m.ca); i += slsPerTable {
		for sl := range sls {
			v = max(v, int(m.ca[i+sl]))
		}
	}
	return v
}
