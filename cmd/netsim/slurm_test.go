package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"netsim/internal/slurmtest"
	"netsim/slurm"
)

// slurmSweep is a small sweep of two topologies, four saturation searches
// each, each search about a second: long enough to cancel a task mid-run.
const slurmSweep = `
[topology]
kind = "flatfly"
dims = [8, 8]
hosts_per_switch = 4
[routing]
algorithm = "dor"
[traffic]
patterns = ["uniform", "complement", "transpose", "shuffle"]
[sim]
warmup = 1000
measure = 20000
[sweep]
mode = "saturation"
resolution = 20
`

// waitSlurm polls the job in dir until done says it is, failing t after
// three minutes with the last status.
func waitSlurm(t *testing.T, dir string, done func(slurm.Status) bool) slurm.Status {
	t.Helper()
	j, err := slurm.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		st, err := j.Status(context.Background(), slurm.Commands)
		if err != nil {
			t.Fatal(err)
		}
		if done(st) {
			return st
		}
		if time.Now().After(deadline) {
			logs, _ := filepath.Glob(filepath.Join(dir, "logs", "*"))
			for _, l := range logs {
				data, _ := os.ReadFile(l)
				t.Logf("%s:\n%s", l, data)
			}
			t.Fatalf("job %s: still %+v after 3 minutes", dir, st)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// TestSlurm runs sweeps on a real one-node Slurm cluster (slurmctld,
// slurmd and munged started for the test and stopped by their process
// ids): a sweep of two topologies submitted as a 3-task array gives
// results.jsonl and table.md byte for byte those of a local netsim run;
// a task cancelled mid-run shows as failed, is resubmitted, resumes, and
// the results are still identical; status counts the tasks and points.
func TestSlurm(t *testing.T) {
	c := slurmtest.StartTest(t, 2)
	t.Setenv("SLURM_CONF", c.Conf())
	t.Setenv(childEnv, "1") // the test binary stands for netsim in the jobs
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	a := writeFile(t, dir, "a.toml", `name = "a"`+slurmSweep)
	b := writeFile(t, dir, "b.toml", `name = "b"`+strings.Replace(slurmSweep, `kind = "flatfly"
dims = [8, 8]`, `kind = "hypercube"
dimension = 6`, 1))
	local := filepath.Join(dir, "local")
	if code, _, errs := netsim(t, "run", "-q", "-o", local, a, b); code != exitOK {
		t.Fatalf("local run: exit %d: %s", code, errs)
	}
	want := readFile(t, filepath.Join(local, "results.jsonl"))
	wantTable := readFile(t, filepath.Join(local, "table.md"))
	same := func(job string) {
		t.Helper()
		if got := readFile(t, filepath.Join(job, "results.jsonl")); got != want {
			t.Errorf("%s/results.jsonl differs from the local run's:\n%s\nwant\n%s", job, got, want)
		}
		if got := readFile(t, filepath.Join(job, "table.md")); got != wantTable {
			t.Errorf("%s/table.md differs from the local run's", job)
		}
	}

	// A whole sweep.
	job := filepath.Join(dir, "job")
	code, out, errs := netsim(t, "slurm", "submit", a, b, "-o", job, "--shards", "3", "--netsim", exe, "--time", "10:00")
	if code != exitOK || !strings.Contains(out, "submitted job array") {
		t.Fatalf("submit: exit %d: %s%s", code, out, errs)
	}
	st := waitSlurm(t, job, func(st slurm.Status) bool { return st.Merged })
	if st.Count(slurm.Done) != 3 || st.Points != st.Total || st.Total != 8 {
		t.Errorf("status after the merge: %+v, want 3 tasks done and 8 of 8 points", st)
	}
	same(job)
	code, out, _ = netsim(t, "slurm", "status", job)
	if code != exitOK || !strings.Contains(out, "tasks: 0 pending, 0 running, 3 done, 0 failed of 3") || !strings.Contains(out, "points: 8 of 8") ||
		!strings.Contains(out, "results.jsonl complete") {
		t.Errorf("status: exit %d:\n%s", code, out)
	}

	// A task cancelled mid-run, then resubmitted.
	job2 := filepath.Join(dir, "job2")
	if code, out, errs := netsim(t, "slurm", "submit", a, b, "-o", job2, "--shards", "3", "--netsim", exe); code != exitOK {
		t.Fatalf("submit: exit %d: %s%s", code, out, errs)
	}
	j2, err := slurm.Load(job2)
	if err != nil {
		t.Fatal(err)
	}
	waitSlurm(t, job2, func(st slurm.Status) bool { return st.Tasks[1].State == slurm.Running })
	if _, err := c.Command(context.Background(), "scancel", j2.Submissions[0].Array+"_1").Output(); err != nil {
		t.Fatal(err)
	}
	st = waitSlurm(t, job2, func(st slurm.Status) bool {
		return st.Count(slurm.Failed) == 1 && st.Count(slurm.Running)+st.Count(slurm.Pending) == 0
	})
	if st.Tasks[1].State != slurm.Failed || st.Tasks[1].Slurm != "CANCELLED" || st.Merged {
		t.Fatalf("after scancel of task 1: %+v, want task 1 failed (CANCELLED) and no merge", st)
	}
	code, out, _ = netsim(t, "slurm", "status", job2)
	if code != exitOK || !strings.Contains(out, "2 done, 1 failed of 3") {
		t.Errorf("status after the cancel: exit %d:\n%s", code, out)
	}
	code, out, errs = netsim(t, "slurm", "resubmit", job2)
	if code != exitOK || !strings.Contains(out, "resubmitted task(s) 1 as job array") {
		t.Fatalf("resubmit: exit %d: %s%s", code, out, errs)
	}
	st = waitSlurm(t, job2, func(st slurm.Status) bool { return st.Merged })
	if st.Count(slurm.Done) != 3 || st.Points != 8 {
		t.Errorf("status after the resubmission: %+v", st)
	}
	same(job2)
	if code, out, _ := netsim(t, "slurm", "resubmit", job2); code != exitOK || !strings.Contains(out, "no failed task") {
		t.Errorf("resubmit of a finished job: exit %d: %s", code, out)
	}
}

// TestSlurmScripts checks what netsim slurm submit --print writes, and its
// errors, without Slurm.
func TestSlurmScripts(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.toml", `name = "a"`+slurmSweep)
	job := filepath.Join(dir, "job")
	code, out, errs := netsim(t, "slurm", "submit", a, "-o", job, "--shards", "4", "--print", "--netsim", "/opt/netsim bin/netsim",
		"--partition", "short", "--time", "1:00:00", "--cpus-per-task", "2", "--mem", "4G", "--account", "proj", "--sbatch=--qos=high",
		"--set", "sim.warmup=500")
	if code != exitOK || !strings.Contains(out, "not submitted") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	array := readFile(t, filepath.Join(job, slurm.ArrayScript))
	for _, want := range []string{"#SBATCH --array=0-3", "#SBATCH --cpus-per-task=2", "#SBATCH --partition=short", "#SBATCH --time=1:00:00",
		"#SBATCH --mem=4G", "#SBATCH --account=proj", "#SBATCH --qos=high", `exec '/opt/netsim bin/netsim' run -q --shard "$i/4" -j "${SLURM_CPUS_PER_TASK:-1}"`,
		"--set sim.warmup=500 " + a} {
		if !strings.Contains(array, want) {
			t.Errorf("array.sbatch lacks %q:\n%s", want, array)
		}
	}
	merge := readFile(t, filepath.Join(job, slurm.MergeScript))
	for _, want := range []string{"merge \"${shards[@]}\" --set sim.warmup=500 --check " + a, "run -q -o " + job} {
		if !strings.Contains(merge, want) {
			t.Errorf("merge.sbatch lacks %q:\n%s", want, merge)
		}
	}
	code, out, _ = netsim(t, "slurm", "status", job)
	if code != exitOK || !strings.Contains(out, "tasks: 4 pending, 0 running, 0 done, 0 failed of 4") {
		t.Errorf("status of an unsubmitted job: exit %d:\n%s", code, out)
	}
	runCLICases(t, []cliCase{
		{"no dir", []string{"slurm", "submit", a, "--shards", "2"}, exitUsage, "", "-o DIR is required"},
		{"no shards", []string{"slurm", "submit", a, "-o", filepath.Join(dir, "x")}, exitUsage, "", "--shards N is required"},
		{"no file", []string{"slurm", "submit", "-o", filepath.Join(dir, "x"), "--shards", "2"}, exitUsage, "", "no experiment file given"},
		{"job exists", []string{"slurm", "submit", a, "-o", job, "--shards", "2"}, exitUsage, "", "holds a job already"},
		{"bad file", []string{"slurm", "submit", filepath.Join(dir, "none.toml"), "-o", filepath.Join(dir, "y"), "--shards", "2", "--print"}, exitUsage, "", "none.toml"},
		{"array option", []string{"slurm", "submit", a, "-o", filepath.Join(dir, "z"), "--shards", "2", "--sbatch=--array=1-3", "--print"}, exitUsage, "", "sets the array and the dependency itself"},
		{"no job", []string{"slurm", "status", dir}, exitUsage, "", "no job here"},
		{"status args", []string{"slurm", "status"}, exitUsage, "", "expected one job directory"},
	})
}
