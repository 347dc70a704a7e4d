package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"netsim/experiments"
)

// maxListed bounds the points listed per kind of problem in merge's report.
const maxListed = 20

// mergeCommand implements netsim merge: it combines results files (the
// shards of a run) into one, each point once, and reports duplicated,
// conflicting and — with --check — missing and foreign points.
func mergeCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("netsim merge", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var outPath string
	var checks []string
	fs.StringVar(&outPath, "o", "", "write the merged results to `FILE` (default: stdout)")
	fs.Func("check", "experiment `FILE.toml` the shards ran (repeat for several)", func(s string) error {
		if s == "" {
			return errors.New("empty value (expected FILE.toml)")
		}
		checks = append(checks, s)
		return nil
	})
	inputs, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, mergeUsage)
		return exitOK
	}
	if err == nil && len(inputs) == 0 {
		err = errors.New("no results file given")
	}
	if err != nil {
		fmt.Fprintf(stderr, "netsim merge: %v\n\n%s", err, mergeUsage)
		return exitUsage
	}
	var exps []*experiments.Experiment
	if len(checks) > 0 {
		if exps, err = experiments.LoadAll(checks); err != nil {
			fmt.Fprintln(stderr, err)
			return exitUsage
		}
	}
	problems := false
	var lines []experiments.ResultLine
	for _, in := range inputs {
		f, err := os.Open(in)
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
		err = os.WriteFile(outPath, b.Bytes(), 0o644)
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
