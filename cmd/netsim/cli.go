package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"

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

// command is one netsim command: what runs it and its help text.
type command struct {
	run   func(ctx context.Context, ev env, args []string) int
	usage string
}

// commands returns the commands by name.
func commands() map[string]command {
	plain := func(f func(args []string, stdout, stderr io.Writer) int) func(context.Context, env, []string) int {
		return func(_ context.Context, ev env, args []string) int { return f(args, ev.stdout, ev.stderr) }
	}
	withCtx := func(f func(ctx context.Context, args []string, stdout, stderr io.Writer) int) func(context.Context, env, []string) int {
		return func(ctx context.Context, ev env, args []string) int { return f(ctx, args, ev.stdout, ev.stderr) }
	}
	return map[string]command{
		"run":        {runCommand, runUsage},
		"validate":   {plain(validateCommand), validateUsage},
		"merge":      {plain(mergeCommand), mergeUsage},
		"topo":       {plain(topoCommand), topoUsage},
		"table":      {plain(tableCommand), tableUsage},
		"plot":       {plain(plotCommand), plotUsage},
		"congestion": {withCtx(congestionCommand), congestionUsage},
		"check":      {withCtx(checkCommand), checkUsage},
		"load":       {withCtx(loadCommand), loadUsage},
		"version":    {plain(versionCommand), versionUsage},
	}
}

// runEnv is run in the environment ev.
func runEnv(ctx context.Context, ev env, args []string) int {
	if len(args) == 0 {
		fmt.Fprint(ev.stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		return helpCommand(args[1:], ev.stdout, ev.stderr)
	}
	c, ok := commands()[args[0]]
	if !ok {
		fmt.Fprintf(ev.stderr, "netsim: unknown command %q\n\n%s", args[0], usage)
		return exitUsage
	}
	return c.run(ctx, ev, args[1:])
}

// versionCommand implements netsim version.
func versionCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "netsim: version takes no arguments, got %q\n", args)
		return exitUsage
	}
	fmt.Fprintln(stdout, versionString())
	return exitOK
}

// helpCommand prints the usage of the command named in args, or of all.
func helpCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	c, ok := commands()[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "netsim: unknown help topic %q\n\n%s", args[0], usage)
		return exitUsage
	}
	fmt.Fprint(stdout, c.usage)
	return exitOK
}

// experimentFiles parses the command line args of command cmd (its flags
// defined in fs, -j in jobs) for commands that take one or more experiment
// files: it prints help or the problem (no file, a negative -j) and
// reports done with the exit status, or returns the files.
func experimentFiles(fs *flag.FlagSet, args []string, jobs *int, cmd, usage string, stdout, stderr io.Writer) (files []string, code int, done bool) {
	files, err := parseArgs(fs, args)
	if code, done := flagsDone(err, cmd, usage, stdout, stderr); done {
		return nil, code, true
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "%s: need at least one experiment file\n\n%s", cmd, usage)
		return nil, exitUsage, true
	}
	if *jobs < 0 {
		fmt.Fprintf(stderr, "%s: -j: %d is not a valid number of jobs (expected ≥ 1, or 0 for the number of CPUs)\n", cmd, *jobs)
		return nil, exitUsage, true
	}
	return files, exitOK, false
}

// loadExperiments loads the experiment files, reporting every problem;
// the experiments are those of the files that loaded.
func loadExperiments(files []string) ([]*experiments.Experiment, error) {
	var exps []*experiments.Experiment
	var errs []error
	if err := experiments.DistinctFiles(files); err != nil {
		errs = append(errs, err)
	}
	for _, f := range files {
		e, err := experiments.LoadFile(f)
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
			return nil, err
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
