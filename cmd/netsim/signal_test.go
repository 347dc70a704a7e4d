package main

import (
	"bytes"
	"context"
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
