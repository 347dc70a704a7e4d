package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"netsim/internal/fileio"
	"netsim/workload"
)

// traceCmd returns netsim trace, whose subcommands make and check the
// traces of application workloads.
func traceCmd() *Command {
	return &Command{
		Name:      "trace",
		UsageLine: "netsim trace SUBCOMMAND ...",
		Short:     "convert MPI traces to netsim's trace format and check them",
		Long: `Makes and checks the traces that [traffic] kind = "workload" replays with
pattern trace: netsim's own text format (docs/workloads.md), converted from
DUMPI's ASCII dumps.
`,
		Commands: []*Command{traceConvertCmd(), traceInfoCmd()},
	}
}

// maxDumpBytes bounds one DUMPI dump netsim trace convert reads (a dump
// is text, several times its trace).
const maxDumpBytes = 16 << 30

// traceConvertCmd returns netsim trace convert.
func traceConvertCmd() *Command {
	var out, from string
	return &Command{
		Name:      "convert",
		UsageLine: "netsim trace convert DUMP ... -o OUT.trace [--from dumpi]",
		Short:     "convert a DUMPI trace's ASCII dumps into a netsim trace",
		Long: `Converts the ASCII dumps of a DUMPI trace — dumpi2ascii's output, one file
per rank (dumpi2ascii -S -X dumpi-...-0000.bin > dumpi-0000.txt, and so on)
— into one trace in netsim's format, written to OUT.trace. A rank is the
one its MPI_Comm_rank on MPI_COMM_WORLD gives, else the number at the end
of its file's name. Point-to-point calls, waits and tests, and MPI_Barrier,
MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Alltoall(v) and MPI_Allgather on
MPI_COMM_WORLD become the trace's operations, in bytes; the time between
one call's return and the next call's entry a compute. Any other call
that moves data, another communicator, or a user datatype whose size the
dump does not give (-X prints them) is an error naming the file and line.
`,
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&out, "o", "", "the trace `FILE` to write (required)")
			fs.StringVar(&from, "from", "dumpi", "the `FORMAT` of the input: dumpi (dumpi2ascii's output)")
		},
		Run: func(_ context.Context, cmd *Command, ev env, files []string) int {
			switch {
			case out == "":
				return cmd.usageError(ev, errors.New("-o OUT.trace is required"))
			case from != "dumpi":
				return cmd.usageError(ev, fmt.Errorf("--from %q: unknown format (known: dumpi)", from))
			case len(files) == 0:
				return cmd.usageError(ev, errors.New("no DUMPI dump given"))
			}
			var dumps []workload.DUMPIFile
			for _, name := range files {
				dumps = append(dumps, workload.DUMPIFile{Name: name, Open: func() (io.ReadCloser, error) { return fileio.Open(name, maxDumpBytes) }})
			}
			tmp := out + ".tmp"
			w, err := os.Create(tmp)
			if err != nil {
				fmt.Fprintf(ev.stderr, "netsim trace convert: %v\n", err)
				return exitFailed
			}
			err = workload.FromDUMPI(dumps, w)
			if cerr := w.Close(); err == nil && cerr != nil {
				fmt.Fprintf(ev.stderr, "netsim trace convert: %v\n", cerr)
				os.Remove(tmp)
				return exitFailed
			}
			if err != nil {
				fmt.Fprintf(ev.stderr, "netsim trace convert: %v\n", err)
				os.Remove(tmp)
				return exitUsage
			}
			if err := os.Rename(tmp, out); err != nil {
				fmt.Fprintf(ev.stderr, "netsim trace convert: %v\n", err)
				return exitFailed
			}
			fmt.Fprintf(ev.stdout, "wrote %s (%d ranks); netsim trace info %s checks it\n", out, len(dumps), out)
			return exitOK
		},
	}
}

// traceInfoCmd returns netsim trace info.
func traceInfoCmd() *Command {
	return &Command{
		Name:      "info",
		UsageLine: "netsim trace info TRACE ...",
		Short:     "check traces and print their ranks, operations, bytes and computes",
		Long: `Reads each trace in netsim's format, checks it as a run would (its
operations, requests and collectives; file:line errors), and prints its
ranks, operations, messages and bytes sent, and its computing time.
`,
		Run: func(_ context.Context, cmd *Command, ev env, files []string) int {
			if len(files) == 0 {
				return cmd.usageError(ev, errors.New("no trace given"))
			}
			code := exitOK
			for _, name := range files {
				f, err := fileio.Open(name, fileio.MaxLarge)
				var w *workload.Workload
				if err == nil {
					w, err = workload.ReadTrace(bufio.NewReader(f), name)
					f.Close()
				}
				if err != nil {
					fmt.Fprintf(ev.stderr, "netsim trace info: %v\n", err)
					code = exitUsage
					continue
				}
				var ops, msgs int
				var bytes int64
				var ns float64
				for _, prog := range w.Ranks {
					ops += len(prog)
					for _, op := range prog {
						switch op.Kind {
						case workload.Isend, workload.Send:
							msgs++
							bytes += op.Bytes
						case workload.Compute:
							ns += op.NS
						}
					}
				}
				fmt.Fprintf(ev.stdout, "%s: %d ranks, %d operations, %d messages, %d bytes sent, %.3f µs of computing (all ranks)\n",
					filepath.Base(name), len(w.Ranks), ops, msgs, bytes, ns/1000)
			}
			return code
		},
	}
}
