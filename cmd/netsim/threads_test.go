package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunThreads: netsim run --threads 3, --threads auto, and [sim]
// threads = 2 in the file, write the results (and the tables) of a run on one thread byte
// for byte, and resume a run made on one thread; bad values are refused
// naming the flag or key.
func TestRunThreads(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "cs.toml", cheaperFile)
	one := filepath.Join(dir, "one")
	if code, _, errs := netsim(t, "run", "-q", file, "-o", one); code != exitOK {
		t.Fatalf("run: exit %d, %s", code, errs)
	}
	three := filepath.Join(dir, "three")
	if code, _, errs := netsim(t, "run", "-q", "--threads", "3", file, "-o", three); code != exitOK {
		t.Fatalf("run --threads 3: exit %d, %s", code, errs)
	}
	auto := filepath.Join(dir, "auto")
	if code, _, errs := netsim(t, "run", "-q", "--threads", "auto", file, "-o", auto); code != exitOK {
		t.Fatalf("run --threads auto: exit %d, %s", code, errs)
	}
	inFile := filepath.Join(dir, "infile")
	if code, _, errs := netsim(t, "run", "-q", "--set", "sim.threads=2", file, "-o", inFile); code != exitOK {
		t.Fatalf("run with [sim] threads = 2: exit %d, %s", code, errs)
	}
	for _, name := range []string{"results.jsonl", "table.md"} {
		want := readOut(t, one, name)
		for _, out := range []string{three, auto, inFile} {
			if got := readOut(t, out, name); !bytes.Equal(got, want) {
				t.Errorf("%s/%s differs from one thread's:\n%s\nwant\n%s", filepath.Base(out), name, got, want)
			}
		}
	}
	// A run on one thread resumed on two: nothing is simulated again.
	code, _, errs := netsim(t, "run", "--threads", "2", file, "-o", one)
	if code != exitOK || !strings.Contains(errs, "resum") {
		t.Errorf("resume on 2 threads: exit %d, %s", code, errs)
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"--threads", "-1"}, "--threads"},
		{[]string{"--threads", "100000"}, "--threads"},
		{[]string{"--threads", "many"}, "--threads"},
		{[]string{"--set", "sim.threads=0"}, "[sim] threads"},
	} {
		args := append([]string{"run", "-q", file, "-o", filepath.Join(dir, "bad")}, bad.args...)
		if code, _, errs := netsim(t, args...); code != exitUsage || !strings.Contains(errs, bad.want) {
			t.Errorf("%v: exit %d, %s", bad.args, code, errs)
		}
	}
}
