package topologies

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// ReadDot reads a network in the ORCS dot format of seed 003 §2.1, as
// WriteDot writes it or as ORCS's tools produce it, from r; file names the
// input in errors, which are *FileError values with the line at fault.
//
// The file is one digraph. A node whose name starts with "H" is a host,
// any other node a switch. Every edge is one direction of a link; parallel
// links are parallel edges, and the two directions of every link must both
// be present. A host has exactly one link, to a switch.
//
// Numbering: switches and hosts are numbered in the order in which they
// first appear as the tail of an edge or in a node statement ("S5";); a
// switch's ports are its outgoing edges in file order, or, when its edges
// carry srcport attributes (all of them must), port srcport − 1. The two
// directions of the links between two switches are paired by their
// dstport attributes when all of those edges have one (edge A→B with
// srcport p, dstport q pairs with B→A with srcport q, dstport p), else in
// file order (the k-th edge A→B with the k-th edge B→A).
//
// Routing comments (the edge attribute comment) are returned in
// *DotRoutes, each with its line, nil when no edge has one: "*" stands
// for every host, otherwise a comma-separated list of host names. Other
// attributes, attribute statements (graph/node/edge [...]) and graph
// attributes are ignored; subgraphs, node ports (a:p) and HTML strings
// are rejected.
//
// The network has Kind "file", no coordinates, Names set from the file,
// and HostsPerSwitch C when every switch has C hosts numbered switch-major.
func ReadDot(r io.Reader, file string) (*Network, *DotRoutes, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	g, err := parseDot(file, string(data))
	if err != nil {
		return nil, nil, err
	}
	b := dotBuilder{file: file, g: g}
	return b.build()
}

// dotNode is a numbered node of a dot file.
type dotNode struct {
	host  bool
	index int // switch or host index
}

// dotBuilder turns a parsed dot file into a network.
type dotBuilder struct {
	file  string
	g     *dotGraph
	nodes map[string]dotNode
	names Names
	// out[s] lists the edges leaving switch s, in file order; pos[e] is the
	// port position of edge e at its tail (switch tails only).
	out [][]int
	pos []int
	// hostOut[h] and hostIn[h] are the edges leaving and reaching host h,
	// -1 when none.
	hostOut, hostIn []int
}

// build checks the graph and assembles the network and its routes.
func (b *dotBuilder) build() (*Network, *DotRoutes, error) {
	if err := b.numberNodes(); err != nil {
		return nil, nil, err
	}
	if err := b.sortEdges(); err != nil {
		return nil, nil, err
	}
	if err := b.assignPorts(); err != nil {
		return nil, nil, err
	}
	sw := b.allocate()
	net := &Network{Kind: "file", Switches: sw, Hosts: make([]Host, len(b.names.Hosts)), Names: &b.names}
	if err := b.linkSwitches(sw); err != nil {
		return nil, nil, err
	}
	if err := b.linkHosts(net); err != nil {
		return nil, nil, err
	}
	routes, err := b.routes(sw)
	if err != nil {
		return nil, nil, err
	}
	net.HostsPerSwitch = regularHosts(net)
	if err := net.Validate(); err != nil { // a backstop: the checks above should prevent it
		return nil, nil, fmt.Errorf("%s: %w", b.file, err)
	}
	return net, routes, nil
}

// numberNodes classifies and numbers the nodes.
func (b *dotBuilder) numberNodes() error {
	g := b.g
	missing, line, found := "", 0, false
	for name, l := range g.seen {
		if !g.numbered[name] && (!found || l < line || (l == line && name < missing)) {
			missing, line, found = name, l, true
		}
	}
	if found {
		return FileErrorf(b.file, line, "node %q has no edge leaving it (expected an edge in each direction of every link)", missing)
	}
	b.nodes = make(map[string]dotNode, len(g.order))
	for i, name := range g.order {
		host := strings.HasPrefix(name, "H")
		if err := checkName(name, host); err != nil {
			return FileErrorf(b.file, g.lines[i], "%v", err)
		}
		list := &b.names.Switches
		if host {
			list = &b.names.Hosts
		}
		b.nodes[name] = dotNode{host: host, index: len(*list)}
		*list = append(*list, name)
	}
	if len(b.names.Switches) == 0 {
		return FileErrorf(b.file, 0, "no switches (expected at least one node whose name does not start with H)")
	}
	if len(b.names.Switches) > MaxSwitches {
		return FileErrorf(b.file, 0, "%d switches, more than the limit of %d", len(b.names.Switches), MaxSwitches)
	}
	if len(b.names.Hosts) > MaxHosts {
		return FileErrorf(b.file, 0, "%d hosts, more than the limit of %d", len(b.names.Hosts), MaxHosts)
	}
	return nil
}

// sortEdges checks each edge's ends and files it under its tail.
func (b *dotBuilder) sortEdges() error {
	b.out = make([][]int, len(b.names.Switches))
	b.hostOut = make([]int, len(b.names.Hosts))
	b.hostIn = make([]int, len(b.names.Hosts))
	for h := range b.hostOut {
		b.hostOut[h], b.hostIn[h] = -1, -1
	}
	for i, e := range b.g.edges {
		t, h := b.nodes[e.tail], b.nodes[e.head]
		switch {
		case e.tail == e.head:
			return FileErrorf(b.file, e.line, "edge %q -> %q is a loop (expected a link between two different nodes)", e.tail, e.head)
		case t.host && h.host:
			return FileErrorf(b.file, e.line, "edge %q -> %q joins two hosts (expected every host to attach to a switch)", e.tail, e.head)
		case t.host && e.srcport != 0:
			return FileErrorf(b.file, e.line, "srcport: host %q has a single, unnumbered port (expected srcport only on switches' edges)", e.tail)
		case h.host && e.dstport != 0:
			return FileErrorf(b.file, e.line, "dstport: host %q has a single, unnumbered port (expected dstport only on edges to switches)", e.head)
		}
		if h.host {
			if prev := b.hostIn[h.index]; prev >= 0 {
				return FileErrorf(b.file, e.line, "host %q has a second link (the first is on line %d; expected one link per host)", e.head, b.g.edges[prev].line)
			}
			b.hostIn[h.index] = i
		}
		if t.host {
			if prev := b.hostOut[t.index]; prev >= 0 {
				return FileErrorf(b.file, e.line, "host %q has a second link (the first is on line %d; expected one link per host)", e.tail, b.g.edges[prev].line)
			}
			b.hostOut[t.index] = i
			continue
		}
		b.out[t.index] = append(b.out[t.index], i)
	}
	return nil
}

// assignPorts gives every edge leaving a switch its port position: its
// srcport − 1 when the switch's edges carry srcport, else its rank.
func (b *dotBuilder) assignPorts() error {
	edges := b.g.edges
	b.pos = make([]int, len(edges))
	total := 0
	for s, out := range b.out {
		numbered := 0
		for _, e := range out {
			if edges[e].srcport != 0 {
				numbered++
			}
		}
		switch {
		case numbered == 0:
			for k, e := range out {
				b.pos[e] = k
			}
			total += len(out)
		case numbered < len(out):
			var with, without dotEdge
			for _, e := range out {
				if edges[e].srcport != 0 && with.line == 0 {
					with = edges[e]
				}
				if edges[e].srcport == 0 && without.line == 0 {
					without = edges[e]
				}
			}
			return FileErrorf(b.file, without.line, "srcport: edge %q -> %q has none but the edge on line %d from the same switch has one (expected srcport on all or none of a switch's edges)",
				without.tail, without.head, with.line)
		default:
			used := make(map[int]int, len(out))
			ports := 0
			for _, e := range out {
				p := edges[e].srcport - 1
				if prev, dup := used[p]; dup {
					return FileErrorf(b.file, edges[e].line, "srcport: port %d of switch %q is also used on line %d (expected one edge per port)", p+1, b.names.Switches[s], prev)
				}
				used[p] = edges[e].line
				b.pos[e] = p
				ports = max(ports, p+1)
			}
			total += ports
		}
		if total > MaxPorts {
			return FileErrorf(b.file, 0, "more than the limit of %d switch ports in all", MaxPorts)
		}
	}
	return nil
}

// allocate returns the switches, each with as many ports as its highest
// port position + 1, sharing one backing array.
func (b *dotBuilder) allocate() []Switch {
	counts := make([]int, len(b.out))
	total := 0
	for s, out := range b.out {
		for _, e := range out {
			counts[s] = max(counts[s], b.pos[e]+1)
		}
		total += counts[s]
	}
	ports := make([]Port, total)
	sw := make([]Switch, len(b.out))
	off := 0
	for s, n := range counts {
		sw[s].Ports = ports[off : off+n : off+n]
		off += n
	}
	return sw
}

// linkSwitches pairs the two directions of every link between switches and
// sets both ports.
func (b *dotBuilder) linkSwitches(sw []Switch) error {
	edges := b.g.edges
	byPair := map[[2]int][]int{}
	for s, out := range b.out {
		for _, e := range out {
			if h := b.nodes[edges[e].head]; !h.host {
				k := [2]int{s, h.index}
				byPair[k] = append(byPair[k], e)
			}
		}
	}
	done := make([]bool, len(edges))
	for i, e := range edges {
		t, h := b.nodes[e.tail], b.nodes[e.head]
		if done[i] || t.host || h.host {
			continue
		}
		ab, ba := byPair[[2]int{t.index, h.index}], byPair[[2]int{h.index, t.index}]
		pairs, err := b.pair(ab, ba)
		if err != nil {
			return err
		}
		for _, p := range pairs {
			x, y := p[0], p[1]
			done[x], done[y] = true, true
			sw[t.index].Ports[b.pos[x]] = Port{Kind: SwitchPort, Peer: int32(h.index), PeerPort: int32(b.pos[y]), Dim: -1}
			sw[h.index].Ports[b.pos[y]] = Port{Kind: SwitchPort, Peer: int32(t.index), PeerPort: int32(b.pos[x]), Dim: -1}
		}
	}
	return nil
}

// pair matches the edges ab (A→B) with the edges ba (B→A): by dstport when
// all of them have one, else in file order.
func (b *dotBuilder) pair(ab, ba []int) ([][2]int, error) {
	edges := b.g.edges
	withPort := 0
	for _, e := range slices.Concat(ab, ba) {
		if edges[e].dstport != 0 {
			withPort++
		}
	}
	switch {
	case withPort == 0:
		if len(ab) != len(ba) {
			var e dotEdge // the first edge left over, on the longer side
			if len(ab) > len(ba) {
				e = edges[ab[len(ba)]]
			} else {
				e = edges[ba[len(ab)]]
			}
			return nil, FileErrorf(b.file, e.line, "edge %q -> %q has no reverse edge %q -> %q (there are %d edges %s -> %s and %d back; expected one edge per direction of every link)",
				e.tail, e.head, e.head, e.tail, max(len(ab), len(ba)), e.tail, e.head, min(len(ab), len(ba)))
		}
		pairs := make([][2]int, len(ab))
		for k := range ab {
			pairs[k] = [2]int{ab[k], ba[k]}
		}
		return pairs, nil
	case withPort < len(ab)+len(ba):
		for _, e := range slices.Concat(ab, ba) {
			if edges[e].dstport == 0 {
				x := edges[e]
				return nil, FileErrorf(b.file, x.line, "dstport: edge %q -> %q has none but other edges between the same switches have one (expected dstport on all or none of them)", x.tail, x.head)
			}
		}
	}
	byPos := make(map[int]int, len(ba))
	for _, f := range ba {
		byPos[b.pos[f]] = f
	}
	pairs := make([][2]int, 0, len(ab))
	for _, e := range ab {
		x := edges[e]
		f, ok := byPos[x.dstport-1]
		if !ok || edges[f].dstport-1 != b.pos[e] {
			return nil, FileErrorf(b.file, x.line, "edge %q -> %q (port %d to port %d) has no reverse edge %q -> %q with srcport %d and dstport %d (expected one edge per direction of every link)",
				x.tail, x.head, b.pos[e]+1, x.dstport, x.head, x.tail, x.dstport, b.pos[e]+1)
		}
		delete(byPos, x.dstport-1)
		pairs = append(pairs, [2]int{e, f})
	}
	for _, f := range ba {
		if _, left := byPos[b.pos[f]]; left {
			y := edges[f]
			return nil, FileErrorf(b.file, y.line, "edge %q -> %q (port %d to port %d) has no reverse edge %q -> %q with srcport %d and dstport %d (expected one edge per direction of every link)",
				y.tail, y.head, b.pos[f]+1, y.dstport, y.head, y.tail, y.dstport, b.pos[f]+1)
		}
	}
	return pairs, nil
}

// linkHosts attaches every host to the switch port its two edges name.
func (b *dotBuilder) linkHosts(net *Network) error {
	edges := b.g.edges
	for h, name := range b.names.Hosts {
		in, out := b.hostIn[h], b.hostOut[h]
		switch {
		case in < 0 && out < 0:
			line := b.g.lines[slices.Index(b.g.order, name)]
			return FileErrorf(b.file, line, "host %q has no link (expected one edge to its switch and one back)", name)
		case in < 0:
			e := edges[out]
			return FileErrorf(b.file, e.line, "host %q has no edge from switch %q (expected an edge in each direction of every link)", name, e.head)
		case out < 0:
			e := edges[in]
			return FileErrorf(b.file, e.line, "host %q has no edge to switch %q (expected an edge in each direction of every link)", name, e.tail)
		}
		x, y := edges[in], edges[out]
		if x.tail != y.head {
			return FileErrorf(b.file, y.line, "host %q links to switch %q but switch %q links to it on line %d (expected both directions of one link)", name, y.head, x.tail, x.line)
		}
		if y.dstport != 0 && y.dstport != b.pos[in]+1 {
			return FileErrorf(b.file, y.line, "dstport: host %q reaches port %d of switch %q, but the edge on line %d leaves port %d", name, y.dstport, y.head, x.line, b.pos[in]+1)
		}
		s := b.nodes[x.tail].index
		net.Switches[s].Ports[b.pos[in]] = Port{Kind: HostPort, Peer: int32(h), Dim: -1}
		net.Hosts[h] = Host{Switch: int32(s), Port: int32(b.pos[in])}
	}
	return nil
}

// routes collects the routing comments, each with its line (the edge's
// line for an edge without one); nil when no edge has one.
func (b *dotBuilder) routes(sw []Switch) (*DotRoutes, error) {
	edges := b.g.edges
	if !slices.ContainsFunc(edges, func(e dotEdge) bool { return e.hasComment }) {
		return nil, nil
	}
	r := &DotRoutes{Ports: make([][]DotRoute, len(sw))}
	for s := range sw {
		r.Ports[s] = make([]DotRoute, len(sw[s].Ports))
	}
	for i, e := range edges {
		c := DotRoute{Line: e.line}
		if e.hasComment {
			var err error
			if c, err = b.comment(e); err != nil {
				return nil, err
			}
		}
		if t := b.nodes[e.tail]; !t.host {
			r.Ports[t.index][b.pos[i]] = c
		}
	}
	return r, nil
}

// comment parses the routing comment of e: "*" or host names separated by
// commas (blanks around names are ignored), each host once. Errors name
// the line of the comment.
func (b *dotBuilder) comment(e dotEdge) (DotRoute, error) {
	c := DotRoute{Given: true, Line: e.commentLine}
	text := strings.TrimSpace(e.comment)
	if text == "*" {
		c.All = true
		return c, nil
	}
	if text == "" {
		return c, nil
	}
	for name := range strings.SplitSeq(text, ",") {
		name = strings.TrimSpace(name)
		n, ok := b.nodes[name]
		switch {
		case name == "":
			return c, FileErrorf(b.file, e.commentLine, "comment: empty host name in %q (expected \"*\" or host names separated by commas)", e.comment)
		case !ok:
			return c, FileErrorf(b.file, e.commentLine, "comment: unknown host %q (expected \"*\" or names of hosts of the file)", name)
		case !n.host:
			return c, FileErrorf(b.file, e.commentLine, "comment: %q is a switch (expected \"*\" or host names)", name)
		}
		c.Hosts = append(c.Hosts, int32(n.index))
	}
	slices.Sort(c.Hosts)
	for i := 1; i < len(c.Hosts); i++ {
		if h := c.Hosts[i]; h == c.Hosts[i-1] {
			return c, FileErrorf(b.file, e.commentLine, "comment: host %q is listed twice (expected each host once)", b.names.Hosts[h])
		}
	}
	return c, nil
}
