package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// WriteSummary writes the markdown report netsim run leaves in table.md:
// the default pivot table (saturation, or accepted load when there is no
// saturation result) exactly as Pivot with Extend and WriteMarkdown give
// it, every point with its accepted load, latencies, hops and stability
// (not the hops by priority, hops_medium and hops_low: netsim table
// --value gives them), the exchanges (see writeEBB), and the failed
// points.
func WriteSummary(w io.Writer, results []Result) error {
	var b strings.Builder
	b.WriteString("# netsim results\n")
	var points, errs []Result
	for _, r := range results {
		switch r.Kind {
		case KindPoint:
			points = append(points, r)
		case KindError:
			errs = append(errs, r)
		}
	}
	value := DefaultValue(results)
	if value == ValueSaturation || len(points) > 0 {
		t, err := Pivot(results, Spec{Value: value, Extend: true})
		if err != nil {
			return err
		}
		title := "Saturation"
		if value == ValueAccepted {
			title = "Accepted load"
		}
		b.WriteString("\n## " + title + "\n\n")
		if err := t.WriteMarkdown(&b); err != nil {
			return err
		}
	}
	if len(points) > 0 {
		writePoints(&b, points)
	}
	if err := writeEBB(&b, results); err != nil {
		return err
	}
	if err := writeWorkloads(&b, results); err != nil {
		return err
	}
	if len(errs) > 0 {
		sortResults(errs, []string{"experiment", "topology", "routing", "pattern", "offered"})
		b.WriteString("\n## Failed points\n\n")
		for _, r := range errs {
			kind := "error"
			if d, _ := r.Text("deadlock"); d == "true" {
				kind = "deadlock"
			}
			msg, _ := r.Text("error")
			fmt.Fprintf(&b, "- %s: %s\n", kind, mdCell(msg))
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("writing summary: %w", err)
	}
	return nil
}

// writePoints writes the table of every point with its measurements; a
// field other than a measurement that differs between points (vls, say)
// gets a column after routing.
func writePoints(b *strings.Builder, points []Result) {
	keys := []string{"experiment", "topology", "routing"}
	for _, f := range varying(points) {
		if !slices.Contains(keys, f) && f != "pattern" && f != "offered" {
			keys = append(keys, f)
		}
	}
	keys = append(keys, "pattern", "offered")
	sortResults(points, keys)
	b.WriteString("\n## Points\n\nLoads in flits/host/cycle, latencies in cycles, hops in switches per packet.\n\n|")
	for _, k := range keys {
		b.WriteString(" " + mdCell(k) + " |")
	}
	b.WriteString(" accepted | latency avg | latency p99 | hops | stable |\n|" +
		strings.Repeat("---|", len(keys)-1) + strings.Repeat("---:|", 5) + "---|\n")
	for _, r := range points {
		b.WriteString("|")
		for _, k := range keys {
			v, _ := r.Text(k)
			b.WriteString(" " + mdCell(v) + " |")
		}
		for _, v := range []string{ValueAccepted, ValueLatencyAvg, ValueLatencyP99, ValueHops} {
			s := "—"
			if x, ok := r.Measure(v); ok {
				s = formatValue(v, x, false)
			}
			b.WriteString(" " + s + " |")
		}
		stable := "no"
		if s, _ := r.Text("stable"); s == "true" {
			stable = "yes"
		}
		b.WriteString(" " + stable + " |\n")
	}
}

// varying returns the fields, other than measurements and seed, whose
// values differ among rs, sorted.
func varying(rs []Result) []string {
	var out []string
	for _, k := range fieldNames(rs) {
		if k == "seed" || isMeasured(k) {
			continue
		}
		first, _ := rs[0].Text(k)
		for _, r := range rs[1:] {
			if v, _ := r.Text(k); v != first {
				out = append(out, k)
				break
			}
		}
	}
	return out
}

// sortResults sorts rs by the values of keys (see compareValues), stably.
func sortResults(rs []Result, keys []string) {
	slices.SortStableFunc(rs, func(a, b Result) int {
		for _, k := range keys {
			va, _ := a.Text(k)
			vb, _ := b.Text(k)
			if c := compareValues(k, va, vb); c != 0 {
				return c
			}
		}
		return 0
	})
}
