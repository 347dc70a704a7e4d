package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"netsim/experiments"
)

// validateCmd returns netsim validate.
func validateCmd() *Command {
	var sets []experiments.Override
	return &Command{
		Name:      "validate",
		UsageLine: "netsim validate FILE.toml ... [--set SECTION.KEY=VALUE]...",
		Short:     "check experiment files without running them",
		Long: `Reads, checks and builds each experiment file as netsim run would, without
simulating, and prints "FILE: ok (N points, M saturation searches)" (the
lines --dry-run lists, by kind; a search tests several loads; "K
exchanges" for bisection exchanges; ", V variants" when the file sweeps
keys; "a congestion study" for a file with [congestion] and no
[traffic]) or every problem as FILE:LINE: [section] key: what is wrong
(expected ...).
Exits with status 2 if any file has a problem.
`,
		Flags: func(fs *flag.FlagSet) { defineSet(fs, &sets) },
		Run: func(_ context.Context, cmd *Command, ev env, files []string) int {
			if len(files) == 0 {
				return cmd.usageError(ev, errors.New("no experiment file given"))
			}
			return validateCommand(files, sets, ev.stdout, ev.stderr)
		},
	}
}

// validateCommand implements netsim validate: every file is read, checked
// and built as netsim run would (network, routing, patterns, flow
// control), nothing is simulated. It prints "FILE: ok (N points, M
// saturation searches, V variants)" for a good file (see planCounts), "ok
// (a congestion study ...)" for a file without [traffic], or the file's
// problems; the status is 2 if any file has one.
func validateCommand(files []string, sets []experiments.Override, stdout, stderr io.Writer) int {
	code := exitOK
	if err := experiments.DistinctFiles(files); err != nil {
		fmt.Fprintln(stderr, err)
		code = exitUsage
	}
	var all []*experiments.Experiment
	for _, file := range files {
		exps, err := experiments.LoadFile(file, sets...)
		if err != nil {
			fmt.Fprintln(stderr, err)
			code = exitUsage
			continue
		}
		all = append(all, exps...)
		if len(exps[0].Traffic.Patterns) == 0 {
			fmt.Fprintf(stdout, "%s: ok (a congestion study for netsim congestion; no [traffic] for netsim run)\n", file)
			continue
		}
		parts := planCounts(experiments.Plan(exps))
		if len(exps) > 1 {
			parts = append(parts, fmt.Sprintf("%d variants", len(exps)))
		}
		fmt.Fprintf(stdout, "%s: ok (%s)\n", file, strings.Join(parts, ", "))
	}
	if err := experiments.UniqueNames(all); err != nil {
		fmt.Fprintln(stderr, err)
		code = exitUsage
	}
	return code
}

// planCounts counts the lines --dry-run would list for tasks, by kind:
// "N points" (listed loads), "N saturation searches" (each tests several
// loads, how many depends on the results), "N exchanges" and "N
// workloads", leaving out
// the kinds with none ("0 points" when there is nothing at all).
func planCounts(tasks []experiments.Task) []string {
	var points, searches, exchanges, workloads int
	for _, t := range tasks {
		switch {
		case t.Exchange:
			exchanges++
		case t.Workload:
			workloads++
		case t.Search:
			searches++
		default:
			points++
		}
	}
	var parts []string
	if points > 0 || searches == 0 && exchanges == 0 && workloads == 0 {
		parts = append(parts, plural(points, "point", "points"))
	}
	if searches > 0 {
		parts = append(parts, plural(searches, "saturation search", "saturation searches"))
	}
	if exchanges > 0 {
		parts = append(parts, plural(exchanges, "exchange", "exchanges"))
	}
	if workloads > 0 {
		parts = append(parts, plural(workloads, "workload", "workloads"))
	}
	return parts
}

// plural returns n followed by one or many, as n asks.
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
