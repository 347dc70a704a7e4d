package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"netsim/experiments"
)

// runFlags are the options of netsim run.
type runFlags struct {
	outDir string
	jobs   int
	json   bool
	files  []string
}

// parseRunFlags parses args, allowing flags before, between and after the
// file names; every argument after "--" is a file name.
func parseRunFlags(args []string) (runFlags, error) {
	var f runFlags
	fs := flag.NewFlagSet("netsim run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.outDir, "o", "", "write results.jsonl, tables and plots to `DIR`")
	fs.IntVar(&f.jobs, "j", 0, "simulate up to `N` points at once (default: number of CPUs)")
	fs.BoolVar(&f.json, "json", false, "print JSON lines instead of a table")
	files, err := parseArgs(fs, args)
	if err != nil {
		return f, err
	}
	f.files = files
	if f.jobs < 0 {
		return f, fmt.Errorf("-j: %d is not a valid number of jobs (expected ≥ 1, or 0 for the number of CPUs)", f.jobs)
	}
	return f, nil
}

// runCommand implements netsim run.
func runCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f, err := parseRunFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, runUsage)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "netsim run: %v\n\n%s", err, runUsage)
		return exitUsage
	}

	var exps []*experiments.Experiment
	if len(f.files) == 0 {
		e, err := experiments.QuickStart()
		if err != nil {
			fmt.Fprintf(stderr, "netsim: embedded quick start: %v\n", err)
			return exitFailed
		}
		exps = []*experiments.Experiment{e}
	} else {
		exps, err = experiments.LoadAll(f.files)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitUsage
		}
	}

	out, err := newOutputs(f, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "netsim: %v\n", err)
		return exitUsage
	}
	runner := experiments.Runner{Jobs: f.jobs}
	runErr := runner.Run(ctx, exps, out.write)
	closeErr := out.close()
	switch {
	case runErr != nil && ctx.Err() != nil:
		fmt.Fprintln(stderr, "netsim: interrupted")
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

// outputs sends each record to stdout (table or JSON), to stderr (errors),
// and with -o to results.jsonl, from which close writes the report.
type outputs struct {
	stdout    io.Writer
	stderr    io.Writer
	text      *experiments.TextWriter // nil with --json
	results   *os.File
	outDir    string
	failed    int
	deadlocks int
}

// newOutputs prepares the outputs; with -o it creates the directory and
// results.jsonl.
func newOutputs(f runFlags, stdout, stderr io.Writer) (*outputs, error) {
	o := &outputs{stdout: stdout, stderr: stderr, outDir: f.outDir}
	if !f.json {
		o.text = experiments.NewTextWriter(stdout)
	}
	if f.outDir != "" {
		if err := os.MkdirAll(f.outDir, 0o755); err != nil {
			return nil, fmt.Errorf("-o: %w", err)
		}
		r, err := os.Create(filepath.Join(f.outDir, "results.jsonl"))
		if err != nil {
			return nil, fmt.Errorf("-o: %w", err)
		}
		o.results = r
	}
	return o, nil
}

// write handles one record.
func (o *outputs) write(r experiments.Record) error {
	if r.Kind == experiments.KindError {
		o.failed++
		if r.Deadlock() {
			o.deadlocks++
		}
		fmt.Fprintf(o.stderr, "netsim: failed point: %v\n", r.Err)
	}
	if o.text == nil {
		if err := experiments.WriteJSON(o.stdout, r); err != nil {
			return err
		}
	} else if err := o.text.Write(r); err != nil {
		return err
	}
	if o.results != nil {
		if err := experiments.WriteJSON(o.results, r); err != nil {
			return fmt.Errorf("%s: %w", o.results.Name(), err)
		}
	}
	return nil
}

// close finishes results.jsonl and writes the tables and plots from it.
func (o *outputs) close() error {
	if o.results == nil {
		return nil
	}
	if err := o.results.Close(); err != nil {
		return err
	}
	return writeReport(o.outDir)
}
