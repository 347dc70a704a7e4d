// Package report turns results files (the JSON lines netsim run writes)
// into pivot tables and plots.
//
// Read decodes a results file line by line, keeping every field as
// written, so fields added later are usable as table axes. Pivot arranges
// one measured value (saturation, accepted load, latency, hops) in a table
// whose rows and columns are chosen among the results' fields; by default
// saturation results form the layout of seed 004 (rows topology and
// routing, one column per traffic pattern) and points one row per
// topology, routing and pattern with one column per offered load. A Table
// renders as markdown or CSV. Figures builds the charts (accepted load and
// latency against offered load, saturation per pattern) from the same
// pivots, and Figure.Write renders one as PNG or SVG with gonum.org/v1/plot.
//
// Everything is deterministic: rows and columns are sorted (traffic
// patterns, routings and topology families in seed 004's order, numbers by
// value, text in natural order), whatever the order of the lines in the
// files.
package report
