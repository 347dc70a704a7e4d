package main

import (
	"context"
	"fmt"

	"netsim/experiments"
)

// runExchanges runs the bisection exchanges among exps (traffic kind
// bisection_exchange), printing one line per (variant, pattern) — JSON
// with --json — and returns the other experiments, for the load runner,
// and the exit code; stop says the command is done.
func runExchanges(ctx context.Context, ev env, f runFlags, exps []*experiments.Experiment) (rest []*experiments.Experiment, code int, stop bool) {
	n := 0
	for _, e := range exps {
		if e.IsExchange() {
			n++
		} else {
			rest = append(rest, e)
		}
	}
	if n == 0 {
		return exps, exitOK, false
	}
	if f.outDir != "" || f.shard.Count > 1 || f.dryRun {
		fmt.Fprintf(ev.stderr, "netsim run: -o, --shard and --dry-run do not support traffic kind %q yet\n", experiments.KindExchange)
		return nil, exitUsage, true
	}
	failed := 0
	err := experiments.RunExchanges(ctx, exps, f.jobs, func(r experiments.EBBResult) error {
		if r.Err != nil {
			failed++
			fmt.Fprintf(ev.stderr, "netsim: failed exchange: %v\n", r.Err)
		}
		if f.json {
			return experiments.WriteEBBJSON(ev.stdout, r)
		}
		return experiments.WriteEBBText(ev.stdout, r)
	})
	switch {
	case err != nil:
		fmt.Fprintf(ev.stderr, "netsim: %v\n", err)
		return nil, exitFailed, true
	case failed > 0:
		fmt.Fprintf(ev.stderr, "netsim: %d exchange(s) failed\n", failed)
		return nil, exitFailed, true
	}
	return rest, exitOK, len(rest) == 0
}

// exchanges returns the number of (variant, pattern) exchanges in exps.
func exchanges(exps []*experiments.Experiment) int {
	n := 0
	for _, e := range exps {
		if e.IsExchange() {
			n += len(e.Traffic.Patterns)
		}
	}
	return n
}
