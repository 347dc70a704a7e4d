package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"netsim/experiments/report"
)

// tableLong is the help of netsim table.
const tableLong = `Pivots results files (the JSON lines of netsim run --json or -o) into one
table. By default saturation results make seed 004's table: one row per
topology and routing, one column per pattern (uniform, complement,
reverse, rotation, shuffle, transpose, then others alphabetically), values
in % of link bandwidth. Files without saturation results give accepted
load per (topology, routing, pattern), one column per offered load.
Exchange results ("kind":"ebb") give the average effective bisection
bandwidth per pattern and dispersion, one column per host count; for one
host count and several probabilities (seed 001's parameter study), one
row per threshold and one column per probability. Rows and columns are
sorted (patterns, routings and topology families in seed 004's order,
numbers by value, text in natural order), so the output does not depend
on line order.

Markdown rounds values for reading and shows empty cells as "—"; CSV keeps
the precision of the results and leaves empty cells empty. A point none of
whose measured packets was delivered (far past saturation) has no latency
or hops: an empty cell, not the 0 its line holds. Lines of failed
points ("kind":"error") are skipped with a note on stderr, and so is an
incomplete last line. When results that differ in some field fall in one
cell (two experiments that differ only in vls, say), the default rows get
that field as an extra column; with --rows given, that is an error naming
both lines and the fields they differ in.

Exit status: 0 written; 1 the output could not be written; 2 bad command
line, unreadable or malformed results (FILE:LINE: what is wrong), or
nothing to tabulate.
`

// tableFlags are the options of netsim table.
type tableFlags struct {
	rows, cols, value, format, out string
	files                          []string
}

// define defines the flags of netsim table on fs, bound to f.
func (f *tableFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.rows, "rows", "", "comma-separated fields (`KEYS`) making a row (default: topology, "+
		"routing, and for points pattern and offered, less --cols); any field of the results lines may be named")
	fs.StringVar(&f.cols, "cols", "", "the field (`KEY`) whose values make the columns (default: pattern "+
		`for saturation, offered for points; "load" = offered)`)
	fs.StringVar(&f.value, "value", "", "what the cells hold (`VALUE`): "+strings.Join(report.Values(), ", ")+
		" (default: saturation if the files have saturation results, else accepted if they have points, else avg for exchanges, else completion_us for workloads)")
	fs.StringVar(&f.format, "format", "", "the output format, `md or csv`: md (markdown) by default, csv "+
		"when -o ends in .csv")
	fs.StringVar(&f.out, "o", "", "write the table to `FILE` instead of stdout")
}

// check checks the files and flags of netsim table, and chooses the
// format when --format is not given.
func (f *tableFlags) check() error {
	if len(f.files) == 0 {
		return errors.New("need at least one results file")
	}
	if f.format == "" {
		f.format = "md"
		if strings.EqualFold(filepath.Ext(f.out), ".csv") {
			f.format = "csv"
		}
	}
	if f.format != "md" && f.format != "csv" {
		return fmt.Errorf("--format: unknown format %q (expected md or csv)", f.format)
	}
	return nil
}

// tableCmd returns netsim table.
func tableCmd() *Command {
	var f tableFlags
	return &Command{
		Name:      "table",
		UsageLine: "netsim table RESULTS.jsonl ... [--rows KEYS] [--cols KEY] [--value V] [--format md|csv] [-o FILE]",
		Short:     "pivot results into a markdown or CSV table (saturation per pattern, ...)",
		Long:      tableLong,
		Flags:     f.define,
		Run: func(_ context.Context, cmd *Command, ev env, files []string) int {
			f.files = files
			if err := f.check(); err != nil {
				return cmd.usageError(ev, err)
			}
			return tableCommand(f, ev.stdout, ev.stderr)
		},
	}
}

// tableCommand implements netsim table with the flags and files f.
func tableCommand(f tableFlags, stdout, stderr io.Writer) int {
	results, ok := readResults("netsim table", f.files, stderr)
	if !ok {
		return exitUsage
	}
	spec := report.Spec{Value: f.value, Cols: f.cols, Extend: f.rows == ""}
	if f.rows != "" {
		for _, k := range strings.Split(f.rows, ",") {
			spec.Rows = append(spec.Rows, strings.TrimSpace(k))
		}
	}
	t, err := report.Pivot(results, spec)
	if err != nil {
		fmt.Fprintf(stderr, "netsim table: %v\n", err)
		return exitUsage
	}
	var b bytes.Buffer
	if f.format == "csv" {
		err = t.WriteCSV(&b)
	} else {
		err = t.WriteMarkdown(&b)
	}
	if err == nil {
		if f.out != "" {
			err = writeAtomic(f.out, b.Bytes())
		} else {
			_, err = stdout.Write(b.Bytes())
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "netsim table: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// readResults reads results files for command cmd, printing notes (an
// incomplete last line, failed points skipped) and errors on stderr; it
// reports false when a file cannot be read or has a malformed line.
func readResults(cmd string, files []string, stderr io.Writer) ([]report.Result, bool) {
	results, notes, err := report.ReadFiles(files)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
		return nil, false
	}
	for _, n := range notes {
		fmt.Fprintf(stderr, "%s: note: %s\n", cmd, n)
	}
	failed := 0
	for _, r := range results {
		if r.Kind == report.KindError {
			failed++
		}
	}
	if failed > 0 {
		fmt.Fprintf(stderr, "%s: note: %d failed point(s) (\"kind\":\"error\" lines) skipped\n", cmd, failed)
	}
	return results, true
}
