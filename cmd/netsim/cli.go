package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
)

// Exit statuses.
const (
	exitOK     = 0 // everything ran and was written
	exitFailed = 1 // a point failed, the run was interrupted, or results could not be written
	exitUsage  = 2 // bad command line, experiment or results file; nothing ran
)

// run executes the command line args (without the program name) and
// returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runEnv(ctx, env{stdout: stdout, stderr: stderr}, args)
}

// runEnv is run in the environment ev.
func runEnv(ctx context.Context, ev env, args []string) int {
	stdout, stderr := ev.stdout, ev.stderr
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "run":
		return runCommand(ctx, ev, args[1:])
	case "validate":
		return validateCommand(args[1:], stdout, stderr)
	case "merge":
		return mergeCommand(args[1:], stdout, stderr)
	case "topo":
		return topoCommand(args[1:], stdout, stderr)
	case "table":
		return tableCommand(args[1:], stdout, stderr)
	case "plot":
		return plotCommand(args[1:], stdout, stderr)
	case "congestion":
		return congestionCommand(ctx, args[1:], stdout, stderr)
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
	case "validate":
		fmt.Fprint(stdout, validateUsage)
	case "merge":
		fmt.Fprint(stdout, mergeUsage)
	case "topo":
		fmt.Fprint(stdout, topoUsage)
	case "table":
		fmt.Fprint(stdout, tableUsage)
	case "plot":
		fmt.Fprint(stdout, plotUsage)
	case "congestion":
		fmt.Fprint(stdout, congestionUsage)
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

// parseArgs parses args with fs, allowing flags before, between and after
// the positional arguments, which it returns in order; every argument after
// "--" is positional, even one starting with "-".
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var tail, pos []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, tail = args[:i], args[i+1:]
	}
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	return append(pos, tail...), nil
}
