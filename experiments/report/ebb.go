package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// labelEBB is the value axis of the exchange charts.
const labelEBB = "effective bisection bandwidth (% of link bandwidth)"

// ebbTables returns the average, minimum and maximum EBB of the exchange
// results, one row per pattern and dispersion (and other fields in which
// results differ), one column per host count.
func ebbTables(results []Result) (avg, lo, hi *Table, err error) {
	spec := Spec{Value: ValueEBBAvg, Rows: []string{"pattern", "dispersion"}, Cols: "hosts", Extend: true}
	if avg, err = Pivot(results, spec); err != nil {
		return nil, nil, nil, err
	}
	spec.Rows, spec.Extend = avg.RowKeys, false
	spec.Value = ValueEBBMin
	if lo, err = Pivot(results, spec); err != nil {
		return nil, nil, nil, err
	}
	spec.Value = ValueEBBMax
	if hi, err = Pivot(results, spec); err != nil {
		return nil, nil, nil, err
	}
	return avg, lo, hi, nil
}

// ebbFigures draws seed 001's Figure 6 from exchange results: per exchange
// pattern, the average EBB against the number of hosts (log scale), one
// line per dispersion (and per other field the results differ in), with
// error bars from the worst to the best pattern.
func ebbFigures(results []Result) ([]*Figure, error) {
	avg, lo, hi, err := ebbTables(results)
	if err != nil {
		return nil, err
	}
	var figs []*Figure
	for _, g := range groupRows(avg, 1) {
		f := newFigure("ebb-"+slug(g.keys[0]), "Effective bisection bandwidth — "+g.keys[0]+" exchange")
		f.Plot.X.Label.Text, f.Plot.Y.Label.Text = "hosts", labelEBB
		var hosts []float64
		spread := false
		for _, r := range g.rows {
			s := rowSeries(avg, r, seriesName(avg, r, 1), true)
			if len(s.X) == 0 {
				continue
			}
			i := len(f.Series)
			ri := slices.IndexFunc(avg.Rows, func(x Row) bool { return slices.Equal(x.Keys, r.Keys) })
			low := rowSeries(lo, lo.Rows[ri], "", false)
			high := rowSeries(hi, hi.Rows[ri], "", false)
			f.addEBBSeries(s, low, high, i, len(g.rows))
			spread = spread || !slices.Equal(f.Series[i].Low, f.Series[i].High)
			f.addEntry(s.Name, lineThumb(i, false))
			for _, x := range s.X {
				if !slices.Contains(hosts, x) {
					hosts = append(hosts, x)
				}
			}
		}
		if len(f.Series) == 0 {
			continue
		}
		if spread {
			f.addEntry("bars: worst to best pattern", keyThumb(false))
		}
		slices.Sort(hosts)
		f.Plot.X.Scale = plot.LogScale{}
		f.Plot.X.Tick.Marker = valueTicks(hosts)
		f.Plot.X.Min, f.Plot.X.Max = hosts[0]/1.25, hosts[len(hosts)-1]*1.25
		f.grid.Vertical.Color = nil
		f.Plot.Y.Min, f.Plot.Y.Max = 0, 104 // room for the caps of bars that reach 100 %
		figs = append(figs, f)
	}
	return figs, nil
}

// addEBBSeries draws the average s (in %) as a line with markers in the
// style of series i of n, and error bars from low to high; the series are
// shifted apart a little along the (log) host axis so that their bars do
// not overlap.
func (f *Figure) addEBBSeries(s, low, high Series, i, n int) {
	shift := math.Pow(1.035, float64(i)-float64(n-1)/2)
	xys := make(plotter.XYs, len(s.X))
	errs := make(plotter.YErrors, len(s.X))
	s.Low, s.High = slices.Clone(s.Y), slices.Clone(s.Y)
	for k := range s.X {
		if j := slices.Index(low.X, s.X[k]); j >= 0 {
			s.Low[k] = low.Y[j]
		}
		if j := slices.Index(high.X, s.X[k]); j >= 0 {
			s.High[k] = high.Y[j]
		}
		xys[k].X, xys[k].Y = s.X[k]*shift, 100*s.Y[k]
		errs[k].Low, errs[k].High = 100*(s.Y[k]-s.Low[k]), 100*(s.High[k]-s.Y[k])
	}
	l := &plotter.Line{XYs: xys, LineStyle: lineStyle(i, false)}
	m := &plotter.Scatter{XYs: xys, GlyphStyle: glyphStyle(i)}
	bars := &plotter.YErrorBars{XYs: xys, YErrors: errs, LineStyle: lineStyle(i, false), CapWidth: vg.Points(6)}
	bars.LineStyle.Width = vg.Points(1.1)
	f.Plot.Add(bars, l, m)
	f.Series = append(f.Series, s)
}

// resultKeys returns the columns that identify each of rs in a table:
// experiment, topology and routing, the other fields rs differ in (but
// the variant and those of tail), then tail.
func resultKeys(rs []Result, tail ...string) []string {
	keys := []string{"experiment", "topology", "routing"}
	for _, f := range varying(rs) {
		if !slices.Contains(keys, f) && !slices.Contains(tail, f) && f != "variant" {
			keys = append(keys, f)
		}
	}
	return append(keys, tail...)
}

// writeKeyHeader writes the head of a markdown table of keys, left
// aligned, then values, right aligned.
func writeKeyHeader(b *strings.Builder, keys []string, values ...string) {
	b.WriteString("|")
	for _, k := range append(slices.Clone(keys), values...) {
		b.WriteString(" " + mdCell(k) + " |")
	}
	b.WriteString("\n|" + strings.Repeat("---|", len(keys)) + strings.Repeat("---:|", len(values)) + "\n")
}

// writeKeyCells opens the row of r: a cell per key, the values to follow.
func writeKeyCells(b *strings.Builder, keys []string, r Result) {
	b.WriteString("|")
	for _, k := range keys {
		v, _ := r.Text(k)
		b.WriteString(" " + mdCell(v) + " |")
	}
}

// valueTicks labels an axis at the given values only (the host counts of
// a chart).
type valueTicks []float64

// Ticks implements plot.Ticker.
func (v valueTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for _, x := range v {
		if x >= min && x <= max {
			ts = append(ts, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'f', -1, 64)})
		}
	}
	return ts
}

// writeEBB writes the exchange section of the summary: the default pivot
// of the average EBB, then every exchange result with its minimum,
// average and maximum.
func writeEBB(b *strings.Builder, results []Result) error {
	var ebbs []Result
	for _, r := range results {
		if r.Kind == KindEBB {
			ebbs = append(ebbs, r)
		}
	}
	if len(ebbs) == 0 {
		return nil
	}
	t, err := Pivot(ebbs, Spec{Value: ValueEBBAvg, Extend: true})
	if err != nil {
		return err
	}
	b.WriteString("\n## Effective bisection bandwidth\n\n")
	if err := t.WriteMarkdown(b); err != nil {
		return err
	}
	keys := resultKeys(ebbs, "pattern", "dispersion", "hosts")
	sortResults(ebbs, keys)
	b.WriteString("\n## Exchanges\n\nEffective bisection bandwidth in % of link bandwidth over the patterns run: worst, average, best.\n\n")
	writeKeyHeader(b, keys, "patterns", "min", "avg", "max", "out of order")
	for _, r := range ebbs {
		writeKeyCells(b, keys, r)
		n, _ := r.Text("patterns")
		b.WriteString(" " + n + " |")
		for _, v := range []string{ValueEBBMin, ValueEBBAvg, ValueEBBMax} {
			x, _ := r.Number(v)
			b.WriteString(" " + formatValue(v, x, false) + " |")
		}
		ooo, _ := r.Number("out_of_order")
		pk, _ := r.Number("packets")
		frac := "—"
		if pk > 0 {
			frac = fmt.Sprintf("%.1f %%", 100*ooo/pk)
		}
		b.WriteString(" " + frac + " |\n")
	}
	return nil
}
