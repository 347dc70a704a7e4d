package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"netsim/bench"
	"netsim/fabric"
)

// benchLong is the help of netsim bench.
const benchLong = `Runs netsim's benchmark suite, each case a simulation point in a process
of its own, and prints per case the network's hosts, the cycles
simulated, the flit-hops (flits across links, host links included), the
wall and CPU time of the simulation (every thread; building the network and its
routing excluded), millions of flit-hops and of kernel events per
CPU-second, nanoseconds of CPU per flit-hop, and the process's peak
resident memory. With --threads N, compare wall times: CPU time then
includes the threads' waits at their barriers, and the events include
each thread's own batch events. The cases:

` + "%s" + `
To compare two builds, alternate them and quote medians and min–max,
for example five rounds of

  old/netsim bench --json >> old.jsonl; new/netsim bench --json >> new.jsonl

Exit status: 0 done; 1 a case failed or the run was interrupted; 2 bad
command line.
`

// benchFlags are the options of netsim bench.
type benchFlags struct {
	cases   string
	scale   float64
	json    bool
	child   string
	threads int
}

// benchCmd returns netsim bench.
func benchCmd() *Command {
	var f benchFlags
	return &Command{
		WatchesContext: true,
		Name:           "bench",
		UsageLine:      "netsim bench [--case NAME,...] [--scale X] [--threads N] [--json]\nnetsim bench --child NAME [--scale X] [--threads N]",
		Short:          "measure netsim's speed on a fixed suite of points",
		Long:           fmt.Sprintf(benchLong, bench.Doc()),
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&f.cases, "case", "", "run only the cases `NAMES` (comma-separated)")
			fs.Float64Var(&f.scale, "scale", 1, "simulate `X` times each case's cycles")
			fs.BoolVar(&f.json, "json", false, "print one JSON object per case instead of the table")
			fs.IntVar(&f.threads, "threads", 1, "simulate each case on `N` threads ([sim] threads); compare wall times across N")
			fs.StringVar(&f.child, "child", "", "run case `NAME` in this process and print its measurements as JSON (what netsim bench runs per case)")
		},
		Run: func(ctx context.Context, cmd *Command, ev env, args []string) int {
			if len(args) > 0 {
				return cmd.usageError(ev, fmt.Errorf("unexpected argument %q", args[0]))
			}
			if !(f.scale > 0) || f.scale > 1000 {
				return cmd.usageError(ev, fmt.Errorf("--scale: must be in (0, 1000], got %v", f.scale))
			}
			if f.threads < 1 || f.threads > fabric.MaxThreads {
				return cmd.usageError(ev, fmt.Errorf("--threads: must be between 1 and %d, got %d", fabric.MaxThreads, f.threads))
			}
			if f.child != "" {
				return benchChild(ctx, ev, f)
			}
			names := bench.Names()
			if f.cases != "" {
				names = strings.Split(f.cases, ",")
				for _, n := range names {
					if _, ok := bench.Lookup(n); !ok {
						return cmd.usageError(ev, fmt.Errorf("--case: no case %q (the cases: %s)", n, strings.Join(bench.Names(), ", ")))
					}
				}
			}
			return benchRun(ctx, ev, f, names)
		},
	}
}

// benchChild runs one case in this process and prints its Point.
func benchChild(ctx context.Context, ev env, f benchFlags) int {
	c, ok := bench.Lookup(f.child)
	if !ok {
		fmt.Fprintf(ev.stderr, "netsim bench: no case %q\n", f.child)
		return exitUsage
	}
	p, err := bench.Run(ctx, c, f.scale, f.threads)
	if err != nil {
		fmt.Fprintf(ev.stderr, "netsim bench: %v\n", err)
		return exitFailed
	}
	b, _ := json.Marshal(p)
	fmt.Fprintf(ev.stdout, "%s\n", b)
	return exitOK
}

// benchResult is a case's line of netsim bench --json.
type benchResult struct {
	Case  string `json:"case"`
	Build string `json:"build"`
	bench.Point
	FlitHopsPerCPUSecond float64 `json:"flit_hops_per_cpu_second"`
	NsPerFlitHop         float64 `json:"ns_per_flit_hop"`
	EventsPerCPUSecond   float64 `json:"events_per_cpu_second"`
}

// benchRun runs the cases named, each in a child process, and prints
// their results.
func benchRun(ctx context.Context, ev env, f benchFlags, names []string) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(ev.stderr, "netsim bench: cannot find netsim's executable to run the cases: %v\n", err)
		return exitFailed
	}
	if !f.json {
		fmt.Fprintf(ev.stdout, "%-22s %7s %8s %12s %8s %8s %9s %9s %9s %8s\n",
			"case", "hosts", "cycles", "flit-hops", "wall s", "CPU s", "Mfh/CPU-s", "ns/fh", "Mev/CPU-s", "peak MB")
	}
	for _, name := range names {
		var out, errb bytes.Buffer
		c := exec.CommandContext(ctx, exe, "bench", "--child", name, "--scale", strconv.FormatFloat(f.scale, 'g', -1, 64), "--threads", strconv.Itoa(f.threads))
		c.Env = append(os.Environ(), childEnv+"=1")
		c.Stdout, c.Stderr = &out, &errb
		err := c.Run()
		if ctx.Err() != nil {
			fmt.Fprintln(ev.stderr, "netsim bench: interrupted")
			return exitFailed
		}
		var p bench.Point
		if err == nil {
			err = json.Unmarshal(bytes.TrimSpace(out.Bytes()), &p)
		}
		if err != nil {
			var exit *exec.ExitError
			if errors.As(err, &exit) || errb.Len() > 0 {
				err = fmt.Errorf("%v: %s", err, strings.TrimSpace(errb.String()))
			}
			fmt.Fprintf(ev.stderr, "netsim bench: case %s: %v\n", name, err)
			return exitFailed
		}
		r := benchResult{Case: name, Build: versionString(), Point: p}
		if p.CPU > 0 && p.FlitHops > 0 {
			r.FlitHopsPerCPUSecond = float64(p.FlitHops) / p.CPU
			r.NsPerFlitHop = p.CPU * 1e9 / float64(p.FlitHops)
			r.EventsPerCPUSecond = float64(p.Events) / p.CPU
		}
		if f.json {
			b, _ := json.Marshal(r)
			fmt.Fprintf(ev.stdout, "%s\n", b)
			continue
		}
		peak := "—"
		if p.PeakRSS > 0 {
			peak = strconv.FormatInt(p.PeakRSS>>20, 10)
		}
		fmt.Fprintf(ev.stdout, "%-22s %7d %8d %12d %8.2f %8.2f %9.2f %9.1f %9.2f %8s\n", name, p.Hosts, p.Cycles, p.FlitHops, p.Wall, p.CPU,
			r.FlitHopsPerCPUSecond/1e6, r.NsPerFlitHop, r.EventsPerCPUSecond/1e6, peak)
	}
	return exitOK
}

// childEnv marks a child process of netsim bench; the tests' binary reads
// it to act as netsim (TestMain).
const childEnv = "NETSIM_BENCH_CHILD"
