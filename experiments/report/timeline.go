package report

import (
	"encoding/json"
	"math"

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
		var f *Figure
		top, end, warm := 0.0, 0.0, 0.0
		n := 0
		for _, l := range d.rowLines(t, r, "timeline") {
			var tl results.Timeline
			if json.Unmarshal([]byte(l.text), &tl) != nil || tl.Window < 1 || len(tl.Accepted) == 0 {
				continue
			}
			if f == nil {
				f = d.rowFigure(t, r, "timeline", "load over time")
				f.Plot.X.Label.Text, f.Plot.Y.Label.Text = labelCycle, labelAccepted
				warm = float64(tl.Warmup)
			}
			s := Series{Name: l.name}
			w := float64(tl.Window)
			for k, a := range tl.Accepted {
				s.X, s.Y = append(s.X, w*(float64(k)+0.5)), append(s.Y, a)
				top = math.Max(top, a)
			}
			end = math.Max(end, w*float64(len(tl.Accepted)))
			f.addPlainLine(s, l.name, n, !l.stable)
			n++
		}
		if f == nil {
			continue
		}
		top = math.Max(top*1.05, 1e-3)
		if warm > 0 {
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
