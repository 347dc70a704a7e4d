package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"netsim/experiments/report"
)

// plotUsage describes netsim plot.
const plotUsage = `netsim plot RESULTS.jsonl ... -o DIR [--by routing|pattern]

Draws charts of results files (the JSON lines of netsim run --json or -o)
into DIR (created if needed), each as NAME.png and NAME.svg, and prints
the paths written:

  throughput-TOPOLOGY-PATTERN   accepted against offered load, one line per
                                routing, with the ideal y = x
  latency-TOPOLOGY-PATTERN      average (solid) and 99th-percentile (dashed)
                                latency against offered load, log scale
  saturation-TOPOLOGY           saturation per pattern, one bar per routing
  ebb-PATTERN                   exchanges (seed 001 Figure 6): average
                                effective bisection bandwidth against hosts,
                                one line per dispersion, bars min to max

  -o DIR         the directory to write to (required)
  --by pattern   one line per pattern instead, one chart per topology and
                 routing (throughput-TOPOLOGY-ROUTING, latency-...)

Results that differ in another field (vls, say) get separate lines or
bars named after it. Failed points are skipped with a note on stderr.

Exit status: 0 written; 1 a file could not be written; 2 bad command line,
unreadable or malformed results (FILE:LINE: what is wrong), or nothing to
plot.
`

// plotFlags are the options of netsim plot.
type plotFlags struct {
	out, by string
	files   []string
}

// parsePlotFlags parses args, allowing flags before and after the files.
func parsePlotFlags(args []string) (plotFlags, error) {
	var f plotFlags
	fs := flag.NewFlagSet("netsim plot", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.out, "o", "", "write the charts to `DIR`")
	fs.StringVar(&f.by, "by", "routing", "one line per `routing|pattern`")
	files, err := parseArgs(fs, args)
	if err != nil {
		return f, err
	}
	f.files = files
	switch {
	case len(files) == 0:
		return f, errors.New("need at least one results file")
	case f.out == "":
		return f, errors.New("-o DIR is required")
	case f.by != "routing" && f.by != "pattern":
		return f, fmt.Errorf("--by: unknown %q (expected routing or pattern)", f.by)
	}
	return f, nil
}

// plotCommand implements netsim plot.
func plotCommand(args []string, stdout, stderr io.Writer) int {
	f, err := parsePlotFlags(args)
	if code, done := flagsDone(err, "netsim plot", plotUsage, stdout, stderr); done {
		return code
	}
	results, ok := readResults("netsim plot", f.files, stderr)
	if !ok {
		return exitUsage
	}
	figs, err := report.Figures(results, f.by)
	if err != nil {
		fmt.Fprintf(stderr, "netsim plot: %v\n", err)
		return exitUsage
	}
	if len(figs) == 0 {
		fmt.Fprintln(stderr, "netsim plot: nothing to plot (no point, saturation or ebb results)")
		return exitUsage
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		fmt.Fprintf(stderr, "netsim plot: -o: %v\n", err)
		return exitUsage
	}
	paths, err := report.WriteFigures(f.out, figs)
	for _, p := range paths {
		fmt.Fprintln(stdout, p)
	}
	if err != nil {
		fmt.Fprintf(stderr, "netsim plot: %v\n", err)
		return exitFailed
	}
	return exitOK
}
