package topologies

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxIBPorts bounds the port count of an InfiniBand node (an 8-bit field).
const maxIBPorts = 255

// IBInfo is what an ibnetdiscover file tells beyond the graph: identities
// and LIDs, for matching forwarding tables dumped by a subnet manager.
type IBInfo struct {
	// Switches describes each switch, by switch index.
	Switches []IBNode
	// Hosts describes the CA port of each host, by host index.
	Hosts []IBNode
}

// IBNode identifies a switch or one port of a channel adapter (CA).
type IBNode struct {
	// GUID is the node GUID in hexadecimal, as in the file's node name
	// ("S-0002c90200421e6a" has GUID "0002c90200421e6a").
	GUID string
	// PortGUID is the port GUID of a host's CA port in hexadecimal with 16
	// digits, as the file writes it in parentheses after the port number
	// ("[1](2c9030001d6b1)" has "0002c9030001d6b1");
	// empty for a switch and when the file does not give it. Subnet
	// managers' dumps name end ports by it.
	PortGUID string
	// Port is the CA port number of a host; 0 for a switch.
	Port int
	// LID is the LID of the switch (its port 0) or of the CA port; 0 when
	// the file does not give it.
	LID int
	// LMC is the CA port's LID mask count: the port answers to the 2^LMC
	// LIDs from LID on (multipath); 0 for a switch and when the file does
	// not give it.
	LMC int
	// Desc is the NodeDescription.
	Desc string
}

// ReadIBNetDiscover reads the topology file that InfiniBand's ibnetdiscover
// prints, from r; file names the input in errors, which are *FileError
// values with the line at fault. The format is a sequence of node blocks:
//
//	vendid=0x2c9
//	switchguid=0x2c90200421e6a(2c90200421e6a)
//	Switch  24 "S-0002c90200421e6a"   # "desc" base port 0 lid 3 lmc 0
//	[1]     "H-0002c9030001d6b0"[1](2c9030001d6b1)   # "node1 HCA-1" lid 5 4xQDR
//	[13]    "S-0002c90200421e6b"[13]                 # "desc" lid 4 4xQDR
//
//	caguid=0x2c9030001d6b0
//	Ca      2 "H-0002c9030001d6b0"    # "node1 HCA-1"
//	[1](2c9030001d6b1)  "S-0002c90200421e6a"[1]      # lid 5 lmc 0 "desc" lid 3 4xQDR
//
// Blank lines, lines starting with '#', key=value lines (vendid, devid,
// sysimgguid, switchguid, caguid, ...) and chassis lines of
// ibnetdiscover -g are skipped; extra [ext N] and (port GUID) groups on
// port lines are accepted. Every link must appear in the blocks of both
// its ends. Routers (Rt) and links between two CAs are rejected.
//
// Mapping to the network:
//
//   - every Switch block is a switch, in file order, with as many ports as
//     its header says; InfiniBand port p is port position p − 1, so port
//     numbers are kept and unconnected ports are Unused;
//   - every connected CA port is a host (a CA with two cabled ports gives
//     two hosts, as each port has its own LID); unconnected CA ports and
//     CAs without a connected port give none. Hosts are numbered
//     switch-major: by switch, then by switch port;
//   - names: switches keep their file name ("S-<guid>"), hosts "H-<guid>"
//     or, for a CA with several connected ports, "H-<guid>[<port>]".
//
// The network has Kind "file", no coordinates, and HostsPerSwitch C when
// every switch has C hosts.
func ReadIBNetDiscover(r io.Reader, file string) (*Network, *IBInfo, error) {
	nodes, err := parseIBNetDiscover(r, file)
	if err != nil {
		return nil, nil, err
	}
	return buildIB(nodes, file)
}

// ibNode is one node block of an ibnetdiscover file.
type ibNode struct {
	host   bool   // a CA; a switch otherwise
	id     string // "S-<guid>" or "H-<guid>"
	ports  []ibPort
	line   int
	desc   string
	lid    int
	index  int // switch index (switches)
	cabled int // connected ports (CAs)
}

// ibPort is one port line: the peer node and port.
type ibPort struct {
	peer     string
	peerPort int
	line     int
	lid      int    // the CA port's own LID, from a CA's port line
	lmc      int    // the CA port's LMC, from a CA's port line
	peerLID  int    // the peer's LID, from a switch's port line
	guid     string // the port's own GUID, "(guid)" after [N]; "" when none
	peerGUID string // the peer port's GUID, "(guid)" after the peer's [M]
}

// parseIBNetDiscover reads the node blocks of an ibnetdiscover file.
func parseIBNetDiscover(r io.Reader, file string) ([]*ibNode, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var (
		nodes []*ibNode
		cur   *ibNode
		line  int
	)
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		var err error
		switch {
		case text == "" || text[0] == '#':
		case text[0] == '[':
			if cur == nil {
				return nil, FileErrorf(file, line, "port line before any node header (expected a Switch or Ca line first)")
			}
			err = parsePortLine(cur, text, line)
		case strings.HasPrefix(text, "Switch") || strings.HasPrefix(text, "Ca") || strings.HasPrefix(text, "Rt"):
			cur, err = parseIBHeader(text, line)
			if err == nil {
				nodes = append(nodes, cur)
			}
		case isIBKeyValue(text) || strings.Contains(text, "Chassis"):
		default:
			err = errors.New(`expected a node header (Switch N "S-…" or Ca N "H-…"), a port line ([N] "…"[M]) or key=value`)
		}
		if err != nil {
			return nil, FileErrorf(file, line, "%v", err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, FileErrorf(file, line+1, "%v", err)
	}
	if len(nodes) == 0 {
		return nil, FileErrorf(file, 0, "no Switch or Ca blocks (expected ibnetdiscover output)")
	}
	return nodes, nil
}

// isIBKeyValue reports whether text is a key=value line such as
// "vendid=0x2c9".
func isIBKeyValue(text string) bool {
	key, _, ok := strings.Cut(text, "=")
	if !ok || key == "" {
		return false
	}
	for _, c := range key {
		if !('a' <= c && c <= 'z') {
			return false
		}
	}
	return true
}

// parseIBHeader parses a node header: Switch|Ca N "X-<guid>" # "desc" ...
func parseIBHeader(text string, line int) (*ibNode, error) {
	sc := ibScanner{s: text}
	kind := sc.word()
	if kind == "Rt" {
		return nil, errors.New("routers (Rt) are not supported (expected Switch and Ca nodes)")
	}
	if kind != "Switch" && kind != "Ca" {
		return nil, fmt.Errorf("unknown node type %q (expected Switch or Ca)", kind)
	}
	n, err := strconv.Atoi(sc.word())
	if err != nil || n < 1 || n > maxIBPorts {
		return nil, fmt.Errorf("%s: expected a port count from 1 to %d after %q", kind, maxIBPorts, kind)
	}
	id, ok := sc.quoted()
	prefix := "S-"
	if kind == "Ca" {
		prefix = "H-"
	}
	if !ok || !strings.HasPrefix(id, prefix) || len(id) == len(prefix) {
		return nil, fmt.Errorf("%s: expected a quoted node name \"%s<guid>\" after the port count", kind, prefix)
	}
	if err := checkName(id, kind == "Ca"); err != nil {
		return nil, err
	}
	node := &ibNode{host: kind == "Ca", id: id, ports: make([]ibPort, n+1), line: line}
	before, desc, after, err := sc.comment()
	if err != nil {
		return nil, err
	}
	node.desc = desc
	node.lid = findLID(before + " " + after)
	return node, nil
}

// parsePortLine parses a port line of node:
//
//	[p][ext N](portguid) "X-<guid>"[q](portguid)[ext N] # comment
func parsePortLine(node *ibNode, text string, line int) error {
	sc := ibScanner{s: text}
	p, ok := sc.bracketInt()
	if !ok {
		return errors.New("expected a port number [N] at the start of the port line")
	}
	if p < 1 || p >= len(node.ports) {
		return fmt.Errorf("port [%d] out of range: %s has ports 1 to %d", p, node.id, len(node.ports)-1)
	}
	if prev := node.ports[p]; prev.line != 0 {
		return fmt.Errorf("port [%d] of %s is already listed on line %d", p, node.id, prev.line)
	}
	own := sc.extras()
	peer, ok := sc.quoted()
	if !ok {
		return fmt.Errorf("expected the quoted peer node (\"S-<guid>\" or \"H-<guid>\") after port [%d]", p)
	}
	if strings.HasPrefix(peer, "R-") {
		return errors.New("links to routers are not supported (expected Switch and Ca peers)")
	}
	if !strings.HasPrefix(peer, "S-") && !strings.HasPrefix(peer, "H-") {
		return fmt.Errorf("peer %q: expected a name starting with S- (switch) or H- (CA)", peer)
	}
	q, ok := sc.bracketInt()
	if !ok || q < 1 || q > maxIBPorts {
		return fmt.Errorf("expected the peer's port number [1..%d] after %q", maxIBPorts, peer)
	}
	peerGUID := sc.extras()
	before, _, after, err := sc.comment()
	if err != nil {
		return err
	}
	port := ibPort{peer: peer, peerPort: q, line: line, guid: own, peerGUID: peerGUID}
	if node.host {
		port.lid = findLID(before) // # lid L lmc M "peer desc" lid L' ...
		port.lmc = findWord(before, "lmc")
	} else {
		port.peerLID = findLID(after) // # "peer desc" lid L ...
	}
	node.ports[p] = port
	return nil
}

// findLID returns N from the first "lid N" in s, or 0.
func findLID(s string) int { return findWord(s, "lid") }

// findWord returns N from the first "word N" in s, or 0.
func findWord(s, word string) int {
	f := strings.Fields(s)
	for i := 0; i+1 < len(f); i++ {
		if f[i] == word {
			if n, err := strconv.Atoi(f[i+1]); err == nil && n >= 0 {
				return n
			}
		}
	}
	return 0
}

// ibScanner reads the fields of one line.
type ibScanner struct {
	s string
	i int
}

// space skips blanks.
func (sc *ibScanner) space() {
	for sc.i < len(sc.s) && (sc.s[sc.i] == ' ' || sc.s[sc.i] == '\t') {
		sc.i++
	}
}

// word returns the next blank-separated word.
func (sc *ibScanner) word() string {
	sc.space()
	start := sc.i
	for sc.i < len(sc.s) && sc.s[sc.i] != ' ' && sc.s[sc.i] != '\t' && sc.s[sc.i] != '"' {
		sc.i++
	}
	return sc.s[start:sc.i]
}

// quoted returns the next "..." string.
func (sc *ibScanner) quoted() (string, bool) {
	sc.space()
	if sc.i >= len(sc.s) || sc.s[sc.i] != '"' {
		return "", false
	}
	end := strings.IndexByte(sc.s[sc.i+1:], '"')
	if end < 0 {
		return "", false
	}
	s := sc.s[sc.i+1 : sc.i+1+end]
	sc.i += end + 2
	return s, true
}

// bracketInt reads [N].
func (sc *ibScanner) bracketInt() (int, bool) {
	sc.space()
	if sc.i >= len(sc.s) || sc.s[sc.i] != '[' {
		return 0, false
	}
	end := strings.IndexByte(sc.s[sc.i:], ']')
	if end < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(sc.s[sc.i+1 : sc.i+end])
	if err != nil {
		return 0, false
	}
	sc.i += end + 1
	return n, true
}

// extras skips (port GUID) and [ext N] groups and returns the first
// port GUID, "" when there is none.
func (sc *ibScanner) extras() (guid string) {
	for {
		sc.space()
		if sc.i >= len(sc.s) {
			return guid
		}
		var closer byte
		switch sc.s[sc.i] {
		case '(':
			closer = ')'
		case '[':
			closer = ']'
		default:
			return guid
		}
		end := strings.IndexByte(sc.s[sc.i:], closer)
		if end < 0 {
			return guid
		}
		if closer == ')' && guid == "" {
			guid = strings.TrimPrefix(sc.s[sc.i+1:sc.i+end], "0x")
			if g, err := strconv.ParseUint(guid, 16, 64); err == nil {
				guid = fmt.Sprintf("%016x", g)
			}
		}
		sc.i += end + 1
	}
}

// comment reads the rest of the line, which must be empty or a comment
// "# before "desc" after", and splits it at the first quoted string.
func (sc *ibScanner) comment() (before, desc, after string, err error) {
	sc.space()
	if sc.i >= len(sc.s) {
		return "", "", "", nil
	}
	if sc.s[sc.i] != '#' {
		return "", "", "", fmt.Errorf("unexpected %q (expected '#' and a comment, or the end of the line)", sc.s[sc.i:])
	}
	rest := sc.s[sc.i+1:]
	before, tail, ok := strings.Cut(rest, `"`)
	if !ok {
		return before, "", "", nil
	}
	desc, after, ok = strings.Cut(tail, `"`)
	if !ok {
		return "", "", "", errors.New("unterminated quoted description (expected a closing \")")
	}
	return before, desc, after, nil
}

// buildIB checks that every link is listed on both sides and assembles the
// network; see ReadIBNetDiscover for the mapping.
func buildIB(nodes []*ibNode, file string) (*Network, *IBInfo, error) {
	byID := make(map[string]*ibNode, len(nodes))
	var switches []*ibNode
	total := 0
	for _, n := range nodes {
		if prev, dup := byID[n.id]; dup {
			return nil, nil, FileErrorf(file, n.line, "node %q is already described on line %d", n.id, prev.line)
		}
		byID[n.id] = n
		if !n.host {
			n.index = len(switches)
			switches = append(switches, n)
			total += len(n.ports) - 1
		}
	}
	if len(switches) == 0 {
		return nil, nil, FileErrorf(file, 0, "no Switch blocks (expected at least one switch)")
	}
	if len(switches) > MaxSwitches {
		return nil, nil, FileErrorf(file, 0, "%d switches, more than the limit of %d", len(switches), MaxSwitches)
	}
	if total > MaxPorts {
		return nil, nil, FileErrorf(file, 0, "%d switch ports, more than the limit of %d", total, MaxPorts)
	}
	for _, n := range nodes {
		for p, port := range n.ports {
			if port.line == 0 {
				continue
			}
			if err := checkIBLink(file, byID, n, p, port); err != nil {
				return nil, nil, err
			}
			if n.host {
				n.cabled++
			}
		}
	}
	ports := make([]Port, total)
	net := &Network{Kind: "file", Switches: make([]Switch, len(switches)), Names: &Names{}}
	info := &IBInfo{}
	off := 0
	for s, n := range switches {
		k := len(n.ports) - 1
		net.Switches[s].Ports = ports[off : off+k : off+k]
		off += k
		net.Names.Switches = append(net.Names.Switches, n.id)
		info.Switches = append(info.Switches, IBNode{GUID: n.id[2:], LID: n.lid, Desc: n.desc})
	}
	for s, n := range switches {
		for p, port := range n.ports {
			if port.line == 0 {
				continue
			}
			peer := byID[port.peer]
			if !peer.host {
				net.Switches[s].Ports[p-1] = Port{Kind: SwitchPort, Peer: int32(peer.index), PeerPort: int32(port.peerPort - 1), Dim: -1}
				continue
			}
			h := len(net.Hosts)
			if h >= MaxHosts {
				return nil, nil, FileErrorf(file, 0, "more than the limit of %d hosts", MaxHosts)
			}
			net.Switches[s].Ports[p-1] = Port{Kind: HostPort, Peer: int32(h), Dim: -1}
			net.Hosts = append(net.Hosts, Host{Switch: int32(s), Port: int32(p - 1)})
			name := peer.id
			if peer.cabled > 1 {
				name += "[" + strconv.Itoa(port.peerPort) + "]"
			}
			net.Names.Hosts = append(net.Names.Hosts, name)
			lid, guid := peer.ports[port.peerPort].lid, peer.ports[port.peerPort].guid
			if lid == 0 {
				lid = port.peerLID
			}
			if guid == "" {
				guid = port.peerGUID
			}
			lmc := peer.ports[port.peerPort].lmc
			if lmc > 7 {
				return nil, nil, FileErrorf(file, peer.ports[port.peerPort].line, "lmc %d (expected 0-7)", lmc)
			}
			info.Hosts = append(info.Hosts, IBNode{GUID: peer.id[2:], PortGUID: guid, Port: port.peerPort, LID: lid, LMC: lmc, Desc: peer.desc})
		}
	}
	net.HostsPerSwitch = regularHosts(net)
	net.IB = info
	if err := net.Validate(); err != nil { // a backstop: the checks above should prevent it
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	return net, info, nil
}

// checkIBLink checks that port p of n, linked to port.peer[port.peerPort],
// is listed back by the peer.
func checkIBLink(file string, byID map[string]*ibNode, n *ibNode, p int, port ibPort) error {
	peer, ok := byID[port.peer]
	switch {
	case !ok:
		return FileErrorf(file, port.line, "peer %q is not described in the file (expected a Switch or Ca block for it)", port.peer)
	case peer == n:
		return FileErrorf(file, port.line, "%s[%d] links to its own port [%d] (expected a link between two different nodes)", n.id, p, port.peerPort)
	case n.host && peer.host:
		return FileErrorf(file, port.line, "link between two CAs %s and %s (expected CAs to attach to switches)", n.id, peer.id)
	case port.peerPort >= len(peer.ports):
		return FileErrorf(file, port.line, "peer port [%d] out of range: %s (line %d) has ports 1 to %d", port.peerPort, peer.id, peer.line, len(peer.ports)-1)
	}
	back := peer.ports[port.peerPort]
	switch {
	case back.line == 0:
		return FileErrorf(file, port.line, "%s[%d] links to %s[%d], but the block of %s (line %d) does not list port [%d] (expected both ends of every link)",
			n.id, p, peer.id, port.peerPort, peer.id, peer.line, port.peerPort)
	case back.peer != n.id || back.peerPort != p:
		return FileErrorf(file, port.line, "%s[%d] links to %s[%d], but line %d links %s[%d] to %s[%d]",
			n.id, p, peer.id, port.peerPort, back.line, peer.id, port.peerPort, back.peer, back.peerPort)
	}
	return nil
}

// SwitchLabel names switch s as a report should: on a network imported
// from ibnetdiscover output by its node description, GUID and LID
// (`"leaf-3" (GUID 0x0002c90200421e6a, LID 3)`), otherwise by its display
// name (`S4`).
func (n *Network) SwitchLabel(s int) string {
	if ib := n.IB; ib != nil && s < len(ib.Switches) {
		return ibLabel(ib.Switches[s].Desc, ib.Switches[s].GUID, ib.Switches[s].LID)
	}
	names, _ := n.DisplayNames()
	return names[s]
}

// HostLabel names host h as a report should: on a network imported from
// ibnetdiscover output by its CA's node description, port GUID and LID,
// otherwise by its display name.
func (n *Network) HostLabel(h int) string {
	if ib := n.IB; ib != nil && h < len(ib.Hosts) {
		guid := ib.Hosts[h].PortGUID
		if guid == "" {
			guid = ib.Hosts[h].GUID
		}
		return ibLabel(ib.Hosts[h].Desc, guid, ib.Hosts[h].LID)
	}
	_, names := n.DisplayNames()
	return names[h]
}

// ibLabel formats a node's identity for reports.
func ibLabel(desc, guid string, lid int) string {
	s := fmt.Sprintf("%q (GUID 0x%s", desc, guid)
	if lid > 0 {
		s += fmt.Sprintf(", LID %d", lid)
	}
	return s + ")"
}
