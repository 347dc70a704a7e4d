package main

import (
	"fmt"
	"io"
)

// topoUsage describes netsim topo.
const topoUsage = `netsim topo SUBCOMMAND ...

Works on topologies without simulating them.

  netsim topo describe (FILE.toml | --preset NAME) [--json]
        print a network's size, diameter, distances and bisection
  netsim topo export (FILE.toml | --preset NAME) [-o OUT.dot] [--routes | --lft]
        write a network in the ORCS dot format
  netsim topo recover FILE [--as flatfly|dragonfly] [--json]
        recover FlatFly coordinates or Dragonfly groups from a link list

Run "netsim help topo" or "netsim topo SUBCOMMAND -h" for details.

` + topoDescribeUsage + "\n" + topoExportUsage + "\n" + topoRecoverUsage

// topoCommand implements netsim topo: it dispatches on the subcommand.
func topoCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "netsim topo: missing subcommand\n\n%s", topoUsage)
		return exitUsage
	}
	switch args[0] {
	case "describe":
		return topoDescribe(args[1:], stdout, stderr)
	case "export":
		return topoExportCommand(args[1:], stdout, stderr)
	case "recover":
		return topoRecover(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, topoUsage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "netsim topo: unknown subcommand %q\n\n%s", args[0], topoUsage)
		return exitUsage
	}
}
