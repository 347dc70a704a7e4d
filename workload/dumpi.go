package workload

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// DUMPIFile is one rank's trace as DUMPI's dumpi2ascii prints it.
type DUMPIFile struct {
	// Name names the file in errors; a rank number at its end
	// (dumpi-…-0003.txt) gives its rank when the trace records no
	// MPI_Comm_rank on MPI_COMM_WORLD.
	Name string
	// Open opens the dump; FromDUMPI reads one dump at a time.
	Open func() (io.ReadCloser, error)
}

// DUMPI's handles (dumpi/common/constants.h).
const (
	dumpiCommWorld   = 2
	dumpiCommSelf    = 3
	dumpiRequestNull = 1
	dumpiAny         = -1 // MPI_ANY_SOURCE, MPI_ANY_TAG
)

// dumpiTypeSizes are the sizes of DUMPI's built-in datatypes by index, on
// an LP64 machine; a trace's "Datatype N (…) has size S" lines (dumpi2ascii
// -X) take precedence.
var dumpiTypeSizes = map[int]int64{
	2: 1, 3: 1, 4: 1, 5: 1, 6: 4, 7: 2, 8: 2, 9: 4, 10: 4, 11: 8, 12: 8, 13: 4, 14: 8,
	15: 16, 16: 8, 17: 8, 18: 8, 19: 1, 22: 8, 23: 12, 24: 12, 25: 6, 26: 8, 27: 20,
}

// dumpiIgnored are the calls that move no data: the converter keeps only
// the time around them.
var dumpiIgnored = map[string]bool{
	"MPI_Init": true, "MPI_Init_thread": true, "MPI_Finalize": true, "MPI_Initialized": true,
	"MPI_Finalized": true, "MPI_Comm_rank": true, "MPI_Comm_size": true, "MPI_Wtime": true,
	"MPI_Wtick": true, "MPI_Get_processor_name": true, "MPI_Get_count": true, "MPI_Get_version": true,
	"MPI_Type_size": true, "MPI_Type_commit": true, "MPI_Type_free": true, "MPI_Type_contiguous": true,
	"MPI_Type_vector": true, "MPI_Type_hvector": true, "MPI_Type_indexed": true, "MPI_Type_hindexed": true,
	"MPI_Type_create_struct": true, "MPI_Type_struct": true, "MPI_Type_extent": true,
	"MPI_Type_get_extent": true, "MPI_Comm_get_attr": true, "MPI_Attr_get": true, "MPI_Errhandler_set": true,
	"MPI_Comm_set_errhandler": true, "MPI_Op_create": true, "MPI_Op_free": true, "MPI_Pcontrol": true,
	"MPI_Comm_group": true, "MPI_Comm_free": true, "MPI_Comm_dup": true, "MPI_Probe": true, "MPI_Iprobe": true,
	"MPI_Pack_size": true, "MPI_Buffer_attach": true, "MPI_Buffer_detach": true,
}

// dumpiIgnoredPrefixes are the families of calls that move no data.
var dumpiIgnoredPrefixes = []string{"MPI_Type_", "MPI_Group_", "MPI_Info_", "MPI_Errhandler_", "MPI_Attr_",
	"MPI_Keyval_", "MPI_Comm_get_", "MPI_Comm_set_", "MPI_Get_", "MPI_Op_"}

// dumpiMovesNothing reports whether call moves no data.
func dumpiMovesNothing(call string) bool {
	if dumpiIgnored[call] {
		return true
	}
	for _, p := range dumpiIgnoredPrefixes {
		if strings.HasPrefix(call, p) {
			return true
		}
	}
	return false
}

var (
	dumpiCall     = regexp.MustCompile(`^(MPI_\w+) (entering|returning) at walltime (\d+)\.(\d{1,9}), cputime \d+\.\d+ seconds in thread (\d+)\.$`)
	dumpiTypeSize = regexp.MustCompile(`^Datatype (\d+) \(.*\) has size (\d+)$`)
	dumpiRankName = regexp.MustCompile(`(\d+)(\.[A-Za-z0-9]+)*$`)
)

// dumpiOp is an operation of the converted trace whose size may wait for
// the datatype sizes at the file's end: count elements of type dtype.
type dumpiOp struct {
	words  []string // the trace line, with "%s" where the size goes
	counts []int64
	dtype  int
	line   int
}

// dumpiRank is the conversion of one file.
type dumpiRank struct {
	file   string
	rank   int // −1 until known
	ops    []dumpiOp
	sizes  map[int]int64
	size   int // MPI_Comm_size on MPI_COMM_WORLD, 0 if not recorded
	thread string
}

// FromDUMPI converts the per-rank ASCII dumps of a DUMPI trace (the
// output of dumpi2ascii, one file per rank) into a trace in netsim's
// format written to out, a dump at a time. Each call's point-to-point
// messages, waits and collectives on MPI_COMM_WORLD become the trace's
// operations, in bytes (count × the datatype's size); point-to-point
// messages on MPI_COMM_SELF stay on their rank; the time between one
// call's return and the next call's entry becomes a compute. A call the
// converter does not know, another communicator, a user-defined datatype
// without a size, or a wait on a request no call of the trace started is
// an error naming the file and line.
func FromDUMPI(files []DUMPIFile, out io.Writer) error {
	n := len(files)
	if n == 0 {
		return errors.New("dumpi: no files")
	}
	if n > MaxRanks {
		return fmt.Errorf("dumpi: %d files, more than %d ranks", n, MaxRanks)
	}
	b := bufio.NewWriter(out)
	fmt.Fprintf(b, "%s\n# converted from DUMPI by netsim\nranks %d\n", TraceHeader, n)
	byRank := make([]string, n)
	for _, f := range files {
		d, err := convertDUMPIFile(f)
		if err != nil {
			return err
		}
		if d.rank < 0 {
			m := dumpiRankName.FindStringSubmatch(filepath.Base(d.file))
			if m == nil {
				return fmt.Errorf("%s: no MPI_Comm_rank on MPI_COMM_WORLD and no rank number at the end of the file name", d.file)
			}
			d.rank, _ = strconv.Atoi(m[1])
		}
		switch {
		case d.rank >= n:
			return fmt.Errorf("%s: rank %d, but only %d files were given (one per rank)", d.file, d.rank, n)
		case d.size != 0 && d.size != n:
			return fmt.Errorf("%s: MPI_Comm_size gives %d ranks, but %d files were given (one per rank)", d.file, d.size, n)
		case byRank[d.rank] != "":
			return fmt.Errorf("%s: rank %d again (also %s)", d.file, d.rank, byRank[d.rank])
		}
		byRank[d.rank] = d.file
		fmt.Fprintf(b, "rank %d # %s\n", d.rank, filepath.Base(d.file))
		for _, op := range d.ops {
			line, err := op.text(d, n)
			if err != nil {
				return err
			}
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return b.Flush()
}

// convertDUMPIFile opens and converts one dump.
func convertDUMPIFile(f DUMPIFile) (*dumpiRank, error) {
	r, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return convertDUMPI(f.Name, r)
}

// text returns op's trace line, its sizes in bytes, for a trace of n
// ranks.
func (op *dumpiOp) text(d *dumpiRank, n int) (string, error) {
	words := slices.Clone(op.words)
	for i, w := range words {
		if w == dumpiSelf {
			words[i] = strconv.Itoa(d.rank)
		}
	}
	if op.counts == nil {
		return strings.Join(words, " "), nil
	}
	if words[0] == "alltoallv" && len(op.counts) != n {
		return "", fmt.Errorf("%s:%d: MPI_Alltoallv with %d send counts for %d ranks", d.file, op.line, len(op.counts), n)
	}
	size, ok := d.sizes[op.dtype]
	if !ok {
		size, ok = dumpiTypeSizes[op.dtype]
	}
	if !ok || (size == 0 && op.dtype >= 28) {
		return "", fmt.Errorf("%s:%d: datatype %d has no known size (convert the output of dumpi2ascii -S -X, which lists the sizes)", d.file, op.line, op.dtype)
	}
	var bs []string
	for _, c := range op.counts {
		bytes := c * size
		if c < 0 || bytes > MaxBytes || (size > 0 && bytes/size != c) {
			return "", fmt.Errorf("%s:%d: %d elements of %d bytes are out of range", d.file, op.line, c, size)
		}
		bs = append(bs, strconv.FormatInt(bytes, 10))
	}
	for i, w := range words {
		if w == "%s" {
			words[i] = strings.Join(bs, " ")
		}
	}
	return strings.Join(words, " "), nil
}

// dumpiCallText is one call of a dump: its name, arguments by name and
// the lines they came from.
type dumpiCallText struct {
	name        string
	line        int
	enter, exit int64 // walltimes, in nanoseconds
	args        map[string]string
}

// dumpiSelf stands for the dump's own rank in a converted line, until the
// rank is known.
const dumpiSelf = "%self"

// convertDUMPI converts the dump of one rank, read from r.
func convertDUMPI(name string, r io.Reader) (*dumpiRank, error) {
	f := DUMPIFile{Name: name}
	d := &dumpiRank{file: f.Name, rank: -1, sizes: map[int]int64{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxTraceLine)
	line := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", f.Name, line, fmt.Sprintf(format, args...))
	}
	var call *dumpiCallText
	lastExit := int64(-1)
	open := map[int]bool{} // requests started, not completed
	nextReq := 1 << 29     // the converter's own requests
	for sc.Scan() {
		line++
		raw := sc.Text()
		text := strings.TrimSpace(raw)
		if text == "" || strings.HasPrefix(text, "Perfcounters:") {
			continue
		}
		if call == nil && strings.HasPrefix(raw, "    ") {
			continue // a counter's name, under "Performance counters: N"
		}
		if m := dumpiCall.FindStringSubmatch(text); m != nil {
			t := walltime(m[3], m[4])
			if m[2] == "entering" {
				if call != nil {
					return nil, fail("%s entering before %s (line %d) returned", m[1], call.name, call.line)
				}
				if d.thread != "" && m[5] != d.thread {
					return nil, fail("%s in thread %s: only single-threaded traces are supported (thread %s before)", m[1], m[5], d.thread)
				}
				d.thread = m[5]
				call = &dumpiCallText{name: m[1], line: line, enter: t, args: map[string]string{}}
				continue
			}
			if call == nil || call.name != m[1] {
				return nil, fail("%s returning without entering", m[1])
			}
			call.exit = t
			if gap := call.enter - lastExit; lastExit >= 0 && gap > 0 {
				d.ops = append(d.ops, dumpiOp{words: []string{"compute", strconv.FormatInt(gap, 10)}, line: call.line})
			}
			lastExit = call.exit
			if err := d.convert(call, open, &nextReq); err != nil {
				return nil, err
			}
			if len(d.ops) > MaxOps {
				return nil, fail("more than %d operations", MaxOps)
			}
			call = nil
			continue
		}
		if call != nil {
			name, value, ok := dumpiArg(text)
			if !ok {
				return nil, fail("expected an argument line (TYPE NAME=VALUE) of %s, got %q", call.name, text)
			}
			call.args[name] = value
			continue
		}
		if m := dumpiTypeSize.FindStringSubmatch(text); m != nil {
			id, _ := strconv.Atoi(m[1])
			s, err := strconv.ParseInt(m[2], 10, 64)
			if err != nil || s > MaxBytes {
				return nil, fail("bad datatype size %q", m[2])
			}
			if s > 0 {
				d.sizes[id] = s
			}
			continue
		}
		if dumpiOther(text) {
			continue
		}
		return nil, fail("expected a line of dumpi2ascii's output (MPI_… entering at walltime …), got %q", text)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes", f.Name, line+1, MaxTraceLine)
		}
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	if call != nil {
		return nil, fmt.Errorf("%s:%d: %s never returns (the file ends)", f.Name, call.line, call.name)
	}
	return d, nil
}

// walltime returns seconds.fraction in nanoseconds.
func walltime(sec, frac string) int64 {
	s, _ := strconv.ParseInt(sec, 10, 64)
	f, _ := strconv.ParseInt((frac + "00000000")[:9], 10, 64)
	return min(s, math.MaxInt64/1_000_000_000-1)*1_000_000_000 + f
}

// dumpiOther reports whether text is a line of dumpi2ascii's other
// sections (header, keyvals, footer, counters, addresses).
func dumpiOther(text string) bool {
	switch {
	case strings.HasPrefix(text, "Total keyvals:"), strings.HasPrefix(text, "Performance counters:"),
		strings.HasPrefix(text, "Function address "), strings.Contains(text, " times and ignored "):
		return true
	}
	k, _, ok := strings.Cut(text, "=")
	return ok && k != "" && !strings.ContainsAny(k, " \t")
}

// dumpiArg splits an argument line "TYPE NAME=VALUE" or
// "TYPE NAME[N]=VALUE" into its name and value.
func dumpiArg(text string) (name, value string, ok bool) {
	_, rest, ok := strings.Cut(text, " ")
	if !ok {
		return "", "", false
	}
	name, value, ok = strings.Cut(rest, "=")
	if !ok {
		return "", "", false
	}
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	return strings.TrimSpace(name), strings.TrimSpace(value), name != ""
}

// convert appends the operations of call; open tracks the requests in
// progress, next numbers the converter's own.
func (d *dumpiRank) convert(c *dumpiCallText, open map[int]bool, next *int) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s: %s", d.file, c.line, c.name, fmt.Sprintf(format, args...))
	}
	num := func(key string) (int64, error) {
		v, ok := c.args[key]
		if !ok {
			return 0, fail("no argument %s", key)
		}
		v, _, _ = strings.Cut(v, " ") // "2 (MPI_COMM_WORLD)"
		x, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, fail("bad %s %q", key, c.args[key])
		}
		return x, nil
	}
	list := func(key string) ([]int64, error) {
		v, ok := c.args[key]
		if !ok {
			return nil, fail("no argument %s", key)
		}
		if v == "<IGNORED>" {
			return nil, nil
		}
		if len(v) < 2 || v[0] != '[' || v[len(v)-1] != ']' {
			return nil, fail("bad %s %q (expected [a, b, …])", key, v)
		}
		var xs []int64
		for _, s := range strings.Split(v[1:len(v)-1], ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			x, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, fail("bad %s %q", key, v)
			}
			xs = append(xs, x)
		}
		return xs, nil
	}
	// comm returns whether the call is on MPI_COMM_SELF; others than it
	// and MPI_COMM_WORLD are errors.
	comm := func() (self bool, err error) {
		cm, err := num("comm")
		if err != nil {
			return false, err
		}
		switch cm {
		case dumpiCommWorld:
			return false, nil
		case dumpiCommSelf:
			return true, nil
		}
		return false, fail("communicator %s is not supported (netsim replays MPI_COMM_WORLD and MPI_COMM_SELF)", c.args["comm"])
	}
	// peer returns the rank of argument key, on MPI_COMM_SELF (self)
	// the dump's own.
	peer := func(key string, self bool) (string, error) {
		p, err := num(key)
		if err != nil {
			return "", err
		}
		switch {
		case p == dumpiAny && key == "source":
			return "any", nil
		case p < 0:
			return "", fail("%s %s is not a rank (MPI_PROC_NULL and MPI_ROOT are not supported)", key, c.args[key])
		case self && p != 0:
			return "", fail("%s %d on MPI_COMM_SELF, which has rank 0 only", key, p)
		case self:
			return dumpiSelf, nil
		}
		return strconv.FormatInt(p, 10), nil
	}
	// env returns the envelope words after the size: the tag, and the
	// communicator 1 that keeps MPI_COMM_SELF's messages apart.
	env := func(tag string, self bool) []string {
		if self {
			return []string{tag, "1"}
		}
		return []string{tag}
	}
	tag := func(key string) (string, error) {
		t, err := num(key)
		if err != nil {
			return "", err
		}
		if t == dumpiAny {
			return "any", nil
		}
		if t < 0 {
			return "", fail("bad %s %d", key, t)
		}
		return strconv.FormatInt(t, 10), nil
	}
	sized := func(countKey, typeKey string, words ...string) error {
		cnt, err := num(countKey)
		if err != nil {
			return err
		}
		dt, err := num(typeKey)
		if err != nil {
			return err
		}
		d.ops = append(d.ops, dumpiOp{words: words, counts: []int64{cnt}, dtype: int(dt), line: c.line})
		return nil
	}
	request := func(key string) (string, error) {
		rs, err := list(key)
		if err != nil {
			return "", err
		}
		if len(rs) != 1 {
			return "", fail("expected one request in %s, got %q", key, c.args[key])
		}
		if open[int(rs[0])] {
			return "", fail("request %d is started again before it completed", rs[0])
		}
		open[int(rs[0])] = true
		return strconv.FormatInt(rs[0], 10), nil
	}
	wait := func(reqs []int64) error {
		var ws []string
		for _, q := range reqs {
			if q == dumpiRequestNull {
				continue
			}
			if !open[int(q)] {
				return fail("request %d was not started by an MPI_Isend or MPI_Irecv of this trace (persistent and generalized requests are not supported)", q)
			}
			delete(open, int(q))
			ws = append(ws, strconv.FormatInt(q, 10))
		}
		if len(ws) > 0 {
			d.ops = append(d.ops, dumpiOp{words: append([]string{"wait"}, ws...), line: c.line})
		}
		return nil
	}
	// picked returns the requests of key at the indices of idxKey.
	picked := func(key string, idx []int64) ([]int64, error) {
		rs, err := list(key)
		if err != nil {
			return nil, err
		}
		var out []int64
		for _, i := range idx {
			if i < 0 || i >= int64(len(rs)) {
				continue // MPI_UNDEFINED: nothing completed
			}
			out = append(out, rs[i])
		}
		return out, nil
	}
	switch c.name {
	case "MPI_Comm_rank":
		if cm, _ := num("comm"); cm == dumpiCommWorld {
			r, err := num("rank")
			if err != nil {
				return err
			}
			if r < 0 || r >= MaxRanks {
				return fail("bad rank %d", r)
			}
			if d.rank >= 0 && d.rank != int(r) {
				return fail("rank %d, but rank %d before", r, d.rank)
			}
			d.rank = int(r)
		}
		return nil
	case "MPI_Comm_size":
		if cm, _ := num("comm"); cm == dumpiCommWorld {
			s, err := num("size")
			if err != nil {
				return err
			}
			d.size = int(s)
		}
		return nil
	case "MPI_Send", "MPI_Ssend", "MPI_Rsend", "MPI_Bsend", "MPI_Isend", "MPI_Issend", "MPI_Irsend", "MPI_Ibsend",
		"MPI_Recv", "MPI_Irecv":
		self, err := comm()
		if err != nil {
			return err
		}
		recv := strings.Contains(c.name, "ecv")
		key := "dest"
		if recv {
			key = "source"
		}
		p, err := peer(key, self)
		if err != nil {
			return err
		}
		t, err := tag("tag")
		if err != nil {
			return err
		}
		op := map[bool]string{false: "send", true: "recv"}[recv]
		if strings.HasPrefix(c.name, "MPI_I") {
			q, err := request("request")
			if err != nil {
				return err
			}
			return sized("count", "datatype", append([]string{"i" + op, q, p, "%s"}, env(t, self)...)...)
		}
		return sized("count", "datatype", append([]string{op, p, "%s"}, env(t, self)...)...)
	case "MPI_Sendrecv":
		self, err := comm()
		if err != nil {
			return err
		}
		dst, err := peer("dest", self)
		if err != nil {
			return err
		}
		src, err := peer("source", self)
		if err != nil {
			return err
		}
		st, err := tag("sendtag")
		if err != nil {
			return err
		}
		rt, err := tag("recvtag")
		if err != nil {
			return err
		}
		rq, sq := strconv.Itoa(*next), strconv.Itoa(*next+1)
		*next += 2
		if *next > math.MaxInt32-2 {
			*next = 1 << 29
		}
		if err := sized("recvcount", "recvtype", append([]string{"irecv", rq, src, "%s"}, env(rt, self)...)...); err != nil {
			return err
		}
		if err := sized("sendcount", "sendtype", append([]string{"isend", sq, dst, "%s"}, env(st, self)...)...); err != nil {
			return err
		}
		d.ops = append(d.ops, dumpiOp{words: []string{"wait", rq, sq}, line: c.line})
		return nil
	case "MPI_Wait":
		rs, err := list("request")
		if err != nil {
			return err
		}
		return wait(rs)
	case "MPI_Waitall":
		rs, err := list("requests")
		if err != nil {
			return err
		}
		return wait(rs)
	case "MPI_Waitany":
		i, err := num("index")
		if err != nil {
			return err
		}
		rs, err := picked("requests", []int64{i})
		if err != nil {
			return err
		}
		return wait(rs)
	case "MPI_Waitsome":
		idx, err := list("indices")
		if err != nil {
			return err
		}
		rs, err := picked("requests", idx)
		if err != nil {
			return err
		}
		return wait(rs)
	case "MPI_Test":
		if flag, err := num("flag"); err != nil || flag == 0 {
			return err
		}
		rs, err := list("request")
		if err != nil {
			return err
		}
		return wait(rs)
	case "MPI_Testall":
		if flag, err := num("flag"); err != nil || flag == 0 {
			return err
		}
		rs, err := list("requests")
		if err != nil {
			return err
		}
		return wait(rs)
	case "MPI_Barrier":
		if self, err := comm(); err != nil || self {
			return err
		}
		d.ops = append(d.ops, dumpiOp{words: []string{"barrier"}, line: c.line})
		return nil
	case "MPI_Bcast", "MPI_Reduce":
		if self, err := comm(); err != nil || self {
			return err
		}
		root, err := num("root")
		if err != nil {
			return err
		}
		return sized("count", "datatype", strings.ToLower(strings.TrimPrefix(c.name, "MPI_")), strconv.FormatInt(root, 10), "%s")
	case "MPI_Allreduce":
		if self, err := comm(); err != nil || self {
			return err
		}
		return sized("count", "datatype", "allreduce", "%s")
	case "MPI_Alltoall", "MPI_Allgather":
		if self, err := comm(); err != nil || self {
			return err
		}
		return sized("sendcount", "sendtype", strings.ToLower(strings.TrimPrefix(c.name, "MPI_")), "%s")
	case "MPI_Alltoallv":
		if self, err := comm(); err != nil || self {
			return err
		}
		counts, err := list("sendcounts")
		if err != nil {
			return err
		}
		dt, err := num("sendtype")
		if err != nil {
			return err
		}
		d.ops = append(d.ops, dumpiOp{words: []string{"alltoallv", "%s"}, counts: counts, dtype: int(dt), line: c.line})
		return nil
	}
	if dumpiMovesNothing(c.name) {
		return nil
	}
	return fail("unsupported MPI call (netsim replays point-to-point calls, waits, tests, MPI_Barrier, MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Alltoall, MPI_Alltoallv and MPI_Allgather on MPI_COMM_WORLD)")
}
