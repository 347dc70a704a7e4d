package workload

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"netsim/topologies"
	"strconv"
	"strings"
)

// TraceHeader is the first line of a trace in netsim's format.
const TraceHeader = "netsim-trace 1"

// MaxTraceLine bounds the length of a line of a trace.
const MaxTraceLine = 4 << 20

// collComm marks the communicator of the messages a collective of a
// trace expands into, apart from the trace's own point-to-point traffic;
// collReq the requests it numbers.
const (
	collComm int32 = 1 << 30
	collReq  int32 = -1 << 30
)

// Trace operations that are collectives on all ranks, as a trace names
// them.
var traceCollectives = []string{"barrier", "bcast", "reduce", "allreduce", "alltoall", "alltoallv", "allgather"}

// ReadTrace reads a trace in netsim's format from r; name names it in
// errors (file:line). The format (docs/workloads.md):
//
//	netsim-trace 1
//	ranks N
//	rank R                       operations of rank R follow
//	compute NS                   hold the rank NS nanoseconds
//	send DST BYTES [TAG [COMM]]  blocking send
//	recv SRC BYTES [TAG [COMM]]  blocking receive; SRC and TAG may be "any"
//	isend REQ DST BYTES [TAG [COMM]]
//	irecv REQ SRC BYTES [TAG [COMM]]
//	wait REQ [REQ ...]
//	waitall
//	barrier | bcast ROOT BYTES | reduce ROOT BYTES | allreduce BYTES |
//	alltoall BYTES | alltoallv BYTES_0 ... BYTES_N-1 | allgather BYTES
//
// Collectives run on all ranks, each rank calling them in the same order;
// they expand into point-to-point messages of their own (allreduce by
// recursive doubling, bcast and reduce by binomial trees, barrier by
// dissemination, alltoall pairwise, allgather round a ring). '#' starts a
// comment.
func ReadTrace(r io.Reader, name string) (*Workload, error) {
	return readTrace(r, name, MaxOps)
}

// readTrace is ReadTrace with at most maxOps operations.
func readTrace(r io.Reader, name string, maxOps int) (*Workload, error) {
	w := &Workload{Name: name}
	line := int32(0)
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	cur, ops := -1, 0
	header := false
	seen := []bool(nil)
	// colls holds each rank's collectives, to check that every rank calls
	// the same ones in the same order.
	var colls [][]collCall
	err := topologies.EachLine(r, name, MaxTraceLine, func(l int, text string) error {
		line = int32(l)
		f := strings.Fields(text)
		switch {
		case !header:
			if line != 1 || strings.Join(f, " ") != TraceHeader {
				return fail("expected %q on the first line", TraceHeader)
			}
			header = true
			return nil
		case w.Ranks == nil && f[0] != "ranks":
			return fail("expected a ranks line after the header, got %q", f[0])
		case f[0] == "ranks":
			if w.Ranks != nil {
				return fail("ranks given twice")
			}
			n, err := count(f, 1, MaxRanks)
			if err != nil {
				return fail("ranks: %v", err)
			}
			w.Ranks = make([][]Op, n)
			seen = make([]bool, n)
			colls = make([][]collCall, n)
			return nil
		case f[0] == "rank":
			n, err := count(f, 0, len(w.Ranks)-1)
			if err != nil {
				return fail("rank: %v", err)
			}
			if seen[n] {
				return fail("rank %d given twice", n)
			}
			seen[n], cur = true, n
			return nil
		case cur < 0:
			return fail("%q before the first rank line", f[0])
		}
		before := len(w.Ranks[cur])
		if isCollective(f[0]) {
			if ops+int(collectiveOps(f[0], len(w.Ranks))) > maxOps {
				return fail("more than %d operations", maxOps)
			}
			colls[cur] = append(colls[cur], collCall{words: strings.Join(f, " "), line: line})
		}
		prog, err := parseOp(w.Ranks[cur], f, cur, len(w.Ranks), len(colls[cur])-1)
		if err != nil {
			return fail("%v", err)
		}
		for i := before; i < len(prog); i++ {
			prog[i].Line = line
		}
		w.Ranks[cur] = prog
		if ops += len(prog) - before; ops > maxOps {
			return fail("more than %d operations", maxOps)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if w.Ranks == nil {
		return nil, fmt.Errorf("%s: no %q and ranks lines: not a netsim trace", name, TraceHeader)
	}
	for r, ok := range seen {
		if !ok {
			w.Ranks[r] = []Op{}
		}
		if err := sameCollectives(name, colls[0], colls[r], r); err != nil {
			return nil, err
		}
	}
	if err := w.Check(); err != nil {
		return nil, err
	}
	return w, nil
}

// collCall is a collective a rank of a trace calls: its line's words and
// number.
type collCall struct {
	words string
	line  int32
}

// sameCollectives checks that rank r calls the collectives rank 0 does,
// in the same order, naming the first that differs.
func sameCollectives(name string, zero, calls []collCall, r int) error {
	for i := range max(len(zero), len(calls)) {
		switch {
		case i >= len(calls):
			return fmt.Errorf("%s:%d: rank 0 calls %q, rank %d no collective more: every rank must call the same collectives in the same order", name, zero[i].line, zero[i].words, r)
		case i >= len(zero):
			return fmt.Errorf("%s:%d: rank %d calls %q, rank 0 no collective more: every rank must call the same collectives in the same order", name, calls[i].line, r, calls[i].words)
		case zero[i].words != calls[i].words:
			return fmt.Errorf("%s:%d: rank %d calls %q where rank 0 calls %q (line %d): every rank must call the same collectives in the same order",
				name, calls[i].line, r, calls[i].words, zero[i].words, zero[i].line)
		}
	}
	return nil
}

func isCollective(op string) bool {
	for _, c := range traceCollectives {
		if op == c {
			return true
		}
	}
	return false
}

// count parses f[1] as the only argument of f[0], an integer lo to hi.
func count(f []string, lo, hi int) (int, error) {
	if len(f) != 2 {
		return 0, fmt.Errorf("expected one number, got %d words", len(f)-1)
	}
	n, err := strconv.Atoi(f[1])
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("bad number %q (expected %d to %d)", f[1], lo, hi)
	}
	return n, nil
}

// parseOp appends the operations of the words f, an operation of rank r
// of n, to prog; k counts the rank's collectives before it.
func parseOp(prog []Op, f []string, r, n, k int) ([]Op, error) {
	args := f[1:]
	need := func(lo, hi int) error {
		if len(args) < lo || len(args) > hi {
			if lo == hi {
				return fmt.Errorf("%s: expected %d arguments, got %d", f[0], lo, len(args))
			}
			return fmt.Errorf("%s: expected %d to %d arguments, got %d", f[0], lo, hi, len(args))
		}
		return nil
	}
	num := func(i int, what string, lo, hi int64, wild bool) (int64, error) {
		if wild && args[i] == "any" {
			return -1, nil
		}
		v, err := strconv.ParseInt(args[i], 10, 64)
		if err != nil || v < lo || v > hi {
			if wild {
				return 0, fmt.Errorf("%s: bad %s %q (expected %d to %d or any)", f[0], what, args[i], lo, hi)
			}
			return 0, fmt.Errorf("%s: bad %s %q (expected %d to %d)", f[0], what, args[i], lo, hi)
		}
		return v, nil
	}
	last := int64(n - 1)
	switch f[0] {
	case "compute":
		if err := need(1, 1); err != nil {
			return nil, err
		}
		ns, err := strconv.ParseFloat(args[0], 64)
		if err != nil || !(ns >= 0) || ns > 1e15 {
			return nil, fmt.Errorf("compute: bad duration %q (expected nanoseconds, 0 to 1e15)", args[0])
		}
		return append(prog, Op{Kind: Compute, NS: ns}), nil
	case "send", "recv", "isend", "irecv":
		op := Op{Kind: map[string]OpKind{"send": Send, "recv": Recv, "isend": Isend, "irecv": Irecv}[f[0]]}
		recv := op.Kind == Recv || op.Kind == Irecv
		if op.Kind == Isend || op.Kind == Irecv {
			if err := need(3, 5); err != nil {
				return nil, err
			}
			q, err := num(0, "request", 0, math.MaxInt32, false)
			if err != nil {
				return nil, err
			}
			op.Req, args = int32(q), args[1:]
		} else if err := need(2, 4); err != nil {
			return nil, err
		}
		peer, err := num(0, "rank", 0, last, recv)
		if err != nil {
			return nil, err
		}
		b, err := num(1, "size", 0, MaxBytes, false)
		if err != nil {
			return nil, err
		}
		op.Peer, op.Bytes = int32(peer), b
		if len(args) > 2 {
			t, err := num(2, "tag", 0, math.MaxInt32, recv)
			if err != nil {
				return nil, err
			}
			op.Tag = int32(t)
		}
		if len(args) > 3 {
			c, err := num(3, "communicator", 0, int64(collComm)-1, false)
			if err != nil {
				return nil, err
			}
			op.Comm = int32(c)
		}
		return append(prog, op), nil
	case "wait":
		if len(args) == 0 {
			return nil, errors.New("wait: expected one or more requests")
		}
		op := Op{Kind: Wait}
		for i := range args {
			q, err := num(i, "request", 0, math.MaxInt32, false)
			if err != nil {
				return nil, err
			}
			op.Reqs = append(op.Reqs, int32(q))
		}
		return append(prog, op), nil
	case "waitall":
		if err := need(0, 0); err != nil {
			return nil, err
		}
		return append(prog, Op{Kind: WaitAll}), nil
	}
	if !isCollective(f[0]) {
		return nil, fmt.Errorf("unknown operation %q (known: compute, send, recv, isend, irecv, wait, waitall, %s)", f[0], strings.Join(traceCollectives, ", "))
	}
	// Collectives: each call has its own tag, so messages of
	// consecutive calls cannot be confused.
	c := coll{r: r, n: n, base: collReq, comm: collComm, prog: prog}
	switch f[0] {
	case "barrier":
		if err := need(0, 0); err != nil {
			return nil, err
		}
		c.barrier()
	case "bcast", "reduce":
		if err := need(2, 2); err != nil {
			return nil, err
		}
		root, err := num(0, "root", 0, last, false)
		if err != nil {
			return nil, err
		}
		if c.bytes, err = num(1, "size", 0, MaxBytes, false); err != nil {
			return nil, err
		}
		c.root = int(root)
		if f[0] == "bcast" {
			c.broadcast()
		} else {
			c.reduce()
		}
	case "allreduce", "alltoall", "allgather":
		if err := need(1, 1); err != nil {
			return nil, err
		}
		var err error
		if c.bytes, err = num(0, "size", 0, MaxBytes, false); err != nil {
			return nil, err
		}
		switch f[0] {
		case "allreduce":
			c.allreduceDoubling()
		case "alltoall":
			c.allToAll()
		default:
			c.allgatherRing()
		}
	case "alltoallv":
		if err := need(n, n); err != nil {
			return nil, err
		}
		sizes := make([]int64, n)
		for i := range sizes {
			var err error
			if sizes[i], err = num(i, "size", 0, MaxBytes, false); err != nil {
				return nil, err
			}
		}
		c.allToAllV(sizes)
	}
	for i := len(prog); i < len(c.prog); i++ {
		if op := &c.prog[i]; op.Kind != Wait && op.Kind != WaitAll {
			op.Tag = int32(k)
		}
	}
	return c.prog, nil
}

// WriteTrace writes w, a workload built by Collective or by hand, in
// netsim's trace format: as the messages of its collectives. The
// operations a trace's collectives expand into (their communicator and
// requests are reserved) cannot be written.
func WriteTrace(out io.Writer, w *Workload) error {
	for r, prog := range w.Ranks {
		for i, op := range prog {
			if op.Comm >= collComm || op.Req < 0 {
				return w.opError(r, i, errors.New("an operation of a trace's collective: not writable as a trace line"))
			}
		}
	}
	b := bufio.NewWriter(out)
	fmt.Fprintf(b, "%s\nranks %d\n", TraceHeader, len(w.Ranks))
	for r, prog := range w.Ranks {
		fmt.Fprintf(b, "rank %d\n", r)
		for _, op := range prog {
			writeOp(b, op)
		}
	}
	return b.Flush()
}

// writeOp writes one operation as a trace line.
func writeOp(b *bufio.Writer, op Op) {
	word := func(v int32) string {
		if v < 0 {
			return "any"
		}
		return strconv.Itoa(int(v))
	}
	env := func() {
		if op.Tag != 0 || op.Comm != 0 {
			fmt.Fprintf(b, " %s", word(op.Tag))
		}
		if op.Comm != 0 {
			fmt.Fprintf(b, " %d", op.Comm)
		}
	}
	switch op.Kind {
	case Compute:
		fmt.Fprintf(b, "compute %s\n", strconv.FormatFloat(op.NS, 'g', -1, 64))
		return
	case Wait:
		b.WriteString("wait")
		for _, q := range op.Reqs {
			fmt.Fprintf(b, " %d", q)
		}
		b.WriteByte('\n')
		return
	case WaitAll:
		b.WriteString("waitall\n")
		return
	case Isend, Irecv:
		fmt.Fprintf(b, "%s %d %s %d", op.Kind, op.Req, word(op.Peer), op.Bytes)
	default:
		fmt.Fprintf(b, "%s %s %d", op.Kind, word(op.Peer), op.Bytes)
	}
	env()
	b.WriteByte('\n')
}
