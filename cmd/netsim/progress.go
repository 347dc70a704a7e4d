package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"netsim/experiments"
)

// Progress display settings.
const (
	barRedraw     = 200 * time.Millisecond // at most one redraw of the bar per period
	plainInterval = 10 * time.Second       // one plain line per period
	barWidth      = 12                     // cells of the bar
	lineWidth     = 79                     // columns of the bar line
)

// progress shows a run's progress on stderr: on a terminal, a bar redrawn
// in place (points done / total, elapsed time, ETA, the point started
// last); otherwise a plain line every plainInterval, and a last line at the
// end if any was written.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	quiet    bool // -q: no progress, only logf's lines
	terminal bool
	now      func() time.Time
	start    time.Time
	last     time.Time // last line or redraw
	p        experiments.Progress
	drawn    int  // width of the bar on screen, 0 when cleared
	printed  bool // a plain line was written
	complete bool // the last plain line counted every point
}

// newProgress returns a progress display writing to w, a terminal or not,
// timed by now.
func newProgress(w io.Writer, terminal bool, now func() time.Time) *progress {
	t := now()
	return &progress{w: w, terminal: terminal, now: now, start: t, last: t}
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// update records the run's progress and shows it when it is time.
func (pr *progress) update(p experiments.Progress) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.quiet {
		return
	}
	pr.p = p
	now := pr.now()
	switch {
	case pr.terminal && (now.Sub(pr.last) >= barRedraw || pr.drawn == 0 || p.Done == p.Total):
		pr.draw(now)
	case !pr.terminal && now.Sub(pr.last) >= plainInterval:
		fmt.Fprintf(pr.w, "netsim: %s\n", pr.status(now, ", ", -1))
		pr.last, pr.printed, pr.complete = now, true, p.Done == p.Total
	}
}

// draw redraws the bar.
func (pr *progress) draw(now time.Time) {
	filled := 0
	if pr.p.Total > 0 {
		filled = barWidth * pr.p.Done / pr.p.Total
	}
	bar := "[" + strings.Repeat("#", filled) + strings.Repeat(".", barWidth-filled) + "] "
	line := bar + pr.status(now, "  ", lineWidth-len(bar))
	pad := max(pr.drawn-len([]rune(line)), 0)
	fmt.Fprintf(pr.w, "\r%s%s", line, strings.Repeat(" ", pad))
	pr.drawn = len([]rune(line)) + pad
	pr.last = now
}

// status describes the progress: points done / total, resumed points,
// elapsed time, ETA and the point started last, separated by sep. With
// width ≥ 0 the text is kept within width columns by cutting the middle
// of the point's key (shorten), or leaving it out.
func (pr *progress) status(now time.Time, sep string, width int) string {
	p := pr.p
	elapsed := now.Sub(pr.start)
	parts := []string{fmt.Sprintf("%d/%d points", p.Done, p.Total)}
	if p.Resumed > 0 {
		parts[0] += fmt.Sprintf(" (%d resumed)", p.Resumed)
	}
	parts = append(parts, clock(elapsed)+" elapsed")
	if run := p.Done - p.Resumed; run > 0 && p.Done < p.Total {
		eta := time.Duration(float64(elapsed) * float64(p.Total-p.Done) / float64(run))
		parts = append(parts, "ETA "+clock(eta))
	}
	text := strings.Join(parts, sep)
	if p.Running == 0 || p.Done == p.Total {
		return text
	}
	key := []rune(p.Current)
	if width >= 0 {
		room := width - len([]rune(text+sep+"running ")) // columns left for the key
		if room < 8 {
			return text
		}
		key = shorten(key, room)
	}
	return text + sep + "running " + string(key)
}

// shorten cuts key (EXPERIMENT|VARIANT|PATTERN|LOAD) to room runes, room
// ≥ 8, by an ellipsis in its middle: the experiment's name and the end of
// the variant, the pattern and the load, which tell points apart, stay.
func shorten(key []rune, room int) []rune {
	if len(key) <= room {
		return key
	}
	head := room / 3
	if i := slices.Index(key, '|'); i >= 0 && i < head {
		head = i + 1 // the name and its bar
	}
	tail := room - head - 1
	return append(append(slices.Clip(key[:head]), '…'), key[len(key)-tail:]...)
}

// clock renders d as H:MM:SS.
func clock(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}

// clear removes the bar from the screen, so other output can be written;
// the next update draws it again.
func (pr *progress) clear() {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.clearLocked()
}

// clearLocked is clear with pr.mu held.
func (pr *progress) clearLocked() {
	if pr.drawn > 0 {
		fmt.Fprintf(pr.w, "\r%s\r", strings.Repeat(" ", pr.drawn))
		pr.drawn = 0
	}
}

// logf writes a line on the progress display's writer, clearing the bar
// first.
func (pr *progress) logf(format string, args ...any) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.clearLocked()
	fmt.Fprintf(pr.w, format+"\n", args...)
}

// finish ends the display: the bar is cleared; after plain lines, a last
// one gives the final count and time.
func (pr *progress) finish() {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.clearLocked()
	if pr.printed && !pr.complete {
		fmt.Fprintf(pr.w, "netsim: %s\n", pr.status(pr.now(), ", ", -1))
	}
}
