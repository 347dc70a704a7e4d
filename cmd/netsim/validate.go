package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"netsim/experiments"
)

// validateCommand implements netsim validate: every file is read, checked
// and built as netsim run would (network, routing, patterns, flow
// control), nothing is simulated. It prints "FILE: ok (N points)" for a
// good file, counting the lines --dry-run would list, or the file's
// problems; the status is 2 if any file has one.
func validateCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("netsim validate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	files, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, validateUsage)
		return exitOK
	}
	if err == nil && len(files) == 0 {
		err = errors.New("no experiment file given")
	}
	if err != nil {
		fmt.Fprintf(stderr, "netsim validate: %v\n\n%s", err, validateUsage)
		return exitUsage
	}
	code := exitOK
	var all []*experiments.Experiment
	for _, file := range files {
		exps, err := experiments.LoadFile(file)
		if err != nil {
			fmt.Fprintln(stderr, err)
			code = exitUsage
			continue
		}
		all = append(all, exps...)
		n := exchanges(exps)
		msg := fmt.Sprintf("%s: ok (%d points", file, len(experiments.Plan(exps))-n)
		if n > 0 {
			msg += fmt.Sprintf(", %d exchanges", n)
		}
		if len(exps) > 1 {
			msg += fmt.Sprintf(", %d variants", len(exps))
		}
		fmt.Fprintln(stdout, msg+")")
	}
	if err := experiments.UniqueNames(all); err != nil {
		fmt.Fprintln(stderr, err)
		code = exitUsage
	}
	return code
}
