package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestWriteSummary(t *testing.T) {
	rs := fixture(t, fixtureLines())
	var b bytes.Buffer
	if err := WriteSummary(&b, rs); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	tab, err := Pivot(rs, Spec{Extend: true})
	if err != nil {
		t.Fatal(err)
	}
	md, _ := render(t, tab)
	// The saturation section is what netsim table prints.
	if !strings.HasPrefix(got, "# netsim results\n\n## Saturation\n\n"+md+"\n## Points\n") {
		t.Errorf("summary does not start with the saturation pivot:\n%s", got)
	}
	for _, want := range []string{
		"| experiment | topology | routing | pattern | offered | accepted | latency avg | latency p99 | hops | stable |\n|---|---|---|---|---:|---:|---:|---:|---:|---|\n" +
			"| e | flatfly 4x4 w1,1 c4 | dor | uniform | 0.1 | 0.1000 | 20.0 | 20.0 | 2.500 | yes |\n",
		"| e | flatfly 4x4 w1,1 c4 | dor | complement | 0.5 | 0.2500 | 900.0 | 900.0 | 2.500 | yes |\n" +
			"| e | flatfly 4x4 w1,1 c4 | ador | uniform | 0.25 | 0.2500 | 25.0 | 25.0 | 2.500 | yes |\n",
		"| e | flatfly 4x4 w1,1 c4 | dor | uniform | 1 | 0.6200 | — | — | 2.500 | yes |\n| e | flatfly 4x4 w1,1 c4 | dor | complement | 0.1 |",
		"\n## Failed points\n\n- deadlock: experiment e, pattern complement: deadlock\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
}

func TestWriteSummaryPointsOnly(t *testing.T) {
	var lines []string
	for _, l := range fixtureLines() {
		if !strings.Contains(l, `"kind":"saturation"`) {
			lines = append(lines, l)
		}
	}
	// A point of another configuration: vls gets a column.
	lines = append(lines, strings.Replace(pointLine(ff4, "dor", "uniform", 0.1, 0.1, "21"), `"vls":2`, `"vls":8`, 1))
	var b bytes.Buffer
	if err := WriteSummary(&b, fixture(t, lines)); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{
		"## Accepted load\n\nAccepted load (flits/host/cycle) by offered load (flits/host/cycle).\n\n| topology | routing | pattern | vls | 0.1 |",
		"| experiment | topology | routing | vls | pattern | offered |",
		"| e | flatfly 4x4 w1,1 c4 | dor | 8 | uniform | 0.1 | 0.1000 | 21.0 |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "## Saturation") {
		t.Error("saturation section without saturation results")
	}
}

func TestWriteSummaryErrorsOnly(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSummary(&b, fixture(t, []string{errorLine("uniform", 0.5)})); err != nil {
		t.Fatal(err)
	}
	want := "# netsim results\n\n## Failed points\n\n- deadlock: experiment e, pattern uniform: deadlock\n"
	if b.String() != want {
		t.Errorf("summary:\n%q\nwant\n%q", b.String(), want)
	}
	var points []Result
	for _, r := range fixture(t, fixtureLines()) {
		if r.Kind == KindPoint {
			points = append(points, r)
		}
	}
	if got := varying(points); !slices.Equal(got, []string{"offered", "pattern", "routing"}) {
		t.Errorf("varying fields %q, want offered, pattern, routing", got)
	}
}
