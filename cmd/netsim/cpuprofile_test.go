package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunCPUProfile checks netsim run --cpuprofile: it writes a CPU
// profile in pprof's format (gzip-compressed protocol buffers) and
// changes no result; a file it cannot create is a usage error naming it.
func TestRunCPUProfile(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "small.toml", small)
	plain, profiled := filepath.Join(dir, "plain"), filepath.Join(dir, "profiled")
	if code, _, errs := netsim(t, "run", "-q", file, "-o", plain); code != exitOK {
		t.Fatalf("run: exit %d, %s", code, errs)
	}
	prof := filepath.Join(dir, "cpu.prof")
	if code, _, errs := netsim(t, "run", "-q", "--cpuprofile", prof, file, "-o", profiled); code != exitOK {
		t.Fatalf("run --cpuprofile: exit %d, %s", code, errs)
	}
	b, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("%s is not a gzip-compressed profile (%d bytes)", prof, len(b))
	}
	for _, name := range []string{"results.jsonl", "table.md"} {
		if !bytes.Equal(readOut(t, profiled, name), readOut(t, plain, name)) {
			t.Errorf("%s differs under --cpuprofile", name)
		}
	}

	bad := filepath.Join(dir, "no-such-dir", "cpu.prof")
	code, _, errs := netsim(t, "run", "-q", "--cpuprofile", bad, file)
	if code != exitUsage || !strings.Contains(errs, "--cpuprofile") || !strings.Contains(errs, bad) {
		t.Errorf("--cpuprofile %s: exit %d, %q; want a usage error naming the flag and the file", bad, code, errs)
	}
}
