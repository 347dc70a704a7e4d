//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"testing"

	"netsim/experiments"
)

// TestRunRefusesLockedResults: while another run holds a directory's
// results file, netsim run -o on it exits 2 naming the lock, simulating
// nothing.
func TestRunRefusesLockedResults(t *testing.T) {
	file := filepath.Join("..", "..", "experiments", "testdata", "ff8x8-dor.toml")
	exps, err := experiments.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	held, err := experiments.OpenResults(filepath.Join(dir, "results.jsonl"), exps)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	code, out, errs := netsim(t, "run", "-q", file, "-o", dir)
	if code != exitUsage || out != "" || !strings.Contains(errs, "another netsim run is writing these results") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d naming the other run", code, out, errs, exitUsage)
	}
}
