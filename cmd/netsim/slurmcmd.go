package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"netsim/experiments"
	"netsim/slurm"
)

// slurmCmd returns netsim slurm, whose subcommands hand sweeps to Slurm.
func slurmCmd() *Command {
	return &Command{
		Name:      "slurm",
		UsageLine: "netsim slurm SUBCOMMAND ...",
		Short:     "run a sweep's shards as a Slurm job array, merged by a dependent job",
		Long: `Hands a sweep to the Slurm workload manager: a job array whose task I runs
shard I of N (netsim run --shard I/N, resumable), and a merge job that
depends on it and writes the merged results.jsonl, table.md and charts,
byte for byte those of an unsharded netsim run. Slurm's commands (sbatch,
squeue, scancel) come from PATH and find the cluster as they always do
(SLURM_CONF where it is not the default).
`,
		Commands: []*Command{slurmSubmitCmd(), slurmStatusCmd(), slurmResubmitCmd()},
	}
}

// slurmSubmitFlags are the options of netsim slurm submit.
type slurmSubmitFlags struct {
	out, netsim string
	shards      int
	print       bool
	opt         slurm.Options
	sets        []experiments.Override
}

// define defines the flags of netsim slurm submit on fs, bound to f.
func (f *slurmSubmitFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.out, "o", "", "the job's `DIR`: its scripts, slurm.json, the shards' results and, once merged, results.jsonl, table.md and the charts (required)")
	fs.IntVar(&f.shards, "shards", 0, "the number `N` of array tasks, each running one shard of the points (required); shards are balanced by expected cost")
	fs.StringVar(&f.opt.Partition, "partition", "", "sbatch --partition `P`")
	fs.StringVar(&f.opt.Time, "time", "", "sbatch --time `T` of each task (a task killed at its limit resumes when resubmitted)")
	fs.IntVar(&f.opt.CPUsPerTask, "cpus-per-task", 1, "sbatch --cpus-per-task `C`, the jobs (-j) of each task's netsim run")
	fs.StringVar(&f.opt.Mem, "mem", "", "sbatch --mem `M` of each task")
	fs.StringVar(&f.opt.Account, "account", "", "sbatch --account `A`")
	fs.Func("sbatch", "a further sbatch `OPTION` for both scripts, as one argument (repeat for several, e.g. --sbatch=--qos=high)", func(s string) error {
		if s == "" {
			return errors.New("empty value (expected an sbatch option such as --qos=high)")
		}
		f.opt.Extra = append(f.opt.Extra, s)
		return nil
	})
	fs.BoolVar(&f.print, "print", false, "write the scripts and slurm.json without submitting them (submit by hand: sbatch --parsable DIR/array.sbatch, then sbatch --dependency=afterok:ID DIR/merge.sbatch)")
	fs.StringVar(&f.netsim, "netsim", "", "the netsim `EXECUTABLE` the tasks run (default: this one; it must be reachable from the compute nodes)")
	defineSet(fs, &f.sets)
}

// slurmSubmitCmd returns netsim slurm submit.
func slurmSubmitCmd() *Command {
	var f slurmSubmitFlags
	return &Command{
		WatchesContext: true, // Slurm's commands run under the context
		Name:           "submit",
		UsageLine:      "netsim slurm submit FILE.toml ... -o DIR --shards N [--partition P] [--time T] [--cpus-per-task C] [--mem M] [--account A] [--sbatch OPTION]... [--set SECTION.KEY=VALUE]... [--print] [--netsim EXECUTABLE]",
		Short:          "write and submit a sweep's job array and merge job",
		Long: `Writes DIR/array.sbatch, a job array whose task I runs shard I of N of the
experiment files into DIR/shards/I/ with -j its CPUs, and DIR/merge.sbatch,
which merges the shards (netsim merge --check) into DIR/results.jsonl and
writes DIR/table.md and the charts; submits the array and then the merge
job with a dependency on it (afterok), and records both in DIR/slurm.json.
With --print the scripts are written but not submitted. Flags may come
before or after the files.
`,
		Flags: f.define,
		Run: func(ctx context.Context, cmd *Command, ev env, files []string) int {
			switch {
			case f.out == "":
				return cmd.usageError(ev, errors.New("-o DIR is required"))
			case f.shards < 1:
				return cmd.usageError(ev, fmt.Errorf("--shards N is required (at least 1), got %d", f.shards))
			case len(files) == 0:
				return cmd.usageError(ev, errors.New("no experiment file given"))
			}
			exe := f.netsim
			if exe == "" {
				var err error
				if exe, err = os.Executable(); err != nil {
					fmt.Fprintf(ev.stderr, "netsim slurm submit: %v (give --netsim)\n", err)
					return exitUsage
				}
			}
			if _, err := os.Stat(filepath.Join(f.out, slurm.StateFile)); err == nil {
				fmt.Fprintf(ev.stderr, "netsim slurm submit: %s holds a job already (netsim slurm status %s; resubmit its failed tasks with netsim slurm resubmit)\n", f.out, f.out)
				return exitUsage
			}
			var sets []string
			for _, o := range f.sets {
				sets = append(sets, o.Arg)
			}
			j, err := slurm.New(f.out, exe, files, sets, f.shards, f.opt)
			if err != nil {
				fmt.Fprintf(ev.stderr, "netsim slurm submit: %v\n", err)
				return exitUsage
			}
			if err := j.Write(); err != nil {
				fmt.Fprintf(ev.stderr, "netsim slurm submit: %v\n", err)
				return exitFailed
			}
			if f.print {
				fmt.Fprintf(ev.stdout, "wrote %s and %s (not submitted)\n", filepath.Join(j.Dir, slurm.ArrayScript), filepath.Join(j.Dir, slurm.MergeScript))
				return exitOK
			}
			s, err := j.Submit(ctx, slurm.Commands, nil)
			if err != nil {
				fmt.Fprintf(ev.stderr, "netsim slurm submit: %v\n", err)
				return exitFailed
			}
			fmt.Fprintf(ev.stdout, "submitted job array %s (%d tasks) and merge job %s; netsim slurm status %s\n", s.Array, j.Shards, s.Merge, f.out)
			return exitOK
		},
	}
}

// slurmStatusCmd returns netsim slurm status.
func slurmStatusCmd() *Command {
	return &Command{
		WatchesContext: true, // Slurm's commands run under the context
		Name:           "status",
		UsageLine:      "netsim slurm status DIR",
		Short:          "count a job's tasks pending, running, done and failed, and its points",
		Long: `Prints the state of each task of the job in DIR — pending, running, done
(every point of its shard has a result) or failed (it ended without them:
failed, cancelled, out of time or memory, preempted) — with Slurm's state
(squeue) and the points done of its shard, then the totals and the merge
job's state.
`,
		Run: func(ctx context.Context, cmd *Command, ev env, args []string) int {
			if len(args) != 1 {
				return cmd.usageError(ev, errors.New("expected one job directory"))
			}
			j, err := slurm.Load(args[0])
			if err != nil {
				fmt.Fprintf(ev.stderr, "netsim slurm status: %v\n", err)
				return exitUsage
			}
			st, err := j.Status(ctx, slurm.Commands)
			if err != nil {
				fmt.Fprintf(ev.stderr, "netsim slurm status: %v\n", err)
				return exitFailed
			}
			if err := printStatus(ev.stdout, j, st); err != nil {
				fmt.Fprintf(ev.stderr, "netsim slurm status: %v\n", err)
				return exitFailed
			}
			return exitOK
		},
	}
}

// printStatus writes a job's status.
func printStatus(w io.Writer, j *slurm.Job, st slurm.Status) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "task\tstate\tslurm\tpoints")
	for _, t := range st.Tasks {
		s := t.Slurm
		if s == "" {
			s = "-"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d/%d\n", t.Index, t.State, s, t.Points, t.Total)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	merge := st.Merge
	if merge == "" {
		merge = "-"
	}
	if st.Merged {
		merge += ", results.jsonl complete"
	}
	var ids []string
	for _, s := range j.Submissions {
		ids = append(ids, s.Array)
	}
	_, err := fmt.Fprintf(w, "tasks: %d pending, %d running, %d done, %d failed of %d (arrays %s); points: %d of %d; merge: %s\n",
		st.Count(slurm.Pending), st.Count(slurm.Running), st.Count(slurm.Done), st.Count(slurm.Failed), len(st.Tasks),
		strings.Join(ids, ", "), st.Points, st.Total, merge)
	return err
}

// slurmResubmitCmd returns netsim slurm resubmit.
func slurmResubmitCmd() *Command {
	return &Command{
		WatchesContext: true, // Slurm's commands run under the context
		Name:           "resubmit",
		UsageLine:      "netsim slurm resubmit DIR",
		Short:          "submit a job's failed or timed-out tasks again, and a new merge job",
		Long: `Submits again the tasks of the job in DIR that failed (see netsim slurm
status): each resumes from its own results file, so a task killed at its
time limit or preempted loses only the points it was simulating. The merge
job that waited for them is cancelled and a new one submitted, which runs
once every task has ended and the resubmitted ones have succeeded.
`,
		Run: func(ctx context.Context, cmd *Command, ev env, args []string) int {
			if len(args) != 1 {
				return cmd.usageError(ev, errors.New("expected one job directory"))
			}
			j, err := slurm.Load(args[0])
			if err != nil {
				fmt.Fprintf(ev.stderr, "netsim slurm resubmit: %v\n", err)
				return exitUsage
			}
			tasks, s, err := j.Resubmit(ctx, slurm.Commands)
			if err != nil {
				fmt.Fprintf(ev.stderr, "netsim slurm resubmit: %v\n", err)
				return exitFailed
			}
			if len(tasks) == 0 {
				fmt.Fprintln(ev.stdout, "no failed task to resubmit")
				return exitOK
			}
			words := make([]string, len(tasks))
			for i, t := range tasks {
				words[i] = fmt.Sprint(t)
			}
			fmt.Fprintf(ev.stdout, "resubmitted task(s) %s as job array %s, merge job %s\n", strings.Join(words, ","), s.Array, s.Merge)
			return exitOK
		},
	}
}
