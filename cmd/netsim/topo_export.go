package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"netsim/experiments"
	"netsim/routing"
	"netsim/topologies"
)

// topoExportFlags are the options of netsim topo export.
type topoExportFlags struct {
	out    string
	preset string
	routes bool
	lft    bool
	files  []string
}

// define defines the flags of netsim topo export on fs, bound to f.
func (f *topoExportFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.out, "o", "", "write to `OUT.dot` instead of stdout")
	fs.StringVar(&f.preset, "preset", "", "export the preset `NAME` instead of a file")
	fs.BoolVar(&f.routes, "routes", false, "add the routing of the experiment's [routing] section as edge "+
		"comments (the hosts each switch port leads to); the whole file must then be a valid experiment "+
		"(not with --preset)")
	fs.BoolVar(&f.lft, "lft", false, "write the forwarding tables of the experiment's table routing "+
		"(minhop, updn, dnup, ftree, dmodk, sssp, p2sssp, dfsssp, lash, nue, torus-2QoS, file) instead, as OpenSM LFT dump text "+
		`with the paths' SLs; [routing] algorithm = "file" reads it back`)
}

// check checks that exactly one of a file and --preset is given, and
// that --routes and --lft have a file.
func (f *topoExportFlags) check() error {
	if err := oneSource(f.files, f.preset); err != nil {
		return err
	}
	if f.routes && f.preset != "" {
		return errors.New("--routes needs an experiment file with a [routing] section, not --preset")
	}
	if f.lft && (f.preset != "" || f.routes) {
		return errors.New("--lft needs an experiment file with a [routing] section, not --preset or --routes")
	}
	return nil
}

// topoExportCmd returns netsim topo export.
func topoExportCmd() *Command {
	var f topoExportFlags
	return &Command{
		Name:      "export",
		UsageLine: "netsim topo export (FILE.toml | --preset NAME) [-o OUT.dot] [--routes | --lft]",
		Short:     "write a network in the ORCS dot format",
		Long: `Writes the network of FILE.toml's [topology] section, or the named preset
(see netsim topo describe -h for the list), in the ORCS dot format
(seed 003): one edge per direction of every link, switches "S1", "S2", ...
and hosts "H1", "H2", ... (networks read from a file keep their names),
switch port numbers as srcport/dstport attributes. Only [topology] is read,
unless --routes is given. Flags may come before or after the file.
`,
		Flags: f.define,
		Run: func(_ context.Context, cmd *Command, ev env, files []string) int {
			f.files = files
			if err := f.check(); err != nil {
				return cmd.usageError(ev, err)
			}
			return topoExport(f, ev.stdout, ev.stderr)
		},
	}
}

// topoExport implements netsim topo export with the flags and file f.
func topoExport(f topoExportFlags, stdout, stderr io.Writer) int {
	var err error
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
			if tables, ok = routing.TablesOf(e.RoutingFunc()); !ok {
				fmt.Fprintf(stderr, "netsim topo export: --lft: routing %s has no forwarding tables (use minhop, dor on a topology without its own, updn, dnup, ftree, dmodk, sssp, p2sssp, dfsssp, lash, nue, torus-2QoS or file)\n", e.Routing)
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
	var buf bytes.Buffer
	if f.out != "" {
		w = &buf // written whole at the end (writeAtomic)
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
	if err == nil && f.out != "" {
		if err := writeAtomic(f.out, buf.Bytes()); err != nil {
			fmt.Fprintf(stderr, "netsim topo export: -o: %v\n", err)
			return exitUsage
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "netsim topo export: %v\n", err)
		return exitFailed
	}
	return exitOK
}
