package topologies

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"netsim/internal/fileio"
	"netsim/keyerr"
)

// File formats of kind "file" (TOML key format).
const (
	// FormatDot is the ORCS dot format of seed 003 §2.1 (see WriteDot).
	FormatDot = "dot"
	// FormatIBNetDiscover is the output of InfiniBand's ibnetdiscover (see
	// ReadIBNetDiscover).
	FormatIBNetDiscover = "ibnetdiscover"
)

// maxFilePort bounds a port number in a topology file: far above real
// switch radixes (InfiniBand has at most 254 ports), it keeps a typo from
// asking for a huge switch.
const maxFilePort = 1 << 16

// FileError is a problem in a topology file: the file, the 1-based line (0
// when the problem concerns the whole file) and what was expected.
type FileError struct {
	File string
	Line int
	Msg  string
}

// Error formats the problem as FILE:LINE: message.
func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// FileErrorf returns a *FileError for line of file (0: the whole file),
// its message formatted as by fmt.Sprintf.
func FileErrorf(file string, line int, format string, args ...any) error {
	return &FileError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// buildFile reads the topology file s.Path in s.Format (kind "file").
// Imported networks have Kind "file" and no coordinates.
func buildFile(s Spec) (*Network, error) {
	if err := checkUsed(s); err != nil {
		return nil, err
	}
	if s.Path == "" {
		return nil, keyerr.New("path", "missing (expected the topology file, relative to the experiment file)")
	}
	format := s.Format
	switch format {
	case FormatDot, FormatIBNetDiscover:
	case "":
		if !strings.EqualFold(filepath.Ext(s.Path), ".dot") {
			return nil, keyerr.New("path", "cannot tell the format of %q from its extension (expected a .dot file, or the key format = %q or %q)",
				s.Path, FormatDot, FormatIBNetDiscover)
		}
		format = FormatDot
	default:
		return nil, keyerr.New("format", "unknown format %q (expected %q or %q)", format, FormatDot, FormatIBNetDiscover)
	}
	data, err := fileio.ReadFile(s.Path, fileio.MaxLarge)
	if err != nil {
		return nil, keyerr.New("path", "cannot read the topology file: %w", err)
	}
	var net *Network
	if format == FormatDot {
		net, _, err = ReadDot(bytes.NewReader(data), s.Path)
	} else {
		net, _, err = ReadIBNetDiscover(bytes.NewReader(data), s.Path)
	}
	if err != nil {
		return nil, keyerr.New("path", "%w", err)
	}
	if err := checkConnected(net); err != nil {
		return nil, keyerr.New("path", "%s: %w", s.Path, err)
	}
	return net, nil
}

// checkConnected reports, naming two switches as the file names them, when
// some switch of net cannot reach another over switch-to-switch links:
// no routing can serve such a network.
func checkConnected(net *Network) error {
	n := len(net.Switches)
	if n == 0 {
		return nil
	}
	seen := make([]bool, n)
	seen[0] = true
	queue := []int{0}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, p := range net.Switches[u].Ports {
			if p.Kind == SwitchPort && !seen[p.Peer] {
				seen[p.Peer] = true
				queue = append(queue, int(p.Peer))
			}
		}
	}
	for v, ok := range seen {
		if ok {
			continue
		}
		name := func(i int) string {
			if net.Names != nil && i < len(net.Names.Switches) {
				return fmt.Sprintf("%q", net.Names.Switches[i])
			}
			return fmt.Sprintf("%d", i)
		}
		hint := ""
		if len(net.Switches[v].Ports) == 0 {
			hint = ", which has no links at all"
		}
		return fmt.Errorf("the network is disconnected: switch %s cannot reach switch %s%s (expected every switch to reach every other)", name(0), name(v), hint)
	}
	return nil
}

// checkName reports whether name can name a node in a dot file: not empty,
// valid UTF-8, without quotes, backslashes or control characters; a host
// name starts with "H" and has no comma (comments list hosts separated by
// commas) and a switch name does not start with "H" (seed 003 §2.1).
func checkName(name string, host bool) error {
	switch {
	case name == "":
		return errors.New("empty node name")
	case !utf8.ValidString(name):
		return fmt.Errorf("node name %q is not valid UTF-8", name)
	case strings.ContainsAny(name, "\"\\"):
		return fmt.Errorf("node name %q contains a quote or a backslash", name)
	case strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }):
		return fmt.Errorf("node name %q contains a control character", name)
	case host && !strings.HasPrefix(name, "H"):
		return fmt.Errorf("host name %q does not start with H", name)
	case host && (strings.Contains(name, ",") || name != strings.TrimSpace(name)):
		return fmt.Errorf("host name %q contains a comma or surrounding spaces, which routing comments cannot list", name)
	case !host && strings.HasPrefix(name, "H"):
		return fmt.Errorf("switch name %q starts with H, which marks hosts", name)
	}
	return nil
}

// regularHosts returns C when every switch has C ≥ 1 hosts and hosts are
// numbered switch-major (host h on switch h/C), else 0: the value of
// Network.HostsPerSwitch for an imported network.
func regularHosts(net *Network) int {
	if len(net.Hosts) == 0 || len(net.Hosts)%len(net.Switches) != 0 {
		return 0
	}
	c := len(net.Hosts) / len(net.Switches)
	for h, a := range net.Hosts {
		if int(a.Switch) != h/c {
			return 0
		}
	}
	return c
}
