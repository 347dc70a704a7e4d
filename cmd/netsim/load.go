package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"text/tabwriter"

	"netsim/experiments"
	"netsim/linkload"
)

// loadLong is the help of netsim load.
const loadLong = `Computes the channel load of each experiment file's routing (every variant
of a sweep) under each of its [traffic] patterns: the traffic each link
between two switches would carry if every host offered load 1 (a flit per
cycle), in link bandwidths. The busiest link's load L bounds what the
network sustains: no offered load above 1/L is stable. A flow takes the
highest-priority candidates the routing offers at each switch, an equal
share on each; a routing with one path per flow (parallel links to one
neighbour aside) gives exact loads and a true bound ("one path"). An
adaptive routing is counted as if it spread its traffic evenly over top
candidates leading to different switches ("spread") and kept off the
lower-priority ones it also offers (sideways, non-minimal, deflecting:
"detours"), which it takes when the others are busy: its numbers are
those of its preferred paths, not a bound.
Uniform traffic sends 1/N from every host to every host, as netsim run's
uniform pattern; the other patterns are fixed maps. Only [topology],
[routing], [flow_control] vls and [traffic] patterns matter, but the
whole file must be valid.

Exit status: 0 done; 1 a routing lost a flow (no candidate, a loop, the
wrong host: printed on stderr) or the command was interrupted; 2 bad
command line or experiment file, or a file without traffic patterns.
`

// loadCmd returns netsim load.
func loadCmd() *Command {
	var (
		asJSON bool
		jobs   int
		sets   []experiments.Override
	)
	return &Command{
		WatchesContext: true,
		Name:           "load",
		UsageLine:      "netsim load FILE.toml ... [--json] [-j N] [--set SECTION.KEY=VALUE]...",
		Short:          "channel load of routings under traffic patterns, and the saturation bound it sets",
		Long:           loadLong,
		Flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&asJSON, "json", false, "one JSON object per (experiment, pattern) per line: file, "+
				"experiment, variant, routing, topology, pattern, max_load, bound, busiest_links (how many), "+
				"spread, detours")
			fs.IntVar(&jobs, "j", 0, "walk uniform traffic on up to `N` goroutines (default: the number of CPUs); "+
				"the loads do not depend on N")
			defineSet(fs, &sets)
		},
		Run: func(ctx context.Context, cmd *Command, ev env, files []string) int {
			if code, done := experimentFiles(cmd, ev, files, jobs); done {
				return code
			}
			if jobs == 0 {
				jobs = runtime.NumCPU()
			}
			return loadCommand(ctx, files, sets, jobs, asJSON, ev.stdout, ev.stderr)
		},
	}
}

// loadLine is one line of netsim load --json.
type loadLine struct {
	File       string  `json:"file"`
	Experiment string  `json:"experiment"`
	Variant    string  `json:"variant,omitempty"`
	Routing    string  `json:"routing"`
	Topology   string  `json:"topology"`
	Pattern    string  `json:"pattern"`
	MaxLoad    float64 `json:"max_load"`
	Bound      float64 `json:"bound"`
	Busiest    int     `json:"busiest_links"`
	Spread     bool    `json:"spread"`
	Detours    bool    `json:"detours"`
}

// loadCommand implements netsim load of files with -j jobs (≥ 1) and
// --json asJSON.
func loadCommand(ctx context.Context, files []string, sets []experiments.Override, jobs int, asJSON bool, stdout, stderr io.Writer) int {
	exps, err := loadExperiments(ctx, files, sets)
	if code, ok := interruptedLoading(stderr, "netsim load", err); ok {
		return code
	}
	noPatterns := map[string]bool{}
	for _, e := range exps {
		if (len(e.Traffic.Patterns) == 0 || e.IsExchange() || e.IsWorkload()) && !noPatterns[e.File] {
			noPatterns[e.File] = true
			err = errors.Join(err, fmt.Errorf("%s: experiment %s has no traffic patterns to load the links with (an exchange, a workload or a congestion study; expected [traffic] pattern or patterns)", e.File, e.Name))
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	code := exitOK
	for _, e := range exps {
		code = max(code, loadExperiment(ctx, e, jobs, asJSON, stdout, stderr))
		if ctx.Err() != nil {
			return exitFailed
		}
	}
	return code
}

// loadExperiment prints the channel load of every pattern of e. It
// returns exitFailed if a pattern could not be walked, the output could
// not be written or ctx is done.
func loadExperiment(ctx context.Context, e *experiments.Experiment, jobs int, asJSON bool, stdout, stderr io.Writer) int {
	title := fmt.Sprintf("%s: %s on %s (%d hosts)", e.File, e.Routing, e.TopologyLabel(), e.Hosts())
	if e.Variant != "" {
		title = fmt.Sprintf("%s [%s]: %s on %s (%d hosts)", e.File, e.Variant, e.Routing, e.TopologyLabel(), e.Hosts())
	}
	if note := unreachableNote(e); note != "" {
		fmt.Fprintf(stderr, "netsim load: %s: %s; channel loads need every pair connected\n", title, note)
		return exitFailed
	}
	var tw *tabwriter.Writer
	if !asJSON {
		fmt.Fprintln(stdout, title)
		tw = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "pattern\tmax load\tbound %\tbusiest links\tpaths\t")
	}
	code := exitOK
	for i, name := range e.Traffic.Patterns {
		l := linkload.New(e.Network(), e.RoutingFunc(), e.FlowControl.VLs)
		if err := l.AddPattern(ctx, e.Pattern(i), jobs); err != nil {
			if ctx.Err() != nil {
				if tw != nil {
					tw.Flush() // the patterns done
				}
				fmt.Fprintf(stderr, "netsim load: interrupted\n")
				return exitFailed
			}
			fmt.Fprintf(stderr, "%s: %v\n", title, err)
			code = exitFailed
			continue
		}
		if asJSON {
			b, err := json.Marshal(loadLine{
				File: e.File, Experiment: e.Name, Variant: e.Variant, Routing: e.Routing,
				Topology: e.TopologyLabel(), Pattern: name, MaxLoad: l.Max(), Bound: l.Bound(),
				Busiest: len(l.Busiest()), Spread: l.Spread(), Detours: l.Detours(),
			})
			if err == nil {
				_, err = fmt.Fprintf(stdout, "%s\n", b)
			}
			if err != nil {
				fmt.Fprintf(stderr, "netsim: %v\n", err)
				return exitFailed
			}
			continue
		}
		paths := "one path"
		switch {
		case l.Spread() && l.Detours():
			paths = "spread, detours"
		case l.Spread():
			paths = "spread"
		case l.Detours():
			paths = "detours"
		}
		fmt.Fprintf(tw, "%s\t%.4f\t%.1f\t%d\t%s\t\n", name, l.Max(), 100*l.Bound(), len(l.Busiest()), paths)
	}
	if tw != nil {
		if err := tw.Flush(); err != nil {
			fmt.Fprintf(stderr, "netsim: %v\n", err)
			return exitFailed
		}
	}
	return code
}
