package main

import (
	"context"
	"fmt"
	"io"
)

// Exit statuses.
const (
	exitOK     = 0 // everything ran and was written
	exitFailed = 1 // a point failed, or results could not be written
	exitUsage  = 2 // bad command line or experiment file; nothing ran
)

// run executes the command line args (without the program name) and
// returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "run":
		return runCommand(ctx, args[1:], stdout, stderr)
	case "topo":
		return topoCommand(args[1:], stdout, stderr)
	case "check":
		return checkCommand(ctx, args[1:], stdout, stderr)
	case "version":
		if len(args) > 1 {
			fmt.Fprintf(stderr, "netsim: version takes no arguments, got %q\n", args[1:])
			return exitUsage
		}
		fmt.Fprintln(stdout, versionString())
		return exitOK
	case "help", "-h", "-help", "--help":
		return helpCommand(args[1:], stdout, stderr)
	default:
		fmt.Fprintf(stderr, "netsim: unknown command %q\n\n%s", args[0], usage)
		return exitUsage
	}
}

// helpCommand prints the usage of the command named in args, or of all.
func helpCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	switch args[0] {
	case "run":
		fmt.Fprint(stdout, runUsage)
	case "topo":
		fmt.Fprint(stdout, topoUsage)
	case "check":
		fmt.Fprint(stdout, checkUsage)
	case "version":
		fmt.Fprint(stdout, versionUsage)
	case "help":
		fmt.Fprint(stdout, usage)
	default:
		fmt.Fprintf(stderr, "netsim: unknown help topic %q\n\n%s", args[0], usage)
		return exitUsage
	}
	return exitOK
}
