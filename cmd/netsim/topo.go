package main

import (
	"fmt"
	"io"
)

// topoCommand implements netsim topo SUBCOMMAND.
func topoCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "netsim topo: missing subcommand\n\n%s", topoUsage)
		return exitUsage
	}
	switch args[0] {
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
