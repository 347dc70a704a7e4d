package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"netsim/experiments"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestProgressPlain(t *testing.T) {
	clock := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	var b bytes.Buffer
	pr := newProgress(&b, false, clock.now)
	steps := []struct {
		after time.Duration
		p     experiments.Progress
	}{
		{0, experiments.Progress{Total: 40}},
		{3 * time.Second, experiments.Progress{Done: 2, Total: 40, Running: 2, Current: "x||uniform|0.25"}},
		{8 * time.Second, experiments.Progress{Done: 10, Total: 40, Resumed: 6, Running: 2, Current: "x||uniform|0.5"}},
		{5 * time.Second, experiments.Progress{Done: 12, Total: 40, Resumed: 6, Running: 1, Current: "x||uniform|0.75"}},
		{10 * time.Second, experiments.Progress{Done: 30, Total: 38, Resumed: 6, Running: 2, Current: "x||complement|0.5"}},
		{2 * time.Second, experiments.Progress{Done: 38, Total: 38, Resumed: 6}},
	}
	for _, s := range steps {
		clock.t = clock.t.Add(s.after)
		pr.update(s.p)
	}
	pr.finish()
	want := "netsim: 10/40 points (6 resumed), 0:00:11 elapsed, ETA 0:01:23, running x||uniform|0.5\n" +
		"netsim: 30/38 points (6 resumed), 0:00:26 elapsed, ETA 0:00:09, running x||complement|0.5\n" +
		"netsim: 38/38 points (6 resumed), 0:00:28 elapsed\n"
	if b.String() != want {
		t.Errorf("plain progress:\n%s\nwant\n%s", b.String(), want)
	}
	// Quiet: nothing but explicit messages; a short run prints nothing.
	b.Reset()
	pr = newProgress(&b, false, clock.now)
	pr.quiet = true
	clock.t = clock.t.Add(time.Minute)
	pr.update(experiments.Progress{Done: 1, Total: 2})
	pr.logf("netsim: note %d", 1)
	pr.finish()
	if b.String() != "netsim: note 1\n" {
		t.Errorf("quiet progress: %q", b.String())
	}
}

func TestProgressBar(t *testing.T) {
	clock := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	var b bytes.Buffer
	pr := newProgress(&b, true, clock.now)
	pr.update(experiments.Progress{Total: 8})
	clock.t = clock.t.Add(time.Second)
	pr.update(experiments.Progress{Done: 2, Total: 8, Running: 1, Current: "x||uniform|0.5"})
	clock.t = clock.t.Add(50 * time.Millisecond) // too soon to redraw
	pr.update(experiments.Progress{Done: 3, Total: 8, Running: 1, Current: "x||uniform|0.75"})
	pr.logf("netsim: failed point: boom")
	clock.t = clock.t.Add(time.Second)
	pr.update(experiments.Progress{Done: 4, Total: 8, Running: 1, Current: "x||complement|" + strings.Repeat("9", 80)})
	pr.finish()
	frames := strings.Split(b.String(), "\r")
	want := []string{
		"",
		"[............] 0/8 points  0:00:00 elapsed",
		"[###.........] 2/8 points  0:00:01 elapsed  ETA 0:00:03  running x||uniform|0.5",
		"", "netsim: failed point: boom\n",
	}
	for i, w := range want {
		if i >= len(frames) || strings.TrimRight(frames[i], " ") != strings.TrimRight(w, " ") {
			t.Fatalf("frame %d: %q, want %q (all: %q)", i, frames[i], w, b.String())
		}
	}
	long := frames[len(want)]
	if !strings.HasPrefix(long, "[######......] 4/8 points  0:00:02 elapsed  ETA 0:00:02  running x|…999") ||
		len([]rune(long)) != lineWidth || !strings.HasSuffix(long, "999") {
		t.Errorf("long frame %q (%d columns)", long, len([]rune(long)))
	}
	if end := frames[len(frames)-2]; strings.TrimSpace(end) != "" || frames[len(frames)-1] != "" {
		t.Errorf("the bar is not cleared at the end: %q", b.String())
	}
}

// TestRunQuietAndProgress: a run's progress reaches the display; -q
// silences it.
func TestRunQuietAndProgress(t *testing.T) {
	file := writeFile(t, t.TempDir(), "x.toml", small)
	clock := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	tick := func() time.Time { clock.t = clock.t.Add(4 * time.Second); return clock.t }
	for _, quiet := range []bool{false, true} {
		var out, errb bytes.Buffer
		args := []string{"run", "-j", "1", file}
		if quiet {
			args = append(args, "-q")
		}
		if code := runEnv(context.Background(), env{stdout: &out, stderr: &errb, now: tick}, args); code != exitOK {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		lines := strings.Count(errb.String(), "netsim: ")
		if quiet && errb.Len() != 0 || !quiet && (lines < 3 || !strings.HasSuffix(errb.String(), "netsim: 9/9 points, 0:01:24 elapsed\n")) {
			t.Errorf("quiet %v: stderr\n%s", quiet, errb.String())
		}
	}
}

// TestShorten: a long point key loses its middle, keeping the
// experiment's name and the end of the variant, the pattern and the load.
func TestShorten(t *testing.T) {
	key := "sweep|routing.algorithm=dor flow_control.vls=4 traffic.message_bytes=65536|uniform|0.35"
	got := string(shorten([]rune(key), 40))
	if want := "sweep|….message_bytes=65536|uniform|0.35"; got != want {
		t.Errorf("shorten = %q, want %q", got, want)
	}
	if got := string(shorten([]rune("a|b|c|0.5"), 40)); got != "a|b|c|0.5" {
		t.Errorf("a short key changed: %q", got)
	}
}
