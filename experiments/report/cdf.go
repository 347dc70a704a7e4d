package report

import (
	"encoding/json"
	"math"

	"gonum.org/v1/plot"
)

// labelFraction is the axis of a CDF.
const labelFraction = "fraction of packets delivered"

// cdfFigures draws the latency distributions of the points that hold one
// ([sim] latency_distribution): one chart per row of t (the accepted-load
// pivot: topology, pattern and routing, and the fields that tell its
// results apart), one line per offered load, the fraction of the measured
// packets delivered within each latency, on a log scale of latency.
// Points not stable are dashed (their latencies are those of the packets
// delivered). Rows without distributions draw nothing.
func cdfFigures(t *Table, d describer) []*Figure {
	var figs []*Figure
	for _, r := range t.Rows {
		lines := d.rowLines(t, r, "latency_cdf")
		if len(lines) == 0 {
			continue
		}
		f := d.rowFigure(t, r, "cdf", "latency distribution")
		f.Plot.X.Label.Text, f.Plot.Y.Label.Text = labelLatency, labelFraction
		lo, hi := math.Inf(1), math.Inf(-1)
		n := 0
		for _, l := range lines {
			var steps [][2]float64
			if err := json.Unmarshal([]byte(l.text), &steps); err != nil || len(steps) == 0 {
				continue
			}
			s := Series{Name: l.name}
			prev := 0.0
			for _, st := range steps {
				// A CDF is a staircase: up at each latency from the
				// fraction before.
				x := math.Max(st[0], 1)
				s.X, s.Y = append(s.X, x, x), append(s.Y, prev, st[1])
				prev = st[1]
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
			f.addPlainLine(s, l.name, n, !l.stable)
			n++
		}
		if n == 0 {
			continue
		}
		f.Plot.X.Scale = plot.LogScale{}
		f.Plot.X.Tick.Marker = logTicks{}
		f.Plot.X.Min, f.Plot.X.Max = lo/1.2, hi*1.2
		f.Plot.Y.Min, f.Plot.Y.Max = 0, 1
		figs = append(figs, f)
	}
	return figs
}
