package main

import (
	"strings"
	"testing"

	"netsim/experiments"
)

// TestMaxMemory: validate and run refuse a network whose point would
// need more than [sim] max_memory, naming the estimate and the limit,
// before allocating it; within the limit, run runs fewer points at once
// than -j when that many would not fit.
func TestMaxMemory(t *testing.T) {
	dir := t.TempDir()
	base := `name = "torus"
[topology]
kind = "torus"
dims = [64, 64]
hosts_per_switch = 8
[routing]
algorithm = "dor"
[flow_control]
vls = 2
[traffic]
patterns = ["uniform"]
[sim]
`
	tight := writeFile(t, dir, "tight.toml", base+"max_memory = 0.05\n")
	for _, cmd := range []string{"validate", "run"} {
		code, _, errs := netsim(t, cmd, tight)
		if code != exitUsage || !strings.Contains(errs, "tight.toml:13: [sim] max_memory: a point of this network needs about") ||
			!strings.Contains(errs, "more than the 51.2 MiB netsim may use") {
			t.Errorf("%s: exit %d, stderr %q", cmd, code, errs)
		}
	}
	exps, err := experiments.LoadFile(writeFile(t, dir, "ok.toml", base))
	if err != nil {
		t.Fatal(err)
	}
	point := exps[0].PointMemory().Total()
	exps[0].Sim.MaxMemory = experiments.HeapInUse() + 2*point + point/2
	jobs, note := jobsInMemory(exps, 8)
	if jobs != 2 || !strings.Contains(note, "running 2 point(s) at once, not 8") {
		t.Errorf("jobsInMemory = %d, %q; want 2 jobs", jobs, note)
	}
	if jobs, _ := jobsInMemory(exps, 2); jobs != 2 {
		t.Errorf("2 jobs that fit became %d", jobs)
	}
}
