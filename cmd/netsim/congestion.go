package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"netsim/congestion"
	"netsim/experiments"
)

// congestionLong is the help of netsim congestion.
const congestionLong = `Runs the congestion study of the file's [congestion] section (the ORCS
model of seed 003): each routing of [routing] algorithm (a list compares
several) is reduced to one path per host pair, then every pattern is
mapped onto the hosts at random runs times and the congestion of its
streams is reduced by the metrics sum_max_cong, hist_max_cong,
hist_acc_band (the effective bisection bandwidth Λ for bisect patterns)
and dep_max_delay. Prints a table, with each routing's edge-forwarding
index π, the virtual layers it needs and the VLs its paths use.

Exit status: 0 done; 1 a routing could not be reduced to paths, or a file
could not be written; 2 bad command line or experiment file, or an -o
directory that cannot be created (nothing ran).
`

// congestionFlags are the options of netsim congestion.
type congestionFlags struct {
	json       bool
	runs, jobs int
	out, file  string
	sets       []experiments.Override
}

// define defines the flags of netsim congestion on fs, bound to f.
func (f *congestionFlags) define(fs *flag.FlagSet) {
	fs.BoolVar(&f.json, "json", false, "one JSON object per (routing, pattern, metric) per line")
	fs.IntVar(&f.runs, "runs", 0, "override [congestion] runs with `N`")
	fs.IntVar(&f.jobs, "j", 0, "run up to `N` runs at once (default: the number of CPUs); results do not depend on N")
	fs.StringVar(&f.out, "o", "", "also write `DIR`/cable-ROUTING-PATTERN.dot (the cable congestion map, "+
		"edges coloured green to red) and DIR/hist_acc_band-PATTERN.png (distribution over runs, "+
		"one line per routing)")
	defineSet(fs, &f.sets)
}

// check checks the file and flags of netsim congestion (fs holds them
// parsed) and sets -j 0 to the number of CPUs.
func (f *congestionFlags) check(fs *flag.FlagSet, files []string) error {
	switch {
	case len(files) != 1:
		return fmt.Errorf("need exactly one experiment file, got %d", len(files))
	case f.runs < 0 || f.runs == 0 && given(fs, "runs") || f.runs > congestion.MaxRuns:
		return fmt.Errorf("--runs: %d is out of range (expected 1..%d)", f.runs, congestion.MaxRuns)
	case f.jobs < 0:
		return fmt.Errorf("-j: %d, need at least 1", f.jobs)
	}
	if f.jobs == 0 {
		f.jobs = runtime.GOMAXPROCS(0)
	}
	f.file = files[0]
	return nil
}

// congestionCmd returns netsim congestion.
func congestionCmd() *Command {
	var f congestionFlags
	return &Command{
		WatchesContext: true,
		Name:           "congestion",
		UsageLine:      "netsim congestion FILE.toml [--json] [--runs N] [-j N] [-o DIR] [--set SECTION.KEY=VALUE]...",
		Short:          "congestion model of oblivious routings (ORCS): Λ, π, cable map",
		Long:           congestionLong,
		Flags:          f.define,
		Run: func(ctx context.Context, cmd *Command, ev env, files []string) int {
			if err := f.check(cmd.flagSet(), files); err != nil {
				return cmd.usageError(ev, err)
			}
			return congestionCommand(ctx, f, ev.stdout, ev.stderr)
		},
	}
}

// congestionLine is one JSON line of netsim congestion.
type congestionLine struct {
	Experiment string `json:"experiment"`
	Topology   string `json:"topology"`
	congestion.Result
}

// congestionCommand implements netsim congestion with the flags and file f.
func congestionCommand(ctx context.Context, f congestionFlags, stdout, stderr io.Writer) int {
	exps, err := interruptible(ctx, func() ([]*experiments.Experiment, error) { return experiments.LoadFile(f.file, f.sets...) })
	if code, ok := interruptedLoading(stderr, "netsim congestion", err); ok {
		return code
	}
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return exitUsage
	}
	if exps[0].Congestion == nil {
		fmt.Fprintf(stderr, "%s: no [congestion] section (netsim congestion needs one; see netsim help congestion)\n", f.file)
		return exitUsage
	}
	if f.out != "" {
		if err := os.MkdirAll(f.out, 0o755); err != nil {
			fmt.Fprintf(stderr, "netsim congestion: %v\n", err)
			return exitUsage
		}
	}
	spec := *exps[0].Congestion
	if f.runs > 0 {
		spec.Runs = f.runs
	}
	enc := json.NewEncoder(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	plots := map[string][]congestion.Series{} // pattern → one series per routing
	var patternOrder []string
	for _, e := range exps {
		t0 := time.Now()
		if pairs, _ := e.Unreachable(0); pairs > 0 {
			fmt.Fprintf(stderr, "netsim congestion: %s: the routing's tables leave %d pairs of hosts unreachable ([routing] unreachable = \"skip\"); congestion metrics need every pair connected\n", e.DisplayName(), pairs)
			return exitFailed
		}
		paths, err := congestion.Extract(e.RoutingFunc(), e.Network(), spec.Policy, f.jobs)
		if err != nil {
			fmt.Fprintf(stderr, "netsim congestion: %s: %v\n", e.DisplayName(), err)
			return exitFailed
		}
		fmt.Fprintf(stderr, "%s: %s, routing %s: paths of %d hosts in %.2f s\n",
			e.DisplayName(), e.TopologyLabel(), e.Routing, paths.Hosts(), time.Since(t0).Seconds())
		if !f.json {
			fmt.Fprintf(stdout, "\n%s, routing %s: π = %d, layers %d (VLs in use %d), %d of %d hosts\n", e.TopologyLabel(), e.Routing,
				paths.ForwardingIndex(), paths.Layers(), paths.VLsUsed(), spec.Ranks(paths.Hosts()), paths.Hosts())
			fmt.Fprintln(tw, "pattern\tmetric\tmean\tmin\tmax\truns\t")
		}
		for _, pattern := range spec.Patterns {
			t1 := time.Now()
			st, err := congestion.Run(ctx, paths, &spec, pattern, f.jobs)
			if err != nil {
				fmt.Fprintf(stderr, "netsim congestion: %s: %v\n", e.DisplayName(), err)
				return exitFailed
			}
			fmt.Fprintf(stderr, "  %s: %d runs in %.2f s\n", spec.PatternLabel(pattern), spec.Runs, time.Since(t1).Seconds())
			for _, r := range st.Results {
				if f.json {
					if err := enc.Encode(congestionLine{e.Name, e.TopologyLabel(), r}); err != nil {
						return exitFailed
					}
				} else {
					fmt.Fprintf(tw, "%s\t%s\t%.4g\t%.4g\t%.4g\t%d\t\n", r.Pattern, r.Metric, r.Mean, r.Min, r.Max, r.Runs)
				}
				if r.Metric == congestion.HistAccBand {
					if _, ok := plots[r.Pattern]; !ok {
						patternOrder = append(patternOrder, r.Pattern)
					}
					plots[r.Pattern] = append(plots[r.Pattern], congestion.Series{Label: seriesLabel(e), Values: r.Values})
				}
			}
			if f.out != "" {
				name := filepath.Join(f.out, "cable-"+fileSafe(seriesLabel(e))+"-"+fileSafe(spec.PatternLabel(pattern))+".dot")
				if err := writeCable(name, paths, st.Cable); err != nil {
					fmt.Fprintf(stderr, "netsim congestion: %v\n", err)
					return exitFailed
				}
				fmt.Fprintln(stderr, "  wrote", name)
			}
		}
		if !f.json {
			tw.Flush()
		}
	}
	if f.out != "" {
		for _, pat := range patternOrder {
			name := filepath.Join(f.out, "hist_acc_band-"+fileSafe(pat)+".png")
			title := fmt.Sprintf("%s on %s: bandwidth per run (%d runs)", pat, exps[0].TopologyLabel(), spec.Runs)
			if err := congestion.PlotHistogram(name, title, "fraction of link bandwidth per stream (Λ for bisect)", plots[pat]); err != nil {
				fmt.Fprintf(stderr, "netsim congestion: %v\n", err)
				return exitFailed
			}
			fmt.Fprintln(stderr, "wrote", name)
		}
	}
	return exitOK
}

// seriesLabel names a variant in charts and file names: its routing when
// only the routing is swept, else its variant ("topology.hosts=64;...").
func seriesLabel(e *experiments.Experiment) string {
	if e.Variant == "" || len(e.Params) == 1 && e.Params[0].Key == "routing.algorithm" {
		return e.Routing
	}
	return e.Variant
}

// writeCable writes the cable congestion map to the file name.
func writeCable(name string, paths *congestion.Paths, cable []int64) error {
	w, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := congestion.WriteCableDot(w, paths, cable); err != nil {
		w.Close()
		return fmt.Errorf("%s: %w", name, err)
	}
	return w.Close()
}

// fileSafe maps s to a file name part: letters, digits and ._+- kept,
// anything else replaced by '_'.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("._+-", r):
			return r
		}
		return '_'
	}, s)
}
