package structure

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ReadLinkList reads a network in the link-list format; name (usually the
// file name) prefixes every error with the line number, as in
// "net.links:7: …". The format is line-based; '#' starts a comment and
// blank lines are ignored:
//
//	A PA B PB    a link from port PA of switch A to port PB of switch B
//	A B          a link between switches A and B, ports not given
//	hosts A N    switch A has N hosts (default 0; optional)
//
// Switch names are any words without spaces or '#' other than "hosts";
// switches are numbered in order of first appearance. Ports are integers
// ≥ 0, and a port carries at most one link. Parallel links are listed
// once each.
func ReadLinkList(r io.Reader, name string) (*Graph, error) {
	g := &Graph{}
	index := make(map[string]int)
	switchOf := func(n string) int {
		s, ok := index[n]
		if !ok {
			s = len(g.Names)
			index[n] = s
			g.Names = append(g.Names, n)
		}
		return s
	}
	type port struct{ s, p int }
	portLine := make(map[port]int) // port → line of its link
	hostsLine := make(map[int]int) // switch → line of its hosts entry
	var hosts map[int]int
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(text)
		errorf := func(format string, a ...any) error {
			return fmt.Errorf("%s:%d: "+format, append([]any{name, line}, a...)...)
		}
		switch {
		case len(f) == 0:
			continue
		case f[0] == "hosts":
			if len(f) != 3 {
				return nil, errorf("hosts: want \"hosts SWITCH COUNT\", got %d fields", len(f))
			}
			n, err := strconv.Atoi(f[2])
			if err != nil || n < 0 {
				return nil, errorf("hosts: count %q is not an integer ≥ 0", f[2])
			}
			s := switchOf(f[1])
			if l, ok := hostsLine[s]; ok {
				return nil, errorf("hosts: switch %s already given hosts on line %d", f[1], l)
			}
			hostsLine[s] = line
			if hosts == nil {
				hosts = make(map[int]int)
			}
			hosts[s] = n
		case len(f) == 2 || len(f) == 4:
			l := Link{PortA: -1, PortB: -1}
			an, bn := f[0], f[1]
			if len(f) == 4 {
				an, bn = f[0], f[2]
				var err error
				if l.PortA, err = portNumber(f[1]); err != nil {
					return nil, errorf("switch %s: %v", an, err)
				}
				if l.PortB, err = portNumber(f[3]); err != nil {
					return nil, errorf("switch %s: %v", bn, err)
				}
			}
			if bn == "hosts" {
				return nil, errorf("\"hosts\" is a keyword, not a switch name")
			}
			if an == bn {
				return nil, errorf("link from switch %s to itself", an)
			}
			l.A, l.B = switchOf(an), switchOf(bn)
			for _, p := range []port{{l.A, l.PortA}, {l.B, l.PortB}} {
				if p.p < 0 {
					continue
				}
				if first, ok := portLine[p]; ok {
					return nil, errorf("port %d of switch %s already carries the link on line %d", p.p, g.Names[p.s], first)
				}
				portLine[p] = line
			}
			g.Links = append(g.Links, l)
		default:
			return nil, errorf("want \"SWITCH PORT SWITCH PORT\", \"SWITCH SWITCH\" or \"hosts SWITCH COUNT\", got %d fields", len(f))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	if len(g.Links) == 0 {
		return nil, fmt.Errorf("%s: no links", name)
	}
	if hosts != nil {
		g.Hosts = make([]int, len(g.Names))
		for s, n := range hosts {
			g.Hosts[s] = n
		}
	}
	return g, nil
}

// portNumber parses a port number.
func portNumber(s string) (int, error) {
	p, err := strconv.Atoi(s)
	if err != nil || p < 0 {
		return 0, fmt.Errorf("port %q is not an integer ≥ 0", s)
	}
	return p, nil
}

// WriteLinkList writes g in the link-list format read by ReadLinkList:
// a hosts line for every switch with hosts, then one line per link.
func WriteLinkList(w io.Writer, g *Graph) error {
	bw := bufio.NewWriter(w)
	for s, n := range g.Hosts {
		if n > 0 {
			fmt.Fprintf(bw, "hosts %s %d\n", g.Names[s], n)
		}
	}
	for _, l := range g.Links {
		if l.PortA >= 0 && l.PortB >= 0 {
			fmt.Fprintf(bw, "%s %d %s %d\n", g.Names[l.A], l.PortA, g.Names[l.B], l.PortB)
		} else {
			fmt.Fprintf(bw, "%s %s\n", g.Names[l.A], g.Names[l.B])
		}
	}
	return bw.Flush()
}
