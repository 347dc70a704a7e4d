// Package congestion is the congestion model of ORCS (seed 003) and of the
// effective bisection bandwidth Λ of seed 000 §IV-A, on the routings of
// package routing.
//
// A routing is reduced once to one path per (source, destination) host
// pair, a list of channel (directed link) indices: the host's injection
// link, the switch-to-switch links, the destination's ejection link (see
// Extract). A run maps the ranks of a communication pattern onto hosts at
// random, and for each level of the pattern counts the streams τ(e) on
// every channel; a stream's congestion is the largest τ along its path and
// its bandwidth, in the linear model of the seeds, 1/congestion of a link.
// The metrics reduce these numbers per run (Metric); runs are independent
// and reproducible from the seed and the run number.
package congestion
