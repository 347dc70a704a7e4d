package report

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
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
		var rows []Result
		for _, m := range d.matches(KindPoint, t.RowKeys, r.Keys) {
			if _, ok := m.Text("latency_cdf"); ok {
				rows = append(rows, m)
			}
		}
		if len(rows) == 0 {
			continue
		}
		slices.SortStableFunc(rows, func(a, b Result) int {
			x, _ := a.Number("offered")
			y, _ := b.Number("offered")
			return compareFloat(x, y)
		})
		parts := make([]string, len(r.Keys))
		for i, k := range r.Keys {
			parts[i] = slug(k)
		}
		title := strings.Join(r.Keys, " — ") + "\nlatency distribution"
		if net := d.network(KindPoint, t.RowKeys, r.Keys); net != "" {
			title += ", " + net
		}
		f := newFigure("cdf-"+strings.Join(parts, "-"), title)
		f.Plot.X.Label.Text, f.Plot.Y.Label.Text = labelLatency, labelFraction
		lo, hi := math.Inf(1), math.Inf(-1)
		n := 0
		for _, m := range rows {
			text, _ := m.Text("latency_cdf")
			var steps [][2]float64
			if err := json.Unmarshal([]byte(text), &steps); err != nil || len(steps) == 0 {
				continue
			}
			load, _ := m.Number("offered")
			stable, _ := m.Text("stable")
			name := "load " + strconv.FormatFloat(load, 'f', -1, 64)
			if rep, ok := m.Number("replication"); ok && rep > 0 {
				name += fmt.Sprintf(" (replication %v)", rep)
			}
			if stable == "false" {
				name += " (not stable)"
			}
			s := Series{Name: name, Saturation: math.NaN()}
			prev := 0.0
			for _, st := range steps {
				// A CDF is a staircase: up at each latency from the
				// fraction before.
				x := math.Max(st[0], 1)
				s.X, s.Y = append(s.X, x, x), append(s.Y, prev, st[1])
				prev = st[1]
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
			xys := make(plotter.XYs, len(s.X))
			for k := range s.X {
				xys[k].X, xys[k].Y = s.X[k], s.Y[k]
			}
			f.Plot.Add(&plotter.Line{XYs: xys, LineStyle: lineStyle(n, stable == "false")})
			f.Series = append(f.Series, s)
			f.addEntry(name, thumb{line: lineStyle(n, stable == "false")})
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

// compareFloat orders two numbers.
func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
