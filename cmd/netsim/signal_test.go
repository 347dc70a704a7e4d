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

// TestSignalEndsCommands: a command that does not watch its context (validate
// building a large network) ends at once when a signal has come, with
// the interrupted message and exit status 1.
func TestSignalEndsCommands(t *testing.T) {
	file := writeFile(t, t.TempDir(), "big.toml", `name = "big"
[topology]
kind = "torus"
dims = [256, 256]
hosts_per_switch = 4
[routing]
algorithm = "dor"
[flow_control]
vls = 2
[traffic]
patterns = ["uniform"]
`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errs bytes.Buffer
	start := time.Now()
	code := run(ctx, []string{"validate", file}, &out, &errs)
	if code != exitFailed || !strings.Contains(errs.String(), "netsim validate: interrupted") || time.Since(start) > 5*time.Second {
		t.Errorf("exit %d after %v, stderr %q", code, time.Since(start), errs.String())
	}
}
