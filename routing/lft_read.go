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

// Lines of LFT text: a block header (OpenSM writes its LID range in
// decimal, ibroute and older OpenSM in hexadecimal), an entry "0xLID
// PORT-or-SL ...", and the node an entry's info names.
var (
	lftHeader = regexp.MustCompile(`^(Unicast lids \[(?:0x)?[0-9a-fA-F]+-(?:0x)?[0-9a-fA-F]+\] of|SL of paths from) switch (?:Lid (\d+) )?.*\(('([^']*)'|([^()]*))\):\s*$`)
	lftEntry  = regexp.MustCompile(`^0x([0-9a-fA-F]+)\s+(\d+)\s*(.*)$`)
	lftInfo   = regexp.MustCompile(`(Channel Adapter|Switch) portguid 0x([0-9a-fA-F]+): '([^']*)'`)
	lftGUID   = regexp.MustCompile(`\bguid 0x([0-9a-fA-F]+)\b`)
	// OpenSM's opensm.fdbs: "dump_ucast_routes: Switch 0xGUID", then
	// "0xLID : PORT : HOPS : yes|no" or "0xLID : UNREACHABLE".
	fdbsHeader = regexp.MustCompile(`^dump_ucast_routes: Switch 0x([0-9a-fA-F]+)\s*$`)
	fdbsEntry  = regexp.MustCompile(`^0x([0-9a-fA-F]+)\s*:\s*(\d+|UNREACHABLE)\b`)
)

const (
	noSL   = 0xFF   // marks a path without an SL line while reading
	maxLID = 0xFFFF // LIDs have 16 bits
)

// ReadLFT reads forwarding tables for net from text as WriteLFT writes it,
// or as OpenSM's LFT dump (opensm-lfts.dump) and ibroute print it. Names,
// not LIDs, identify the nodes, so that the tables of a real subnet
// manager, with its own LIDs, apply to a network with the same node names:
// a block's header names its switch in parentheses at its end, and an
// entry may name its destination in its info ("Channel Adapter portguid
// …: 'H1'" or "Switch portguid …: 'S1'"). These names and the headers'
// "Lid N" map LIDs to nodes, one node per LID and one LID per node in the
// whole file. An entry without a name is for the node that map gives its
// LID, from any line before or after it; when no entry of the file names
// a node, a LID the map lacks is netsim's: LID h+1 is host h and LID
// hosts+1+s switch s (h and s from 0). Entries "unknown node and type"
// are skipped. Every switch has one "Unicast lids" block with at most one
// line per LID: its hosts' lines give the tables, its own LID is on port
// 0 and other switches' LIDs on connected ports (those lines are checked
// and skipped: the tables route hosts only). When any switch has an "SL
// of paths from" block, every switch has one with a line for every host.
// The tables must send every host's packets from every switch to that
// host. Errors are *topologies.FileError values naming the file and line
// and the switches, hosts and ports (from 1) as the file writes them.
func ReadLFT(r io.Reader, file string, net *topologies.Network, vls int) (*Tables, error) {
	return readLFT(r, file, net, vls, false)
}

// readLFT is ReadLFT; with partial, a switch may lack entries (OpenSM
// dumps no port for a LID it cannot reach): the pairs left unreachable
// are recorded in the tables (Tables.Reachable) instead of refused.
func readLFT(r io.Reader, file string, net *topologies.Network, vls int, partial bool) (*Tables, error) {
	lr := newLFTReader(file, net, vls)
	lr.partial = partial
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		if err := lr.parse(line, strings.TrimSpace(sc.Text())); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		// The line that failed is the one after the last read (a line
		// longer than the scanner's buffer: bufio.ErrTooLong).
		return nil, topologies.FileErrorf(file, line+1, "%v (a line may hold at most 1 MiB)", err)
	}
	return lr.finish()
}

// lftReader is the state of ReadLFT. Nodes are numbered hosts first, then
// switches: node n is host n, node hosts+s switch s.
type lftReader struct {
	file               string
	net                *topologies.Network
	t                  *Tables
	swNames, hostNames []string
	swOf, hostOf       map[string]int
	layer              []uint8 // noSL where no line gave the SL; nil without SL blocks
	// entryLine[s·hosts+d] is the line of switch s's port for host d, 0
	// when none.
	entryLine []int32
	// blockLine[2s] and blockLine[2s+1] are the header lines of switch s's
	// port and SL blocks, 0 when none.
	blockLine []int
	sw, kind  int // switch and kind (0 ports, 1 SLs) of the current block; sw -1 before the first
	hdr       int // header line of the current block
	lids      []lftLID
	// nodeLID[n] is the LID of node n and nodeLine[n] the line that gave
	// it, 0 when none has.
	nodeLID, nodeLine []int32
	named             bool      // an entry names its node
	pending           []lftLine // entries whose LID no line had named when read
	partial           bool      // entries may be missing (readLFT)
	// ib indexes the network's InfiniBand identities (net.IB), by which
	// the tables' nodes are matched; nil without them.
	ib *ibIndex
}

// lftLID is what the file says of a LID.
type lftLID struct {
	node int32 // node+1, 0 while no line has named it
	from int32 // the line that named it; fromTopology when the network's IB identities gave it
	last int32 // its last line, to find a second one in a block
}

// fromTopology marks a LID the network's own InfiniBand identities give
// (ibnetdiscover), not a line of the tables' file.
const fromTopology = -1

// lftLine is an entry of a block.
type lftLine struct {
	line, sw int32
	lid      uint16
	kind     uint8
	val      int
}

// newLFTReader returns a reader of LFT text from file for net.
func newLFTReader(file string, net *topologies.Network, vls int) *lftReader {
	lr := &lftReader{file: file, net: net, t: newTables("file", net, vls), sw: -1}
	lr.t.fabricVLs = true
	lr.swNames, lr.hostNames = net.DisplayNames()
	lr.swOf, lr.hostOf = topologies.IndexNames(lr.swNames), topologies.IndexNames(lr.hostNames)
	lr.entryLine = make([]int32, len(lr.t.lft))
	lr.blockLine = make([]int, 2*lr.t.sws)
	lr.lids = make([]lftLID, maxLID+1)
	lr.nodeLID = make([]int32, lr.t.hosts+lr.t.sws)
	lr.nodeLine = make([]int32, lr.t.hosts+lr.t.sws)
	if lr.ib = newIBIndex(net); lr.ib != nil {
		lr.named = true // LIDs are the fabric's: netsim's numbering never applies
		if len(net.IB.Hosts) > 0 {
			lr.t.setPaths(1 << net.IB.Hosts[0].LMC)
		}
		for s, n := range net.IB.Switches {
			lr.topologyLID(n.LID, lr.t.hosts+s)
		}
		for h, n := range net.IB.Hosts {
			lr.topologyLID(n.LID, h)
		}
	}
	return lr
}

// topologyLID records that the network's identities give node n the LID
// lid (0: none), and a host the paths−1 LIDs after it too (LMC). A LID
// given twice is kept for the first node; the tables' lines then decide.
func (lr *lftReader) topologyLID(lid, n int) {
	if lid <= 0 || lid > maxLID || lr.lids[lid].node != 0 {
		return
	}
	lr.nodeLID[n], lr.nodeLine[n] = int32(lid), fromTopology
	span := 1
	if n < lr.t.hosts {
		span = lr.t.paths
	}
	for k := range span {
		if l := lid + k; l <= maxLID && lr.lids[l].node == 0 {
			lr.lids[l] = lftLID{node: int32(n + 1), from: fromTopology}
		}
	}
}

// offset returns which of host n's LIDs lid is (LMC), 0 for its base LID
// and for a switch.
func (lr *lftReader) offset(lid, n int) int {
	if base := int(lr.nodeLID[n]); n < lr.t.hosts && base != 0 && lid > base && lid < base+lr.t.paths {
		return lid - base
	}
	return 0
}

// where names the source of a LID or a node's LID: a line, or the
// topology file.
func (lr *lftReader) where(line int32) string {
	if line == fromTopology {
		return "in the topology file"
	}
	return fmt.Sprintf("at line %d", line)
}

// nodeByGUID returns the node with GUID guid (a switch's node GUID or
// a CA port's GUID), or an error naming the GUID, its LID and name.
func (lr *lftReader) nodeByGUID(line int, isSwitch bool, guid string, lid int, name string) (int, error) {
	g, err := strconv.ParseUint(guid, 16, 64)
	if err != nil {
		return 0, lr.errorf(line, "bad GUID 0x%s (expected 16 hexadecimal digits at most)", guid)
	}
	n, ok := lr.ib.hostByGUID[g]
	kind, want := "port", "the port GUID of a CA port"
	if isSwitch {
		n, ok = lr.ib.swByGUID[g]
		n += lr.t.hosts
		kind, want = "switch", "the node GUID of a Switch block"
	}
	if !ok {
		at := ""
		if lid > 0 {
			at = fmt.Sprintf(", LID 0x%04x", lid)
		}
		return 0, lr.errorf(line, "%s GUID 0x%016x ('%s'%s) is not in the network (expected %s of the topology file)", kind, g, name, at, want)
	}
	return n, nil
}

// errorf returns a *topologies.FileError for line (0: the whole file).
func (lr *lftReader) errorf(line int, format string, args ...any) error {
	return topologies.FileErrorf(lr.file, line, format, args...)
}

// blockKind names the block kinds in errors.
var blockKind = [2]string{`"Unicast lids"`, `"SL of paths from"`}

// parse reads one trimmed line of text.
func (lr *lftReader) parse(line int, text string) error {
	if text == "" || strings.HasPrefix(text, "Lid ") || strings.HasPrefix(text, "Port ") || strings.HasSuffix(text, "lids dumped") ||
		strings.HasPrefix(text, "LID ") && strings.Contains(text, ": Port") ||
		strings.HasPrefix(text, "*** WARNING ***: this command has been replaced by") { // dump_lfts's
		return nil
	}
	if m := lftHeader.FindStringSubmatch(text); m != nil {
		return lr.header(line, m)
	}
	if m := fdbsHeader.FindStringSubmatch(text); m != nil {
		return lr.fdbsHeader(line, m[1])
	}
	m := lftEntry.FindStringSubmatch(text)
	if f := fdbsEntry.FindStringSubmatch(text); m == nil && f != nil {
		if f[2] == "UNREACHABLE" {
			return nil // no port: finish reports the pair if it is a host's
		}
		m = []string{f[0], f[1], f[2], ""}
	}
	if m == nil {
		return lr.errorf(line, "expected a switch header or a line \"0xLID PORT ...\", got %q", text)
	}
	if lr.sw < 0 {
		return lr.errorf(line, "entry before any switch header (expected a header \"Unicast lids [...] of switch ... ('NAME'):\" or \"dump_ucast_routes: Switch 0xGUID\" first)")
	}
	lid, err1 := strconv.ParseUint(m[1], 16, 32)
	val, err2 := strconv.Atoi(m[2])
	if err1 != nil || err2 != nil {
		return lr.errorf(line, "bad LID or number in %q (expected a hexadecimal LID and a decimal port or SL)", text)
	}
	if lid == 0 || lid > maxLID {
		return lr.errorf(line, "LID 0x%04x is out of range (expected 0x0001-0x%04x)", lid, maxLID)
	}
	l := &lr.lids[lid]
	if int(l.last) > lr.hdr {
		return lr.errorf(line, "second line for LID 0x%04x in the %s block of switch %q (expected one line per LID; the first is at line %d)",
			lid, blockKind[lr.kind], lr.swNames[lr.sw], l.last)
	}
	l.last = int32(line)
	e := lftLine{line: int32(line), sw: int32(lr.sw), lid: uint16(lid), kind: uint8(lr.kind), val: val}
	switch info := lftInfo.FindStringSubmatch(m[3]); {
	case info != nil:
		lr.named = true
		n, err := lr.infoNode(line, info[1] == "Switch", info[2], int(lid), info[3])
		if err == nil {
			err = lr.setLID(line, int(lid), n)
		}
		if err != nil {
			return err
		}
		return lr.entry(e, n)
	case strings.Contains(m[3], "unknown node and type"):
		return nil
	case l.node != 0:
		return lr.entry(e, int(l.node)-1)
	}
	lr.pending = append(lr.pending, e)
	return nil
}

// infoNode returns the node an entry's info names: by its GUID when the
// network has InfiniBand identities, else by its name.
func (lr *lftReader) infoNode(line int, isSwitch bool, guid string, lid int, name string) (int, error) {
	if lr.ib != nil {
		return lr.nodeByGUID(line, isSwitch, guid, lid, name)
	}
	return lr.nodeNamed(line, isSwitch, name)
}

// header starts the block whose header line m matched lftHeader. The
// switch is the one of the header's GUID when the network has InfiniBand
// identities, else the one it names.
func (lr *lftReader) header(line int, m []string) error {
	name := m[4] + strings.TrimSpace(m[5])
	lid := 0
	if m[2] != "" {
		var err error
		lid, err = strconv.Atoi(m[2])
		if err != nil || lid == 0 || lid > maxLID {
			return lr.errorf(line, "Lid %s is out of range (expected 1-%d)", m[2], maxLID)
		}
	}
	var (
		n   int
		err error
	)
	switch g := lftGUID.FindStringSubmatch(m[0]); {
	case lr.ib != nil && g != nil:
		n, err = lr.nodeByGUID(line, true, g[1], lid, name)
	case lr.ib != nil && lid != 0 && lr.lids[lid].node != 0:
		n = int(lr.lids[lid].node) - 1
	default:
		n, err = lr.nodeNamed(line, true, name)
	}
	if err != nil {
		return err
	}
	if n < lr.t.hosts {
		return lr.errorf(line, "Lid %d of this switch header is %s %s (expected a switch's LID)", lid, lr.node(n), lr.where(lr.lids[lid].from))
	}
	if lid != 0 {
		if err := lr.setLID(line, lid, n); err != nil {
			return err
		}
	}
	return lr.block(line, n-lr.t.hosts, strings.HasPrefix(m[1], "SL"))
}

// fdbsHeader starts the block of opensm.fdbs's header "dump_ucast_routes:
// Switch 0xGUID"; it needs the network's InfiniBand identities.
func (lr *lftReader) fdbsHeader(line int, guid string) error {
	if lr.ib == nil {
		return lr.errorf(line, "an opensm.fdbs block names its switch by GUID only (expected a topology imported from ibnetdiscover output, which gives the GUIDs)")
	}
	n, err := lr.nodeByGUID(line, true, guid, 0, "")
	if err != nil {
		return err
	}
	return lr.block(line, n-lr.t.hosts, false)
}

// block starts switch s's port block (sl false) or SL block (sl true) at
// line.
func (lr *lftReader) block(line, s int, sl bool) error {
	kind := 0
	if sl {
		kind = 1
	}
	name := lr.swNames[s]
	if first := lr.blockLine[2*s+kind]; first != 0 {
		return lr.errorf(line, "second %s block for switch %q (expected one per switch; the first is at line %d)", blockKind[kind], name, first)
	}
	lr.blockLine[2*s+kind] = line
	lr.sw, lr.kind, lr.hdr = s, kind, line
	return nil
}

// nodeNamed returns the node of the switch or host called name.
func (lr *lftReader) nodeNamed(line int, isSwitch bool, name string) (int, error) {
	kind, of, base := "host", lr.hostOf, 0
	if isSwitch {
		kind, of, base = "switch", lr.swOf, lr.t.hosts
	}
	i, ok := of[name]
	if !ok {
		return 0, lr.errorf(line, "%s %q is not in the network (expected the name of a %s of the network)", kind, name, kind)
	}
	return base + i, nil
}

// setLID records that line gives node n the LID lid.
func (lr *lftReader) setLID(line, lid, n int) error {
	l := &lr.lids[lid]
	switch {
	case l.node != 0 && int(l.node) != n+1:
		return lr.errorf(line, "LID 0x%04x is %s here, but %s %s (expected one node per LID)", lid, lr.node(n), lr.node(int(l.node)-1), lr.where(l.from))
	case lr.nodeLID[n] != 0 && int(lr.nodeLID[n]) != lid && !(n < lr.t.hosts && lid > int(lr.nodeLID[n]) && lid < int(lr.nodeLID[n])+lr.t.paths):
		return lr.errorf(line, "%s has LID 0x%04x here, but 0x%04x %s (expected one LID per node)", lr.node(n), lid, lr.nodeLID[n], lr.where(lr.nodeLine[n]))
	case l.node == 0:
		l.node, l.from = int32(n+1), int32(line)
		lr.nodeLID[n], lr.nodeLine[n] = int32(lid), int32(line)
	}
	return nil
}

// node names node n in errors: by the fabric's own names on an
// ibnetdiscover import.
func (lr *lftReader) node(n int) string {
	switch {
	case lr.net.IB != nil && n < lr.t.hosts:
		return "host " + lr.net.HostLabel(n)
	case lr.net.IB != nil:
		return "switch " + lr.net.SwitchLabel(n-lr.t.hosts)
	}
	if n < lr.t.hosts {
		return fmt.Sprintf("host %q", lr.hostNames[n])
	}
	return fmt.Sprintf("switch %q", lr.swNames[n-lr.t.hosts])
}

// entry enters e, an entry for node n.
func (lr *lftReader) entry(e lftLine, n int) error {
	line, s, hosts := int(e.line), int(e.sw), lr.t.hosts
	if e.kind == 1 {
		if e.val > MaxSLs-1 {
			return lr.errorf(line, "SL %d exceeds %d (expected an SL 0-%d)", e.val, MaxSLs-1, MaxSLs-1)
		}
		if n >= hosts || lr.offset(int(e.lid), n) != 0 {
			return nil // a switch's LID (paths lead to hosts only), or a host's LID beyond its base
		}
		if lr.layer == nil {
			lr.layer = make([]uint8, len(lr.t.lft))
			for j := range lr.layer {
				lr.layer[j] = noSL
			}
		}
		lr.layer[s*hosts+n] = uint8(e.val)
		return nil
	}
	name, ports := lr.swNames[s], lr.net.Switches[s].Ports
	own := n == hosts+s
	switch {
	case own && e.val != 0:
		return lr.errorf(line, "switch %q sends its own LID 0x%04x to port %d (expected port 0)", name, e.lid, e.val)
	case !own && (e.val == 0 || e.val > len(ports) || ports[e.val-1].Kind == topologies.Unused):
		return lr.errorf(line, "switch %q has no connected port %d toward %s (expected a connected port 1-%d)", name, e.val, lr.node(n), len(ports))
	case n >= hosts:
		return nil // a switch's LID: the tables route hosts only
	}
	i := s*hosts + n
	if k := lr.offset(int(e.lid), n); k > 0 {
		lr.t.entries(k)[i] = uint16(e.val - 1)
		return nil
	}
	lr.t.lft[i] = uint16(e.val - 1)
	lr.entryLine[i] = e.line
	return nil
}

// want is the line expected for host d with a port or an SL.
func (lr *lftReader) want(d int, what string) string {
	switch {
	case lr.nodeLID[d] != 0:
		return fmt.Sprintf("0x%04x %s", lr.nodeLID[d], what)
	case !lr.named:
		return fmt.Sprintf("0x%04x %s", d+1, what)
	}
	return fmt.Sprintf("0xLID %s : (Channel Adapter portguid 0xGUID: '%s')", what, lr.hostNames[d])
}

// finish resolves the pending entries and checks that the blocks are
// complete and the tables consistent.
func (lr *lftReader) finish() (*Tables, error) {
	t := lr.t
	for s, name := range lr.swNames {
		if lr.blockLine[2*s] == 0 {
			return nil, lr.errorf(0, "switch %q has no %s block (expected one per switch)", name, blockKind[0])
		}
	}
	for _, e := range lr.pending {
		n := int(lr.lids[e.lid].node) - 1
		if n < 0 && !lr.named && int(e.lid) <= t.hosts+t.sws {
			n = int(e.lid) - 1 // netsim's numbering
			if err := lr.setLID(int(e.line), int(e.lid), n); err != nil {
				return nil, err
			}
		}
		if n < 0 {
			return nil, lr.errorf(int(e.line), "LID 0x%04x names no node (expected a line of the file to name it, or netsim's numbering in a file without names)", e.lid)
		}
		if err := lr.entry(e, n); err != nil {
			return nil, err
		}
	}
	if lr.layer != nil {
		for i, l := range lr.layer {
			s, d := i/t.hosts, i%t.hosts
			switch hdr := lr.blockLine[2*s+1]; {
			case hdr == 0:
				return nil, lr.errorf(0, "switch %q has no %s block (expected one per switch when any switch has one)", lr.swNames[s], blockKind[1])
			case l == noSL && lr.partial && t.lft[i] == noPort:
				lr.layer[i] = 0 // no path: any SL will do
				continue
			case l == noSL:
				return nil, lr.errorf(hdr, "the %s block of switch %q has no line for host %q (expected a line %q)", blockKind[1], lr.swNames[s], lr.hostNames[d], lr.want(d, "SL"))
			}
			t.layers = max(t.layers, int(l)+1)
		}
		t.layer = lr.layer
	}
	for i, p := range t.lft {
		if s, d := i/t.hosts, i%t.hosts; p == noPort && !lr.partial {
			return nil, lr.errorf(lr.blockLine[2*s], "%s has no port for %s (expected a line %q in its block)", lr.node(t.hosts+s), lr.node(d), lr.want(d, "PORT"))
		}
	}
	line := func(s, d int) int {
		if l := lr.entryLine[s*t.hosts+d]; l != 0 {
			return int(l)
		}
		return lr.blockLine[2*s]
	}
	if err := checkFileTables(t, lr.net, lr.file, lr.partial, line); err != nil {
		return nil, err
	}
	// The other LIDs of each host (LMC) must reach the same pairs.
	for k := 1; k < t.paths; k++ {
		view := *t
		view.lft, view.unreach = t.entries(k), nil
		err := checkFileTables(&view, lr.net, lr.file, true, func(s, _ int) int { return lr.blockLine[2*s] })
		if err != nil {
			return nil, err
		}
		for i := range t.lft {
			if reach, reachK := !unreachable(t.unreach, i), !unreachable(view.unreach, i); reach && !reachK {
				s, d := i/t.hosts, i%t.hosts
				return nil, lr.errorf(lr.blockLine[2*s], "%s has no path for LID 0x%04x of %s (LMC: expected one for every LID of a host its base LID reaches)", lr.node(t.hosts+s), int(lr.nodeLID[d])+k, lr.node(d))
			}
		}
	}
	return t, nil
}

// unreachable reports whether bit i of the bitset set is on (nil: none).
func unreachable(set []uint64, i int) bool {
	return set != nil && set[i/64]&(1<<(i%64)) != 0
}
