package workload

import (
	"container/heap"
	"strings"
	"testing"
)

// idealNet is a network of one link per rank, a flit a cycle, and a fixed
// latency: a message of f flits from a rank whose link is free at s
// leaves in [s, s+f) and arrives whole at s+f−1+latency.
type idealNet struct {
	x        *Executor
	free     []int64
	latency  int64
	flit     int64
	wakes    wakeHeap
	now      int64
	messages int
}

type wake struct {
	at   int64
	rank int
}

type wakeHeap []wake

func (h wakeHeap) Len() int { return len(h) }
func (h wakeHeap) Less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].rank < h[j].rank
}
func (h wakeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *wakeHeap) Push(x any)   { *h = append(*h, x.(wake)) }
func (h *wakeHeap) Pop() any {
	old := *h
	w := old[len(old)-1]
	*h = old[:len(old)-1]
	return w
}

func (n *idealNet) Send(now int64, id int32, src, dst int, bytes int64) {
	f := max((bytes+n.flit-1)/n.flit, 1)
	start := max(now, n.free[src])
	n.free[src] = start + f
	n.messages++
	n.x.Sent(id, start+f-1)
	n.x.Arrived(id, start+f-1+n.latency)
}

func (n *idealNet) Wake(rank int, at int64) {
	if at < n.now {
		panic("wake in the past")
	}
	heap.Push(&n.wakes, wake{at, rank})
}

// runIdeal runs w on an ideal network and returns the executor, or the
// error that ended it (a stuck run: nothing left to do, ranks unfinished).
func runIdeal(t *testing.T, w *Workload, latency int64) (*Executor, error) {
	return runIdealRepeat(t, w, latency, 1)
}

// runIdealRepeat is runIdeal with each program run repeat times.
func runIdealRepeat(t *testing.T, w *Workload, latency int64, repeat int) (*Executor, error) {
	t.Helper()
	if err := w.Check(); err != nil {
		t.Fatal(err)
	}
	n := &idealNet{free: make([]int64, len(w.Ranks)), latency: latency, flit: 64}
	n.x = NewExecutor(w, n, 1, repeat)
	n.x.Start(0)
	for n.wakes.Len() > 0 {
		wk := heap.Pop(&n.wakes).(wake)
		n.now = wk.at
		n.x.Resume(wk.rank, wk.at)
		if err := n.x.Err(); err != nil {
			return n.x, err
		}
	}
	if !n.x.Done() {
		return n.x, &stuckError{n.x.Blocked(3)}
	}
	return n.x, n.x.Unmatched()
}

type stuckError struct{ msg string }

func (e *stuckError) Error() string { return "stuck: " + e.msg }

func read(t *testing.T, text string) *Workload {
	t.Helper()
	w, err := ReadTrace(strings.NewReader(text), "t.trace")
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestExecutorSemantics(t *testing.T) {
	cases := []struct {
		name  string
		trace string
		// want is each rank's completion on an ideal network of latency
		// 10, 64-byte flits.
		want []int64
	}{
		{"ping-pong", `netsim-trace 1
ranks 2
rank 0
send 1 640
recv 1 64
rank 1
recv 0 640
send 0 64
`, []int64{29, 19}}, // 10 flits leave by 9, arrive at 19; the reply leaves at 19, arrives at 29
		{"compute delays", `netsim-trace 1
ranks 2
rank 0
compute 100
send 1 64
rank 1
recv 0 64
`, []int64{100, 110}},
		{"any source takes the first to arrive", `netsim-trace 1
ranks 3
rank 0
recv any 64 any
recv any 64 any
rank 1
compute 50
send 0 64 7
rank 2
send 0 64 9
`, []int64{60, 50, 0}},
		{"non-overtaking: a pair's messages match in send order", `netsim-trace 1
ranks 2
rank 0
irecv 1 1 6400 5
irecv 2 1 64 5
wait 1 2
rank 1
send 0 6400 5
send 0 64 5
`, []int64{110, 100}},
		{"tags select", `netsim-trace 1
ranks 2
rank 0
recv 1 64 2
recv 1 6400 1
rank 1
isend 1 0 6400 1
isend 2 0 64 2
waitall
`, []int64{110, 100}},
		{"barrier then allreduce", `netsim-trace 1
ranks 4
rank 0
barrier
allreduce 640
rank 1
barrier
allreduce 640
rank 2
barrier
allreduce 640
rank 3
compute 1000
barrier
allreduce 640
`, []int64{1049, 1058, 1049, 1049}}, // a link is busy through its last flit's cycle
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x, err := runIdeal(t, read(t, tc.trace), 10)
			if err != nil {
				t.Fatal(err)
			}
			for r, want := range tc.want {
				if got := x.Completion[r]; got != want {
					t.Errorf("rank %d finished at %d, want %d", r, got, want)
				}
			}
		})
	}
}

func TestExecutorErrors(t *testing.T) {
	cases := []struct{ name, trace, want string }{
		{"truncated", "netsim-trace 1\nranks 2\nrank 0\nrecv 1 64\nrank 1\nsend 0 128\n",
			"t.trace:4: rank 0, recv: a message of 128 bytes from rank 1 (tag 0) is larger than the receive's 64 bytes"},
		{"unmatched receive", "netsim-trace 1\nranks 2\nrank 0\nrecv 1 64 3\nrank 1\nsend 0 64 4\n",
			"stuck: rank 0 (line 4, recv) waits for a receive from rank 1, tag 3, comm 0"},
		{"a receive never sent",
			"netsim-trace 1\nranks 2\nrank 0\nirecv 1 1 64\nisend 2 1 64\nwait 2 1\nrank 1\n",
			"stuck: rank 0 (line 6, wait) waits for a receive from rank 1, tag 0, comm 0"},
		{"a message never received", "netsim-trace 1\nranks 2\nrank 0\nsend 1 64 3\nrank 1\n",
			"t.trace: 1 messages no receive took: rank 1 got 64 bytes from rank 0 (tag 3, comm 0)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runIdeal(t, read(t, tc.trace), 10)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestCollectivesIdeal runs every collective, for rank counts that are
// and are not powers of two, on an ideal network: each completes, sends
// the messages it should, and takes its bound plus latency per step.
func TestCollectivesIdeal(t *testing.T) {
	flits := func(b int64) int64 { return max((b+63)/64, 1) }
	for _, name := range Collectives() {
		for _, n := range []int{1, 2, 3, 5, 8, 12} {
			w, err := Collective(name, n, 6400, nil)
			if err != nil {
				t.Fatal(err)
			}
			x, err := runIdeal(t, w, 0)
			if err != nil {
				t.Fatalf("%s on %d ranks: %v", name, n, err)
			}
			end := int64(0)
			for _, c := range x.Completion {
				end = max(end, c)
			}
			bound := Bound(name, n, 6400, nil, flits)
			// With no latency, the ideal network reaches the bound but
			// for a cycle a step (a message's arrival is its last flit's
			// cycle).
			if end < bound-int64(2*n) || end > bound+int64(2*n) {
				t.Errorf("%s on %d ranks: %d cycles, bound %d", name, n, end, bound)
			}
		}
	}
}

// TestRepeat runs a program three times over: its requests may stay open
// to the end of an iteration (the next starts once they completed).
func TestRepeat(t *testing.T) {
	w := read(t, "netsim-trace 1\nranks 2\nrank 0\nisend 1 1 640\nrank 1\nirecv 1 0 640\n")
	once, err := runIdealRepeat(t, w, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	thrice, err := runIdealRepeat(t, w, 10, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Rank 0's next send starts as soon as its last flit left: each
	// iteration adds the 10 flits of a message.
	if a, b := once.Completion[1], thrice.Completion[1]; b != a+2*10 {
		t.Errorf("three iterations end at %d, one at %d: want 20 cycles more", b, a)
	}
}

func TestGrid3(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want [3]int
	}{{1, [3]int{1, 1, 1}}, {8, [3]int{2, 2, 2}}, {12, [3]int{3, 2, 2}}, {64, [3]int{4, 4, 4}}, {7, [3]int{7, 1, 1}}, {96, [3]int{6, 4, 4}}} {
		if g := Grid3(tc.n); [3]int(g) != tc.want {
			t.Errorf("Grid3(%d) = %v, want %v", tc.n, g, tc.want)
		}
	}
}
