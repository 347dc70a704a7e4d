package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// figureByName returns the figure named name.
func figureByName(t *testing.T, figs []*Figure, name string) *Figure {
	t.Helper()
	for _, f := range figs {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no figure %q", name)
	return nil
}

// seriesNames returns the names of f's series.
func seriesNames(f *Figure) []string {
	var names []string
	for _, s := range f.Series {
		names = append(names, s.Name)
	}
	return names
}

func TestFiguresByRouting(t *testing.T) {
	figs, err := Figures(fixture(t, fixtureLines()), "routing")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range figs {
		names = append(names, f.Name)
	}
	wantNames := []string{
		"throughput-flatfly_4x4_w1_1_c4-uniform", "throughput-flatfly_4x4_w1_1_c4-complement",
		"latency-flatfly_4x4_w1_1_c4-uniform", "latency-flatfly_4x4_w1_1_c4-complement",
		"saturation-flatfly_4x4_w1_1_c4", "saturation-flatfly_16x16_w1_1_c4",
	}
	if !slices.Equal(names, wantNames) {
		t.Fatalf("figures %q, want %q", names, wantNames)
	}

	tp := figureByName(t, figs, "throughput-flatfly_4x4_w1_1_c4-uniform")
	if !slices.Equal(tp.Entries, []string{"dor", "ador", "ideal (y = x)"}) {
		t.Errorf("throughput legend %q", tp.Entries)
	}
	if len(tp.Series) != 2 || !slices.Equal(tp.Series[0].X, []float64{0.1, 0.5, 1}) || !slices.Equal(tp.Series[0].Y, []float64{0.1, 0.4912, 0.62}) {
		t.Errorf("throughput series %+v", tp.Series)
	}
	if tp.Plot.X.Label.Text != "offered load (flits/host/cycle)" || tp.Plot.Y.Label.Text != "accepted (flits/host/cycle)" {
		t.Errorf("throughput axes %q, %q", tp.Plot.X.Label.Text, tp.Plot.Y.Label.Text)
	}
	if tp.Plot.X.Max != 1 || tp.Plot.Y.Max != 1 || tp.Plot.X.Min != 0 || tp.Plot.Y.Min != 0 {
		t.Errorf("throughput range x %v..%v y %v..%v, want 0..1", tp.Plot.X.Min, tp.Plot.X.Max, tp.Plot.Y.Min, tp.Plot.Y.Max)
	}
	if tp.Plot.Title.Text != "flatfly 4x4 w1,1 c4 — uniform\n2 VLs, 16-flit packets" {
		t.Errorf("title %q", tp.Plot.Title.Text)
	}

	lat := figureByName(t, figs, "latency-flatfly_4x4_w1_1_c4-uniform")
	if got := seriesNames(lat); !slices.Equal(got, []string{"dor avg", "dor p99", "ador avg", "ador p99"}) {
		t.Errorf("latency series %q", got)
	}
	// The point without delivered packets (latency null) is left out.
	if !slices.Equal(lat.Series[0].X, []float64{0.1, 0.5}) || !slices.Equal(lat.Series[0].Y, []float64{20, 40.25}) {
		t.Errorf("dor avg %+v", lat.Series[0])
	}
	if !slices.Equal(lat.Entries, []string{"dor", "ador", "solid: average", "dashed: 99th percentile"}) {
		t.Errorf("latency legend %q", lat.Entries)
	}
	if _, ok := lat.Plot.Y.Scale.(plot.LogScale); !ok || lat.Plot.Y.Label.Text != "latency (cycles)" {
		t.Errorf("latency y axis: scale %T, label %q", lat.Plot.Y.Scale, lat.Plot.Y.Label.Text)
	}

	sat := figureByName(t, figs, "saturation-flatfly_4x4_w1_1_c4")
	if !slices.Equal(sat.Entries, []string{"dor", "ador"}) || sat.Plot.Y.Label.Text != "saturation (% of link bandwidth)" {
		t.Errorf("saturation legend %q, y label %q", sat.Entries, sat.Plot.Y.Label.Text)
	}
	// Groups are the patterns measured on the topology, in seed order.
	dor := sat.Series[0]
	if !slices.Equal(dor.X, []float64{0, 1, 2, 3, 4, 5}) || dor.Y[0] != 81.25 || dor.Y[5] != 100*3.0/128 {
		t.Errorf("dor bars %+v", dor)
	}
	if ador := sat.Series[1]; !slices.Equal(ador.X, []float64{0, 1}) || !slices.Equal(ador.Y, []float64{75, 50}) {
		t.Errorf("ador bars %+v", ador)
	}
	if sat.Plot.X.Max != 5.5 {
		t.Errorf("saturation x max %v, want 5.5 (six patterns)", sat.Plot.X.Max)
	}
	if s16 := figureByName(t, figs, "saturation-flatfly_16x16_w1_1_c4"); !slices.Equal(s16.Series[0].Y, []float64{50, 12.5, 25}) {
		t.Errorf("16x16 bars %+v", s16.Series)
	}
}

func TestFiguresByPattern(t *testing.T) {
	figs, err := Figures(fixture(t, fixtureLines()), "pattern")
	if err != nil {
		t.Fatal(err)
	}
	f := figureByName(t, figs, "throughput-flatfly_4x4_w1_1_c4-dor")
	if !slices.Equal(f.Entries, []string{"uniform", "complement", "ideal (y = x)"}) {
		t.Errorf("legend %q", f.Entries)
	}
	figureByName(t, figs, "latency-flatfly_4x4_w1_1_c4-ador")
	if _, err := Figures(nil, "topology"); err == nil {
		t.Error("by topology: no error")
	}
	figs, err = Figures(fixture(t, []string{errorLine("uniform", 0.5)}), "routing")
	if err != nil || len(figs) != 0 {
		t.Errorf("errors only: %d figures, %v", len(figs), err)
	}
}

func TestFiguresExtraField(t *testing.T) {
	lines := []string{
		pointLine(ff4, "dor", "uniform", 0.1, 0.1, "20"),
		strings.Replace(pointLine(ff4, "dor", "uniform", 0.1, 0.1, "18"), `"vls":2`, `"vls":4`, 1),
	}
	figs, err := Figures(fixture(t, lines), "routing")
	if err != nil {
		t.Fatal(err)
	}
	if got := figs[0].Entries; !slices.Equal(got, []string{"dor, vls 2", "dor, vls 4", "ideal (y = x)"}) {
		t.Errorf("legend %q", got)
	}
}

// countColor counts the pixels of img within 8 of c in every channel.
func countColor(img image.Image, c color.Color) int {
	r0, g0, b0, _ := c.RGBA()
	n := 0
	near := func(a, b uint32) bool { return a>>8 <= b>>8+8 && b>>8 <= a>>8+8 }
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if near(r, r0) && near(g, g0) && near(b, b0) {
				n++
			}
		}
	}
	return n
}

func TestFigureRender(t *testing.T) {
	figs, err := Figures(fixture(t, fixtureLines()), "routing")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"throughput-flatfly_4x4_w1_1_c4-uniform", "latency-flatfly_4x4_w1_1_c4-uniform", "saturation-flatfly_4x4_w1_1_c4"} {
		f := figureByName(t, figs, name)
		var png, svg bytes.Buffer
		if err := f.Write(&png, "png"); err != nil {
			t.Fatal(err)
		}
		img, format, err := image.Decode(&png)
		if err != nil || format != "png" {
			t.Fatalf("%s: PNG does not decode: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() != 900 || b.Dy() != 540 {
			t.Errorf("%s: %d×%d pixels, want 900×540", name, b.Dx(), b.Dy())
		}
		// Both series are drawn in their colours.
		for i := range 2 {
			if n := countColor(img, palette(i)); n < 50 {
				t.Errorf("%s: %d pixels of series %d's colour", name, n, i)
			}
		}
		if err := f.Write(&svg, "svg"); err != nil {
			t.Fatal(err)
		}
		s := svg.String()
		if !strings.Contains(s, "<svg") || !strings.HasSuffix(strings.TrimSpace(s), "</svg>") {
			t.Errorf("%s: not an SVG document: %.80q", name, s)
		}
		for _, e := range f.Entries {
			if !strings.Contains(s, ">"+e+"</text>") {
				t.Errorf("%s: SVG lacks legend text %q", name, e)
			}
		}
		d := xml.NewDecoder(&svg)
		for {
			if _, err := d.Token(); err != nil {
				if !errors.Is(err, io.EOF) {
					t.Errorf("%s: SVG is not well-formed XML: %v", name, err)
				}
				break
			}
		}
		// The legend is right of the data area, never over it.
		c := draw.New(vgimg.New(figWidth, figHeight))
		plotArea, legendArea := f.layout(c)
		if data := f.Plot.DataCanvas(plotArea); legendArea.Min.X <= data.Max.X || legendArea.Max.X > c.Max.X {
			t.Errorf("%s: legend x %v..%v overlaps data area ..%v or leaves the canvas", name, legendArea.Min.X, legendArea.Max.X, data.Max.X)
		}
	}
	if err := figs[0].Write(io.Discard, "pdf"); err == nil {
		t.Error("pdf: no error")
	}
}

func TestWriteFigures(t *testing.T) {
	figs, err := Figures(fixture(t, fixtureLines()), "routing")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	paths, err := WriteFigures(dir, figs[4:5])
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "saturation-flatfly_4x4_w1_1_c4.png"), filepath.Join(dir, "saturation-flatfly_4x4_w1_1_c4.svg")}
	if !slices.Equal(paths, want) {
		t.Errorf("paths %q, want %q", paths, want)
	}
	for _, p := range paths {
		if st, err := os.Stat(p); err != nil || st.Size() < 1000 {
			t.Errorf("%s: %v", p, err)
		}
	}
	if _, err := WriteFigures(filepath.Join(dir, "none"), figs[:1]); err == nil || !strings.Contains(err.Error(), "none") {
		t.Errorf("missing directory: %v", err)
	}
}

func TestSlugAndNames(t *testing.T) {
	for in, want := range map[string]string{
		"flatfly 8x8 w1,1 c8":                    "flatfly_8x8_w1_1_c8",
		"product[slimfly q4 w2; flatfly 8x8] c8": "product_slimfly_q4_w2_flatfly_8x8_c8",
		"distance+2":                             "distance+2",
		"  ":                                     "_",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
	figs := []*Figure{{Name: "a"}, {Name: "b"}, {Name: "a"}, {Name: "a"}}
	uniqueNames(figs)
	if figs[2].Name != "a-2" || figs[3].Name != "a-3" || figs[1].Name != "b" {
		t.Errorf("names %q %q %q", figs[1].Name, figs[2].Name, figs[3].Name)
	}
}

func TestTicks(t *testing.T) {
	labels := func(ts []plot.Tick) []string {
		var out []string
		for _, tk := range ts {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	tests := []struct {
		name     string
		ticker   plot.Ticker
		min, max float64
		want     []string
	}{
		{"loads", linearTicks{}, 0, 1, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		{"half", linearTicks{}, 0, 0.5, []string{"0.0", "0.1", "0.2", "0.3", "0.4", "0.5"}},
		{"percent", linearTicks{}, 0, 70, []string{"0", "10", "20", "30", "40", "50", "60", "70"}},
		{"latency decades", logTicks{}, 15, 2500, []string{"20", "50", "100", "200", "500", "1000", "2000"}},
		{"latency narrow", logTicks{}, 25, 45, []string{"30", "40"}},
		{"bad range", logTicks{}, 0, 10, nil},
	}
	for _, tc := range tests {
		if got := labels(tc.ticker.Ticks(tc.min, tc.max)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: labels %q, want %q", tc.name, got, tc.want)
		}
	}
	for v, want := range map[float64]float64{0.0625: 0.1, 0.125: 0.2, 0.3: 0.5, 7: 10, 10: 10, 0: 1} {
		if got := niceCeil(v); got != want {
			t.Errorf("niceCeil(%v) = %v, want %v", v, got, want)
		}
	}
}

func TestShortVariant(t *testing.T) {
	tests := []struct {
		variant string
		shown   []string
		want    string
	}{
		{"routing.algorithm=dor;flow_control.buffer_flits=32", []string{"dor"}, "buffer_flits=32"},
		{"routing.algorithm=dor;flow_control.buffer_flits=32", []string{"ador"}, "algorithm=dor, buffer_flits=32"},
		{"topology.dims=[4,4]", nil, "dims=[4,4]"},
		{"routing.algorithm=dor", []string{"dor"}, ""},
	}
	for _, tc := range tests {
		if got := shortVariant(tc.variant, tc.shown); got != tc.want {
			t.Errorf("shortVariant(%q, %q) = %q, want %q", tc.variant, tc.shown, got, tc.want)
		}
	}
}

// TestFiguresMarkUnstable: a point that did not sustain its load is drawn
// as a ring on the throughput and latency charts, and their legends say
// what a ring is; charts without one do not.
func TestFiguresMarkUnstable(t *testing.T) {
	lines := []string{
		pointLine(ff4, "dor", "uniform", 0.25, 0.25, "20"),
		pointLine(ff4, "dor", "uniform", 0.5, 0.49, "40"),
		strings.Replace(pointLine(ff4, "dor", "uniform", 0.75, 0.55, "90"), `"stable":true`, `"stable":false`, 1),
		pointLine(ff4, "dor", "complement", 0.25, 0.25, "25"),
	}
	figs, err := Figures(fixture(t, lines), "routing")
	if err != nil {
		t.Fatal(err)
	}
	const entry = "ring: not stable (unstable or undecided; latency of the packets delivered)"
	for _, tc := range []struct {
		name     string
		unstable []bool
	}{
		{"throughput-flatfly_4x4_w1_1_c4-uniform", []bool{false, false, true}},
		{"latency-flatfly_4x4_w1_1_c4-uniform", []bool{false, false, true}},
		{"throughput-flatfly_4x4_w1_1_c4-complement", []bool{false}},
	} {
		f := figureByName(t, figs, tc.name)
		if !slices.Equal(f.Series[0].Unstable, tc.unstable) {
			t.Errorf("%s: unstable %v, want %v", tc.name, f.Series[0].Unstable, tc.unstable)
		}
		if want := slices.Contains(tc.unstable, true); slices.Contains(f.Entries, entry) != want {
			t.Errorf("%s: legend %q, want the ring's entry: %v", tc.name, f.Entries, want)
		}
	}
}

// TestFiguresSayWhatTheyShow: a chart's title names the network's hosts,
// VLs and packet size (the values its points hold), and the point its
// saturation search found is marked on the throughput and latency charts,
// with a legend entry; a row without a saturation result has no mark.
func TestFiguresSayWhatTheyShow(t *testing.T) {
	withHosts := func(l string) string { return strings.Replace(l, `"vls":2`, `"vls":2,"hosts":16`, 1) }
	lines := []string{
		withHosts(pointLine(ff4, "dor", "uniform", 0.25, 0.25, "20")),
		withHosts(pointLine(ff4, "dor", "uniform", 0.5, 0.49, "40")),
		strings.Replace(withHosts(pointLine(ff4, "dor", "uniform", 0.75, 0.55, "90")), `"stable":true`, `"stable":false`, 1),
		satLine(ff4, "dor", "uniform", 0.5),
		withHosts(pointLine(ff4, "ador", "uniform", 0.5, 0.5, "30")),
		strings.Replace(pointLine(ff4, "dor", "complement", 0.25, 0.25, "25"), `"vls":2`, `"vls":4`, 1),
		pointLine(ff4, "dor", "complement", 0.5, 0.25, "25"),
	}
	figs, err := Figures(fixture(t, lines), "pattern")
	if err != nil {
		t.Fatal(err)
	}
	const entry = "square: saturation (highest stable load found)"
	for _, tc := range []struct {
		name, title string
		sat         []float64 // of the series, in order
	}{
		{"throughput-flatfly_4x4_w1_1_c4-dor", "flatfly 4x4 w1,1 c4 — dor\n16 hosts, 2/4 VLs, 16-flit packets", []float64{0.5, math.NaN()}},
		{"latency-flatfly_4x4_w1_1_c4-dor", "flatfly 4x4 w1,1 c4 — dor\n16 hosts, 2/4 VLs, 16-flit packets", []float64{0.5, math.NaN(), math.NaN(), math.NaN()}},
		{"throughput-flatfly_4x4_w1_1_c4-ador", "flatfly 4x4 w1,1 c4 — ador\n16 hosts, 2 VLs, 16-flit packets", []float64{math.NaN()}},
		{"saturation-flatfly_4x4_w1_1_c4", "flatfly 4x4 w1,1 c4 — saturation\n2 VLs, 16-flit packets", []float64{math.NaN()}},
	} {
		f := figureByName(t, figs, tc.name)
		if f.Plot.Title.Text != tc.title {
			t.Errorf("%s: title %q, want %q", tc.name, f.Plot.Title.Text, tc.title)
		}
		var sat []float64
		for _, s := range f.Series {
			sat = append(sat, s.Saturation)
			if strings.HasPrefix(tc.name, "saturation") {
				sat = []float64{math.NaN()} // bars: no mark
				break
			}
		}
		if !slices.EqualFunc(sat, tc.sat, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }) {
			t.Errorf("%s: saturation marks %v, want %v", tc.name, sat, tc.sat)
		}
		if want := !math.IsNaN(tc.sat[0]); slices.Contains(f.Entries, entry) != want {
			t.Errorf("%s: legend %q, want the square's entry: %v", tc.name, f.Entries, want)
		}
	}
}

// TestFiguresReplications: the means over replications are drawn with
// their intervals — error bars on the lines, whiskers on the bars — and
// the legends say so; without replications there are none.
func TestFiguresReplications(t *testing.T) {
	rep := func(l string, r int) string {
		if r == 0 {
			return l
		}
		l = strings.Replace(l, `"seed":7,`, fmt.Sprintf(`"seed":%d,"replication":%d,`, 10+r, r), 1)
		return strings.Replace(l, `"seed":1,`, fmt.Sprintf(`"seed":%d,"replication":%d,`, 10+r, r), 1)
	}
	var lines []string
	for r := range 3 {
		lines = append(lines, rep(pointLine(ff4, "dor", "uniform", 0.25, 0.24+0.01*float64(r), "20"), r),
			rep(satLine(ff4, "dor", "uniform", 0.25+float64(r)/128), r))
	}
	lines = append(lines, pointLine(ff4, "dor", "complement", 0.25, 0.25, "25"), satLine(ff4, "dor", "complement", 0.25))
	figs, err := Figures(fixture(t, lines), "routing")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, entry string
		want        bool
	}{
		{"throughput-flatfly_4x4_w1_1_c4-uniform", "bars: 95 % interval of the mean over the replications", true},
		// Equal latencies: an interval of width 0, drawn all the same.
		{"latency-flatfly_4x4_w1_1_c4-uniform", "bars: 95 % interval of the mean over the replications", true},
		{"throughput-flatfly_4x4_w1_1_c4-complement", "bars: 95 % interval of the mean over the replications", false},
		{"saturation-flatfly_4x4_w1_1_c4", "whiskers: 95 % interval of the mean over the replications", true},
	} {
		f := figureByName(t, figs, tc.name)
		if slices.Contains(f.Entries, tc.entry) != tc.want {
			t.Errorf("%s: legend %q, want %q: %v", tc.name, f.Entries, tc.entry, tc.want)
		}
	}
	tp := figureByName(t, figs, "throughput-flatfly_4x4_w1_1_c4-uniform")
	if s := tp.Series[0]; len(s.Y) != 1 || math.Abs(s.Y[0]-0.25) > 1e-12 || math.Abs(s.Half[0]-4.302653*0.01/math.Sqrt(3)) > 1e-6 {
		t.Errorf("uniform series %+v, want the mean 0.25 ± t(2)·0.01/√3", s)
	}
}

// TestFiguresLatencyCDF: points that hold a latency distribution get a
// CDF chart per topology, pattern and routing, one staircase per load in
// order of load, named "(not stable)" where the point was not; points
// without one get none.
func TestFiguresLatencyCDF(t *testing.T) {
	cdf := func(l, steps string) string {
		return strings.Replace(l, `"stable":`, `"latency_cdf":`+steps+`,"stable":`, 1)
	}
	lines := []string{
		cdf(pointLine(ff4, "dor", "uniform", 0.5, 0.49, "40"), "[[20,0.5],[60,1]]"),
		cdf(pointLine(ff4, "dor", "uniform", 0.25, 0.25, "20"), "[[10,0.25],[15,0.999],[30,1]]"),
		strings.Replace(cdf(pointLine(ff4, "dor", "uniform", 0.75, 0.55, "90"), "[[50,0.5],[300,1]]"), `"stable":true`, `"stable":false`, 1),
		pointLine(ff4, "dor", "complement", 0.25, 0.25, "25"),
	}
	figs, err := Figures(fixture(t, lines), "routing")
	if err != nil {
		t.Fatal(err)
	}
	f := figureByName(t, figs, "cdf-flatfly_4x4_w1_1_c4-uniform-dor")
	if got := seriesNames(f); !slices.Equal(got, []string{"load 0.25", "load 0.5", "load 0.75 (not stable)"}) {
		t.Errorf("series %q", got)
	}
	// A staircase: up at each latency from the fraction before.
	if s := f.Series[0]; !slices.Equal(s.X, []float64{10, 10, 15, 15, 30, 30}) || !slices.Equal(s.Y, []float64{0, 0.25, 0.25, 0.999, 0.999, 1}) {
		t.Errorf("load 0.25: x %v, y %v", s.X, s.Y)
	}
	if f.Plot.Title.Text != "flatfly 4x4 w1,1 c4 — uniform — dor\nlatency distribution, 2 VLs, 16-flit packets" {
		t.Errorf("title %q", f.Plot.Title.Text)
	}
	for _, g := range figs {
		if strings.HasPrefix(g.Name, "cdf-") && strings.Contains(g.Name, "complement") {
			t.Errorf("%s drawn without a distribution", g.Name)
		}
	}
}

// TestFiguresTimeline: points that hold a timeline get a chart of the load
// accepted over time per topology, pattern and routing, one line per load
// at the middle of each window, and the end of the warm-up.
func TestFiguresTimeline(t *testing.T) {
	tl := func(l, acc string) string {
		return strings.Replace(l, `"stable":`, `"timeline":{"window":100,"warmup":200,"end":500,"generated":[0.5,0.5,0.5],"accepted":`+acc+`},"stable":`, 1)
	}
	lines := []string{
		tl(pointLine(ff4, "dor", "uniform", 0.5, 0.49, "40"), "[0.2,0.45,0.5]"),
		strings.Replace(tl(pointLine(ff4, "dor", "uniform", 0.75, 0.55, "90"), "[0.3,0.6,0.5]"), `"stable":true`, `"stable":false`, 1),
		pointLine(ff4, "dor", "complement", 0.25, 0.25, "25"),
	}
	figs, err := Figures(fixture(t, lines), "routing")
	if err != nil {
		t.Fatal(err)
	}
	f := figureByName(t, figs, "timeline-flatfly_4x4_w1_1_c4-uniform-dor")
	if got := seriesNames(f); !slices.Equal(got, []string{"load 0.5", "load 0.75 (not stable)"}) {
		t.Errorf("series %q", got)
	}
	if s := f.Series[1]; !slices.Equal(s.X, []float64{50, 150, 250}) || !slices.Equal(s.Y, []float64{0.3, 0.6, 0.5}) {
		t.Errorf("load 0.75: x %v, y %v", s.X, s.Y)
	}
	if !slices.Contains(f.Entries, "gray dashes: end of warm-up") || f.Plot.X.Max != 300 {
		t.Errorf("legend %q, x to %v", f.Entries, f.Plot.X.Max)
	}
	for _, g := range figs {
		if strings.HasPrefix(g.Name, "timeline-") && strings.Contains(g.Name, "complement") {
			t.Errorf("%s drawn without a timeline", g.Name)
		}
	}
}
