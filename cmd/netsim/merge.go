package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"netsim/experiments"
	"netsim/internal/fileio"
)

// maxListed bounds the points listed per kind of problem in merge's report.
const maxListed = 20

// mergeFlags are the options of netsim merge.
type mergeFlags struct {
	out    string
	checks []string
	sets   []experiments.Override
}

// define defines the flags of netsim merge on fs, bound to f.
func (f *mergeFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.out, "o", "", "write the merged results to `FILE` (default: stdout)")
	fs.Func("check", "experiment `FILE.toml` the shards ran (repeat for several): "+
		"order the lines as the unsharded run writes them and report the points missing "+
		"from every input, or not of these files", func(s string) error {
		if s == "" {
			return errors.New("empty value (expected FILE.toml)")
		}
		f.checks = append(f.checks, s)
		return nil
	})
	defineSet(fs, &f.sets)
}

// mergeCmd returns netsim merge.
func mergeCmd() *Command {
	var f mergeFlags
	return &Command{
		Name:      "merge",
		UsageLine: "netsim merge RESULTS.jsonl ... [-o OUT.jsonl] [--check FILE.toml]... [--set SECTION.KEY=VALUE]...",
		Short:     "combine the results of shards, reporting missing or duplicated points",
		Long: `Combines results files, typically the results.jsonl of the shards of one
run (netsim run --shard I/N), into one with every point once, on stdout or
in OUT.jsonl. Identical duplicate lines are left out; conflicting ones are
reported (the first is kept). Lines are sorted by experiment, variant,
pattern and load; with --check (the experiment files the shards ran,
repeated for several) they come in the order the unsharded run writes
them, and points missing from every input, or not of these files, are
reported. Exits with status 1 on conflicting, missing or foreign points or
a half-written line, 2 on a bad command line or unreadable input.
`,
		Flags: f.define,
		Run: func(_ context.Context, cmd *Command, ev env, inputs []string) int {
			if len(inputs) == 0 {
				return cmd.usageError(ev, errors.New("no results file given"))
			}
			return mergeCommand(f, inputs, ev.stdout, ev.stderr)
		},
	}
}

// mergeCommand implements netsim merge: it combines results files (the
// shards of a run) into one, each point once, and reports duplicated,
// conflicting and — with --check — missing and foreign points.
func mergeCommand(opts mergeFlags, inputs []string, stdout, stderr io.Writer) int {
	outPath, checks := opts.out, opts.checks
	var err error
	var exps []*experiments.Experiment
	if len(checks) > 0 {
		if exps, err = experiments.LoadAll(checks, opts.sets...); err != nil {
			fmt.Fprintln(stderr, err)
			return exitUsage
		}
	}
	problems := false
	var lines []experiments.ResultLine
	for _, in := range inputs {
		f, err := fileio.Open(in, fileio.MaxTables)
		if err != nil {
			fmt.Fprintf(stderr, "netsim merge: %v\n", err)
			return exitUsage
		}
		ls, torn, err := experiments.ReadResults(f, in)
		f.Close()
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitUsage
		}
		if torn >= 0 {
			fmt.Fprintf(stderr, "netsim merge: %s: half-written last line left out (rerun that shard to complete it)\n", in)
			problems = true
		}
		lines = append(lines, ls...)
	}
	merged, rep, err := experiments.Merge(lines, exps)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	var b bytes.Buffer
	for _, l := range merged {
		b.Write(l)
		b.WriteByte('\n')
	}
	if outPath == "" {
		_, err = stdout.Write(b.Bytes())
	} else {
		err = writeAtomic(outPath, b.Bytes())
	}
	if err != nil {
		fmt.Fprintf(stderr, "netsim merge: %v\n", err)
		return exitFailed
	}
	if n := len(rep.Duplicates); n > 0 {
		d := rep.Duplicates[0]
		fmt.Fprintf(stderr, "netsim merge: %d duplicate line(s) left out, the first %s:%d (point %s)\n", n, d.Source, d.Line, d.Point)
	}
	for _, c := range rep.Conflicts {
		fmt.Fprintf(stderr, "netsim merge: %s:%d: point %s differs from an earlier line of it (the earlier one is kept)\n", c.Source, c.Line, c.Point)
	}
	listPoints(stderr, "missing point", rep.Missing)
	listPoints(stderr, "not a point of the experiment files (kept at the end)", rep.Foreign)
	if outPath != "" {
		fmt.Fprintf(stderr, "netsim merge: %d line(s) from %d file(s) written to %s\n", len(merged), len(inputs), outPath)
	}
	if problems || rep.Problems() {
		return exitFailed
	}
	return exitOK
}

// listPoints reports keys, one line each up to maxListed, then a count.
func listPoints(w io.Writer, what string, keys []string) {
	for i, k := range keys {
		if i == maxListed {
			fmt.Fprintf(w, "netsim merge: … and %d more\n", len(keys)-maxListed)
			break
		}
		fmt.Fprintf(w, "netsim merge: %s: %s\n", what, k)
	}
}
