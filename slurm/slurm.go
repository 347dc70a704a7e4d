// Package slurm hands netsim's sharded sweeps to the Slurm workload
// manager: it writes the batch scripts of a job array, whose task i runs
// shard i of N of the experiment files, and of a merge job that depends
// on the array and merges, checks and reports the results; it submits
// them with sbatch, reports the tasks' state from squeue and the shards'
// results files, and resubmits the tasks that failed, each resuming from
// its own results.
//
// A job lives in one directory: slurm.json (the job: files, shards,
// options, job ids), array.sbatch and merge.sbatch (readable, and
// submittable by hand), shards/I/ (each task's netsim run output),
// logs/ (Slurm's output of each task), and, once the merge job has run,
// results.jsonl, table.md and the charts, as netsim run -o writes them.
package slurm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"netsim/experiments"
	"netsim/internal/fileio"
)

// StateFile is the name of the job's description in its directory.
const StateFile = "slurm.json"

// Options are the sbatch options of a job's tasks.
type Options struct {
	// Partition, Time, Mem and Account are sbatch's --partition, --time,
	// --mem and --account; empty: Slurm's defaults.
	Partition, Time, Mem, Account string
	// CPUsPerTask is sbatch's --cpus-per-task, the threads (-j) of each
	// task's netsim run.
	CPUsPerTask int
	// Extra are further sbatch options, written into both scripts as
	// given (such as --qos=high or --constraint=avx2).
	Extra []string
}

// Submission is one sbatch of a job's array and its merge job.
type Submission struct {
	// Array and Merge are the job ids Slurm gave.
	Array, Merge string
	// Tasks are the array's task indices, nil for all of them.
	Tasks []int `json:",omitempty"`
}

// Job is a sweep handed to Slurm.
type Job struct {
	// Dir is the job's directory (absolute).
	Dir string
	// Netsim is the netsim executable the scripts run (absolute).
	Netsim string
	// Files are the experiment files (absolute), Sets the --set
	// overrides, both passed to every netsim command.
	Files, Sets []string
	// Shards is the number of array tasks, N.
	Shards int
	// Options are the tasks' sbatch options.
	Options Options
	// Submissions lists the sbatch calls, oldest first; the last is
	// current.
	Submissions []Submission
}

// New returns a job for files, sharded n ways, in dir, run by the netsim
// executable netsim, with its paths made absolute; it checks that the
// files load (with sets) and that n and the options make sense.
func New(dir, netsim string, files, sets []string, n int, opt Options) (*Job, error) {
	if n < 1 {
		return nil, fmt.Errorf("--shards %d: expected at least 1", n)
	}
	if opt.CPUsPerTask < 1 {
		return nil, fmt.Errorf("--cpus-per-task %d: expected at least 1", opt.CPUsPerTask)
	}
	if len(files) == 0 {
		return nil, errors.New("no experiment file given")
	}
	for _, e := range opt.Extra {
		if !strings.HasPrefix(e, "-") {
			return nil, fmt.Errorf("extra sbatch option %q does not start with -", e)
		}
		if strings.HasPrefix(e, "--array") || strings.HasPrefix(e, "--dependency") || strings.HasPrefix(e, "-a") || strings.HasPrefix(e, "-d") {
			return nil, fmt.Errorf("extra sbatch option %q: netsim slurm sets the array and the dependency itself", e)
		}
	}
	j := &Job{Shards: n, Options: opt, Sets: sets}
	var err error
	if j.Dir, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	if j.Netsim, err = filepath.Abs(netsim); err != nil {
		return nil, err
	}
	for _, f := range files {
		a, err := filepath.Abs(f)
		if err != nil {
			return nil, err
		}
		j.Files = append(j.Files, a)
	}
	if _, err := j.Experiments(); err != nil {
		return nil, err
	}
	return j, nil
}

// Experiments loads the job's experiments.
func (j *Job) Experiments() ([]*experiments.Experiment, error) {
	var overrides []experiments.Override
	for _, s := range j.Sets {
		o, err := experiments.ParseOverride(s)
		if err != nil {
			return nil, fmt.Errorf("--set %s: %w", s, err)
		}
		overrides = append(overrides, o)
	}
	return experiments.LoadAll(j.Files, overrides...)
}

// Load reads the job of directory dir.
func Load(dir string) (*Job, error) {
	path := filepath.Join(dir, StateFile)
	data, err := fileio.ReadFile(path, fileio.MaxTables)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: no job here (netsim slurm submit -o %s writes it)", path, dir)
		}
		return nil, err
	}
	var j Job
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if j.Shards < 1 || len(j.Files) == 0 || j.Netsim == "" {
		return nil, fmt.Errorf("%s: not a netsim slurm job (no shards, files or netsim)", path)
	}
	return &j, nil
}

// save writes the job's slurm.json.
func (j *Job) save() error {
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(j.Dir, StateFile+".tmp")
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(j.Dir, StateFile))
}

// ArrayScript and MergeScript are the names of the scripts in the job's
// directory.
const (
	ArrayScript = "array.sbatch"
	MergeScript = "merge.sbatch"
)

// ShardDir returns the directory of task i's results.
func (j *Job) ShardDir(i int) string { return filepath.Join(j.Dir, "shards", strconv.Itoa(i)) }

// quote quotes s for the shell.
func quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:,@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// netsimArgs returns the arguments common to netsim's commands in the
// scripts: the --set overrides, then the files.
func (j *Job) netsimArgs() string {
	var b strings.Builder
	for _, s := range j.Sets {
		b.WriteString(" --set " + quote(s))
	}
	for _, f := range j.Files {
		b.WriteString(" " + quote(f))
	}
	return b.String()
}

// directives returns the #SBATCH lines every script has.
func (j *Job) directives(name, output string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", quote(name))
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", quote(output))
	o := j.Options
	for _, kv := range [][2]string{{"partition", o.Partition}, {"time", o.Time}, {"mem", o.Mem}, {"account", o.Account}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, "#SBATCH --%s=%s\n", kv[0], quote(kv[1]))
		}
	}
	for _, e := range o.Extra {
		fmt.Fprintf(&b, "#SBATCH %s\n", e)
	}
	return b.String()
}

// name is the job name in Slurm: netsim- and the first file's base name.
func (j *Job) name() string {
	return "netsim-" + strings.TrimSuffix(filepath.Base(j.Files[0]), ".toml")
}

// ArrayScriptText returns the job array's batch script.
func (j *Job) ArrayScriptText() string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	fmt.Fprintf(&b, "# Written by netsim slurm submit. Task I of the array runs shard I of %d of the\n", j.Shards)
	b.WriteString("# experiments into shards/I/ with as many threads as it has CPUs; a task\n")
	b.WriteString("# run again (netsim slurm resubmit, or sbatch --array=I of this script)\n")
	b.WriteString("# resumes from its own results.\n")
	fmt.Fprintf(&b, "#SBATCH --array=0-%d\n", j.Shards-1)
	fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", j.Options.CPUsPerTask)
	b.WriteString(j.directives(j.name(), filepath.Join(j.Dir, "logs", "task-%a.out")))
	b.WriteString("set -eu\n")
	b.WriteString("i=${SLURM_ARRAY_TASK_ID:?not a task of a Slurm job array}\n")
	fmt.Fprintf(&b, "exec %s run -q --shard \"$i/%d\" -j \"${SLURM_CPUS_PER_TASK:-1}\" -o %s/\"$i\"%s\n",
		quote(j.Netsim), j.Shards, quote(filepath.Join(j.Dir, "shards")), j.netsimArgs())
	return b.String()
}

// MergeScriptText returns the merge job's batch script.
func (j *Job) MergeScriptText() string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	b.WriteString("# Written by netsim slurm submit. Runs once the array's tasks have ended:\n")
	b.WriteString("# merges the shards' results, checking that every point is there once,\n")
	b.WriteString("# into results.jsonl, then writes table.md and the charts from them (netsim\n")
	b.WriteString("# run resumes every point and simulates none).\n")
	b.WriteString("#SBATCH --cpus-per-task=1\n")
	b.WriteString(j.directives(j.name()+"-merge", filepath.Join(j.Dir, "logs", "merge.out")))
	b.WriteString("set -eu\n")
	b.WriteString("shopt -s nullglob\n")
	fmt.Fprintf(&b, "shards=(%s/*/results.jsonl)\n", quote(filepath.Join(j.Dir, "shards")))
	var checks strings.Builder
	for _, s := range j.Sets {
		checks.WriteString(" --set " + quote(s))
	}
	for _, f := range j.Files {
		checks.WriteString(" --check " + quote(f))
	}
	fmt.Fprintf(&b, "%s merge \"${shards[@]}\"%s -o %s\n", quote(j.Netsim), checks.String(), quote(filepath.Join(j.Dir, "results.jsonl")))
	fmt.Fprintf(&b, "exec %s run -q -o %s%s\n", quote(j.Netsim), quote(j.Dir), j.netsimArgs())
	return b.String()
}

// Write creates the job's directory and writes its scripts and
// slurm.json.
func (j *Job) Write() error {
	for _, d := range []string{j.Dir, filepath.Join(j.Dir, "shards"), filepath.Join(j.Dir, "logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	for name, text := range map[string]string{ArrayScript: j.ArrayScriptText(), MergeScript: j.MergeScriptText()} {
		if err := os.WriteFile(filepath.Join(j.Dir, name), []byte(text), 0o755); err != nil {
			return err
		}
	}
	return j.save()
}

// Exec runs a Slurm command and returns its standard output; an error
// carries its standard error.
type Exec func(ctx context.Context, name string, args ...string) ([]byte, error)

// Commands runs Slurm's commands from PATH, in the process's environment
// (SLURM_CONF names the cluster where it is not the default).
func Commands(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return out, fmt.Errorf("%s %s: %s", name, strings.Join(args, " "), msg)
	}
	return out, nil
}

// sbatch submits script with args and returns the job id.
func sbatch(ctx context.Context, run Exec, script string, args ...string) (string, error) {
	out, err := run(ctx, "sbatch", append(append([]string{"--parsable"}, args...), script)...)
	if err != nil {
		return "", err
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";") // "id;cluster" on federations
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("sbatch %s: unexpected answer %q (expected a job id)", script, out)
	}
	return id, nil
}

// Submit submits the job's array (tasks, nil for all) and a merge job
// that runs once it has succeeded (afterok), or, on a resubmission, once
// every earlier task has ended and the new ones have succeeded (the
// merge checks that every point is there), and records both in
// slurm.json.
func (j *Job) Submit(ctx context.Context, run Exec, tasks []int) (Submission, error) {
	var arrayArgs []string
	if tasks != nil {
		list := make([]string, len(tasks))
		for i, t := range tasks {
			list[i] = strconv.Itoa(t)
		}
		arrayArgs = append(arrayArgs, "--array="+strings.Join(list, ","))
	}
	array, err := sbatch(ctx, run, filepath.Join(j.Dir, ArrayScript), arrayArgs...)
	if err != nil {
		return Submission{}, err
	}
	dep := "afterok:" + array
	for _, s := range j.Submissions {
		dep = "afterany:" + s.Array + "," + dep
	}
	merge, err := sbatch(ctx, run, filepath.Join(j.Dir, MergeScript), "--dependency="+dep)
	if err != nil {
		_, _ = run(ctx, "scancel", array)
		return Submission{}, fmt.Errorf("%w (the array, job %s, is cancelled)", err, array)
	}
	s := Submission{Array: array, Merge: merge, Tasks: tasks}
	j.Submissions = append(j.Submissions, s)
	return s, j.save()
}

// Task states.
const (
	Pending = "pending"
	Running = "running"
	Done    = "done"
	Failed  = "failed"
)

// TaskStatus is the state of one array task.
type TaskStatus struct {
	// Index is the task's index, its shard.
	Index int
	// State is Pending, Running, Done (every point of its shard has a
	// result) or Failed (it ended without them).
	State string
	// Slurm is the state squeue gives (PENDING, RUNNING, TIMEOUT,
	// CANCELLED, ...), "" when squeue no longer lists the task.
	Slurm string
	// Points and Total count the shard's points with results, and all.
	Points, Total int
}

// Status is the state of a job.
type Status struct {
	Tasks []TaskStatus
	// Merge is the merge job's squeue state ("" when no longer listed),
	// Merged whether results.jsonl holds every point and the merge job,
	// which then writes the table and charts, has ended.
	Merge  string
	Merged bool
	// Points and Total sum the tasks'.
	Points, Total int
}

// Count returns the number of tasks in state.
func (s Status) Count(state string) int {
	n := 0
	for _, t := range s.Tasks {
		if t.State == state {
			n++
		}
	}
	return n
}

// squeueStates returns the squeue state of each listed task of the
// arrays and of the merge jobs, by "ARRAY_TASK" and by job id. Each job
// is asked for alone: squeue fails on a job id it has forgotten (older
// than Slurm's MinJobAge), which then has no state.
func squeueStates(ctx context.Context, run Exec, ids []string) (map[string]string, error) {
	states := map[string]string{}
	for _, id := range ids {
		out, err := run(ctx, "squeue", "-h", "-t", "all", "-r", "-o", "%i %T", "-j", id)
		if err != nil {
			if strings.Contains(err.Error(), "Invalid job id") {
				continue
			}
			return nil, err
		}
		for _, line := range strings.Split(string(out), "\n") {
			f := strings.Fields(line)
			if len(f) == 2 {
				states[f[0]] = f[1]
			}
		}
	}
	return states, nil
}

// Status reports the job's tasks from squeue and the shards' results.
func (j *Job) Status(ctx context.Context, run Exec) (Status, error) {
	exps, err := j.Experiments()
	if err != nil {
		return Status{}, err
	}
	var ids []string
	for _, s := range j.Submissions {
		ids = append(ids, s.Array, s.Merge)
	}
	states := map[string]string{}
	if len(ids) > 0 {
		if states, err = squeueStates(ctx, run, ids); err != nil {
			return Status{}, err
		}
	}
	plan := experiments.Plan(exps)
	var st Status
	for i := range j.Shards {
		ts := TaskStatus{Index: i}
		done, err := doneKeys(filepath.Join(j.ShardDir(i), "results.jsonl"), exps)
		if err != nil {
			return Status{}, err
		}
		for _, t := range (experiments.Shard{Index: i, Count: j.Shards}).Select(plan) {
			ts.Total++
			if done.Has(t.Key()) {
				ts.Points++
			}
		}
		// The newest submission that ran task i says what Slurm thinks.
		for k := len(j.Submissions) - 1; k >= 0 && ts.Slurm == ""; k-- {
			s := j.Submissions[k]
			if s.Tasks == nil || slices.Contains(s.Tasks, i) {
				ts.Slurm = states[s.Array+"_"+strconv.Itoa(i)]
				if ts.Slurm == "" {
					ts.Slurm = states[s.Array] // an array not yet split into tasks
				}
				break
			}
		}
		switch {
		case ts.Points == ts.Total:
			ts.State = Done
		case ts.Slurm == "PENDING" || ts.Slurm == "REQUEUED" || ts.Slurm == "SUSPENDED":
			ts.State = Pending
		case ts.Slurm == "RUNNING" || ts.Slurm == "COMPLETING" || ts.Slurm == "CONFIGURING":
			ts.State = Running
		case len(j.Submissions) == 0:
			ts.State = Pending
		default:
			ts.State = Failed
		}
		st.Points += ts.Points
		st.Total += ts.Total
		st.Tasks = append(st.Tasks, ts)
	}
	if n := len(j.Submissions); n > 0 {
		st.Merge = states[j.Submissions[n-1].Merge]
	}
	merged, err := doneKeys(filepath.Join(j.Dir, "results.jsonl"), exps)
	if err != nil {
		return Status{}, err
	}
	// Merged once results.jsonl holds every point and the merge job has
	// ended (it writes the table and charts after results.jsonl).
	st.Merged = st.Merge != "PENDING" && st.Merge != "RUNNING" && st.Merge != "COMPLETING" && st.Merge != "CONFIGURING"
	for _, t := range plan {
		st.Merged = st.Merged && merged.Has(t.Key())
	}
	return st, nil
}

// doneKeys reads the points of a results file, none when it is missing.
func doneKeys(path string, exps []*experiments.Experiment) (*experiments.Store, error) {
	data, err := fileio.ReadFile(path, fileio.MaxTables)
	if errors.Is(err, os.ErrNotExist) {
		return experiments.NewStore(exps, nil)
	}
	if err != nil {
		return nil, err
	}
	lines, _, err := experiments.ReadResults(bytes.NewReader(data), path)
	if err != nil {
		return nil, err
	}
	return experiments.NewStore(exps, lines)
}

// Resubmit submits again the tasks that failed (they resume from their
// results), with a new merge job, after cancelling the merge job that
// waited for them (it can no longer run: its dependency failed). It
// returns the tasks resubmitted, none when no task failed.
func (j *Job) Resubmit(ctx context.Context, run Exec) ([]int, Submission, error) {
	st, err := j.Status(ctx, run)
	if err != nil {
		return nil, Submission{}, err
	}
	var failed []int
	for _, t := range st.Tasks {
		if t.State == Failed {
			failed = append(failed, t.Index)
		}
	}
	if len(failed) == 0 {
		return nil, Submission{}, nil
	}
	if n := len(j.Submissions); n > 0 && st.Merge != "" && st.Merge != "COMPLETED" && st.Merge != "FAILED" && st.Merge != "CANCELLED" {
		if _, err := run(ctx, "scancel", j.Submissions[n-1].Merge); err != nil {
			return nil, Submission{}, err
		}
	}
	s, err := j.Submit(ctx, run, failed)
	return failed, s, err
}
