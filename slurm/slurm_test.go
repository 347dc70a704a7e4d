package slurm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const sweep = `name = "s"
[topology]
kind = "crossbar"
hosts = 4
[routing]
algorithm = "dor"
[traffic]
patterns = ["uniform", "complement", "randperm"]
[sweep]
loads = [0.1]
`

// fakeSlurm answers sbatch with increasing job ids and squeue from a
// table of states; a job it has "forgotten" is an invalid id.
type fakeSlurm struct {
	next   int
	states map[string]string // "id" or "id_task" → state
	calls  []string
}

func (f *fakeSlurm) run(_ context.Context, name string, args ...string) ([]byte, error) {
	f.calls = append(f.calls, name+" "+strings.Join(args, " "))
	switch name {
	case "sbatch":
		f.next++
		return []byte(fmt.Sprintf("%02d\n", f.next)), nil
	case "squeue":
		id := args[len(args)-1]
		var out []string
		for k, v := range f.states {
			if k == id || strings.HasPrefix(k, id+"_") {
				out = append(out, k+" "+v)
			}
		}
		if len(out) == 0 {
			return nil, errors.New("squeue: error: Invalid job id specified")
		}
		slices.Sort(out)
		return []byte(strings.Join(out, "\n") + "\n"), nil
	case "scancel":
		return nil, nil
	}
	return nil, errors.New("unexpected command " + name)
}

// TestStatusAndResubmit: tasks without all their results are pending or
// running as squeue says, failed otherwise (also when squeue has
// forgotten them); resubmit submits the failed ones and a new merge job
// after cancelling the stale one. (TestSlurm in cmd/netsim runs the real
// Slurm, where tasks also end done.)
func TestStatusAndResubmit(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.toml")
	if err := os.WriteFile(file, []byte(sweep), 0o644); err != nil {
		t.Fatal(err)
	}
	j, err := New(filepath.Join(dir, "job"), "/usr/bin/netsim", []string{file}, nil, 3, Options{CPUsPerTask: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Write(); err != nil {
		t.Fatal(err)
	}
	f := &fakeSlurm{states: map[string]string{}}
	s, err := j.Submit(context.Background(), f.run, nil)
	if err != nil || s.Array != "01" || s.Merge != "02" {
		t.Fatalf("submit: %+v, %v", s, err)
	}
	if !slices.Contains(f.calls, "sbatch --parsable --dependency=afterok:01 "+filepath.Join(j.Dir, MergeScript)) {
		t.Errorf("calls %q: no merge job depending on the array", f.calls)
	}
	// Before Slurm has split the array, its tasks are pending.
	f.states = map[string]string{"01": "PENDING", "02": "PENDING"}
	st, err := j.Status(context.Background(), f.run)
	if err != nil || st.Count(Pending) != 3 {
		t.Fatalf("status of an unsplit array: %+v, %v", st, err)
	}
	// Task 1 runs; tasks 0 and 2 are gone without their results (squeue
	// has forgotten them).
	f.states = map[string]string{"01_1": "RUNNING", "02": "PENDING"}
	st, err = j.Status(context.Background(), f.run)
	if err != nil {
		t.Fatal(err)
	}
	if st.Total != 3 || st.Tasks[1].State != Running || st.Tasks[0].State != Failed || st.Tasks[2].State != Failed || st.Merge != "PENDING" {
		t.Errorf("status %+v: want task 1 running, 0 and 2 failed (not listed), 3 points", st)
	}
	tasks, s2, err := j.Resubmit(context.Background(), f.run)
	if err != nil || !slices.Equal(tasks, []int{0, 2}) {
		t.Fatalf("resubmit: %v, %v", tasks, err)
	}
	if !slices.Contains(f.calls, "scancel 02") || !slices.Contains(f.calls, "sbatch --parsable --array=0,2 "+filepath.Join(j.Dir, ArrayScript)) ||
		!slices.Contains(f.calls, "sbatch --parsable --dependency=afterany:01,afterok:"+s2.Array+" "+filepath.Join(j.Dir, MergeScript)) {
		t.Errorf("calls %q", f.calls)
	}
	back, err := Load(j.Dir)
	if err != nil || len(back.Submissions) != 2 {
		t.Errorf("slurm.json after the resubmission: %+v, %v", back, err)
	}
}
