package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLayoutCLI places a ring's 4 switches 20 m apart at 0.25 cycles a
// meter: each switch-to-switch link gains 5 cycles, so a message two
// switch hops away completes 10 cycles later; under STOP/GO the default
// watermarks follow the longer links, and bad layouts get file:line
// errors.
func TestLayoutCLI(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "one.trace", "netsim-trace 1\nranks 4\nrank 0\nsend 2 64\nrank 2\nrecv 0 64\n")
	writeFile(t, dir, "ring.csv", "switch,x,y\n0,0,0\n1,20,0\n2,20,20\n3,0,20\n")
	base := `name = "ring"
[topology]
kind = "ring"
switches = 4
hosts_per_switch = 1
[routing]
algorithm = "dor"
[flow_control]
vls = 2
%FC%
[switch]
%SW%
[traffic]
kind = "workload"
patterns = ["trace"]
trace = "one.trace"
flit_bytes = 16
mtu_bytes = 256
`
	file := func(name, fc, sw string) string {
		return writeFile(t, dir, name, strings.NewReplacer("%FC%", fc, "%SW%", sw).Replace(base))
	}
	completion := func(path string) int64 {
		lines := workloadLines(t, path, filepath.Join(dir, "out-"+filepath.Base(path)))
		return lines[0].Completion
	}
	plain := completion(file("plain.toml", "", ""))
	placed := completion(file("placed.toml", "", "layout = \"ring.csv\"\ncycles_per_meter = 0.25"))
	if placed-plain != 10 {
		t.Errorf("completion %d cycles with the layout, %d without: want 10 more", placed, plain)
	}
	stopgo := "kind = \"stopgo\"\nbuffer_flits = 40"
	if code, out, errs := netsim(t, "validate", file("stopgo.toml", stopgo, "layout = \"ring.csv\"\ncycles_per_meter = 0.25")); code != exitOK {
		t.Errorf("stopgo with a layout: exit %d: %s%s", code, out, errs)
	}
	writeFile(t, dir, "short.csv", "0,0,0\n1,20,0\n2,20,20\n")
	writeFile(t, dir, "bad.csv", "0,0,0\n1,x,0\n")
	runCLICases(t, []cliCase{
		{"stop mark too high for the cables", []string{"validate", file("high.toml", stopgo+"\nstop_mark = 30\ngo_mark = 10", "layout = \"ring.csv\"\ncycles_per_meter = 0.25")}, exitUsage, "",
			"[flow_control] stop_mark: 30 lets the buffer overflow on the layout's longest link of 6 cycles"},
		{"switch without a position", []string{"validate", file("short.toml", "", "layout = \"short.csv\"")}, exitUsage, "",
			"short.csv:3: switch S4 (index 3) has no position"},
		{"bad coordinate", []string{"validate", file("bad.toml", "", "layout = \"bad.csv\"")}, exitUsage, "",
			"bad.csv:2: bad coordinate \"x\""},
		{"cycles without layout", []string{"validate", file("cpm.toml", "", "cycles_per_meter = 2")}, exitUsage, "",
			"[switch] cycles_per_meter: only used with layout"},
	})
}
