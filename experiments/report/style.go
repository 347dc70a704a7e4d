package report

import (
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Font sizes in points.
const (
	titleSize    = 13
	labelSize    = 12
	tickSize     = 10.5
	legendSize   = 10.5
	barLabelSize = 9
)

// gray is the colour of the ideal line and of the key to line styles.
func gray() color.Color { return color.Gray{Y: 110} }

// sans is the typeface of every text.
func sans(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

// palette returns the colour of series i: the ten colours of Tableau 10,
// which stay apart for colour-blind readers, then their lighter partners
// of Tableau 20, in turn.
func palette(i int) color.Color {
	cs := [...]color.RGBA{
		{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
		{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255},
		{188, 189, 34, 255}, {23, 190, 207, 255},
		{174, 199, 232, 255}, {255, 187, 120, 255}, {152, 223, 138, 255}, {255, 152, 150, 255},
		{197, 176, 213, 255}, {196, 156, 148, 255}, {247, 182, 210, 255}, {199, 199, 199, 255},
		{219, 219, 141, 255}, {158, 218, 229, 255},
	}
	return cs[i%len(cs)]
}

// glyphShape returns the marker of series i: circles for the first ten
// series, then other shapes, so more than ten stay apart.
func glyphShape(i int) draw.GlyphDrawer {
	shapes := [...]draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{}, draw.CrossGlyph{}}
	return shapes[(i/10)%len(shapes)]
}

// lineStyle returns the line of series i, dashed or solid.
func lineStyle(i int, dashed bool) draw.LineStyle {
	ls := draw.LineStyle{Color: palette(i), Width: vg.Points(1.6)}
	if dashed {
		ls.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	return ls
}

// glyphStyle returns the marker of series i.
func glyphStyle(i int) draw.GlyphStyle {
	return draw.GlyphStyle{Color: palette(i), Radius: vg.Points(2.6), Shape: glyphShape(i)}
}

// newFigure returns a figure with a titled, styled plot and a grid.
func newFigure(name, title string) *Figure {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = sans(titleSize)
	p.Title.Padding = vg.Points(8)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(labelSize)
		a.Tick.Label.Font = sans(tickSize)
		a.Padding = vg.Points(2)
		a.Tick.Marker = linearTicks{}
	}
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{Y: 220}
	grid.Horizontal.Color = color.Gray{Y: 220}
	p.Add(grid)
	l := plot.NewLegend()
	l.TextStyle.Font = sans(legendSize)
	l.Top, l.Left = true, true
	l.Padding = vg.Points(3)
	l.ThumbnailWidth = vg.Points(26)
	return &Figure{Name: name, Plot: p, Legend: l, grid: grid}
}

// addSeries draws s as a line with markers in the style of series i, if
// it has data, and records it.
func (f *Figure) addSeries(s Series, i int, dashed bool) {
	if len(s.X) == 0 {
		return
	}
	xys := make(plotter.XYs, len(s.X))
	for k := range s.X {
		xys[k].X, xys[k].Y = s.X[k], s.Y[k]
	}
	l := &plotter.Line{XYs: xys, LineStyle: lineStyle(i, dashed)}
	m := &plotter.Scatter{XYs: xys, GlyphStyle: glyphStyle(i)}
	stable := glyphStyle(i)
	m.GlyphStyleFunc = func(k int) draw.GlyphStyle {
		if k < len(s.Unstable) && s.Unstable[k] {
			return unstableGlyph(i)
		}
		return stable
	}
	f.Plot.Add(l, m)
	if slices.ContainsFunc(s.Half, func(h float64) bool { return !math.IsNaN(h) }) {
		e := &plotter.YErrorBars{XYs: xys, YErrors: make(plotter.YErrors, len(xys)), LineStyle: lineStyle(i, false), CapWidth: vg.Points(5)}
		for k, h := range s.Half {
			// Latency charts have a log scale: the bar stays above 0.
			h = nanZero(h)
			e.YErrors[k] = struct{ Low, High float64 }{min(h, 0.9*s.Y[k]), h}
		}
		f.Plot.Add(e)
	}
	if k := slices.Index(s.X, s.Saturation); k >= 0 {
		sat := &plotter.Scatter{XYs: plotter.XYs{xys[k]}, GlyphStyle: saturationGlyph(i)}
		f.Plot.Add(sat)
	}
	f.Series = append(f.Series, s)
}

// addIntervalEntry adds the legend entry of the error bars if a series of
// f has one.
func (f *Figure) addIntervalEntry() {
	for _, s := range f.Series {
		if slices.ContainsFunc(s.Half, func(h float64) bool { return !math.IsNaN(h) }) {
			f.addEntry("bars: 95 % interval of the mean over the replications", errorThumb{})
			return
		}
	}
}

// saturationGlyph returns the mark of series i's saturation point: a
// hollow square around its marker.
func saturationGlyph(i int) draw.GlyphStyle {
	return draw.GlyphStyle{Color: palette(i), Radius: vg.Points(5.5), Shape: draw.SquareGlyph{}}
}

// addSaturationEntry adds the legend entry of the saturation mark if a
// series of f has one.
func (f *Figure) addSaturationEntry() {
	for _, s := range f.Series {
		if slices.Contains(s.X, s.Saturation) {
			g := saturationGlyph(0)
			g.Color = gray()
			f.addEntry("square: saturation (highest stable load found)", thumb{glyph: &g})
			return
		}
	}
}

// unstableGlyph returns the marker of an unstable point of series i: a
// hollow ring, larger than the stable points' markers.
func unstableGlyph(i int) draw.GlyphStyle {
	return draw.GlyphStyle{Color: palette(i), Radius: vg.Points(3.6), Shape: draw.RingGlyph{}}
}

// addUnstableEntry adds the legend entry of unstable points if a series
// of f has one.
func (f *Figure) addUnstableEntry() {
	for _, s := range f.Series {
		if slices.Contains(s.Unstable, true) {
			g := unstableGlyph(0)
			g.Color = gray()
			f.addEntry("ring: not stable (unstable or undecided; latency of the packets delivered)", thumb{glyph: &g})
			return
		}
	}
}

// lineOf returns a line through the points (xs[k], ys[k]).
func lineOf(xs, ys []float64) *plotter.Line {
	xys := make(plotter.XYs, len(xs))
	for k := range xs {
		xys[k].X, xys[k].Y = xs[k], ys[k]
	}
	return &plotter.Line{XYs: xys, LineStyle: draw.LineStyle{Color: gray(), Width: vg.Points(1)}}
}

// thumb draws a legend thumbnail: a line and, optionally, a marker.
type thumb struct {
	line  draw.LineStyle
	glyph *draw.GlyphStyle
}

// Thumbnail implements plot.Thumbnailer.
func (t thumb) Thumbnail(c *draw.Canvas) {
	if y := c.Center().Y; t.line.Width > 0 {
		c.StrokeLine2(t.line, c.Min.X, y, c.Max.X, y)
	}
	if t.glyph != nil {
		c.DrawGlyph(*t.glyph, c.Center())
	}
}

// errorThumb is the legend thumbnail of an error bar: a gray vertical
// line with caps.
type errorThumb struct{}

// Thumbnail implements plot.Thumbnailer.
func (errorThumb) Thumbnail(c *draw.Canvas) {
	ls := lineStyle(0, false)
	ls.Color = gray()
	x, h := c.Center().X, (c.Max.Y-c.Min.Y)/2
	lo, hi, w := c.Center().Y-h, c.Center().Y+h, vg.Points(3)
	c.StrokeLine2(ls, x, lo, x, hi)
	c.StrokeLine2(ls, x-w, lo, x+w, lo)
	c.StrokeLine2(ls, x-w, hi, x+w, hi)
}

// lineThumb is the legend thumbnail of series i.
func lineThumb(i int, dashed bool) plot.Thumbnailer {
	g := glyphStyle(i)
	return thumb{line: lineStyle(i, dashed), glyph: &g}
}

// keyThumb is the gray thumbnail of the legend's key to line styles.
func keyThumb(dashed bool) plot.Thumbnailer {
	ls := lineStyle(0, dashed)
	ls.Color = gray()
	return thumb{line: ls}
}
