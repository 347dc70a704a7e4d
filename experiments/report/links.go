package report

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	gpalette "gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"netsim/fabric"
	"netsim/topologies"
)

// WriteLinks writes the links' load of one point ([sim] link_stats) into
// dir, its files named after name, and returns the paths written:
//
//   - NAME.csv: one row per directed link and VL, and one per link over
//     all its VLs (vl "all"): its ends, class, flits, utilisation (flits
//     per cycle of the window) and the fraction of samples at which flow
//     control held it back;
//   - NAME-sorted.png and .svg: every link's utilisation, highest first,
//     links between switches and hosts' links apart;
//   - NAME-heatmap.png and .svg, for networks whose switches have two or
//     more coordinates: the mean utilisation of each switch's links to
//     other switches over its first two coordinates (averaged over the
//     others);
//   - NAME.dot: the switches and the links between them, each link
//     coloured and thickened by its utilisation (Graphviz: dot -Tsvg).
func WriteLinks(dir, name, title string, net *topologies.Network, ls *fabric.LinkStats) ([]string, error) {
	var paths []string
	csvPath := filepath.Join(dir, name+".csv")
	if err := writeFile(csvPath, func(w io.Writer) error { return writeLinksCSV(w, ls) }); err != nil {
		return paths, err
	}
	paths = append(paths, csvPath)
	figs := []*Figure{sortedLinks(name, title, ls)}
	if f := linkHeatmap(name, title, net, ls); f != nil {
		figs = append(figs, f)
	}
	written, err := WriteFigures(dir, figs)
	paths = append(paths, written...)
	if err != nil {
		return paths, err
	}
	dotPath := filepath.Join(dir, name+".dot")
	if err := writeFile(dotPath, func(w io.Writer) error { return writeLinksDot(w, title, net, ls) }); err != nil {
		return paths, err
	}
	return append(paths, dotPath), nil
}

// endName names a link's end in the CSV: "switch S" or "host H".
func endName(e fabric.LinkEnd) (string, string) {
	switch {
	case e.Host >= 0:
		return "host " + strconv.Itoa(int(e.Host)), ""
	case e.Switch >= 0:
		return "switch " + strconv.Itoa(int(e.Switch)), strconv.Itoa(int(e.Port))
	}
	return "none", ""
}

// writeLinksCSV writes the CSV of WriteLinks.
func writeLinksCSV(w io.Writer, ls *fabric.LinkStats) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"from", "from_port", "to", "to_port", "dim", "vl", "flits", "utilisation", "stalled"})
	samples := float64(max(ls.Samples, 1))
	for i := range ls.Links {
		l := &ls.Links[i]
		from, fp := endName(l.From)
		to, tp := endName(l.To)
		dim := strconv.Itoa(int(l.Dim))
		var all int64
		for vl, f := range l.Flits {
			all += f
			stalled := ""
			if l.Stalled != nil {
				stalled = strconv.FormatFloat(float64(l.Stalled[vl])/samples, 'f', 4, 64)
			}
			cw.Write([]string{from, fp, to, tp, dim, strconv.Itoa(vl), strconv.FormatInt(f, 10),
				strconv.FormatFloat(l.Utilisation(ls.Window, vl), 'f', 4, 64), stalled})
		}
		cw.Write([]string{from, fp, to, tp, dim, "all", strconv.FormatInt(all, 10),
			strconv.FormatFloat(l.Utilisation(ls.Window, -1), 'f', 4, 64), strconv.FormatFloat(float64(l.Blocked)/samples, 'f', 4, 64)})
	}
	cw.Flush()
	return cw.Error()
}

// sortedLinks draws every link's utilisation, highest first, against the
// fraction of links at least that busy: links between switches and
// hosts' links (to and from the network) as two lines.
func sortedLinks(name, title string, ls *fabric.LinkStats) *Figure {
	f := newFigure(name+"-sorted", title+"\nlink utilisation, highest first")
	f.Plot.X.Label.Text, f.Plot.Y.Label.Text = "fraction of links", "utilisation (flits per cycle)"
	var inner, host []float64
	for i := range ls.Links {
		l := &ls.Links[i]
		if l.From.Host >= 0 || l.To.Host >= 0 {
			host = append(host, l.Utilisation(ls.Window, -1))
		} else if l.To.Switch >= 0 {
			inner = append(inner, l.Utilisation(ls.Window, -1))
		}
	}
	n := 0
	for _, c := range []struct {
		name string
		us   []float64
	}{{"links between switches", inner}, {"hosts' links", host}} {
		if len(c.us) == 0 {
			continue
		}
		slices.SortFunc(c.us, func(a, b float64) int { return cmp.Compare(b, a) })
		s := Series{Name: c.name}
		for k, u := range c.us {
			s.X, s.Y = append(s.X, (float64(k)+0.5)/float64(len(c.us))), append(s.Y, u)
		}
		f.addPlainLine(s, fmt.Sprintf("%s (%d)", c.name, len(c.us)), n, false)
		n++
	}
	f.Plot.X.Min, f.Plot.X.Max, f.Plot.Y.Min = 0, 1, 0
	f.Plot.Y.Max = 1
	return f
}

// switchUtilisation returns the mean utilisation of each switch's links
// to other switches (NaN for a switch without any).
func switchUtilisation(net *topologies.Network, ls *fabric.LinkStats) []float64 {
	sum, n := make([]float64, len(net.Switches)), make([]int, len(net.Switches))
	for i := range ls.Links {
		l := &ls.Links[i]
		if l.From.Switch >= 0 && l.To.Switch >= 0 {
			sum[l.From.Switch] += l.Utilisation(ls.Window, -1)
			n[l.From.Switch]++
		}
	}
	for s := range sum {
		if n[s] == 0 {
			sum[s] = math.NaN()
		} else {
			sum[s] /= float64(n[s])
		}
	}
	return sum
}

// heatGrid is the grid of a link heatmap.
type heatGrid struct {
	cols, rows int
	z          []float64 // row-major, NaN where no switch is
}

func (g heatGrid) Dims() (c, r int)   { return g.cols, g.rows }
func (g heatGrid) Z(c, r int) float64 { return g.z[r*g.cols+c] }
func (g heatGrid) X(c int) float64    { return float64(c) }
func (g heatGrid) Y(r int) float64    { return float64(r) }

// linkHeatmap draws the mean utilisation of each switch's links to other
// switches over the switches' first two coordinates, averaged over the
// others; nil if the switches have fewer than two.
func linkHeatmap(name, title string, net *topologies.Network, ls *fabric.LinkStats) *Figure {
	g, hi, ok := switchGrid(net, ls)
	if !ok {
		return nil
	}
	pal := moreland.SmoothBlueRed().Palette(64)
	f := newFigure(name+"-heatmap", title+"\nmean utilisation of each switch's links to switches")
	f.Plot.X.Label.Text, f.Plot.Y.Label.Text = "coordinate 0", "coordinate 1"
	if net.Kind == "dragonfly" {
		f.Plot.X.Label.Text, f.Plot.Y.Label.Text = "group", "switch in group"
	}
	h := plotter.NewHeatMap(g, pal)
	h.Min, h.Max = 0, math.Max(hi, 1e-9)
	h.NaN = color.White
	f.Plot.Add(h)
	for _, frac := range []float64{1, 0.5, 0} {
		c := pal.Colors()[int(frac*float64(len(pal.Colors())-1))]
		f.addEntry(strconv.FormatFloat(frac*h.Max, 'f', 3, 64), swatch{c})
	}
	f.Plot.X.Min, f.Plot.X.Max = -0.5, float64(g.cols)-0.5
	f.Plot.Y.Min, f.Plot.Y.Max = -0.5, float64(g.rows)-0.5
	return f
}

// switchGrid returns the grid of linkHeatmap and its highest value; ok is
// false if a switch has fewer than two coordinates.
func switchGrid(net *topologies.Network, ls *fabric.LinkStats) (g heatGrid, hi float64, ok bool) {
	cols, rows := 0, 0
	for _, s := range net.Switches {
		if len(s.Coord) < 2 {
			return g, 0, false
		}
		cols, rows = max(cols, int(s.Coord[0])+1), max(rows, int(s.Coord[1])+1)
	}
	if len(net.Switches) == 0 || cols*rows > 1<<20 {
		return g, 0, false
	}
	u := switchUtilisation(net, ls)
	sum, n := make([]float64, cols*rows), make([]int, cols*rows)
	for i, s := range net.Switches {
		if !math.IsNaN(u[i]) {
			k := int(s.Coord[1])*cols + int(s.Coord[0])
			sum[k] += u[i]
			n[k]++
		}
	}
	g = heatGrid{cols: cols, rows: rows, z: sum}
	for k := range g.z {
		if n[k] == 0 {
			g.z[k] = math.NaN()
		} else {
			g.z[k] /= float64(n[k])
			hi = math.Max(hi, g.z[k])
		}
	}
	return g, hi, true
}

// swatch is a legend thumbnail: a square of one colour next to the text.
type swatch struct{ c color.Color }

// Thumbnail implements plot.Thumbnailer.
func (s swatch) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	h := (c.Max.Y - c.Min.Y) / 2
	x := c.Max.X - 1.8*h
	c.FillPolygon(s.c, []vg.Point{{X: x - h, Y: y - h}, {X: x - h, Y: y + h}, {X: x + h, Y: y + h}, {X: x + h, Y: y - h}})
}

// writeLinksDot writes the graph of WriteLinks.
func writeLinksDot(w io.Writer, title string, net *topologies.Network, ls *fabric.LinkStats) error {
	pal := moreland.SmoothBlueRed().Palette(64)
	fmt.Fprintf(w, "digraph links {\n\tlabel=%q;\n\tnode [shape=box, fontsize=10];\n", title+": link utilisation (hosts' links left out)")
	for i, s := range net.Switches {
		label := "S" + strconv.Itoa(i)
		if len(s.Coord) > 0 {
			label += fmt.Sprint(s.Coord)
		}
		fmt.Fprintf(w, "\ts%d [label=%q];\n", i, label)
	}
	for i := range ls.Links {
		l := &ls.Links[i]
		if l.From.Switch < 0 || l.To.Switch < 0 {
			continue
		}
		u := l.Utilisation(ls.Window, -1)
		fmt.Fprintf(w, "\ts%d -> s%d [color=%q, penwidth=%.2f, tooltip=\"port %d: %.3f\"];\n",
			l.From.Switch, l.To.Switch, hexColor(colorAt(pal, u)), 0.5+4*math.Min(u, 1), l.From.Port, u)
	}
	_, err := fmt.Fprintln(w, "}")
	return err
}

// colorAt returns the colour of utilisation u in [0, 1] on pal.
func colorAt(pal gpalette.Palette, u float64) color.Color {
	cs := pal.Colors()
	return cs[int(math.Min(math.Max(u, 0), 1)*float64(len(cs)-1))]
}

// hexColor renders c as "#rrggbb".
func hexColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

var _ plot.Thumbnailer = swatch{}
