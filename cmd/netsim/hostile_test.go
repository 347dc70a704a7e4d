package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostileInputs runs the committed corpus of hostile inputs
// (testdata/hostile/cases.txt): each gives its exit status and message,
// within a minute, without a panic; then the inputs git cannot hold (a
// FIFO as include, a line longer than the LFT reader takes) made here.
func TestHostileInputs(t *testing.T) {
	f, err := os.Open("testdata/hostile/cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []cliCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		fs := strings.Split(line, " | ")
		if len(fs) != 4 {
			t.Fatalf("cases.txt: %q: want NAME | ARGUMENTS | EXIT | STDERR", line)
		}
		code, err := strconv.Atoi(strings.TrimSpace(fs[2]))
		if err != nil {
			t.Fatalf("cases.txt: %q: bad exit status", line)
		}
		cases = append(cases, cliCase{name: fs[0], args: strings.Fields(fs[1]), code: code, stderr: strings.TrimSpace(fs[3])})
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cases = append(cases,
		cliCase{name: "include-fifo", args: []string{"validate", writeFile(t, dir, "fifo-include.toml", "name = \"x\"\ninclude = [\"fifo.toml\"]\n")},
			code: exitUsage, stderr: "cannot read " + fifo + ": not a regular file (a FIFO)"},
		cliCase{name: "lft-long-line", args: []string{"validate", writeFile(t, dir, "long.toml", `name = "x"
[topology]
kind = "crossbar"
hosts = 4
[routing]
algorithm = "file"
path = "long.lft"
[traffic]
patterns = ["uniform"]
`)}, code: exitUsage, stderr: "long.lft:2: bufio.Scanner: token too long"})
	writeFile(t, dir, "long.lft", "Unicast lids [0x1-0x5] of switch Lid 5 guid 0x0002c90300000001 ('S1'):\n"+strings.Repeat("x", 2<<20)+"\n")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan struct{})
			var code int
			var errs string
			go func() {
				defer close(done)
				code, _, errs = netsim(t, tc.args...)
			}()
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Fatalf("netsim %s did not end within a minute", strings.Join(tc.args, " "))
			}
			if code != tc.code || !strings.Contains(errs, tc.stderr) || strings.Contains(errs, "panic") || strings.Contains(errs, "goroutine ") {
				t.Errorf("netsim %s: exit %d, stderr %q; want exit %d and %q", strings.Join(tc.args, " "), code, errs, tc.code, tc.stderr)
			}
		})
	}
}
