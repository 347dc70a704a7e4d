package workload

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadTraceErrors(t *testing.T) {
	const head = "netsim-trace 1\nranks 2\n"
	cases := []struct{ name, trace, want string }{
		{"no header", "ranks 2\n", "t.trace:1: expected \"netsim-trace 1\" on the first line"},
		{"header after a comment", "# a trace\nnetsim-trace 1\nranks 2\n", "t.trace:2: expected \"netsim-trace 1\" on the first line"},
		{"no ranks", "netsim-trace 1\nrank 0\n", "t.trace:2: expected a ranks line after the header, got \"rank\""},
		{"wrong version", "netsim-trace 2\n", "t.trace:1: expected \"netsim-trace 1\" on the first line"},
		{"empty", "", "not a netsim trace"},
		{"op before rank", head + "send 1 8\n", "t.trace:3: \"send\" before the first rank line"},
		{"rank out of range", head + "rank 2\n", "t.trace:3: rank: bad number \"2\" (expected 0 to 1)"},
		{"rank twice", head + "rank 0\nrank 0\n", "t.trace:4: rank 0 given twice"},
		{"unknown op", head + "rank 0\nsendrecv 1 8\n", "t.trace:4: unknown operation \"sendrecv\""},
		{"bad peer", head + "rank 0\nsend 5 8\n", "t.trace:4: send: bad rank \"5\" (expected 0 to 1)"},
		{"send to any", head + "rank 0\nsend any 8\n", "t.trace:4: send: bad rank \"any\" (expected 0 to 1)"},
		{"bad size", head + "rank 0\nsend 1 -8\n", "t.trace:4: send: bad size \"-8\""},
		{"too few", head + "rank 0\nisend 1 1\n", "t.trace:4: isend: expected 3 to 5 arguments, got 2"},
		{"request reused", head + "rank 0\nisend 1 1 8\nisend 1 1 8\n", "t.trace:5: rank 0, isend: request 1 is already in use"},
		{"wait unknown", head + "rank 0\nwait 4\n", "t.trace:4: rank 0, wait: request 4 was not started"},
		{"bad compute", head + "rank 0\ncompute -1\n", "t.trace:4: compute: bad duration \"-1\""},
		{"collectives missing", head + "rank 0\nbarrier\nrank 1\n", "t.trace:4: rank 0 calls \"barrier\", rank 1 no collective more"},
		{"collectives differ", head + "rank 0\nbcast 0 8\nrank 1\nreduce 0 8\n", "t.trace:6: rank 1 calls \"reduce 0 8\" where rank 0 calls \"bcast 0 8\" (line 4)"},
		{"alltoallv sizes", head + "rank 0\nalltoallv 8\n", "t.trace:4: alltoallv: expected 2 arguments, got 1"},
		{"ranks twice", head + "ranks 2\n", "t.trace:3: ranks given twice"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTrace(strings.NewReader(tc.trace), "t.trace")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	// The operations are counted before a collective expands: with a
	// cap of 1,000, the second alltoall on 200 ranks (597 operations
	// each) is refused.
	many := "netsim-trace 1\nranks 200\nrank 0\n" + strings.Repeat("alltoall 0\n", 3)
	if _, err := readTrace(strings.NewReader(many), "t.trace", 1000); err == nil || !strings.Contains(err.Error(), "t.trace:5: more than 1000 operations") {
		t.Errorf("too many operations: err = %v", err)
	}
	long := head + "rank 0\n# " + strings.Repeat("x", MaxTraceLine) + "\n"
	if _, err := ReadTrace(strings.NewReader(long), "t.trace"); err == nil || !strings.Contains(err.Error(), "t.trace:4: line longer than") {
		t.Errorf("a line too long: err = %v, want it named at line 4", err)
	}
}

// TestTraceRoundTrip writes every collective as a trace and reads it
// back: the same operations.
func TestTraceRoundTrip(t *testing.T) {
	for _, name := range Collectives() {
		w, err := Collective(name, 6, 1000, nil)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteTrace(&b, w); err != nil {
			t.Fatal(err)
		}
		back, err := ReadTrace(&b, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for r := range back.Ranks {
			for i := range back.Ranks[r] {
				back.Ranks[r][i].Line = 0
			}
		}
		if !reflect.DeepEqual(back.Ranks, w.Ranks) {
			t.Errorf("%s: read back differs", name)
		}
	}
}

// TestRingTraces replays the shipped ring traces: each completes, and the
// one with 16 times the message size takes longer by exactly the flits
// added: two exchanges of 1,024 − 64 more flits each (64-byte flits on
// an ideal network: the computes and latency do not grow).
func TestRingTraces(t *testing.T) {
	end := map[string]int64{}
	for _, f := range []string{"ring8-4KiB.trace", "ring8-64KiB.trace"} {
		data, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		w, err := ReadTrace(bytes.NewReader(data), f)
		if err != nil {
			t.Fatal(err)
		}
		x, err := runIdeal(t, w, 20)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range x.Completion {
			end[f] = max(end[f], c)
		}
	}
	small, large := end["ring8-4KiB.trace"], end["ring8-64KiB.trace"]
	t.Logf("4 KiB: %d cycles, 64 KiB: %d cycles", small, large)
	if want := small + 2*(1024-64); large != want {
		t.Errorf("64 KiB: %d cycles, want %d", large, want)
	}
}

func dumpiFiles(t *testing.T) []DUMPIFile {
	t.Helper()
	var fs []DUMPIFile
	for r := range 4 {
		name := filepath.Join("testdata", "dumpi-ring-000"+string(rune('0'+r))+".txt")
		fs = append(fs, DUMPIFile{Name: name, Open: func() (io.ReadCloser, error) { return os.Open(name) }})
	}
	return fs
}

// dumpiText is a dump named name holding text.
func dumpiText(name, text string) DUMPIFile {
	return DUMPIFile{Name: name, Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(text)), nil }}
}

// TestFromDUMPI converts the shipped DUMPI dump of a 4-rank ring exchange
// and replays it: 1,024 doubles a message, the 20 µs between calls as
// computes, the allreduce expanded, every rank done.
func TestFromDUMPI(t *testing.T) {
	fs := dumpiFiles(t)
	// Given out of order: ranks come from MPI_Comm_rank.
	fs[0], fs[3] = fs[3], fs[0]
	var out bytes.Buffer
	if err := FromDUMPI(fs, &out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"ranks 4\n", "rank 1 # dumpi-ring-0001.txt\n", "irecv 2 0 8192 7\n", "isend 3 2 8192 7\n", "wait 2 3\n", "compute 20000\n", "allreduce 8\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("converted trace lacks %q:\n%s", want, text)
		}
	}
	w, err := ReadTrace(strings.NewReader(text), "converted")
	if err != nil {
		t.Fatal(err)
	}
	x, err := runIdeal(t, w, 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := w.Sent()[0]; got != 2*8192+2*8 {
		t.Errorf("rank 0 sends %d bytes, want %d", got, 2*8192+2*8)
	}
	if !x.Done() {
		t.Error("not done")
	}
}

func TestFromDUMPIErrors(t *testing.T) {
	call := func(name string, args ...string) string {
		return name + " entering at walltime 1.000000000, cputime 0.000000000 seconds in thread 0.\n" +
			strings.Join(args, "\n") + "\n" + name + " returning at walltime 1.000000100, cputime 0.000000000 seconds in thread 0.\n"
	}
	cases := []struct{ name, text, want string }{
		{"unsupported call", call("MPI_Comm_split", "MPI_Comm comm=2 (MPI_COMM_WORLD)", "int color=1", "int key=0", "MPI_Comm newcomm=4 (user-defined-comm)"),
			"d-0000.txt:1: MPI_Comm_split: unsupported MPI call"},
		{"other communicator", call("MPI_Send", "int count=1", "MPI_Datatype datatype=9 (MPI_INT)", "int dest=1", "int tag=0", "MPI_Comm comm=4 (user-defined-comm)"),
			"d-0000.txt:1: MPI_Send: communicator 4 (user-defined-comm) is not supported"},
		{"user datatype without size", call("MPI_Send", "int count=1", "MPI_Datatype datatype=30 (user-defined-datatype)", "int dest=0", "int tag=0", "MPI_Comm comm=2 (MPI_COMM_WORLD)"),
			"d-0000.txt:1: datatype 30 has no known size"},
		{"wait on unknown request", call("MPI_Wait", "MPI_Request request=[9]", "MPI_Status status=<IGNORED>"),
			"d-0000.txt:1: MPI_Wait: request 9 was not started"},
		{"proc null", call("MPI_Send", "int count=1", "MPI_Datatype datatype=9 (MPI_INT)", "int dest=-2 (MPI_ROOT)", "int tag=0", "MPI_Comm comm=2 (MPI_COMM_WORLD)"),
			"d-0000.txt:1: MPI_Send: dest -2 (MPI_ROOT) is not a rank"},
		{"garbage", "hello world\n", "d-0000.txt:1: expected a line of dumpi2ascii's output"},
		{"unfinished", "MPI_Barrier entering at walltime 1.000000000, cputime 0.000000000 seconds in thread 0.\nMPI_Comm comm=2 (MPI_COMM_WORLD)\n",
			"d-0000.txt:1: MPI_Barrier never returns"},
		{"alltoallv counts", call("MPI_Alltoallv", "int commsize=2", "int sendcounts[2]=[1, 2]", "int senddispls[2]=[0, 1]", "MPI_Datatype sendtype=2 (MPI_CHAR)",
			"int recvcounts[2]=[1, 2]", "int recvdispls[2]=[0, 1]", "MPI_Datatype recvtype=2 (MPI_CHAR)", "MPI_Comm comm=2 (MPI_COMM_WORLD)"),
			"d-0000.txt:1: MPI_Alltoallv with 2 send counts for 1 ranks"},
		{"self rank", call("MPI_Send", "int count=1", "MPI_Datatype datatype=9 (MPI_INT)", "int dest=1", "int tag=0", "MPI_Comm comm=3 (MPI_COMM_SELF)"),
			"d-0000.txt:1: MPI_Send: dest 1 on MPI_COMM_SELF, which has rank 0 only"},
		{"threads", call("MPI_Barrier", "MPI_Comm comm=2 (MPI_COMM_WORLD)") + strings.ReplaceAll(call("MPI_Barrier", "MPI_Comm comm=2 (MPI_COMM_WORLD)"), "thread 0", "thread 1"),
			"only single-threaded traces are supported"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := FromDUMPI([]DUMPIFile{dumpiText("d-0000.txt", tc.text)}, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	// A rank from the file name when the dump has no MPI_Comm_rank.
	fs := []DUMPIFile{dumpiText("x-0001.txt", ""), dumpiText("x-0000.txt", "")}
	var out bytes.Buffer
	if err := FromDUMPI(fs, &out); err != nil || !strings.Contains(out.String(), "rank 0 # x-0000.txt") {
		t.Errorf("ranks from file names: err %v, trace:\n%s", err, out.String())
	}
	fs = []DUMPIFile{dumpiText("x-0003.txt", "")}
	if err := FromDUMPI(fs, &out); err == nil || !strings.Contains(err.Error(), "x-0003.txt: rank 3, but only 1 files were given") {
		t.Errorf("a rank beyond the files: err %v", err)
	}
}

// TestFromDUMPISelfAndCounters: point-to-point on MPI_COMM_SELF stays on
// the dump's rank, apart from MPI_COMM_WORLD's messages; performance
// counter lines, calls that move no data and dumpi2ascii's other
// sections are passed over.
func TestFromDUMPISelfAndCounters(t *testing.T) {
	call := func(name string, args ...string) string {
		return name + " entering at walltime 1.000000000, cputime 0.000000000 seconds in thread 0.\nPerfcounters: [PAPI_TOT_CYC=1]\n" +
			strings.Join(args, "\n") + "\n" + name + " returning at walltime 1.000000100, cputime 0.000000000 seconds in thread 0.\nPerfcounters: [PAPI_TOT_CYC=2]\n"
	}
	rank1 := call("MPI_Type_contiguous", "int count=2", "MPI_Datatype oldtype=9 (MPI_INT)", "MPI_Datatype newtype=28 (user-defined-datatype)") +
		call("MPI_Isend", "int count=2", "MPI_Datatype datatype=9 (MPI_INT)", "int dest=0", "int tag=4", "MPI_Comm comm=3 (MPI_COMM_SELF)", "MPI_Request request=[2]") +
		call("MPI_Recv", "int count=2", "MPI_Datatype datatype=9 (MPI_INT)", "int source=0", "int tag=4", "MPI_Comm comm=3 (MPI_COMM_SELF)", "MPI_Status status=<IGNORED>") +
		call("MPI_Wait", "MPI_Request request=[2]", "MPI_Status status=<IGNORED>") +
		"Performance counters: 1\n    PAPI_TOT_CYC\nMPI_Isend called 1 times and ignored 0 times\n"
	var out bytes.Buffer
	if err := FromDUMPI([]DUMPIFile{dumpiText("d-0000.txt", ""), dumpiText("d-0001.txt", rank1)}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"isend 2 1 8 4 1\n", "recv 1 8 4 1\n", "wait 2\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("converted trace lacks %q:\n%s", want, out.String())
		}
	}
	w, err := ReadTrace(&out, "self")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runIdeal(t, w, 10); err != nil {
		t.Fatal(err)
	}
}
