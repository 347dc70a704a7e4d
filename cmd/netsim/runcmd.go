package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"time"

	"netsim/experiments"
	"netsim/experiments/report"
	"netsim/fabric"
)

// env is what a command runs with: its output streams and, for tests, the
// simulator and the clock (nil: fabric.Run and time.Now).
type env struct {
	stdout, stderr io.Writer
	simulate       experiments.Simulator
	now            func() time.Time
}

// runFlags are the options of netsim run.
type runFlags struct {
	outDir      string
	jobs        int
	threads     int
	autoThreads bool
	json        bool
	dryRun      bool
	quiet       bool
	shard       experiments.Shard
	sets        []experiments.Override
	cpuProfile  string
	files       []string
}

// runLong is the help of netsim run.
const runLong = `Runs each experiment file (docs/experiment-file.md is the reference of
their keys), every variant of its sweeps, and prints a readable table of
its points and saturation results, or one line per exchange pattern of a
bisection exchange (its effective bisection bandwidth); with no file it
runs the embedded quick-start experiment. Flags may come before or after
the files.

Failed points (for example a deadlock) are reported on stderr, and as
"kind":"error" lines with --json; netsim then exits with status 1, as when
interrupted (Ctrl-C keeps the finished points in results.jsonl). Routing
tables that leave pairs of hosts unreachable ([routing] unreachable =
"skip") are named on stderr with how many pairs and the first few; traffic
then runs over the reachable pairs only.
`

// runCmd returns netsim run.
func runCmd() *Command {
	var f runFlags
	return &Command{
		WatchesContext: true,
		Name:           "run",
		UsageLine:      "netsim run [FILE.toml ...] [-o DIR] [-j N] [--threads N|auto] [--json] [--dry-run] [-q] [--shard I/N] [--set SECTION.KEY=VALUE]... [--cpuprofile FILE]",
		Short:          "run experiments (the embedded quick start when no file is given)",
		Long:           runLong,
		Flags:          f.define,
		Run: func(ctx context.Context, cmd *Command, ev env, args []string) int {
			f.files = args
			return runCommand(ctx, cmd, ev, f)
		},
	}
}

// define defines the flags of netsim run on fs, bound to f.
func (f *runFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.outDir, "o", "", "also write `DIR`/results.jsonl (one JSON object per line, "+
		"appended as each point finishes) and, from it, DIR/table.md (markdown tables), DIR/table.csv "+
		"(as netsim table prints it) and the charts of netsim plot; DIR is created if needed. "+
		"Run the same command again after an interruption: the points already in results.jsonl "+
		"are not simulated again")
	fs.IntVar(&f.jobs, "j", 0, "simulate up to `N` points at once (default: the number of CPUs divided by "+
		"the most threads a point runs on, at least 1); results do not depend on N")
	fs.Func("threads", "simulate each point on `N` threads, overriding [sim] threads "+
		"(0: as the files say), or with auto on the cores the run leaves idle: a point that starts "+
		"while k points or searches are left to finish gets CPUs/min(k, jobs) threads, so the last "+
		"searches of a run use the cores the others left (-j then defaults to the number of CPUs); "+
		"results do not depend on it",
		func(s string) error {
			if s == "auto" {
				f.threads, f.autoThreads = 0, true
				return nil
			}
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 || n > fabric.MaxThreads {
				return fmt.Errorf("%q is not a number of threads (expected 1 to %d, 0 for [sim] threads, or auto)", s, fabric.MaxThreads)
			}
			f.threads, f.autoThreads = n, false
			return nil
		})
	fs.BoolVar(&f.json, "json", false, "print one JSON object per line on stdout instead of the table")
	fs.BoolVar(&f.dryRun, "dry-run", false, "list the points that would run (experiment, variant, "+
		`pattern, load, "saturation search" or "exchange"; "done" when -o DIR already holds it) and stop`)
	fs.BoolVar(&f.quiet, "q", false, "no progress display on stderr")
	fs.Func("shard", "run only the points of shard `I/N`, the I-th of N (0 ≤ I < N); "+
		"merge the shards' results with netsim merge", func(s string) error {
		sh, err := experiments.ParseShard(s)
		f.shard = sh
		return err
	})
	defineSet(fs, &f.sets)
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the simulations to `FILE` "+
		"(pprof's format: go tool pprof FILE), for finding where a run spends its time or "+
		"refreshing cmd/netsim/default.pgo (docs/performance.md)")
}

// runCommand implements netsim run with the flags and files f.
func runCommand(ctx context.Context, cmd *Command, ev env, f runFlags) int {
	stdout, stderr := ev.stdout, ev.stderr
	if f.jobs < 0 {
		return cmd.usageError(ev, fmt.Errorf("-j: %d is not a valid number of jobs (expected ≥ 1, or 0 for the number of CPUs)", f.jobs))
	}

	var (
		exps []*experiments.Experiment
		err  error
	)
	if len(f.files) == 0 {
		e, err := experiments.QuickStart()
		if err != nil {
			fmt.Fprintf(stderr, "netsim: embedded quick start: %v\n", err)
			return exitFailed
		}
		exps = []*experiments.Experiment{e}
	} else {
		exps, err = interruptible(ctx, func() ([]*experiments.Experiment, error) { return experiments.LoadAll(f.files, f.sets...) })
		if code, ok := interruptedLoading(stderr, "netsim", err); ok {
			return code
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitUsage
		}
		for _, e := range exps {
			if len(e.Traffic.Patterns) == 0 {
				fmt.Fprintf(stderr, "%s: no [traffic] section to simulate (a congestion study: run netsim congestion %s)\n", e.File, e.File)
				return exitUsage
			}
		}
	}
	threads := 1
	for _, e := range exps {
		if f.threads > 0 {
			e.Sim.Threads = f.threads
		}
		threads = max(threads, min(e.Sim.Threads, len(e.Network().Switches)))
	}
	if f.jobs == 0 {
		f.jobs = max(runtime.NumCPU()/threads, 1)
		if f.autoThreads {
			f.jobs = runtime.NumCPU()
		}
	}
	if f.dryRun {
		return dryRun(f, exps, stdout, stderr)
	}
	if jobs, note := jobsInMemory(exps, f.jobs); jobs < f.jobs {
		fmt.Fprintln(stderr, note)
		f.jobs = jobs
	}
	for _, e := range exps {
		if e.Sim.LinkStats && f.outDir == "" {
			fmt.Fprintf(stderr, "%s: [sim] link_stats needs -o DIR: the links' files go into DIR/links/\n", e.File)
			return exitUsage
		}
	}
	seen := map[string]bool{}
	for _, e := range exps {
		if note := unreachableNote(e); note != "" && !seen[e.DisplayName()] {
			seen[e.DisplayName()] = true
			fmt.Fprintf(stderr, "%s: %s; traffic and loads are over the reachable pairs (results: sources, unreachable_pairs)\n", e.DisplayName(), note)
		}
	}

	now := ev.now
	if now == nil {
		now = time.Now
	}
	pr := newProgress(stderr, isTerminal(stderr), now)
	pr.quiet = f.quiet
	var rf *experiments.ResultsFile
	if f.outDir != "" {
		if rf, err = openResults(f.outDir, exps, pr); err != nil {
			fmt.Fprintf(stderr, "netsim: %v\n", err)
			return exitUsage
		}
	}
	if f.cpuProfile != "" {
		stop, err := startCPUProfile(f.cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "netsim: --cpuprofile: %v\n", err)
			return exitUsage
		}
		defer func() {
			if err := stop(); err != nil {
				fmt.Fprintf(stderr, "netsim: --cpuprofile: %v\n", err)
			}
		}()
	}
	out := newOutputs(f, stdout, pr, rf)
	runner := experiments.Runner{Jobs: f.jobs, Simulate: ev.simulate, Shard: f.shard, Progress: pr.update}
	if f.autoThreads {
		runner.Cores = runtime.NumCPU()
	}
	if rf != nil {
		runner.Resume, runner.Finished = rf.Store, rf.Append
		runner.Links = linkWriter(filepath.Join(f.outDir, "links"))
	}
	runErr := runner.Run(ctx, exps, out.write)
	pr.finish()
	closeErr := out.close(runErr == nil)
	switch {
	case runErr != nil && ctx.Err() != nil:
		msg := "netsim: interrupted"
		if rf != nil {
			msg += fmt.Sprintf("; the finished points are in %s (run the same command again to resume)", rf.Path())
		}
		fmt.Fprintln(stderr, msg)
		return exitFailed
	case runErr != nil:
		fmt.Fprintf(stderr, "netsim: %v\n", runErr)
		return exitFailed
	case closeErr != nil:
		fmt.Fprintf(stderr, "netsim: %v\n", closeErr)
		return exitFailed
	case out.failed > 0:
		fmt.Fprintf(stderr, "netsim: %d point(s) failed, %d of them by deadlock\n", out.failed, out.deadlocks)
		return exitFailed
	}
	return exitOK
}

// startCPUProfile starts profiling the process's CPU into the file name
// and returns the function that stops it and closes the file.
func startCPUProfile(name string) (stop func() error, err error) {
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}

// openResults creates dir and opens dir/results.jsonl to resume from,
// telling pr about a torn last line and resumed results.
func openResults(dir string, exps []*experiments.Experiment, pr *progress) (*experiments.ResultsFile, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("-o: %w", err)
	}
	rf, err := experiments.OpenResults(filepath.Join(dir, "results.jsonl"), exps)
	if err != nil {
		return nil, err
	}
	if rf.Torn != nil {
		pr.logf("netsim: %s: cut off a half-written last line (%d bytes); its point runs again", rf.Path(), len(rf.Torn))
	}
	if what := rf.Store.Describe(); what != "" {
		pr.logf("netsim: %s: resuming from %s", rf.Path(), what)
	}
	return rf, nil
}

// outputs sends each record to stdout (table or JSON), failures to
// stderr, and with -o keeps the records for table.md and the final
// rewrite of results.jsonl.
type outputs struct {
	stdout    io.Writer
	pr        *progress
	text      *experiments.TextWriter // nil with --json
	results   *experiments.ResultsFile
	records   []experiments.Record
	outDir    string
	failed    int
	deadlocks int
}

// newOutputs prepares the outputs.
func newOutputs(f runFlags, stdout io.Writer, pr *progress, rf *experiments.ResultsFile) *outputs {
	o := &outputs{stdout: stdout, pr: pr, outDir: f.outDir, results: rf}
	if !f.json {
		o.text = experiments.NewTextWriter(stdout)
	}
	return o
}

// write handles one record, in the canonical order.
func (o *outputs) write(r experiments.Record) error {
	if r.Kind == experiments.KindError {
		o.failed++
		if r.Deadlock() {
			o.deadlocks++
		}
		o.pr.logf("netsim: failed point: %v", r.Err)
	}
	o.pr.clear()
	if o.text == nil {
		if err := experiments.WriteJSON(o.stdout, r); err != nil {
			return err
		}
	} else if err := o.text.Write(r); err != nil {
		return err
	}
	if o.results != nil {
		o.records = append(o.records, r)
	}
	return nil
}

// close finishes results.jsonl — rewritten in canonical order when the
// run is complete, left in completion order otherwise — and writes the
// tables and plots from it.
func (o *outputs) close(complete bool) error {
	if o.results == nil {
		return nil
	}
	var errs []error
	if complete {
		errs = append(errs, o.results.Finish(o.records))
		if n := len(o.results.Store.Unused()); n > 0 {
			o.pr.logf("netsim: %s: kept %d line(s) that are not points of this run", o.results.Path(), n)
		}
	} else {
		errs = append(errs, o.results.Close())
	}
	errs = append(errs, writeReport(o.outDir))
	return errors.Join(errs...)
}

// linkWriter returns the Runner.Links hook that writes each point's links
// into dir (report.WriteLinks), named after the point's key.
func linkWriter(dir string) func(experiments.Record, *fabric.LinkStats) error {
	return func(r experiments.Record, ls *fabric.LinkStats) error {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		title := fmt.Sprintf("%s — %s — load %v", r.Experiment.DisplayName(), r.Pattern, r.Offered)
		_, err := report.WriteLinks(dir, report.Slug(r.Key()), title, r.Experiment.Network(), ls)
		return err
	}
}

// jobsInMemory returns how many of jobs points of exps may run at once
// within the least [sim] max_memory of exps, what is loaded and each
// point's estimate (experiments.Experiment.PointMemory) counted, and a
// note saying why when that is fewer than jobs.
func jobsInMemory(exps []*experiments.Experiment, jobs int) (int, string) {
	var limit, point int64
	for _, e := range exps {
		if m := e.Sim.MaxMemory; m > 0 && (limit == 0 || m < limit) {
			limit = m
		}
		point = max(point, e.PointMemory().Total())
	}
	loaded := experiments.HeapInUse()
	if limit <= 0 || point <= 0 || loaded+int64(jobs)*point <= limit {
		return jobs, ""
	}
	fit := max(int((limit-loaded)/point), 1)
	return fit, fmt.Sprintf("netsim: running %d point(s) at once, not %d: each needs about %s of the %s netsim may use ([sim] max_memory)",
		fit, jobs, fabric.GiB(point), fabric.GiB(limit))
}
