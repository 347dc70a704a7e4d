package report

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"netsim/results"
)

// labelCycle is the axis of a timeline.
const labelCycle = "cycle"

// timelineFigures draws the load accepted over time by the points that
// hold a timeline ([sim] timeline): one chart per row of t (as
// cdfFigures), one line per offered load in order of load, accepted in
// each window against the window's middle, with the end of the warm-up
// as a dashed line. Points not stable are dashed: past saturation their
// accepted load levels off below the offered one, or declines.
func timelineFigures(t *Table, d describer) []*Figure {
	var figs []*Figure
	for _, r := range t.Rows {
		type line struct {
			load   float64
			stable bool
			rep    float64
			tl     results.Timeline
		}
		var lines []line
		for _, m := range d.matches(KindPoint, t.RowKeys, r.Keys) {
			text, ok := m.Text("timeline")
			if !ok {
				continue
			}
			var tl results.Timeline
			if json.Unmarshal([]byte(text), &tl) != nil || tl.Window < 1 || len(tl.Accepted) == 0 {
				continue
			}
			load, _ := m.Number("offered")
			stable, _ := m.Text("stable")
			rep, _ := m.Number("replication")
			lines = append(lines, line{load, stable != "false", rep, tl})
		}
		if len(lines) == 0 {
			continue
		}
		slices.SortStableFunc(lines, func(a, b line) int { return compareFloat(a.load, b.load) })
		parts := make([]string, len(r.Keys))
		for i, k := range r.Keys {
			parts[i] = slug(k)
		}
		title := strings.Join(r.Keys, " — ") + "\nload over time"
		if net := d.network(KindPoint, t.RowKeys, r.Keys); net != "" {
			title += ", " + net
		}
		f := newFigure("timeline-"+strings.Join(parts, "-"), title)
		f.Plot.X.Label.Text, f.Plot.Y.Label.Text = labelCycle, labelAccepted
		top, end := 0.0, 0.0
		for n, l := range lines {
			name := "load " + strconv.FormatFloat(l.load, 'f', -1, 64)
			if l.rep > 0 {
				name += fmt.Sprintf(" (replication %v)", l.rep)
			}
			if !l.stable {
				name += " (not stable)"
			}
			s := Series{Name: name, Saturation: math.NaN()}
			w := float64(l.tl.Window)
			xys := make(plotter.XYs, len(l.tl.Accepted))
			for k, a := range l.tl.Accepted {
				x := w * (float64(k) + 0.5)
				xys[k].X, xys[k].Y = x, a
				s.X, s.Y = append(s.X, x), append(s.Y, a)
				top = math.Max(top, a)
			}
			end = math.Max(end, w*float64(len(l.tl.Accepted)))
			f.Plot.Add(&plotter.Line{XYs: xys, LineStyle: lineStyle(n, !l.stable)})
			f.Series = append(f.Series, s)
			f.addEntry(name, thumb{line: lineStyle(n, !l.stable)})
		}
		top = math.Max(top*1.05, 1e-3)
		if warm := float64(lines[0].tl.Warmup); warm > 0 {
			wl := lineOf([]float64{warm, warm}, []float64{0, top})
			wl.LineStyle = draw.LineStyle{Color: gray(), Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
			f.Plot.Add(wl)
			f.addEntry("gray dashes: end of warm-up", wl)
		}
		f.Plot.X.Min, f.Plot.X.Max = 0, end
		f.Plot.Y.Min, f.Plot.Y.Max = 0, top
		figs = append(figs, f)
	}
	return figs
}
