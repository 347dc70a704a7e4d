package routing

import (
	"bytes"
	"path/filepath"
	"strings"

	"netsim/internal/fileio"
	"netsim/keyerr"
	"netsim/topologies"
)

// readTables reads the forwarding tables of algorithm "file" from s.Path
// in s.Format for net. Errors name the path or format key, or the file
// and line.
func readTables(s Spec, net *topologies.Network, vls int) (Routing, error) {
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
	data, err := fileio.ReadFile(s.Path, fileio.MaxTables)
	if err != nil {
		return nil, keyerr.New("path", "%w", err)
	}
	partial := false
	switch s.Unreachable {
	case "", UnreachableError:
	case UnreachableSkip:
		partial = true
		if format != "lft" {
			return nil, keyerr.New("unreachable", "%q is for LFT dumps (format \"lft\"), not %q", s.Unreachable, format)
		}
	default:
		return nil, keyerr.New("unreachable", "unknown value %q (expected %q or %q)", s.Unreachable, UnreachableError, UnreachableSkip)
	}
	var t *Tables
	if format == "lft" {
		t, err = readLFT(bytes.NewReader(data), s.Path, net, vls, partial)
	} else {
		var (
			dotNet *topologies.Network
			routes *topologies.DotRoutes
		)
		if dotNet, routes, err = topologies.ReadDot(bytes.NewReader(data), s.Path); err == nil {
			t, err = TablesFromDot(routes, dotNet, net, s.Path, vls)
		}
	}
	if err != nil {
		return nil, err
	}
	if s.PathSLs != "" {
		if err := applyPathSLs(t, s.PathSLs, net); err != nil {
			return nil, err
		}
	}
	if s.SL2VL != "" {
		data, err := fileio.ReadFile(s.SL2VL, fileio.MaxSmall)
		if err != nil {
			return nil, keyerr.New("sl2vl", "%w", err)
		}
		m, err := ReadSL2VL(bytes.NewReader(data), s.SL2VL, net)
		if err != nil {
			return nil, err
		}
		t.sl2vl, t.vlsNeeded = m, m.maxVL(t.layers)+1
	}
	if t.paths > 1 {
		return lmcTables{t}, nil // several LIDs per host: a NIC chooses among them
	}
	return t, nil
}

// applyPathSLs gives t's paths the SLs of the path records in file, per
// pair of hosts (OpenSM's DFSSSP gives two hosts of one switch different
// SLs to the same destination). Every pair of hosts on different switches
// that the tables connect needs a record; a pair on one switch, or one
// the tables leave unreachable, without one gets SL 0.
func applyPathSLs(t *Tables, file string, net *topologies.Network) error {
	if t.layer != nil {
		return keyerr.New("path_sls", "the tables' file gives SLs already (its \"SL of paths from\" blocks); expected one source of SLs")
	}
	data, err := fileio.ReadFile(file, fileio.MaxTables)
	if err != nil {
		return keyerr.New("path_sls", "%w", err)
	}
	sls, err := ReadPathSLs(bytes.NewReader(data), file, net)
	if err != nil {
		return err
	}
	_, hostNames := net.DisplayNames()
	layers := 1
	for src, a := range net.Hosts {
		for dst, b := range net.Hosts {
			i := src*t.hosts + dst
			switch {
			case sls[i] != noSL:
				layers = max(layers, int(sls[i])+1)
			case a.Switch == b.Switch || !t.Reachable(src, dst):
				sls[i] = 0 // no switch-to-switch hop, or no path: any SL will do
			default:
				return topologies.FileErrorf(file, 0, "no path record from host %s (LID %d) to host %s (LID %d) (expected one for every pair of hosts on different switches)",
					hostNames[src], net.IB.Hosts[src].LID, hostNames[dst], net.IB.Hosts[dst].LID)
			}
		}
	}
	t.pathSL, t.layers = sls, layers
	return nil
}
