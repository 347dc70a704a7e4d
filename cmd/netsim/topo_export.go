package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"netsim/experiments"
	"netsim/routing"
	"netsim/topologies"
)

// topoExportUsage describes netsim topo export.
const topoExportUsage = `netsim topo export (FILE.toml | --preset NAME) [-o OUT.dot] [--routes | --lft]

Writes the network of FILE.toml's [topology] section, or the named preset
(see netsim topo describe -h for the list), in the ORCS dot format
(seed 003): one edge per direction of every link, switches "S1", "S2", ...
and hosts "H1", "H2", ... (networks read from a file keep their names),
switch port numbers as srcport/dstport attributes. Only [topology] is read,
unless --routes is given. Flags may come before or after the file.

  -o OUT.dot     write to OUT.dot instead of stdout
  --preset NAME  export a preset instead of a file
  --routes       add the routing of the experiment's [routing] section as
                 edge comments (the hosts each switch port leads to); the
                 whole file must then be a valid experiment (not with
                 --preset)
  --lft          write the forwarding tables of the experiment's table
                 routing (minhop, updn, ftree, dmodk, sssp, p2sssp, dfsssp,
                 lash, file) instead, as OpenSM LFT dump text with the
                 paths' SLs; [routing] algorithm = "file" reads it back
`

// topoExportFlags are the options of netsim topo export.
type topoExportFlags struct {
	out    string
	preset string
	routes bool
	lft    bool
	files  []string
}

// parseTopoExportFlags parses args, allowing flags before and after the
// file name; every argument after "--" is a file name. Exactly one of a
// file and --preset must be given, and --routes needs a file.
func parseTopoExportFlags(args []string) (topoExportFlags, error) {
	var f topoExportFlags
	fs := flag.NewFlagSet("netsim topo export", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.out, "o", "", "write to `OUT.dot` instead of stdout")
	fs.StringVar(&f.preset, "preset", "", "export the preset `NAME`")
	fs.BoolVar(&f.routes, "routes", false, "add routing comments from [routing]")
	fs.BoolVar(&f.lft, "lft", false, "write the forwarding tables as LFT text")
	files, err := parseArgs(fs, args)
	if err != nil {
		return f, err
	}
	f.files = files
	if err := oneSource(f.files, f.preset); err != nil {
		return f, err
	}
	if f.routes && f.preset != "" {
		return f, errors.New("--routes needs an experiment file with a [routing] section, not --preset")
	}
	if f.lft && (f.preset != "" || f.routes) {
		return f, errors.New("--lft needs an experiment file with a [routing] section, not --preset or --routes")
	}
	return f, nil
}

// topoExportCommand implements netsim topo export.
func topoExportCommand(args []string, stdout, stderr io.Writer) int {
	f, err := parseTopoExportFlags(args)
	if code, done := flagsDone(err, "netsim topo export", topoExportUsage, stdout, stderr); done {
		return code
	}

	var (
		net    *topologies.Network
		routes topologies.SwitchRoutes
		tables *routing.Tables
	)
	switch {
	case f.preset != "":
		if net, err = presetNetwork(f.preset); err != nil {
			fmt.Fprintf(stderr, "netsim topo export: %v\n", err)
			return exitUsage
		}
	case f.routes || f.lft:
		e, err := experiments.Load(f.files[0])
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitUsage
		}
		net = e.Network()
		routes = routing.PortDestinations(e.RoutingFunc(), net)
		if f.lft {
			var ok bool
			if tables, ok = e.RoutingFunc().(*routing.Tables); !ok {
				fmt.Fprintf(stderr, "netsim topo export: --lft: routing %s has no forwarding tables (use minhop, updn, ftree, dmodk, sssp, p2sssp, dfsssp, lash or file)\n", e.Routing)
				return exitUsage
			}
		}
	default:
		if net, err = experiments.LoadTopology(f.files[0]); err != nil {
			fmt.Fprintln(stderr, err)
			return exitUsage
		}
	}

	w := stdout
	var file *os.File
	if f.out != "" {
		if file, err = os.Create(f.out); err != nil {
			fmt.Fprintf(stderr, "netsim topo export: -o: %v\n", err)
			return exitUsage
		}
		w = file
	}
	bw := bufio.NewWriter(w)
	if tables != nil {
		err = routing.WriteLFT(bw, tables, net)
	} else {
		err = topologies.WriteDot(bw, net, routes)
	}
	if err == nil {
		err = bw.Flush()
	}
	if file != nil {
		if cerr := file.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "netsim topo export: %v\n", err)
		return exitFailed
	}
	return exitOK
}
