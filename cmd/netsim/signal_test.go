package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// TestInterruptible: a signal (the context's end) ends work that does not
// look at the context at once, with errInterrupted; work that ends first
// gives its result.
func TestInterruptible(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	block := make(chan struct{})
	defer close(block)
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	start := time.Now()
	_, err := interruptible(ctx, func() (int, error) { <-block; return 1, nil })
	if err != errInterrupted || time.Since(start) > 5*time.Second {
		t.Errorf("err %v after %v, want errInterrupted at once", err, time.Since(start))
	}
	v, err := interruptible(context.Background(), func() (int, error) { return 7, nil })
	if v != 7 || err != nil {
		t.Errorf("interruptible = %d, %v; want 7, nil", v, err)
	}
	var stderr bytes.Buffer
	code := untilSignal(ctx, env{stderr: &stderr}, "netsim validate", func() int { <-block; return 0 })
	if code != exitFailed || !strings.Contains(stderr.String(), "netsim validate: interrupted") {
		t.Errorf("untilSignal: exit %d, stderr %q", code, stderr.String())
	}
}

// TestSignalEndsCommands: a command that does not watch its context ends
// at once when a signal has come, with the interrupted message and exit
// status 1, its work left to the background; one that watches its
// context is left to end by itself.
func TestSignalEndsCommands(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, watches := range []bool{false, true} {
		block, ran := make(chan struct{}), make(chan struct{})
		c := &Command{Name: "slow", UsageLine: "netsim slow", Short: "wait", Long: "Waits.\n", WatchesContext: watches,
			Run: func(ctx context.Context, _ *Command, _ env, _ []string) int {
				defer close(ran)
				if watches {
					<-ctx.Done()
					return exitOK
				}
				<-block
				return exitOK
			}}
		var errs bytes.Buffer
		code := c.dispatch(ctx, env{stdout: io.Discard, stderr: &errs}, nil)
		close(block)
		<-ran // the background work ends before the test does
		switch {
		case !watches && (code != exitFailed || errs.String() != "netsim slow: interrupted\n"):
			t.Errorf("a command that does not watch: exit %d, stderr %q", code, errs.String())
		case watches && (code != exitOK || errs.Len() != 0):
			t.Errorf("a command that watches: exit %d, stderr %q", code, errs.String())
		}
	}
}
