package experiments

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Table collects records and renders them as markdown: a table of points
// (rows: experiment, topology, routing, pattern, offered load), a table of
// saturation values (rows: experiment, topology, routing; columns:
// patterns; values in % of link bandwidth) and the list of failed points.
type Table struct {
	points []Record
	sats   []Record
	errs   []Record
}

// Add records r.
func (t *Table) Add(r Record) {
	switch r.Kind {
	case KindPoint:
		t.points = append(t.points, r)
	case KindSaturation:
		t.sats = append(t.sats, r)
	case KindError:
		t.errs = append(t.errs, r)
	}
}

// WriteMarkdown writes the tables that have rows.
func (t *Table) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# netsim results\n")
	if len(t.points) > 0 {
		b.WriteString("\n## Points\n\nLoads in flits/host/cycle, latencies in cycles, hops in switches per packet.\n\n")
		b.WriteString("| experiment | topology | routing | pattern | offered | accepted | latency avg | latency p99 | hops | stable |\n")
		b.WriteString("|---|---|---|---|---:|---:|---:|---:|---:|---|\n")
		for _, r := range t.points {
			e, s := r.Experiment, r.Stats
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %.4f | %.1f | %.1f | %.3f | %s |\n",
				cell(e.DisplayName()), cell(e.label), cell(e.Routing), cell(r.Pattern),
				formatDecimal(r.Offered, -1), s.Accepted, s.LatencyAvg, s.LatencyP99, s.HopsAvg, yesNo(r.Stable))
		}
	}
	if len(t.sats) > 0 {
		t.writeSaturation(&b)
	}
	if len(t.errs) > 0 {
		b.WriteString("\n## Failed points\n\n")
		for _, r := range t.errs {
			kind := "error"
			if r.Deadlock() {
				kind = "deadlock"
			}
			fmt.Fprintf(&b, "- %s: %s\n", kind, cell(r.Err.Error()))
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("writing markdown table: %w", err)
	}
	return nil
}

// writeSaturation writes the saturation table: one row per experiment, one
// column per pattern in order of first appearance.
func (t *Table) writeSaturation(b *strings.Builder) {
	var patterns []string
	var exps []*Experiment
	for _, r := range t.sats {
		if !slices.Contains(patterns, r.Pattern) {
			patterns = append(patterns, r.Pattern)
		}
		if !slices.Contains(exps, r.Experiment) {
			exps = append(exps, r.Experiment)
		}
	}
	b.WriteString("\n## Saturation\n\nHighest stable offered load, in % of link bandwidth.\n\n")
	b.WriteString("| experiment | topology | routing |")
	for _, p := range patterns {
		fmt.Fprintf(b, " %s |", cell(p))
	}
	b.WriteString("\n|---|---|---|" + strings.Repeat("---:|", len(patterns)) + "\n")
	for _, e := range exps {
		fmt.Fprintf(b, "| %s | %s | %s |", cell(e.DisplayName()), cell(e.label), cell(e.Routing))
		for _, p := range patterns {
			v := "—"
			for _, r := range t.sats {
				if r.Experiment == e && r.Pattern == p {
					v = fmt.Sprintf("%.1f", 100*r.Saturation)
				}
			}
			fmt.Fprintf(b, " %s |", v)
		}
		b.WriteString("\n")
	}
}

// cell escapes text for a markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}
