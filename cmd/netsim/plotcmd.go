package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"netsim/experiments/report"
)

// plotLong is the help of netsim plot.
const plotLong = `Draws charts of results files (the JSON lines of netsim run --json or -o)
into DIR (created if needed), each as NAME.png and NAME.svg, and prints
the paths written:

  throughput-TOPOLOGY-PATTERN   accepted against offered load, one line per
                                routing, with the ideal y = x
  latency-TOPOLOGY-PATTERN      average (solid) and 99th-percentile (dashed)
                                latency against offered load, log scale
  saturation-TOPOLOGY           saturation per pattern, one bar per routing
  cdf-TOPOLOGY-PATTERN-ROUTING  latency CDF, one line per load, log scale
                                (points written with [sim]
                                latency_distribution = true)
  timeline-TOPOLOGY-PATTERN-ROUTING
                                accepted load over the run, one line per
                                load (points written with [sim] timeline)
  ebb-PATTERN                   exchanges (seed 001 Figure 6): average
                                effective bisection bandwidth against hosts,
                                one line per dispersion, bars min to max

Points not stable (unstable or undecided) are drawn as hollow rings on the
throughput and latency charts, and the load a saturation search found is
framed by a square, with legend entries saying so; titles name the
network's hosts, VLs and packet size. The replications of [sim]
replications are drawn as their means with 95 % intervals. Results
that differ in another field (vls, say) get separate lines or bars named
after it. Failed points are skipped with a note on stderr.

Exit status: 0 written; 1 a file could not be written; 2 bad command line,
unreadable or malformed results (FILE:LINE: what is wrong), or nothing to
plot.
`

// plotFlags are the options of netsim plot.
type plotFlags struct {
	out, by string
	files   []string
}

// define defines the flags of netsim plot on fs, bound to f.
func (f *plotFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.out, "o", "", "write the charts to `DIR` (required)")
	fs.StringVar(&f.by, "by", "routing", "one line per `routing|pattern`: per routing, the charts above; "+
		"per pattern, one chart per topology and routing instead (throughput-TOPOLOGY-ROUTING, latency-...)")
}

// check checks the files and flags of netsim plot.
func (f *plotFlags) check() error {
	switch {
	case len(f.files) == 0:
		return errors.New("need at least one results file")
	case f.out == "":
		return errors.New("-o DIR is required")
	case f.by != "routing" && f.by != "pattern":
		return fmt.Errorf("--by: unknown %q (expected routing or pattern)", f.by)
	}
	return nil
}

// plotCmd returns netsim plot.
func plotCmd() *Command {
	var f plotFlags
	return &Command{
		Name:      "plot",
		UsageLine: "netsim plot RESULTS.jsonl ... -o DIR [--by routing|pattern]",
		Short:     "draw throughput, latency, saturation and EBB charts (PNG and SVG)",
		Long:      plotLong,
		Flags:     f.define,
		Run: func(_ context.Context, cmd *Command, ev env, files []string) int {
			f.files = files
			if err := f.check(); err != nil {
				return cmd.usageError(ev, err)
			}
			return plotCommand(f, ev.stdout, ev.stderr)
		},
	}
}

// plotCommand implements netsim plot with the flags and files f.
func plotCommand(f plotFlags, stdout, stderr io.Writer) int {
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
