package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// ebbLine returns an exchange results line; threshold < 0 leaves out
// threshold and probability (static and random dispersion).
func ebbLine(experiment, pattern, dispersion string, hosts, threshold int, probability, lo, avg, hi float64) string {
	params := ""
	if threshold >= 0 {
		params = fmt.Sprintf(`"threshold":%d,"probability":%v,`, threshold, probability)
	}
	return fmt.Sprintf(`{"kind":"ebb","experiment":%q,"topology":"clos p32 h%d","routing":"source","pattern":%q,"flow_control":"stopgo","switching":"wormhole","vls":1,"packet_flits":64,"seed":5,"variant":"v%d%s%d%v","point":"p","config":"c","hosts":%d,"dispersion":%q,%s"patterns":10,"min":%v,"avg":%v,"max":%v,"packets":100,"out_of_order":5,"max_displacement":1,"route_changes":0,"probes":0}`,
		experiment, hosts, pattern, hosts, dispersion, threshold, probability, hosts, dispersion, params, lo, avg, hi)
}

// figure6Lines are exchange results on 32 and 512 hosts, static and
// adaptive, bisection and bridge, in no particular order.
func figure6Lines() []string {
	return []string{
		ebbLine("f", "bisection", "static", 512, -1, 0, 0.35, 0.38, 0.40),
		ebbLine("f", "bridge", "adaptive", 32, 4, 0.5, 0.6, 0.6, 0.6),
		ebbLine("f", "bisection", "adaptive", 512, 4, 0.5, 0.5, 0.51, 0.52),
		ebbLine("f", "bisection", "static", 32, -1, 0, 0.6, 0.7, 0.8),
		ebbLine("f", "bisection", "adaptive", 32, 4, 0.5, 0.7, 0.75, 0.9),
		ebbLine("f", "bridge", "static", 32, -1, 0, 0.55, 0.55, 0.55),
	}
}

// paramLines are a parameter study: probing on 512 hosts, threshold ×
// probability.
func paramLines() []string {
	var lines []string
	for _, th := range []int{16, 0, 8, 4} {
		for _, p := range []float64{1, 0.5} {
			v := 0.5 + float64(th)/100 + p/10
			lines = append(lines, ebbLine("p", "bisection", "probing", 512, th, p, v-0.05, v, v+0.05))
		}
	}
	return lines
}

func TestEBBTable(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		spec  Spec
		want  string
	}{
		{"figure 6", figure6Lines(), Spec{Extend: true}, `Effective bisection bandwidth, average over the patterns (% of link bandwidth) by hosts.

| pattern | dispersion | 32 | 512 |
|---|---|---:|---:|
| bisection | static | 70.0 | 38.0 |
| bisection | adaptive | 75.0 | 51.0 |
| bridge | static | 55.0 | — |
| bridge | adaptive | 60.0 | — |
`},
		{"worst pattern", figure6Lines(), Spec{Value: "min", Rows: []string{"pattern", "dispersion"}}, `Effective bisection bandwidth, worst pattern (% of link bandwidth) by hosts.

| pattern | dispersion | 32 | 512 |
|---|---|---:|---:|
| bisection | static | 60.0 | 35.0 |
| bisection | adaptive | 70.0 | 50.0 |
| bridge | static | 55.0 | — |
| bridge | adaptive | 60.0 | — |
`},
		{"parameter study", paramLines(), Spec{Extend: true}, `Effective bisection bandwidth, average over the patterns (% of link bandwidth) by probability.

| pattern | dispersion | threshold | 0.5 | 1 |
|---|---|---|---:|---:|
| bisection | probing | 0 | 55.0 | 60.0 |
| bisection | probing | 4 | 59.0 | 64.0 |
| bisection | probing | 8 | 63.0 | 68.0 |
| bisection | probing | 16 | 71.0 | 76.0 |
`},
		{"parameter study by rows", paramLines(), Spec{Value: "avg", Rows: []string{"threshold"}, Cols: "probability"}, `Effective bisection bandwidth, average over the patterns (% of link bandwidth) by probability.

| threshold | 0.5 | 1 |
|---|---:|---:|
| 0 | 55.0 | 60.0 |
| 4 | 59.0 | 64.0 |
| 8 | 63.0 | 68.0 |
| 16 | 71.0 | 76.0 |
`},
		{"mixed experiments", append(figure6Lines(), ebbLine("g", "bisection", "static", 32, -1, 0, 0.6, 0.65, 0.7)), Spec{Extend: true}, `Effective bisection bandwidth, average over the patterns (% of link bandwidth) by hosts.

| pattern | dispersion | experiment | 32 | 512 |
|---|---|---|---:|---:|
| bisection | static | f | 70.0 | 38.0 |
| bisection | static | g | 65.0 | — |
| bisection | adaptive | f | 75.0 | 51.0 |
| bridge | static | f | 55.0 | — |
| bridge | adaptive | f | 60.0 | — |
`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Pivot(fixture(t, tc.lines), tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := tab.WriteMarkdown(&b); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
	tab, err := Pivot(fixture(t, paramLines()), Spec{Rows: []string{"threshold"}, Cols: "probability"})
	if err != nil {
		t.Fatal(err)
	}
	var csv bytes.Buffer
	if err := tab.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	if want := "threshold,0.5,1\n0,55,60\n4,59,64\n8,63,68\n16,71,76\n"; csv.String() != want {
		t.Errorf("CSV\n%s\nwant\n%s", csv.String(), want)
	}
}

func TestEBBRequiredFields(t *testing.T) {
	line := ebbLine("f", "bisection", "static", 32, -1, 0, 0.6, 0.7, 0.8)
	for _, f := range []string{"hosts", "avg", "dispersion"} {
		bad := strings.Replace(line, `"`+f+`":`, `"x`+f+`":`, 1)
		_, _, err := Read(strings.NewReader(bad+"\n"), "r.jsonl")
		if err == nil || !strings.Contains(err.Error(), `r.jsonl:1: ebb line lacks "`+f+`"`) {
			t.Errorf("without %s: error %v", f, err)
		}
	}
}

func TestEBBFigures(t *testing.T) {
	figs, err := Figures(fixture(t, figure6Lines()), "routing")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range figs {
		names = append(names, f.Name)
	}
	if want := []string{"ebb-bisection", "ebb-bridge"}; !slices.Equal(names, want) {
		t.Fatalf("figures %q, want %q", names, want)
	}
	f := figs[0]
	if got, want := seriesNames(f), []string{"static", "adaptive"}; !slices.Equal(got, want) {
		t.Errorf("series %q, want %q", got, want)
	}
	if s := f.Series[0]; !slices.Equal(s.X, []float64{32, 512}) || !slices.Equal(s.Y, []float64{0.7, 0.38}) {
		t.Errorf("static series %v %v", s.X, s.Y)
	}
	if !slices.Contains(f.Entries, "bars: worst to best pattern") || slices.Contains(figs[1].Entries, "bars: worst to best pattern") {
		t.Errorf("legend entries %q and %q: the bars' key belongs only where patterns differ", f.Entries, figs[1].Entries)
	}
	// The error bars of static reach from the worst to the best pattern.
	if s := f.Series[0]; !slices.Equal(s.Low, []float64{0.6, 0.35}) || !slices.Equal(s.High, []float64{0.8, 0.4}) {
		t.Errorf("static bars %v..%v, want [0.6 0.35]..[0.8 0.4]", s.Low, s.High)
	}
	if f.Plot.Y.Min != 0 || f.Plot.Y.Max != 104 || f.Plot.X.Min >= 32 || f.Plot.X.Max <= 512 {
		t.Errorf("axes x %v..%v, y %v..%v", f.Plot.X.Min, f.Plot.X.Max, f.Plot.Y.Min, f.Plot.Y.Max)
	}
	var labels []string
	for _, tk := range f.Plot.X.Tick.Marker.Ticks(f.Plot.X.Min, f.Plot.X.Max) {
		labels = append(labels, tk.Label)
	}
	if want := []string{"32", "512"}; !slices.Equal(labels, want) {
		t.Errorf("host ticks %q, want %q", labels, want)
	}
	var png bytes.Buffer
	if err := f.Write(&png, "png"); err != nil || png.Len() < 1000 {
		t.Errorf("png: %v, %d bytes", err, png.Len())
	}
}

func TestEBBSummary(t *testing.T) {
	var b strings.Builder
	if err := WriteSummary(&b, fixture(t, figure6Lines())); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{
		"## Effective bisection bandwidth\n",
		"| bisection | adaptive | 75.0 | 51.0 |\n",
		"## Exchanges\n",
		"| f | clos p32 h512 | source | 0.5 | 4 | bisection | adaptive | 512 | 10 | 50.0 | 51.0 | 52.0 | 5.0 % |\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "## Saturation") || strings.Contains(s, "## Points") {
		t.Errorf("summary of exchanges only has point sections:\n%s", s)
	}
}
