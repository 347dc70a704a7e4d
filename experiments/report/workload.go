package report

import (
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
)

// workloadAxis is the column field of a workload table: message_bytes
// when the results differ in it, else hosts when they differ in that,
// else pattern.
func workloadAxis(sel []Result) string {
	switch {
	case distinct(sel, "message_bytes") > 1:
		return "message_bytes"
	case distinct(sel, "hosts") > 1:
		return "hosts"
	}
	return "pattern"
}

// workloadFigures draws, per workload, its completion time (µs) against
// the message size, or the hosts, on log scales: one line per topology,
// routing (and other field the results differ in). Results that differ
// in neither give no figure: the summary's table says it all.
func workloadFigures(all []Result) ([]*Figure, error) {
	var wl []Result
	for _, r := range all {
		if r.Kind == KindWorkload {
			wl = append(wl, r)
		}
	}
	axis := workloadAxis(wl)
	if axis == "pattern" {
		return nil, nil
	}
	t, err := Pivot(wl, Spec{Value: ValueCompletionUS, Rows: []string{"pattern", "topology", "routing"}, Cols: axis, Extend: true})
	if err != nil {
		return nil, err
	}
	xLabel := map[string]string{"message_bytes": "message size (bytes)", "hosts": "hosts"}[axis]
	var figs []*Figure
	for _, g := range groupRows(t, 1) {
		f := newFigure("workload-"+slug(g.keys[0]), "Completion time — "+g.keys[0])
		f.Plot.X.Label.Text, f.Plot.Y.Label.Text = xLabel, "completion time (µs)"
		var xs []float64
		lo, hi := math.Inf(1), 0.0
		for i, r := range g.rows {
			s := rowSeries(t, r, seriesName(t, r, 1), true)
			if len(s.X) == 0 {
				continue
			}
			f.addSeries(s, i, false)
			f.addEntry(s.Name, lineThumb(i, false))
			for _, x := range s.X {
				if !slices.Contains(xs, x) {
					xs = append(xs, x)
				}
			}
			for _, y := range s.Y {
				lo, hi = min(lo, y), max(hi, y)
			}
		}
		if len(f.Series) == 0 {
			continue
		}
		slices.Sort(xs)
		f.Plot.X.Scale, f.Plot.Y.Scale = plot.LogScale{}, plot.LogScale{}
		f.Plot.X.Tick.Marker = valueTicks(xs)
		f.Plot.Y.Tick.Marker = logTicks{}
		f.Plot.X.Min, f.Plot.X.Max = xs[0]/1.25, xs[len(xs)-1]*1.25
		// Set, not found from the data: one point would give a log axis
		// of zero height.
		f.Plot.Y.Min, f.Plot.Y.Max = lo/1.25, hi*1.25
		figs = append(figs, f)
	}
	return figs, nil
}

// writeWorkloads writes the workload section of the summary: every
// workload result with its ranks, completion, bandwidth and efficiency.
func writeWorkloads(b *strings.Builder, all []Result) error {
	var wl []Result
	for _, r := range all {
		if r.Kind == KindWorkload {
			wl = append(wl, r)
		}
	}
	if len(wl) == 0 {
		return nil
	}
	keys := resultKeys(wl, "pattern", "message_bytes", "trace", "ranks", "placement")
	sortResults(wl, keys)
	b.WriteString("\n## Workloads\n\nCompletion time of the last rank, effective bandwidth (flits sent over ranks × completion, % of link bandwidth), and for collectives the share of their injection bound reached.\n\n")
	writeKeyHeader(b, keys, "completion (cycles)", "completion (µs)", "bandwidth", "efficiency")
	for _, r := range wl {
		writeKeyCells(b, keys, r)
		for _, v := range []string{ValueCompletion, ValueCompletionUS, ValueBandwidth, ValueEfficiency} {
			x, ok := r.Number(v)
			cell := "—"
			if ok {
				cell = formatValue(v, x, false)
			}
			b.WriteString(" " + cell + " |")
		}
		b.WriteString("\n")
	}
	return nil
}
