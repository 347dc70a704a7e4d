package experiments

import (
	"fmt"
	"io"

	"netsim/internal/numfmt"
)

// TextWriter writes records as a readable table, one line per point and
// per saturation result, with a header line before each experiment, and
// one line per exchange result.
// Error records are left to the caller (they belong on stderr).
type TextWriter struct {
	w    io.Writer
	last *Experiment
}

// NewTextWriter returns a TextWriter writing to w.
func NewTextWriter(w io.Writer) *TextWriter { return &TextWriter{w: w} }

// Write writes r; error records are skipped.
func (t *TextWriter) Write(r Record) error {
	if r.Kind == KindError {
		return nil
	}
	if r.Kind == KindEBB {
		if err := writeEBBText(t.w, r); err != nil {
			return fmt.Errorf("writing table: %w", err)
		}
		return nil
	}
	if r.Experiment != t.last {
		if t.last != nil {
			if _, err := fmt.Fprintln(t.w); err != nil {
				return fmt.Errorf("writing table: %w", err)
			}
		}
		t.last = r.Experiment
		_, err := fmt.Fprintf(t.w, "%s\n  %-12s %9s %9s %9s %9s %7s %7s %7s  %s\n", r.Experiment,
			"pattern", "offered", "accepted", "lat avg", "lat p99", "hops", "medium", "low", "stable")
		if err != nil {
			return fmt.Errorf("writing table: %w", err)
		}
	}
	var err error
	switch r.Kind {
	case KindPoint:
		s := r.Stats
		_, err = fmt.Fprintf(t.w, "  %-12s %9.4f %9.4f %9.1f %9.1f %7.3f %7.3f %7.3f  %s\n",
			r.Pattern, r.Offered, s.Accepted, s.LatencyAvg, s.LatencyP99, s.HopsAvg, s.HopsMedium, s.HopsLow, yesNo(r.Stable))
	case KindSaturation:
		_, err = fmt.Fprintf(t.w, "  %-12s saturation %s (%.1f%% of link bandwidth, resolution 1/%d)\n",
			r.Pattern, numfmt.Decimal(r.Saturation, -1), 100*r.Saturation, r.Experiment.Sweep.Resolution)
	}
	if err != nil {
		return fmt.Errorf("writing table: %w", err)
	}
	return nil
}

// yesNo renders a boolean for tables.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
