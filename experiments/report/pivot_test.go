package report

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// render returns t as markdown and CSV.
func render(t *testing.T, tab *Table) (md, csv string) {
	t.Helper()
	var m, c bytes.Buffer
	if err := tab.WriteMarkdown(&m); err != nil {
		t.Fatal(err)
	}
	if err := tab.WriteCSV(&c); err != nil {
		t.Fatal(err)
	}
	return m.String(), c.String()
}

func TestPivotSaturationSeedLayout(t *testing.T) {
	tab, err := Pivot(fixture(t, fixtureLines()), Spec{Extend: true})
	if err != nil {
		t.Fatal(err)
	}
	md, csv := render(t, tab)
	wantMD := `Saturation (highest stable offered load, % of link bandwidth) by traffic pattern.

| topology | routing | uniform | complement | reverse | rotation | shuffle | transpose | neighbor | randperm |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|
| flatfly 4x4 w1,1 c4 | dor | 81.3 | 11.7 | 1.6 | 12.5 | 7.8 | 2.3 | — | — |
| flatfly 4x4 w1,1 c4 | ador | 75.0 | 50.0 | — | — | — | — | — | — |
| flatfly 16x16 w1,1 c4 | dor | 50.0 | — | — | — | — | — | 12.5 | 25.0 |
`
	wantCSV := `topology,routing,uniform,complement,reverse,rotation,shuffle,transpose,neighbor,randperm
"flatfly 4x4 w1,1 c4",dor,81.25,11.71875,1.5625,12.5,7.8125,2.34375,,
"flatfly 4x4 w1,1 c4",ador,75,50,,,,,,
"flatfly 16x16 w1,1 c4",dor,50,,,,,,12.5,25
`
	if md != wantMD {
		t.Errorf("markdown:\n%s\nwant:\n%s", md, wantMD)
	}
	if csv != wantCSV {
		t.Errorf("CSV:\n%s\nwant:\n%s", csv, wantCSV)
	}
}

func TestPivotPoints(t *testing.T) {
	rs := fixture(t, fixtureLines())
	tab, err := Pivot(rs, Spec{Value: ValueAccepted, Extend: true})
	if err != nil {
		t.Fatal(err)
	}
	md, csv := render(t, tab)
	wantMD := `Accepted load (flits/host/cycle) by offered load (flits/host/cycle).

| topology | routing | pattern | 0.1 | 0.25 | 0.5 | 1 |
|---|---|---|---:|---:|---:|---:|
| flatfly 4x4 w1,1 c4 | dor | uniform | 0.1000 | — | 0.4912 | 0.6200 |
| flatfly 4x4 w1,1 c4 | dor | complement | 0.0999 | — | 0.2500 | — |
| flatfly 4x4 w1,1 c4 | ador | uniform | — | 0.2500 | — | — |
`
	if md != wantMD {
		t.Errorf("markdown:\n%s\nwant:\n%s", md, wantMD)
	}
	wantCSV := "topology,routing,pattern,0.1,0.25,0.5,1\n" +
		`"flatfly 4x4 w1,1 c4",dor,uniform,0.1,,0.4912,0.62` + "\n" +
		`"flatfly 4x4 w1,1 c4",dor,complement,0.0999,,0.25,` + "\n" +
		`"flatfly 4x4 w1,1 c4",ador,uniform,,0.25,,` + "\n"
	if csv != wantCSV {
		t.Errorf("CSV:\n%s\nwant:\n%s", csv, wantCSV)
	}

	// Latency, with a null value as an empty cell, and other axes.
	tab, err = Pivot(rs, Spec{Value: ValueLatencyAvg, Rows: []string{"pattern", "load"}, Cols: "routing"})
	if err != nil {
		t.Fatal(err)
	}
	md, csv = render(t, tab)
	wantMD = `Average latency (cycles) by routing.

| pattern | offered | dor | ador |
|---|---|---:|---:|
| uniform | 0.1 | 20.0 | — |
| uniform | 0.25 | — | 25.0 |
| uniform | 0.5 | 40.3 | — |
| uniform | 1 | — | — |
| complement | 0.1 | 30.5 | — |
| complement | 0.5 | 900.0 | — |
`
	if md != wantMD {
		t.Errorf("latency markdown:\n%s\nwant:\n%s", md, wantMD)
	}
	if !strings.Contains(csv, "\nuniform,0.5,40.25,\n") || !strings.Contains(csv, "\nuniform,1,,\n") {
		t.Errorf("latency CSV:\n%s", csv)
	}
}

func TestPivotDefaultValue(t *testing.T) {
	rs := fixture(t, fixtureLines())
	if v := DefaultValue(rs); v != ValueSaturation {
		t.Errorf("default value %q with saturation results", v)
	}
	var points []Result
	for _, r := range rs {
		if r.Kind != KindSaturation {
			points = append(points, r)
		}
	}
	tab, err := Pivot(points, Spec{})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Value != ValueAccepted || tab.ColKey != "offered" || !slices.Equal(tab.RowKeys, []string{"topology", "routing", "pattern"}) {
		t.Errorf("default for points: value %q, rows %q, cols %q", tab.Value, tab.RowKeys, tab.ColKey)
	}
	// --cols alone: the default rows take the replaced column field.
	tab, err = Pivot(rs, Spec{Cols: "routing"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tab.RowKeys, []string{"topology", "pattern"}) || !slices.Equal(tab.Cols, []string{"dor", "ador"}) {
		t.Errorf("cols routing: rows %q, cols %q", tab.RowKeys, tab.Cols)
	}
}

func TestPivotDeterministic(t *testing.T) {
	lines := fixtureLines()
	want := ""
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20 {
		rng.Shuffle(len(lines), func(a, b int) { lines[a], lines[b] = lines[b], lines[a] })
		for _, spec := range []Spec{{Extend: true}, {Value: ValueAccepted, Extend: true}} {
			tab, err := Pivot(fixture(t, lines), spec)
			if err != nil {
				t.Fatal(err)
			}
			md, csv := render(t, tab)
			got := md + csv
			if spec.Value == "" && i == 0 {
				want = got
			} else if spec.Value == "" && got != want {
				t.Fatalf("order %d gives another table:\n%s\nwant:\n%s", i, got, want)
			}
		}
	}
}

func TestPivotDuplicates(t *testing.T) {
	base := fixtureLines()
	// The same line twice (a file given twice, overlapping shards) counts once.
	rs := fixture(t, append(slices.Clone(base), base[2]))
	tab, err := Pivot(rs, Spec{})
	if err != nil {
		t.Fatalf("identical duplicate: %v", err)
	}
	if len(tab.Rows) != 3 {
		t.Errorf("%d rows, want 3", len(tab.Rows))
	}

	// The same result with another value is an error naming both lines.
	other := satLine(ff4, "dor", "uniform", 0.5)
	_, err = Pivot(fixture(t, append(slices.Clone(base), other)), Spec{Extend: true})
	if err == nil || !strings.Contains(err.Error(), "r.jsonl:3 and r.jsonl:19: different saturation (0.8125, 0.5) for the same result (topology flatfly 4x4 w1,1 c4, routing dor, pattern uniform)") {
		t.Errorf("conflicting values: %v", err)
	}

	// Results that differ in vls: an error with explicit rows, a vls
	// column with Extend.
	vls4 := strings.Replace(other, `"vls":2`, `"vls":4`, 1)
	vls4 = strings.Replace(vls4, `"experiment":"e"`, `"experiment":"e4"`, 1)
	rs = fixture(t, append(slices.Clone(base), vls4))
	_, err = Pivot(rs, Spec{Rows: []string{"topology", "routing"}})
	if err == nil || !strings.Contains(err.Error(), "r.jsonl:3 and r.jsonl:19 fall in one cell (topology flatfly 4x4 w1,1 c4, routing dor, pattern uniform) but differ in experiment, vls") {
		t.Errorf("explicit rows: %v", err)
	}
	tab, err = Pivot(rs, Spec{Extend: true})
	if err != nil {
		t.Fatal(err)
	}
	md, _ := render(t, tab)
	for _, want := range []string{
		"| topology | routing | vls | uniform |",
		"| flatfly 4x4 w1,1 c4 | dor | 2 | 81.3 | 11.7 |",
		"| flatfly 4x4 w1,1 c4 | dor | 4 | 50.0 | — |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("extended table lacks %q:\n%s", want, md)
		}
	}

	// Results that differ only in their name: the experiment column.
	named := strings.Replace(other, `"experiment":"e"`, `"experiment":"f"`, 1)
	tab, err = Pivot(fixture(t, append(slices.Clone(base), named)), Spec{Extend: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tab.RowKeys, []string{"topology", "routing", "experiment"}) {
		t.Errorf("rows %q, want the experiment added", tab.RowKeys)
	}
}

func TestPivotErrors(t *testing.T) {
	rs := fixture(t, fixtureLines())
	tests := []struct {
		name string
		spec Spec
		want string
	}{
		{"unknown value", Spec{Value: "throughput"}, `value "throughput": unknown (expected one of saturation, accepted, latency_avg, latency_p99, hops_avg, hops_medium, hops_low, avg, min, max, completion, completion_us, bandwidth, efficiency, rtt_avg)`},
		{"unknown field", Spec{Rows: []string{"topology", "buffer"}}, `field "buffer": no saturation result has it (fields: allocator, buffers, experiment, flow_control,`},
		{"point field on saturation", Spec{Cols: "offered"}, `field "offered": no saturation result has it`},
		{"rows contain cols", Spec{Rows: []string{"topology", "pattern"}}, `rows: "pattern" is also the column field`},
		{"twice", Spec{Rows: []string{"topology", "topology"}}, `rows: "topology" given twice`},
		{"empty field", Spec{Rows: []string{"topology", ""}}, `rows: field 2 is empty (expected comma-separated field names)`},
		{"no rows", Spec{Rows: []string{}}, "rows: no field given"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Pivot(rs, tc.spec)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v, want prefix %q", err, tc.want)
			}
		})
	}
	if _, err := Pivot(rs[:0], Spec{Value: ValueSaturation}); err == nil || err.Error() != "no saturation results to tabulate" {
		t.Errorf("no results: %v", err)
	}
}

func TestCompareValues(t *testing.T) {
	tests := []struct {
		key  string
		a, b string
		want int
	}{
		{"pattern", "uniform", "complement", -1},
		{"pattern", "transpose", "bitrev", -1},
		{"pattern", "bitrev", "randperm", -1},
		{"offered", "0.5", "0.125", 1},
		{"offered", "1", "0.25", 1},
		{"topology", "flatfly 4x4 w1,1 c4", "flatfly 16x16 w1,1 c4", -1},
		{"topology", "torus 8x16x16", "torus 8x8x16", 1},
		{"routing", "distance", "distance+2", -1},
		{"routing", "distance+10", "distance+2", 1},
		{"vls", "", "2", -1},
		{"x", "a07", "a7", -1},
		{"x", "same", "same", 0},
	}
	for _, tc := range tests {
		if got := compareValues(tc.key, tc.a, tc.b); got != tc.want {
			t.Errorf("compareValues(%q, %q, %q) = %d, want %d", tc.key, tc.a, tc.b, got, tc.want)
		}
		if got := compareValues(tc.key, tc.b, tc.a); got != -tc.want {
			t.Errorf("compareValues(%q, %q, %q) = %d, want %d", tc.key, tc.b, tc.a, got, -tc.want)
		}
	}
}

func TestCompareValuesCase(t *testing.T) {
	got := []string{"static", "GSD", "distance", "D", "deflection+4", "G", "SD", "S"}
	slices.SortFunc(got, func(a, b string) int { return compareValues("name", a, b) })
	want := []string{"D", "deflection+4", "distance", "G", "GSD", "S", "SD", "static"}
	if !slices.Equal(got, want) {
		t.Errorf("names sorted %q, want %q", got, want)
	}
}

// TestSeed004Order checks that routings and topologies come in the order
// of seed 004 (§3 and §1), whatever the order they are given in.
func TestSeed004Order(t *testing.T) {
	tests := []struct {
		key  string
		want []string
	}{
		{"routing", []string{
			"dor", "mixed-dor", "twisted-dor", "twisted-mixed-dor",
			"ador", "mixed-ador", "twisted-ador", "twisted-mixed-ador",
			"negative-first", "abo-negative-first", "abo-positive-last",
			"static", "S", "D", "SD", "G", "GS", "GI", "GD", "GSI", "GID", "GSD", "GSID",
			"minimal",
			"distance", "distance+3", "distance+4", "distance+12",
			"deflection+2", "deflection+4",
			"dfsssp", "minhop", "updn",
		}},
		{"topology", []string{
			"torus 2x2x4x4 w1,1,2,2 c8", "torus 4x4x4 w2,2,2 c8",
			"flatfly 2x4x4x4 w2,1,1,1 c4", "hypercube d6 w2 c8",
			"dragonfly k8 g4 c4 absolute omit", "slimfly q4 w1 c4",
			"product[slimfly q4 w1; flatfly 2x2 w2,2] c4",
			"product[slimfly q4 w1; flatfly 4 w2] c4",
			"clos 3 64", "xgft 2 8,8 1,8",
		}},
	}
	for _, tc := range tests {
		for _, seed := range []uint64{1, 2, 3} {
			got := slices.Clone(tc.want)
			rand.New(rand.NewPCG(seed, 0)).Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
			slices.SortFunc(got, func(a, b string) int { return compareValues(tc.key, a, b) })
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s sorted:\n%q\nwant\n%q", tc.key, got, tc.want)
			}
		}
	}
}

// TestPivotSelection: a line without "selection" (netsim leaves out the
// default) reads as "credits", so results of both selection functions
// pivot side by side.
func TestPivotSelection(t *testing.T) {
	idle := strings.Replace(satLine(ff4, "dor", "uniform", 0.5), `"switching":"cut-through",`, `"switching":"cut-through","selection":"idle",`, 1)
	rs := fixture(t, []string{satLine(ff4, "dor", "uniform", 0.75), idle})
	if s, ok := rs[0].Text("selection"); !ok || s != "credits" {
		t.Errorf("selection of a line without it: %q, %v; want credits", s, ok)
	}
	tab, err := Pivot(rs, Spec{Rows: []string{"routing"}, Cols: "selection"})
	if err != nil {
		t.Fatal(err)
	}
	_, csv := render(t, tab)
	if want := "routing,credits,idle\ndor,75,50\n"; csv != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", csv, want)
	}
}

// TestPivotHopsByPriority: hops_medium and hops_low pivot like the other
// point values; a line written before netsim counted them gives an empty
// cell, not 0, and a negative count is refused.
func TestPivotHopsByPriority(t *testing.T) {
	withHops := func(line, medium, low string) string {
		return strings.Replace(line, `"hops_avg":2.5,`, `"hops_avg":2.5,"hops_medium":`+medium+`,"hops_low":`+low+`,`, 1)
	}
	rs := fixture(t, []string{
		withHops(pointLine(ff4, "distance+2", "uniform", 0.5, 0.5, "40"), "0.125", "0"),
		withHops(pointLine(ff4, "deflection+2", "uniform", 0.5, 0.5, "40"), "0.0625", "0.3125"),
		pointLine(ff4, "dor", "uniform", 0.5, 0.5, "40"), // written before the counts
	})
	for _, tc := range []struct {
		value, want string
	}{
		{ValueHopsMedium, "| flatfly 4x4 w1,1 c4 | uniform | 0.5 | — | 0.125 | 0.063 |"},
		{ValueHopsLow, "| flatfly 4x4 w1,1 c4 | uniform | 0.5 | — | 0.000 | 0.313 |"},
	} {
		tab, err := Pivot(rs, Spec{Value: tc.value, Cols: "routing"})
		if err != nil {
			t.Fatal(err)
		}
		md, _ := render(t, tab)
		if !strings.Contains(md, "| topology | pattern | offered | dor | distance+2 | deflection+2 |\n") || !strings.Contains(md, tc.want+"\n") {
			t.Errorf("%s:\n%s\nwant the row\n%s", tc.value, md, tc.want)
		}
	}
	_, _, err := Read(strings.NewReader(withHops(pointLine(ff4, "dor", "uniform", 0.5, 0.5, "40"), "-1", "0")+"\n"), "r.jsonl")
	if err == nil || !strings.Contains(err.Error(), "r.jsonl:1: field hops_medium") {
		t.Errorf("negative hops_medium: error %v, want r.jsonl:1: field hops_medium ...", err)
	}
}

// TestPivotNoSample: a point none of whose measured packets was delivered
// (far past saturation) has its latencies and hops written as 0 for want
// of a sample; they pivot to empty cells, in the table and in the run's
// summary, while its accepted load is a value like any other.
func TestPivotNoSample(t *testing.T) {
	noSample := strings.Replace(pointLine(ff4, "dor", "complement", 0.5, 0.0078, "0"),
		`"hops_avg":2.5,"delivered":10,`, `"hops_avg":0,"hops_medium":0,"hops_low":0,"delivered":0,`, 1)
	withHops := strings.Replace(pointLine(ff4, "dor", "complement", 0.25, 0.0078, "900"),
		`"hops_avg":2.5,`, `"hops_avg":2.5,"hops_medium":0,"hops_low":0,`, 1)
	rs := fixture(t, []string{noSample, withHops})
	for _, tc := range []struct {
		value, want string
	}{
		{ValueAccepted, "| flatfly 4x4 w1,1 c4 | dor | complement | 0.0078 | 0.0078 |"},
		{ValueLatencyAvg, "| flatfly 4x4 w1,1 c4 | dor | complement | 900.0 | — |"},
		{ValueLatencyP99, "| flatfly 4x4 w1,1 c4 | dor | complement | 900.0 | — |"},
		{ValueHops, "| flatfly 4x4 w1,1 c4 | dor | complement | 2.500 | — |"},
		{ValueHopsMedium, "| flatfly 4x4 w1,1 c4 | dor | complement | 0.000 | — |"},
		{ValueHopsLow, "| flatfly 4x4 w1,1 c4 | dor | complement | 0.000 | — |"},
	} {
		tab, err := Pivot(rs, Spec{Value: tc.value})
		if err != nil {
			t.Fatal(err)
		}
		md, csv := render(t, tab)
		if !strings.Contains(md, tc.want+"\n") {
			t.Errorf("%s:\n%s\nwant the row\n%s", tc.value, md, tc.want)
		}
		if tc.value != ValueAccepted && !strings.HasSuffix(csv, ",\n") {
			t.Errorf("%s CSV:\n%s\nwant an empty last cell", tc.value, csv)
		}
	}
	var b strings.Builder
	if err := WriteSummary(&b, rs); err != nil {
		t.Fatal(err)
	}
	if want := "| 0.5 | 0.0078 | — | — | — | yes |\n"; !strings.Contains(b.String(), want) {
		t.Errorf("summary:\n%s\nwant a point row ending %q", b.String(), want)
	}
}

// TestPivotReplications: results that differ only in their replication
// (and seed) share a cell holding their mean and the 95 % interval of
// it; the markdown shows "mean ± half", the CSV a column of half-widths
// beside each column of means; a replication given twice is a conflict.
func TestPivotReplications(t *testing.T) {
	rep := func(l string, r int) string {
		if r == 0 {
			return l
		}
		return strings.Replace(l, `"seed":1,`, fmt.Sprintf(`"seed":%d,"replication":%d,`, 10+r, r), 1)
	}
	lines := []string{
		rep(satLine(ff4, "dor", "uniform", 0.5), 0),
		rep(satLine(ff4, "dor", "uniform", 0.625), 1),
		rep(satLine(ff4, "dor", "uniform", 0.5625), 2),
		satLine(ff4, "dor", "complement", 0.25),
	}
	tab, err := Pivot(fixture(t, lines), Spec{})
	if err != nil {
		t.Fatal(err)
	}
	// uniform: mean 0.5625, s = 0.0625, half t(2)·s/√3.
	half := 4.302653 * 0.0625 / math.Sqrt(3)
	c := tab.Rows[0].Cells
	if len(tab.Rows) != 1 || c[0].N != 3 || math.Abs(c[0].Value-0.5625) > 1e-12 || math.Abs(c[0].Half-half) > 1e-5 || c[1].N != 1 {
		t.Fatalf("cells %+v (columns %v), want uniform 0.5625 ± %v over 3", c, tab.Cols, half)
	}
	var md, csv bytes.Buffer
	if err := tab.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := tab.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	wantMD := "Saturation (highest stable offered load, % of link bandwidth) by traffic pattern. Mean ± 95 % confidence interval over the replications, where a cell has several.\n\n" +
		"| topology | routing | uniform | complement |\n|---|---|---:|---:|\n| flatfly 4x4 w1,1 c4 | dor | 56.3 ± 15.5 | 25.0 |\n"
	if md.String() != wantMD {
		t.Errorf("markdown:\n%s\nwant\n%s", md.String(), wantMD)
	}
	wantCSV := "topology,routing,uniform,uniform ±95%,complement,complement ±95%\n\"flatfly 4x4 w1,1 c4\",dor,56.25,15.525862,25,\n"
	if csv.String() != wantCSV {
		t.Errorf("CSV:\n%s\nwant\n%s", csv.String(), wantCSV)
	}
	// The same lines read twice (a file and its merge, say) count once.
	twice, err := Pivot(fixture(t, append(slices.Clone(lines), lines...)), Spec{})
	if err != nil || !reflect.DeepEqual(twice.Rows[0].Keys, tab.Rows[0].Keys) || twice.Rows[0].Cells[0].N != 3 ||
		twice.Rows[0].Cells[0].Value != c[0].Value || len(twice.Rows) != 1 {
		t.Errorf("lines twice: %+v, %v; want the table of once", twice, err)
	}
	if _, err := Pivot(fixture(t, append(lines, rep(satLine(ff4, "dor", "uniform", 0.75), 2))), Spec{}); err == nil {
		t.Error("replication 2 twice: no conflict")
	}
}
