// Command netsim runs interconnection-network simulation experiments
// described by TOML files and prints their results.
//
// Usage:
//
//	netsim run [FILE.toml ...] [-o DIR] [-j N] [--threads N|auto] [--json] [--dry-run] [-q] [--shard I/N] [--set SECTION.KEY=VALUE]... [--cpuprofile FILE]
//	netsim validate FILE.toml ... [--set SECTION.KEY=VALUE]...
//	netsim merge RESULTS.jsonl ... [-o OUT.jsonl] [--check FILE.toml]... [--set SECTION.KEY=VALUE]...
//	netsim slurm submit FILE.toml ... -o DIR --shards N [--partition P] [--time T] [--cpus-per-task C] [--mem M] [--account A] [--sbatch OPTION]... [--set SECTION.KEY=VALUE]... [--print] [--netsim EXECUTABLE]
//	netsim slurm status DIR
//	netsim slurm resubmit DIR
//	netsim trace convert DUMP ... -o OUT.trace [--from dumpi]
//	netsim trace info TRACE ...
//	netsim table RESULTS.jsonl ... [--rows KEYS] [--cols KEY] [--value V] [--format md|csv] [-o FILE]
//	netsim plot RESULTS.jsonl ... -o DIR [--by routing|pattern]
//	netsim congestion FILE.toml [--json] [--runs N] [-j N] [-o DIR] [--set SECTION.KEY=VALUE]...
//	netsim topo describe (FILE.toml | --preset NAME) [--json]
//	netsim topo export (FILE.toml | --preset NAME) [-o OUT.dot] [--routes | --lft]
//	netsim topo recover FILE [--as flatfly|dragonfly] [--json]
//	netsim check FILE.toml ... [-j N] [--set SECTION.KEY=VALUE]...
//	netsim load FILE.toml ... [--json] [-j N] [--set SECTION.KEY=VALUE]...
//	netsim bench [--case NAME,...] [--scale X] [--threads N] [--json]
//	netsim version
//	netsim help [COMMAND]
//
// Exit status: 0 on success, 1 when a simulation point failed (for
// example a deadlock), the run was interrupted, results could not be
// written, a merge found missing or conflicting points, netsim check found
// a channel dependency cycle, or netsim load found a routing that loses
// flows; 2 on bad input (usage, experiment or results files) before
// anything runs. "netsim help COMMAND" prints the help of a command.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"netsim/internal/sysmem"
)

func main() {
	// Ctrl-C, a batch scheduler's SIGTERM, or the terminal's SIGHUP stops
	// a run cleanly, loading included: the finished points stay in
	// results.jsonl.
	// The garbage collector works harder near what the process may use,
	// rather than letting the heap grow past it.
	if limit := sysmem.Limit(); limit > 0 {
		debug.SetMemoryLimit(limit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// commands returns netsim's commands, in the order of netsim help, whose
// overview ends with the help of the first. Each is built afresh: the
// variables its flags set belong to one command line.
func commands() []*Command {
	return []*Command{
		runCmd(),
		validateCmd(),
		mergeCmd(),
		slurmCmd(),
		traceCmd(),
		tableCmd(),
		plotCmd(),
		congestionCmd(),
		topoCmd(),
		checkCmd(),
		loadCmd(),
		benchCmd(),
		versionCmd(),
		helpCmd(),
	}
}

// netsimCmd returns netsim itself: the root of the commands, whose help is
// the overview netsim help prints.
func netsimCmd() *Command {
	return &Command{
		Name:      "netsim",
		UsageLine: "netsim COMMAND [ARGUMENTS]",
		Short:     "netsim simulates HPC interconnection networks flit by flit.",
		Long: `Exit status: 0 success; 1 a simulation point failed (e.g. deadlock), the
run was interrupted, results could not be written, merge found missing or
conflicting points, check found a dependency cycle, or load found a
routing that loses flows; 2 bad command line,
experiment or results file.
`,
		Commands: commands(),
	}
}
