package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"
)

// loadLine is one point of a chart of one row of a table (cdfFigures,
// timelineFigures): the JSON text of the field drawn, and the line's
// legend name.
type loadLine struct {
	text, name string
	stable     bool
}

// rowLines returns the points of row r of t that hold field, in order of
// offered load, each named "load L", then "(replication R)" and "(not
// stable)" where so.
func (d describer) rowLines(t *Table, r Row, field string) []loadLine {
	type point struct {
		load float64
		line loadLine
	}
	var ps []point
	for _, m := range d.matches(KindPoint, t.RowKeys, r.Keys) {
		text, ok := m.Text(field)
		if !ok {
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
		ps = append(ps, point{load, loadLine{text: text, name: name, stable: stable != "false"}})
	}
	slices.SortStableFunc(ps, func(a, b point) int { return cmp.Compare(a.load, b.load) })
	lines := make([]loadLine, len(ps))
	for i, p := range ps {
		lines[i] = p.line
	}
	return lines
}

// rowFigure returns the chart of row r of t: named PREFIX-KEY-KEY-...
// (slugs of the row's keys), titled with the keys and, below them, what
// the chart shows and the network.
func (d describer) rowFigure(t *Table, r Row, prefix, what string) *Figure {
	parts := make([]string, len(r.Keys))
	for i, k := range r.Keys {
		parts[i] = slug(k)
	}
	title := strings.Join(r.Keys, " — ") + "\n" + what
	if net := d.network(KindPoint, t.RowKeys, r.Keys); net != "" {
		title += ", " + net
	}
	return newFigure(prefix+"-"+strings.Join(parts, "-"), title)
}

// addPlainLine draws s as a line without markers in the style of series
// n, dashed or solid, records it, and adds entry to the legend.
func (f *Figure) addPlainLine(s Series, entry string, n int, dashed bool) {
	xys := make(plotter.XYs, len(s.X))
	for k := range s.X {
		xys[k].X, xys[k].Y = s.X[k], s.Y[k]
	}
	f.Plot.Add(&plotter.Line{XYs: xys, LineStyle: lineStyle(n, dashed)})
	if s.Saturation == 0 {
		s.Saturation = math.NaN() // no mark
	}
	f.Series = append(f.Series, s)
	f.addEntry(entry, thumb{line: lineStyle(n, dashed)})
}
