package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// ring4x2 is a ring of 4 switches with 2 hosts each under Distance Based
// routing and dor.
const ring4x2 = `name = "ring"
[topology]
kind = "ring"
switches = 4
hosts_per_switch = 2
[routing]
algorithm = ["distance", "dor"]
[flow_control]
vls = 2
[traffic]
patterns = ["uniform", "complement"]
`

func TestLoadCommand(t *testing.T) {
	dir := t.TempDir()
	ring := writeFile(t, dir, "ring.toml", ring4x2)
	bad := writeFile(t, dir, "bad.toml", strings.Replace(ring4x2, "switches = 4", "switchez = 4", 1))
	exchange := studyPath("seed001", "fig6.toml")
	ff := writeFile(t, dir, "ff.toml", `name = "ff"
[topology]
kind = "flatfly"
dims = [4]
hosts_per_switch = 2
[routing]
algorithm = "ador"
[flow_control]
vls = 2
[traffic]
pattern = "complement"
`)
	// ADOR also offers sideways hops, not counted.
	ffOut := ff + `: ador on flatfly 4 w1 c2 (8 hosts)
     pattern  max load  bound %  busiest links    paths
  complement    2.0000     50.0              4  detours
`
	// Uniform: a link carries the 4 flows of 1/8 between its two switches
	// and half of the 4 between each of the two switch pairs two hops
	// apart it lies between (Distance Based spreads them over both ways
	// round, dor sends them one way or the other by parity): 1. Complement
	// sends switch s's hosts to switch 3 − s, a neighbour: 2 on 4 links.
	want := ring + ` [routing.algorithm=distance]: distance on ring 4 w1 c2 (8 hosts)
     pattern  max load  bound %  busiest links     paths
     uniform    1.0000    100.0              8    spread
  complement    2.0000     50.0              4  one path
` + ring + ` [routing.algorithm=dor]: dor on ring 4 w1 c2 (8 hosts)
     pattern  max load  bound %  busiest links     paths
     uniform    1.0000    100.0              8  one path
  complement    2.0000     50.0              4  one path
`
	tests := []cliCase{
		{"table", []string{"load", ring}, exitOK, want, ""},
		{"-j 1 after the file", []string{"load", ring, "-j", "1"}, exitOK, want, ""},
		{"detours", []string{"load", ff}, exitOK, ffOut, ""},
		{"-h", []string{"load", "-h"}, exitOK, helpOf("load"), ""},
		{"help load", []string{"help", "load"}, exitOK, helpOf("load"), ""},
		{"no file", []string{"load"}, exitUsage, "", "netsim load: need at least one experiment file"},
		{"bad flag", []string{"load", "--runs", "3", ring}, exitUsage, "", "netsim load: unknown flag --runs"},
		{"negative -j", []string{"load", "-j", "-1", ring}, exitUsage, "", "netsim load: -j: -1 is not a valid number of jobs"},
		{"bad key", []string{"load", ring, bad}, exitUsage, "", bad + ":4: [topology] switchez: unknown key"},
		{"exchange", []string{"load", ring, exchange}, exitUsage, "", exchange + ": experiment seed001-fig6 has no traffic patterns to load the links with (an exchange, a workload or a congestion study; expected [traffic] pattern or patterns)\n"},
		{"exchange beside a bad file", []string{"load", bad, exchange}, exitUsage, "", exchange + ": experiment seed001-fig6 has no traffic patterns"},
	}
	runCLICases(t, tests)
}

func TestLoadCommandJSON(t *testing.T) {
	ring := writeFile(t, t.TempDir(), "ring.toml", ring4x2)
	code, out, errs := netsim(t, "load", "--json", ring)
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var got []loadLine
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var l loadLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		got = append(got, l)
	}
	want := []loadLine{
		{ring, "ring", "routing.algorithm=distance", "distance", "ring 4 w1 c2", "uniform", 1, 1, 8, true, false},
		{ring, "ring", "routing.algorithm=distance", "distance", "ring 4 w1 c2", "complement", 2, 0.5, 4, false, false},
		{ring, "ring", "routing.algorithm=dor", "dor", "ring 4 w1 c2", "uniform", 1, 1, 8, false, false},
		{ring, "ring", "routing.algorithm=dor", "dor", "ring 4 w1 c2", "complement", 2, 0.5, 4, false, false},
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), out)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i+1, got[i], want[i])
		}
	}
}

// TestLoadCommandInterrupted checks that an interrupted load stops with
// exit status 1 and says so.
func TestLoadCommandInterrupted(t *testing.T) {
	ring := writeFile(t, t.TempDir(), "ring.toml", ring4x2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	if code := run(ctx, []string{"load", ring}, &out, &errb); code != exitFailed || !strings.Contains(errb.String(), "netsim load: interrupted") {
		t.Errorf("exit %d, stderr %q; want %d and an interruption", code, errb.String(), exitFailed)
	}
}
