package routing

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"netsim/keyerr"
	"netsim/topologies"
)

// readTables reads the forwarding tables of algorithm "file" from s.Path
// in s.Format for net. Errors name the path or format key, or the file
// and line.
func readTables(s Spec, net *topologies.Network, vls int) (*Tables, error) {
	if s.Path == "" {
		return nil, keyerr.New("path", "missing (algorithm \"file\" needs the file of forwarding tables)")
	}
	format := s.Format
	if format == "" {
		format = "lft"
		if strings.EqualFold(filepath.Ext(s.Path), ".dot") {
			format = "dot"
		}
	}
	if format != "lft" && format != "dot" {
		return nil, keyerr.New("format", "unknown table format %q (expected \"lft\" or \"dot\")", format)
	}
	if err := tablesFit("file", net); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(s.Path)
	if err != nil {
		return nil, keyerr.New("path", "%w", err)
	}
	if format == "lft" {
		return ReadLFT(bytes.NewReader(data), s.Path, net, vls)
	}
	dotNet, routes, err := topologies.ReadDot(bytes.NewReader(data), s.Path)
	if err != nil {
		return nil, err
	}
	return TablesFromDot(routes, dotNet, net, s.Path, vls)
}
