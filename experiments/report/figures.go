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
	"gonum.org/v1/plot/vg/draw"
)

// Axis labels, with units.
const (
	labelOffered    = "offered load (flits/host/cycle)"
	labelAccepted   = "accepted (flits/host/cycle)"
	labelLatency    = "latency (cycles)"
	labelSaturation = "saturation (% of link bandwidth)"
)

// Figure is one chart: a plot, and a legend drawn to the right of it so
// that it never covers data.
type Figure struct {
	// Name is the file name without extension, e.g.
	// "throughput-flatfly_8x8_w1_1_c8-uniform".
	Name string
	// Plot holds the axes and data.
	Plot *plot.Plot
	// Legend is drawn beside Plot.
	Legend plot.Legend
	// Entries are the legend's texts, in order.
	Entries []string
	// Series are the data drawn, in order (the ideal line excluded).
	Series []Series
	grid   *plotter.Grid
}

// Series is one line or set of bars of a figure.
type Series struct {
	Name string
	X, Y []float64
	// Low and High are the ends of the error bars at each X, for series
	// drawn with them (exchanges: the worst and best pattern).
	Low, High []float64
	// Unstable marks, at each X of a series of points, a point that did
	// not sustain its load: it is drawn as a hollow ring.
	Unstable []bool
	// Saturation is the X of a series of points that its saturation
	// search found (NaN if none): a square marks it.
	Saturation float64
	// Half, if set, holds at each X the half-width of the 95 % interval
	// of a mean over replications (NaN where there is none): error bars.
	Half []float64
}

// addEntry adds a legend entry.
func (f *Figure) addEntry(name string, thumbs ...plot.Thumbnailer) {
	f.Legend.Add(name, thumbs...)
	f.Entries = append(f.Entries, name)
}

// Figures builds every chart the results allow: for points, accepted load
// and latency (average and 99th percentile, log scale) against offered
// load, one chart per topology and pattern with one line per routing (by
// = "routing") or per topology and routing with one line per pattern (by =
// "pattern"); for saturation results, one bar chart per topology with the
// patterns as groups and one bar per routing. Results that differ in other
// fields (vls, say) get separate lines or bars, named after the field
// (see Spec.Extend); for exchange results, seed 001's Figure 6 (see
// ebbFigures). Error results are ignored; no results, no figures.
func Figures(results []Result, by string) ([]*Figure, error) {
	var other string
	switch by {
	case "routing":
		other = "pattern"
	case "pattern":
		other = "routing"
	default:
		return nil, fmt.Errorf("by %q: unknown (expected routing or pattern)", by)
	}
	var figs []*Figure
	has := map[string]bool{}
	for _, r := range results {
		has[r.Kind] = true
	}
	if has[KindPoint] {
		spec := Spec{Value: ValueAccepted, Rows: []string{"topology", other, by}, Cols: "offered", Extend: true}
		acc, err := Pivot(results, spec)
		if err != nil {
			return nil, err
		}
		spec.Rows, spec.Extend = acc.RowKeys, false
		spec.Value = ValueLatencyAvg
		avg, err := Pivot(results, spec)
		if err != nil {
			return nil, err
		}
		spec.Value = ValueLatencyP99
		p99, err := Pivot(results, spec)
		if err != nil {
			return nil, err
		}
		net := describer{results: results}
		figs = append(figs, throughputFigures(acc, net)...)
		figs = append(figs, latencyFigures(avg, p99, net)...)
		figs = append(figs, cdfFigures(acc, net)...)
		figs = append(figs, timelineFigures(acc, net)...)
	}
	if has[KindSaturation] {
		sat, err := Pivot(results, Spec{Value: ValueSaturation, Extend: true})
		if err != nil {
			return nil, err
		}
		figs = append(figs, saturationFigures(sat, describer{results: results})...)
	}
	if has[KindEBB] {
		ebb, err := ebbFigures(results)
		if err != nil {
			return nil, err
		}
		figs = append(figs, ebb...)
	}
	if has[KindWorkload] {
		wl, err := workloadFigures(results)
		if err != nil {
			return nil, err
		}
		figs = append(figs, wl...)
	}
	uniqueNames(figs)
	return figs, nil
}

// group is the rows of a table that share their first n keys.
type group struct {
	keys []string
	rows []Row
}

// groupRows splits t's rows by their first n keys, keeping order.
func groupRows(t *Table, n int) []group {
	var gs []group
	for _, r := range t.Rows {
		if len(gs) == 0 || !slices.Equal(gs[len(gs)-1].keys, r.Keys[:n]) {
			gs = append(gs, group{keys: r.Keys[:n]})
		}
		gs[len(gs)-1].rows = append(gs[len(gs)-1].rows, r)
	}
	return gs
}

// seriesName names a row of a table from its keys after the first n: the
// first as it is, the others as "field value"; a sweep's variant is
// shortened to its swept keys without their section, leaving out those
// whose value the name already shows ("dor, buffer_flits=32").
func seriesName(t *Table, r Row, n int) string {
	parts := []string{r.Keys[n]}
	for i := n + 1; i < len(r.Keys); i++ {
		if t.RowKeys[i] == "variant" {
			if v := shortVariant(r.Keys[i], r.Keys[n:i]); v != "" {
				parts = append(parts, v)
			}
			continue
		}
		parts = append(parts, t.RowKeys[i]+" "+r.Keys[i])
	}
	return strings.Join(parts, ", ")
}

// shortVariant returns a variant ("routing.algorithm=dor;flow_control.vls=2")
// as "vls=2": the section prefixes dropped, and the assignments whose value
// is one of shown left out.
func shortVariant(variant string, shown []string) string {
	var parts []string
	for _, a := range strings.Split(variant, ";") {
		k, v, ok := strings.Cut(a, "=")
		if ok && slices.Contains(shown, v) {
			continue
		}
		if _, key, ok := strings.Cut(k, "."); ok {
			a = key + "=" + v
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, ", ")
}

// describer says what network the results of a chart's rows ran on and
// where their saturation searches ended.
type describer struct {
	results []Result
}

// matches returns the results of kind kind whose fields keys hold vals.
func (d describer) matches(kind string, keys, vals []string) []Result {
	var out []Result
	for _, r := range d.results {
		if r.Kind != kind {
			continue
		}
		ok := true
		for i, k := range keys {
			if v, held := r.Text(k); !held || v != vals[i] {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, r)
		}
	}
	return out
}

// network describes the points whose fields keys hold vals: "64 hosts,
// 6 VLs, 16-flit packets", each part listing the values found ("2/4
// VLs"), the hosts left out if no line says them.
func (d describer) network(kind string, keys, vals []string) string {
	var parts []string
	for _, f := range []struct{ field, one, many string }{
		{"hosts", "%s host", "%s hosts"}, {"vls", "%s VL", "%s VLs"}, {"packet_flits", "%s-flit packets", "%s-flit packets"},
	} {
		var vs []string
		for _, r := range d.matches(kind, keys, vals) {
			if v, ok := r.Text(f.field); ok && !slices.Contains(vs, v) {
				vs = append(vs, v)
			}
		}
		switch {
		case len(vs) == 1 && vs[0] == "1":
			parts = append(parts, fmt.Sprintf(f.one, vs[0]))
		case len(vs) > 0:
			parts = append(parts, fmt.Sprintf(f.many, strings.Join(vs, "/")))
		}
	}
	return strings.Join(parts, ", ")
}

// saturation returns the load the saturation search of row r of t found,
// or NaN if the results hold none, or several that differ.
func (d describer) saturation(t *Table, r Row) float64 {
	sat := math.NaN()
	for i, m := range d.matches(KindSaturation, t.RowKeys, r.Keys) {
		v, _ := m.Number("saturation")
		if i > 0 && v != sat {
			return math.NaN()
		}
		sat = v
	}
	return sat
}

// title returns the title of a chart of kind's results: its keys, then
// suffix if any, and the network's description below them.
func (d describer) title(kind string, t *Table, keys []string, suffix string) string {
	title := strings.Join(append(slices.Clone(keys), suffix), " — ")
	if suffix == "" {
		title = strings.Join(keys, " — ")
	}
	if n := d.network(kind, t.RowKeys[:len(keys)], keys); n != "" {
		title += "\n" + n
	}
	return title
}

// nanZero returns x, or 0 if it is NaN.
func nanZero(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

// rowSeries returns the series of row r of t, whose columns are numbers;
// with positive set, values ≤ 0 are left out (for a log scale).
func rowSeries(t *Table, r Row, name string, positive bool) Series {
	s := Series{Name: name, Saturation: math.NaN()}
	for j, c := range r.Cells {
		x, err := strconv.ParseFloat(t.Cols[j], 64)
		if !c.OK || err != nil || math.IsNaN(c.Value) || math.IsInf(c.Value, 0) || positive && c.Value <= 0 {
			continue
		}
		s.X = append(s.X, x)
		s.Y = append(s.Y, c.Value)
		s.Unstable = append(s.Unstable, c.Unstable)
		s.Half = append(s.Half, c.Half)
	}
	return s
}

// throughputFigures draws accepted against offered load, with the ideal
// y = x.
func throughputFigures(t *Table, d describer) []*Figure {
	var figs []*Figure
	for _, g := range groupRows(t, 2) {
		f := newFigure("throughput-"+slug(g.keys[0])+"-"+slug(g.keys[1]), d.title(KindPoint, t, g.keys, ""))
		f.Plot.X.Label.Text, f.Plot.Y.Label.Text = labelOffered, labelAccepted
		var series []Series
		top := 0.0
		for _, r := range g.rows {
			s := rowSeries(t, r, seriesName(t, r, 2), false)
			s.Saturation = d.saturation(t, r)
			if len(s.X) > 0 {
				top = math.Max(top, math.Max(slices.Max(s.X), slices.Max(s.Y)))
				series = append(series, s)
			}
		}
		if len(series) == 0 {
			continue
		}
		ideal := lineOf([]float64{0, top}, []float64{0, top})
		ideal.LineStyle = draw.LineStyle{Color: gray(), Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
		f.Plot.Add(ideal) // first, so the data is drawn over it
		for i, s := range series {
			f.addSeries(s, i, false)
			f.addEntry(s.Name, lineThumb(i, false))
		}
		f.addEntry("ideal (y = x)", ideal)
		f.addUnstableEntry()
		f.addSaturationEntry()
		f.addIntervalEntry()
		f.Plot.X.Min, f.Plot.Y.Min = 0, 0
		f.Plot.X.Max, f.Plot.Y.Max = top, top
		figs = append(figs, f)
	}
	return figs
}

// latencyFigures draws average (solid) and 99th-percentile (dashed)
// latency against offered load on a log scale; avg and p99 have the same
// rows.
func latencyFigures(avg, p99 *Table, d describer) []*Figure {
	var figs []*Figure
	tails := groupRows(p99, 2)
	for gi, g := range groupRows(avg, 2) {
		f := newFigure("latency-"+slug(g.keys[0])+"-"+slug(g.keys[1]), d.title(KindPoint, avg, g.keys, ""))
		f.Plot.X.Label.Text, f.Plot.Y.Label.Text = labelOffered, labelLatency
		lo, hi := math.Inf(1), math.Inf(-1)
		n := 0
		for ri, r := range g.rows {
			name := seriesName(avg, r, 2)
			a := rowSeries(avg, r, name+" avg", true)
			a.Saturation = d.saturation(avg, r)
			p := rowSeries(p99, tails[gi].rows[ri], name+" p99", true)
			if len(a.X)+len(p.X) == 0 {
				continue
			}
			for _, s := range []Series{a, p} {
				if len(s.Y) > 0 {
					lo, hi = math.Min(lo, slices.Min(s.Y)), math.Max(hi, slices.Max(s.Y))
				}
			}
			f.addSeries(a, n, false)
			f.addSeries(p, n, true)
			f.addEntry(name, lineThumb(n, false))
			n++
		}
		if len(f.Series) == 0 {
			continue
		}
		f.addEntry("solid: average", keyThumb(false))
		f.addEntry("dashed: 99th percentile", keyThumb(true))
		f.addUnstableEntry()
		f.addSaturationEntry()
		f.addIntervalEntry()
		f.Plot.X.Min = 0
		f.Plot.Y.Scale = plot.LogScale{}
		f.Plot.Y.Tick.Marker = logTicks{}
		f.Plot.Y.Min, f.Plot.Y.Max = lo/1.2, hi*1.2
		figs = append(figs, f)
	}
	return figs
}

// saturationFigures draws one grouped bar chart per topology: the patterns
// as groups, one bar per routing, in % of link bandwidth.
func saturationFigures(t *Table, d describer) []*Figure {
	var figs []*Figure
	for _, g := range groupRows(t, 1) {
		f := newFigure("saturation-"+slug(g.keys[0]), d.title(KindSaturation, t, g.keys, "saturation"))
		f.Plot.X.Label.Text, f.Plot.Y.Label.Text = "traffic pattern", labelSaturation
		var cols []int // the patterns measured on this topology
		for j := range t.Cols {
			if slices.ContainsFunc(g.rows, func(r Row) bool { return r.Cells[j].OK }) {
				cols = append(cols, j)
			}
		}
		top, intervals := 0.0, false
		for i, r := range g.rows {
			s := Series{Name: seriesName(t, r, 1)}
			b := &bars{index: i, count: len(g.rows), color: palette(i), labels: len(g.rows)*len(cols) <= maxBarLabels}
			for x, j := range cols {
				v, h := math.NaN(), math.NaN()
				if c := r.Cells[j]; c.OK {
					v, h = 100*c.Value, 100*c.Half
					top = math.Max(top, v+nanZero(h))
					s.X = append(s.X, float64(x))
					s.Y = append(s.Y, v)
				}
				b.values = append(b.values, v)
				b.halves = append(b.halves, h)
			}
			f.Series = append(f.Series, s)
			f.Plot.Add(b)
			f.addEntry(s.Name, b)
			intervals = intervals || slices.ContainsFunc(b.halves, func(h float64) bool { return !math.IsNaN(h) })
		}
		if intervals {
			f.addEntry("whiskers: 95 % interval of the mean over the replications", errorThumb{})
		}
		names := make([]string, len(cols))
		for x, j := range cols {
			names[x] = t.Cols[j]
		}
		f.Plot.NominalX(names...)
		f.grid.Vertical.Color = nil
		f.Plot.X.Min, f.Plot.X.Max = -0.5, float64(len(cols))-0.5
		f.Plot.Y.Min, f.Plot.Y.Max = 0, min(100, 10*math.Ceil(top*1.1/10+1e-9)) // room for the labels
		figs = append(figs, f)
	}
	return figs
}

// maxBarLabels is the most bars a chart writes values on.
const maxBarLabels = 24

// uniqueNames makes figure names unique, in order, by appending -2, -3...
func uniqueNames(figs []*Figure) {
	seen := map[string]int{}
	for _, f := range figs {
		seen[f.Name]++
		if n := seen[f.Name]; n > 1 {
			f.Name = fmt.Sprintf("%s-%d", f.Name, n)
		}
	}
}

// Slug turns a label into a file name part, as chart names are made:
// lower case letters, digits, '.', '+', and '_' for every other run.
func Slug(s string) string { return slug(s) }

// slug turns a label into a file name part: lower case letters, digits,
// '.' and '+', other runs of characters replaced by '_'.
func slug(s string) string {
	var b strings.Builder
	under := false
	for _, c := range strings.ToLower(s) {
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '+' {
			b.WriteRune(c)
			under = false
		} else if !under && b.Len() > 0 {
			b.WriteByte('_')
			under = true
		}
	}
	out := strings.TrimRight(b.String(), "_")
	if out == "" {
		return "_"
	}
	return out
}
