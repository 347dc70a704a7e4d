package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"netsim/experiments"
	"netsim/internal/fileio"
)

// dryRun implements netsim run --dry-run: it lists the tasks of the run
// (of its shard), one line each — experiment, variant ("-" without
// sweeps), pattern, load, "saturation search" or "exchange" — and, with -o, marks
// "done" those whose results DIR/results.jsonl already holds. Nothing is
// simulated or written.
func dryRun(f runFlags, exps []*experiments.Experiment, stdout, stderr io.Writer) int {
	var store *experiments.Store
	if f.outDir != "" {
		path := filepath.Join(f.outDir, "results.jsonl")
		data, err := fileio.ReadFile(path, fileio.MaxTables)
		if err == nil {
			lines, _, err := experiments.ReadResults(bytes.NewReader(data), path)
			if err == nil {
				store, err = experiments.NewStore(exps, lines)
			}
			if err != nil {
				fmt.Fprintln(stderr, err)
				return exitUsage
			}
		}
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, t := range f.shard.Select(experiments.Plan(exps)) {
		variant := t.Experiment.Variant
		if variant == "" {
			variant = "-"
		}
		what := fmt.Sprint(t.Load)
		switch {
		case t.Search:
			what = "saturation search"
		case t.Exchange:
			what = "exchange"
		case t.Workload:
			what = "workload"
		}
		done := ""
		if store.Has(t.Key()) {
			done = "\tdone"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s%s\n", t.Experiment.Name, variant, t.PatternName(), what, done)
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(stderr, "netsim: %v\n", err)
		return exitFailed
	}
	return exitOK
}
