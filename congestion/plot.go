package congestion

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Series is one histogram line: the per-run values of one routing.
type Series struct {
	Label  string
	Values []float64
}

// histBins is the number of bins of a histogram plot of more than
// maxDistinct distinct values; with fewer, each value is a point.
const (
	histBins    = 24
	maxDistinct = 24
)

// PlotHistogram draws, like seed 003's Figure 3, the distribution of the
// per-run values of each series (the fraction of runs at each value, or
// in each of histBins bins when the values are many)
// and writes it to path; the format follows the extension (.png, .svg).
func PlotHistogram(path, title, xLabel string, series []Series) error {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, v := range s.Values {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if math.IsInf(lo, 1) {
		return fmt.Errorf("plot %s: no values", path)
	}
	if hi-lo < 1e-9 {
		lo, hi = lo-0.5*max(math.Abs(lo)*0.05, 0.01), hi+0.5*max(math.Abs(hi)*0.05, 0.01)
	}
	width := (hi - lo) / histBins
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = 13
	p.X.Label.Text = xLabel
	p.Y.Label.Text = "fraction of runs"
	p.X.Label.TextStyle.Font.Size = 12
	p.Y.Label.TextStyle.Font.Size = 12
	p.X.Tick.Label.Font.Size = 10.5
	p.Y.Tick.Label.Font.Size = 10.5
	p.Y.Min = 0
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = false
	p.Legend.TextStyle.Font.Size = 10.5
	distinct := map[float64]bool{}
	for _, s := range series {
		for _, v := range s.Values {
			if len(distinct) <= maxDistinct {
				distinct[v] = true
			}
		}
	}
	for i, s := range series {
		var pts plotter.XYs
		if len(distinct) <= maxDistinct {
			// Few values (small networks): the fraction of runs at each.
			for _, b := range histogram(s.Values, 1e-9) {
				pts = append(pts, plotter.XY{X: b.Value, Y: float64(b.Count) / float64(len(s.Values))})
			}
		} else {
			counts := make([]float64, histBins)
			for _, v := range s.Values {
				counts[min(int((v-lo)/width), histBins-1)]++
			}
			for b, c := range counts {
				x0 := lo + float64(b)*width
				pts = append(pts, plotter.XY{X: x0 + width/2, Y: c / float64(len(s.Values))})
			}
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return fmt.Errorf("plot %s: %w", path, err)
		}
		line.Color = seriesColour(i)
		line.Width = vg.Points(1.5)
		if i%2 == 1 {
			line.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		points.Color = seriesColour(i)
		points.Radius = vg.Points(2.5)
		p.Add(line, points)
		mean, _, _ := stats(s.Values)
		p.Legend.Add(fmt.Sprintf("%s (mean %.3f)", s.Label, mean), line, points)
	}
	p.X.Min, p.X.Max = lo, hi
	if err := p.Save(7.5*vg.Inch, 4.5*vg.Inch, path); err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	return nil
}

// seriesColour returns the colour of series i (Tableau 10).
func seriesColour(i int) color.Color {
	cs := [...]color.RGBA{{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
		{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255},
		{188, 189, 34, 255}, {23, 190, 207, 255}}
	return cs[i%len(cs)]
}
