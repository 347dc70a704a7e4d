package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"netsim/internal/numfmt"
	"netsim/results"
)

// Caption describes what the table shows, with units, in one sentence.
func (t *Table) Caption() string {
	c := capitalize(valueName(t.Value)) + " by " + fieldName(t.ColKey) + "."
	if t.replicated() {
		c += " Mean ± 95 % confidence interval over the replications, where a cell has several."
	}
	return c
}

// replicated reports whether a cell of t holds replications.
func (t *Table) replicated() bool {
	for _, r := range t.Rows {
		for _, c := range r.Cells {
			if c.N > 1 {
				return true
			}
		}
	}
	return false
}

// valueName describes a value with its unit.
func valueName(value string) string {
	if f, ok := results.FieldNamed(value); ok && f.Label != "" {
		return f.Label
	}
	return value
}

// fieldName describes a field used as an axis.
func fieldName(key string) string {
	switch key {
	case "offered", "pattern":
		return valueName(key)
	}
	return key
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// WriteMarkdown writes the caption, a blank line and the table in
// markdown; values are rounded for reading, halves away from zero
// (saturation and EBB in % with one decimal, loads with 4 decimals, latencies
// with 1, hops with 3), and empty cells show "—".
func (t *Table) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString(t.Caption() + "\n\n|")
	for _, k := range t.RowKeys {
		b.WriteString(" " + mdCell(k) + " |")
	}
	for _, c := range t.Cols {
		b.WriteString(" " + mdCell(c) + " |")
	}
	b.WriteString("\n|" + strings.Repeat("---|", len(t.RowKeys)) + strings.Repeat("---:|", len(t.Cols)) + "\n")
	for _, r := range t.Rows {
		b.WriteString("|")
		for _, k := range r.Keys {
			b.WriteString(" " + mdCell(k) + " |")
		}
		for _, c := range r.Cells {
			v := "—"
			if c.OK {
				v = formatValue(t.Value, c.Value, false)
			}
			if c.OK && c.N > 1 {
				v += " ± " + formatHalf(t.Value, c.Half, false)
			}
			b.WriteString(" " + v + " |")
		}
		b.WriteString("\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("writing markdown table: %w", err)
	}
	return nil
}

// WriteCSV writes the table as CSV: a header of the row fields and the
// column values, then one record per row; values keep the precision of
// the results file (saturation and EBB in %), and empty cells are empty.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	ci := t.replicated()
	rec := append([]string{}, t.RowKeys...)
	for _, c := range t.Cols {
		rec = append(rec, c)
		if ci {
			rec = append(rec, c+" ±95%")
		}
	}
	if err := cw.Write(rec); err != nil {
		return fmt.Errorf("writing CSV table: %w", err)
	}
	for _, r := range t.Rows {
		rec = append(rec[:0], r.Keys...)
		for _, c := range r.Cells {
			v := ""
			if c.OK {
				v = formatValue(t.Value, c.Value, true)
			}
			rec = append(rec, v)
			if ci {
				h := ""
				if c.OK && c.N > 1 {
					h = formatHalf(t.Value, c.Half, true)
				}
				rec = append(rec, h)
			}
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("writing CSV table: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("writing CSV table: %w", err)
	}
	return nil
}

// formatValue renders a cell value: rounded for reading, or (precise) with
// the decimals of the results file, trailing zeros removed.
func formatValue(value string, v float64, precise bool) string {
	f, _ := results.FieldNamed(value)
	if f.Percent {
		v *= 100
	}
	if precise {
		return numfmt.Decimal(v, f.Precise)
	}
	// Halves round away from zero, as in seed 004's table (104/128 =
	// 81.25 % is 81.3 there); strconv would round 81.25 to even.
	scale := math.Pow(10, float64(f.Show))
	return strconv.FormatFloat(math.Round(v*scale)/scale, 'f', f.Show, 64)
}

// formatHalf renders the half-width of a cell's interval as formatValue
// renders its value; "?" if it has none (one replication measured).
func formatHalf(value string, h float64, precise bool) string {
	if math.IsNaN(h) {
		return "?"
	}
	return formatValue(value, h, precise)
}

// mdCell escapes text for a markdown table cell.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}
