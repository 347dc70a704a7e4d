package report

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// bars is one series of a grouped bar chart: bar index of count in every
// group, group g centred on x = g. NaN values draw no bar.
type bars struct {
	values       []float64
	halves       []float64 // the half-widths of the values' intervals, NaN for none
	index, count int
	color        color.Color
	labels       bool // write each bar's value above it
}

// Bar widths in x units (one unit per group).
const (
	groupWidth  = 0.8  // the most a group's bars fill
	maxBarWidth = 0.25 // the widest bar
)

// span returns the x range of the bar in group g.
func (b *bars) span(g int) (lo, hi float64) {
	w := min(groupWidth/float64(b.count), maxBarWidth)
	lo = float64(g) - w*float64(b.count)/2 + float64(b.index)*w
	return lo, lo + w
}

// Plot implements plot.Plotter.
func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	outline := draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(0.5)}
	for g, v := range b.values {
		if math.IsNaN(v) {
			continue
		}
		lo, hi := b.span(g)
		x0, x1, y0, y1 := trX(lo), trX(hi), trY(0), trY(v)
		pts := []vg.Point{{X: x0, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}, {X: x1, Y: y0}}
		c.FillPolygon(b.color, c.ClipPolygonXY(pts))
		c.StrokeLines(outline, c.ClipLinesXY(append(pts, pts[0]))...)
		if g < len(b.halves) && !math.IsNaN(b.halves[g]) {
			// The interval across replications: a whisker with caps.
			xm, lo, hi, cap := (x0+x1)/2, trY(max(v-b.halves[g], 0)), trY(v+b.halves[g]), (x1-x0)/4
			whisker := draw.LineStyle{Color: color.Black, Width: vg.Points(1)}
			c.StrokeLines(whisker, c.ClipLinesXY([]vg.Point{{X: xm, Y: lo}, {X: xm, Y: hi}},
				[]vg.Point{{X: xm - cap, Y: lo}, {X: xm + cap, Y: lo}}, []vg.Point{{X: xm - cap, Y: hi}, {X: xm + cap, Y: hi}})...)
			y1 = max(y1, hi)
		}
		if b.labels {
			sty := text.Style{Color: color.Black, Font: sans(barLabelSize), XAlign: draw.XCenter, Handler: p.TextHandler}
			c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: y1 + vg.Points(2)}, strconv.FormatFloat(v, 'f', 1, 64))
		}
	}
}

// DataRange implements plot.DataRanger.
func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = -0.5, float64(len(b.values))-0.5
	for g, v := range b.values {
		if !math.IsNaN(v) {
			ymax = math.Max(ymax, v)
			if g < len(b.halves) && !math.IsNaN(b.halves[g]) {
				ymax = math.Max(ymax, v+b.halves[g])
			}
		}
	}
	return xmin, xmax, 0, ymax
}

// Thumbnail implements plot.Thumbnailer: a filled square of the bars'
// colour next to the legend text.
func (b *bars) Thumbnail(c *draw.Canvas) { swatch{b.color}.Thumbnail(c) }
