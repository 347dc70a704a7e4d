package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"netsim/experiments"
)

// Exit statuses.
const (
	exitOK     = 0 // everything ran and was written
	exitFailed = 1 // a point failed, the run was interrupted, or results could not be written
	exitUsage  = 2 // bad command line, experiment or results file; nothing ran
)

// run executes the command line args (without the program name) and
// returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runEnv(ctx, env{stdout: stdout, stderr: stderr}, args)
}

// runEnv is run in the environment ev.
func runEnv(ctx context.Context, ev env, args []string) int {
	return netsimCmd().dispatch(ctx, ev, args)
}

// experimentFiles checks the experiment files and the -j value jobs of
// command cmd, for the commands that take one or more experiment files:
// it prints the problem (no file, a negative -j) and reports done with
// the exit status.
func experimentFiles(cmd *Command, ev env, files []string, jobs int) (code int, done bool) {
	if len(files) == 0 {
		return cmd.usageError(ev, errors.New("need at least one experiment file")), true
	}
	if jobs < 0 {
		fmt.Fprintf(ev.stderr, "%s: -j: %d is not a valid number of jobs (expected ≥ 1, or 0 for the number of CPUs)\n", cmd.LongName(), jobs)
		return exitUsage, true
	}
	return exitOK, false
}

// setUsage is the help of --set.
const setUsage = "set `SECTION.KEY=VALUE` in every experiment file, over the value of the file and its includes " +
	"(repeat for several keys; VALUE is a TOML value or else a string: switch.vl_choice=dynamic, flow_control.vls=4, " +
	"seed=7; an array sweeps the key: 'routing.algorithm=[\"dor\", \"distance\"]')"

// defineSet defines --set on fs, appending each override to *sets.
func defineSet(fs *flag.FlagSet, sets *[]experiments.Override) {
	fs.Func("set", setUsage, func(s string) error {
		o, err := experiments.ParseOverride(s)
		if err == nil {
			*sets = append(*sets, o)
		}
		return err
	})
}

// isHelpFlag reports whether args is a lone -h, -help or --help.
func isHelpFlag(args []string) bool {
	return len(args) == 1 && slices.Contains([]string{"-h", "-help", "--help"}, args[0])
}

// writeAtomic writes data to path through a temporary file beside it,
// renamed over path once written: a command a signal ends, or a crash,
// leaves the old file or the new one, never half of one.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*.tmp")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	if err := errors.Join(werr, tmp.Chmod(0o644), tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// errInterrupted is the error of work a signal interrupted (a SIGINT,
// SIGTERM or SIGHUP cancels a command's context).
var errInterrupted = errors.New("netsim: interrupted")

// interruptible returns what load returns, or errInterrupted as soon as
// ctx ends first: loading experiment files (building networks, routing
// tables) does not look at ctx, and a signal must still end the command
// at once. The load goes on in the background until the process exits.
func interruptible[T any](ctx context.Context, load func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := load()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, errInterrupted
	}
}

// untilSignal runs command, a command that reads files without looking at
// ctx, and returns its exit status; a signal ends it at once with the
// interrupted message and exit status 1.
func untilSignal(ctx context.Context, ev env, name string, command func() int) int {
	code, err := interruptible(ctx, func() (int, error) { return command(), nil })
	if err != nil {
		fmt.Fprintf(ev.stderr, "%s: interrupted\n", name)
		return exitFailed
	}
	return code
}

// interruptedLoading reports err if a signal interrupted loading for the
// command name, and returns its exit status.
func interruptedLoading(stderr io.Writer, name string, err error) (int, bool) {
	if !errors.Is(err, errInterrupted) {
		return 0, false
	}
	fmt.Fprintf(stderr, "%s: interrupted while loading the experiment files\n", name)
	return exitFailed, true
}

// loadExperiments loads the experiment files with the overrides sets,
// reporting every problem; the experiments are those of the files that
// loaded. A signal ends it with errInterrupted.
func loadExperiments(ctx context.Context, files []string, sets []experiments.Override) ([]*experiments.Experiment, error) {
	return interruptible(ctx, func() ([]*experiments.Experiment, error) { return loadFiles(files, sets) })
}

// loadFiles is loadExperiments without the context.
func loadFiles(files []string, sets []experiments.Override) ([]*experiments.Experiment, error) {
	var exps []*experiments.Experiment
	var errs []error
	if err := experiments.DistinctFiles(files); err != nil {
		errs = append(errs, err)
	}
	for _, f := range files {
		e, err := experiments.LoadFile(f, sets...)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		exps = append(exps, e...)
	}
	return exps, errors.Join(errs...)
}

// parseArgs parses args with fs, allowing flags before, between and after
// the positional arguments, which it returns in order; every argument after
// "--" is positional, even one starting with "-". A string flag given
// with an empty value (-o "") is an error: it would read as not given.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var tail, pos []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, tail = args[:i], args[i+1:]
	}
	for {
		if err := fs.Parse(args); err != nil {
			return nil, asTyped(err, args)
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	var err error
	fs.Visit(func(f *flag.Flag) {
		if g, ok := f.Value.(flag.Getter); ok && err == nil && g.Get() == "" {
			err = fmt.Errorf("%s: empty value (expected %s)", flagName(f.Name), expectedValue(f))
		}
	})
	if err != nil {
		return nil, err
	}
	return append(pos, tail...), nil
}

// asTyped rewrites the flag package's error err so that it names the
// flag as the command line args gave it (--bogus, not -bogus), and says
// "unknown flag" rather than "flag provided but not defined".
func asTyped(err error, args []string) error {
	msg := err.Error()
	given := func(name string) string {
		for _, a := range args {
			bare, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if strings.HasPrefix(a, "-") && bare == name {
				dashes := a[:len(a)-len(strings.TrimLeft(a, "-"))]
				return dashes + name
			}
		}
		return flagName(name)
	}
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return fmt.Errorf("unknown flag %s", given(name))
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return fmt.Errorf("flag %s needs a value", given(name))
	}
	if i := strings.LastIndex(msg, " flag -"); i >= 0 {
		rest := msg[i+len(" flag -"):]
		name, tail, _ := strings.Cut(rest, ":")
		if !strings.ContainsAny(name, " ") {
			return fmt.Errorf("%s flag %s:%s", msg[:i], given(name), tail)
		}
	}
	return err
}

// flagName writes the flag name as the messages of netsim do: -o for a
// one-letter flag, --format for a longer one.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// expectedValue describes the value flag f takes: the back-quoted name in
// its usage (DIR, FILE), else "a value".
func expectedValue(f *flag.Flag) string {
	what, _ := flag.UnquoteUsage(f)
	if what == "" || what == "string" || what == "value" {
		return "a value"
	}
	return what
}

// given reports whether the flag name was set on the command line, so
// that a value equal to its default (0 for "not given") can be told apart.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// flagsDone handles what parsing the flags of command cmd (e.g. "netsim
// run") returned: -h prints usage on stdout (exit 0), an error prints it
// with usage on stderr (exit 2). done tells whether the command ends here
// with status code.
func flagsDone(err error, cmd, usage string, stdout, stderr io.Writer) (code int, done bool) {
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, usage)
		return exitOK, true
	case err != nil:
		fmt.Fprintf(stderr, "%s: %v\n\n%s", cmd, err, usage)
		return exitUsage, true
	}
	return exitOK, false
}
