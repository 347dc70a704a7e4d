package experiments

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"netsim/internal/numfmt"
	"netsim/results"
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
	if r.Kind == KindEBB || r.Kind == KindWorkload {
		write := writeEBBText
		if r.Kind == KindWorkload {
			write = writeWorkloadText
		}
		if err := write(t.w, r); err != nil {
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
		_, err := fmt.Fprintf(t.w, "%s\n  %-12s %9s %9s %7s %9s %7s %9s %7s %7s %7s  %-9s %s\n", r.Experiment,
			"pattern", "offered", "accepted", "±95%", "lat avg", "±95%", "lat p99", "hops", "medium", "low", "verdict", "window")
		if err != nil {
			return fmt.Errorf("writing table: %w", err)
		}
	}
	var err error
	switch r.Kind {
	case KindPoint:
		s, v := r.Stats, r.Verdict
		verdict := v.Outcome
		if verdict == "" { // read back from a line written before verdicts
			v = results.NoVerdict()
			verdict = results.VerdictUnstable
			if r.Stable {
				verdict = results.VerdictStable
			}
		}
		// Latencies and hops average over the measured packets
		// delivered: without any, there is nothing to show (as table.md
		// shows it).
		sample := func(x float64) float64 {
			if s.Delivered == 0 {
				return math.NaN()
			}
			return x
		}
		_, err = fmt.Fprintf(t.w, "  %-12s %9.4f %9.4f %7s %9s %7s %9s %7s %7s %7s  %-9s %s\n",
			r.Pattern, r.Offered, s.Accepted, orDash(v.AcceptedCI, 4), orDash(sample(s.LatencyAvg), 1), orDash(v.LatencyCI, 1),
			orDash(sample(s.LatencyP99), 1), orDash(sample(s.HopsAvg), 3), orDash(sample(s.HopsMedium), 3), orDash(sample(s.HopsLow), 3),
			verdict, windowText(s.Window))
	case KindSaturation:
		_, err = fmt.Fprintf(t.w, "  %-12s saturation %s (%.1f%% of link bandwidth, resolution 1/%d)%s\n",
			r.Pattern, numfmt.Decimal(r.Saturation, -1), 100*r.Saturation, r.Experiment.Sweep.Resolution, saturationNotes(r))
	}
	if err != nil {
		return fmt.Errorf("writing table: %w", err)
	}
	return nil
}

// orDash renders an interval's half-width with places decimals, or "—"
// if there is none.
func orDash(x float64, places int) string {
	if math.IsNaN(x) {
		return "—"
	}
	return strconv.FormatFloat(x, 'f', places, 64)
}

// windowText renders the cycles a point measured ("—" if the line did not
// say).
func windowText(w int64) string {
	if w == 0 {
		return "—"
	}
	return strconv.FormatInt(w, 10)
}

// saturationNotes says what makes a saturation result less than sure: the
// loads its search left undecided and a contrary verdict above it; and
// the channel-load bound that capped the search, if one did.
func saturationNotes(r Record) string {
	var notes []string
	if r.Bound > 0 {
		notes = append(notes, fmt.Sprintf("channel-load bound %.1f%%: no load above it tested", 100*r.Bound))
	}
	if r.Undecided > 0 {
		notes = append(notes, fmt.Sprintf("%d load(s) undecided at max_measure, counted as not stable", r.Undecided))
	}
	if r.Contrary > 0 {
		notes = append(notes, "verdicts not monotone: the load two steps above is stable")
	}
	if len(notes) == 0 {
		return ""
	}
	return "; " + strings.Join(notes, "; ")
}
