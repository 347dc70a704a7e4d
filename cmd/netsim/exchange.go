package main

import "netsim/experiments"

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
