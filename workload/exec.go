package workload

import (
	"container/heap"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Network carries the messages of an Executor and keeps its time.
type Network interface {
	// Send hands message id, of bytes bytes, from rank src to rank dst
	// to src's adapter at now. The network then calls the executor's
	// Sent once the message's last flit has left the adapter, and
	// Arrived once its last flit has reached dst's adapter.
	Send(now int64, id int32, src, dst int, bytes int64)
	// Wake makes the network call the executor's Resume(rank, at) at
	// time at (not before the current time).
	Wake(rank int, at int64)
}

// Never is a time that does not come.
const Never = math.MaxInt64

// Executor runs a workload over a Network (see the package
// documentation for what its operations do). Times are network cycles.
type Executor struct {
	w       *Workload
	net     Network
	cycleNS float64
	repeat  int
	ranks   []rankState
	msgs    []message
	// pairs holds, per ordered pair of ranks that exchanged a message,
	// the order in which its messages enter matching.
	pairs   map[uint64]*pairOrder
	running int
	// truncated is the first receive that took a larger message.
	truncated *request
	// Completion holds the time each rank finished, Never while it
	// runs.
	Completion []int64
}

// message is one message sent.
type message struct {
	src, dst, tag, comm int32
	seq                 int32
	bytes               int64
	req                 *request // the send's
}

// pairOrder is the matching order of the messages from one rank to
// another: the next sequence number to enter matching and those that
// arrived early.
type pairOrder struct {
	next, sent int32
	early      map[int32]int32 // sequence → message
}

// request is a send or receive in progress.
type request struct {
	op   *Op
	done bool
	msg  int32 // a receive's matched message, −1 until matched
}

// rankState is the progress of one rank.
type rankState struct {
	pc   int
	iter int                // iterations of the program done (NewExecutor's repeat)
	reqs map[int32]*request // started, not waited for
	// waiting lists the requests the rank waits for (Wait, blocking
	// send and receive, the program's end); busyUntil is the end of a
	// compute.
	waiting   []int32
	busyUntil int64
	// posted are its receives not matched, in the order posted;
	// unexpected the messages that entered matching before a receive
	// took them, in that order.
	posted     []*request
	unexpected []int32
	// events are the departures and arrivals reported for the rank, to
	// act on at their time; wakeAt is the earliest wake-up asked of the
	// network and not yet seen.
	events  eventHeap
	wakeAt  int64
	nextReq int32 // internal requests of blocking operations count down from −1
	started bool
}

// event is a message's departure (sent) or arrival at a rank.
type event struct {
	at      int64
	id      int32
	arrived bool
}

type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	if h[i].arrived != h[j].arrived {
		return !h[i].arrived
	}
	return h[i].id < h[j].id
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// NewExecutor returns an executor of w (which must pass Check) over net,
// a compute of d nanoseconds taking ⌈d / cycleNS⌉ cycles. Each rank runs
// its program repeat times (at least once), the next iteration starting
// once every request of the last has completed.
func NewExecutor(w *Workload, net Network, cycleNS float64, repeat int) *Executor {
	x := &Executor{w: w, net: net, cycleNS: cycleNS, repeat: max(repeat, 1), ranks: make([]rankState, len(w.Ranks)),
		pairs: map[uint64]*pairOrder{}, running: len(w.Ranks), Completion: make([]int64, len(w.Ranks))}
	for r := range x.ranks {
		x.ranks[r].wakeAt = Never
		x.ranks[r].reqs = map[int32]*request{}
		x.ranks[r].nextReq = -1
		x.Completion[r] = Never
	}
	return x
}

// Start starts every rank at now.
func (x *Executor) Start(now int64) {
	for r := range x.ranks {
		x.ranks[r].started = true
		x.run(r, now)
	}
}

// Done reports whether every rank has finished.
func (x *Executor) Done() bool { return x.running == 0 }

// Messages returns the number of messages sent so far.
func (x *Executor) Messages() int { return len(x.msgs) }

// Sent reports that the last flit of message id left its source at at.
func (x *Executor) Sent(id int32, at int64) { x.post(int(x.msgs[id].src), event{at: at, id: id}) }

// Arrived reports that the last flit of message id reached its
// destination at at.
func (x *Executor) Arrived(id int32, at int64) {
	x.post(int(x.msgs[id].dst), event{at: at, id: id, arrived: true})
}

// post queues e for rank r and makes sure the rank wakes for it.
func (x *Executor) post(r int, e event) {
	rs := &x.ranks[r]
	heap.Push(&rs.events, e)
	x.wake(r, e.at)
}

// wake asks the network to resume rank r at at unless an earlier wake-up
// is pending.
func (x *Executor) wake(r int, at int64) {
	rs := &x.ranks[r]
	if at < rs.wakeAt {
		rs.wakeAt = at
		x.net.Wake(r, at)
	}
}

// Resume acts on what is due for rank r at now: departures and arrivals
// of its messages, the end of a compute; then runs the rank on.
func (x *Executor) Resume(r int, now int64) {
	rs := &x.ranks[r]
	if now == rs.wakeAt {
		rs.wakeAt = Never
	}
	x.run(r, now)
}

// run handles rank r's due events and runs its program until it blocks,
// then asks for a wake-up at its next event or the end of its compute.
func (x *Executor) run(r int, now int64) {
	rs := &x.ranks[r]
	for rs.events.Len() > 0 && rs.events[0].at <= now {
		e := heap.Pop(&rs.events).(event)
		if e.arrived {
			x.arrive(e.id)
		} else {
			x.msgs[e.id].req.done = true
		}
	}
	if rs.started && x.Completion[r] == Never {
		x.step(r, now)
	}
	next := rs.events.peek()
	if rs.busyUntil > now {
		next = min(next, rs.busyUntil)
	}
	if next != Never {
		x.wake(r, next)
	}
}

func (h eventHeap) peek() int64 {
	if len(h) == 0 {
		return Never
	}
	return h[0].at
}

// step runs rank r's program at now until it blocks or ends.
func (x *Executor) step(r int, now int64) {
	rs := &x.ranks[r]
	prog := x.w.Ranks[r]
	for {
		if rs.busyUntil > now {
			return
		}
		if len(rs.waiting) > 0 {
			for len(rs.waiting) > 0 && rs.reqs[rs.waiting[len(rs.waiting)-1]].done {
				delete(rs.reqs, rs.waiting[len(rs.waiting)-1])
				rs.waiting = rs.waiting[:len(rs.waiting)-1]
			}
			if len(rs.waiting) > 0 {
				return
			}
		}
		if rs.pc == len(prog) {
			if len(rs.reqs) > 0 {
				rs.waiting = x.allRequests(rs)
				continue
			}
			if rs.iter++; rs.iter < x.repeat {
				rs.pc = 0
				continue
			}
			x.Completion[r] = now
			x.running--
			return
		}
		op := &prog[rs.pc]
		rs.pc++
		switch op.Kind {
		case Isend, Send:
			q := x.request(rs, op)
			x.send(r, op, q, now)
		case Irecv, Recv:
			q := x.request(rs, op)
			x.receive(r, q)
		case Wait:
			rs.waiting = append(rs.waiting[:0], op.Reqs...)
		case WaitAll:
			rs.waiting = x.allRequests(rs)
		case Compute:
			if c := x.cycles(op.NS); c > 0 {
				rs.busyUntil = now + c
			}
		}
	}
}

// allRequests returns rank rs's open requests, in a fixed order.
func (x *Executor) allRequests(rs *rankState) []int32 {
	ids := rs.waiting[:0]
	for id := range rs.reqs {
		ids = append(ids, id)
	}
	// Any order waits for the same; sorting keeps runs reproducible.
	slices.Sort(ids)
	return ids
}

// request opens the request of op for rank rs: op's own, or an internal
// one a blocking operation waits for.
func (x *Executor) request(rs *rankState, op *Op) *request {
	q := &request{op: op, msg: -1}
	id := op.Req
	if op.Kind == Send || op.Kind == Recv {
		id = rs.nextReq
		rs.nextReq--
		rs.waiting = append(rs.waiting[:0], id)
	}
	rs.reqs[id] = q
	return q
}

// cycles returns the cycles of a compute of ns nanoseconds.
func (x *Executor) cycles(ns float64) int64 {
	if ns <= 0 {
		return 0
	}
	return int64(math.Ceil(ns/x.cycleNS - 1e-9))
}

// send starts the send q of rank r at now.
func (x *Executor) send(r int, op *Op, q *request, now int64) {
	id := int32(len(x.msgs))
	pair := x.pair(r, int(op.Peer))
	x.msgs = append(x.msgs, message{src: int32(r), dst: op.Peer, tag: op.Tag, comm: op.Comm, seq: pair.sent, bytes: op.Bytes, req: q})
	pair.sent++
	x.net.Send(now, id, r, int(op.Peer), op.Bytes)
}

func (x *Executor) pair(src, dst int) *pairOrder {
	k := uint64(src)<<32 | uint64(dst)
	p := x.pairs[k]
	if p == nil {
		p = &pairOrder{}
		x.pairs[k] = p
	}
	return p
}

// arrive lets message id, arrived whole, enter matching at its
// destination, with the messages of its pair held back for it.
func (x *Executor) arrive(id int32) {
	m := &x.msgs[id]
	pair := x.pair(int(m.src), int(m.dst))
	if m.seq != pair.next {
		if pair.early == nil {
			pair.early = map[int32]int32{}
		}
		pair.early[m.seq] = id
		return
	}
	for {
		x.match(id)
		pair.next++
		next, ok := pair.early[pair.next]
		if !ok {
			return
		}
		delete(pair.early, pair.next)
		id = next
	}
}

// matches reports whether receive op takes message m.
func matches(op *Op, m *message) bool {
	return (op.Peer == AnySource || op.Peer == m.src) && (op.Tag == AnyTag || op.Tag == m.tag) && op.Comm == m.comm
}

// match gives message id to the first receive posted at its destination
// that takes it, or keeps it as unexpected.
func (x *Executor) match(id int32) {
	m := &x.msgs[id]
	rs := &x.ranks[m.dst]
	for i, q := range rs.posted {
		if matches(q.op, m) {
			rs.posted = append(rs.posted[:i], rs.posted[i+1:]...)
			x.complete(q, id)
			return
		}
	}
	rs.unexpected = append(rs.unexpected, id)
}

// receive posts receive q of rank r: it takes the first unexpected
// message it matches, or waits for one.
func (x *Executor) receive(r int, q *request) {
	rs := &x.ranks[r]
	for i, id := range rs.unexpected {
		if matches(q.op, &x.msgs[id]) {
			rs.unexpected = append(rs.unexpected[:i], rs.unexpected[i+1:]...)
			x.complete(q, id)
			return
		}
	}
	rs.posted = append(rs.posted, q)
}

// complete completes receive q with message id.
func (x *Executor) complete(q *request, id int32) {
	q.msg, q.done = id, true
	if m := &x.msgs[id]; m.bytes > q.op.Bytes {
		// Reported by Err: a run stops at the first truncation.
		if x.truncated == nil {
			x.truncated = q
		}
	}
}

// Err returns the first error of the run: a message larger than the
// receive that took it.
func (x *Executor) Err() error {
	q := x.truncated
	if q == nil {
		return nil
	}
	m := &x.msgs[q.msg]
	return x.opErr(int(m.dst), q.op, fmt.Errorf("a message of %d bytes from rank %d (tag %d) is larger than the receive's %d bytes (MPI_ERR_TRUNCATE)",
		m.bytes, m.src, m.tag, q.op.Bytes))
}

// Unmatched returns an error naming the messages that arrived and that no
// receive took (at most 3), nil if there are none: a workload that ends
// with such messages is wrong (MPI calls it erroneous), not finished.
func (x *Executor) Unmatched() error {
	var b strings.Builder
	n := 0
	note := func(id int32) {
		if n < 3 {
			m := &x.msgs[id]
			if n > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "rank %d got %d bytes from rank %d (tag %d, comm %d)", m.dst, m.bytes, m.src, m.tag, m.comm)
		}
		n++
	}
	for r := range x.ranks {
		for _, id := range x.ranks[r].unexpected {
			note(id)
		}
	}
	for _, p := range x.pairs {
		for _, id := range p.early {
			note(id)
		}
	}
	if n == 0 {
		return nil
	}
	return fmt.Errorf("%s: %d messages no receive took: %s", x.w.Name, n, b.String())
}

// opErr names op of rank r (and its trace line) in err.
func (x *Executor) opErr(r int, op *Op, err error) error {
	i := 0
	for k := range x.w.Ranks[r] {
		if &x.w.Ranks[r][k] == op {
			i = k
		}
	}
	return x.w.opError(r, i, err)
}

// Blocked describes the ranks that have not finished and what each waits
// for, at most max of them: a run whose network fell idle before every
// rank finished is stuck on receives no message will match.
func (x *Executor) Blocked(max int) string {
	var b strings.Builder
	shown := 0
	for r := range x.ranks {
		if x.Completion[r] != Never {
			continue
		}
		if shown == max {
			fmt.Fprintf(&b, "; and %d more ranks", x.running-shown)
			break
		}
		if shown > 0 {
			b.WriteString("; ")
		}
		shown++
		rs := &x.ranks[r]
		fmt.Fprintf(&b, "rank %d", r)
		if rs.pc > 0 {
			if op := &x.w.Ranks[r][rs.pc-1]; op.Line > 0 {
				fmt.Fprintf(&b, " (line %d, %s)", op.Line, op.Kind)
			} else {
				fmt.Fprintf(&b, " (operation %d, %s)", rs.pc, op.Kind)
			}
		}
		b.WriteString(" waits for")
		n := 0
		for _, id := range rs.waiting {
			q := rs.reqs[id]
			if q.done {
				continue
			}
			if n == 3 {
				b.WriteString(", …")
				break
			}
			if n > 0 {
				b.WriteString(",")
			}
			n++
			b.WriteString(" " + describe(q.op))
		}
	}
	return b.String()
}

// describe names a send or receive.
func describe(op *Op) string {
	peer, tag := fmt.Sprint(op.Peer), fmt.Sprint(op.Tag)
	if op.Peer == AnySource {
		peer = "any source"
	}
	if op.Tag == AnyTag {
		tag = "any"
	}
	switch op.Kind {
	case Isend, Send:
		return fmt.Sprintf("a send of %d bytes to rank %s, tag %s, comm %d", op.Bytes, peer, tag, op.Comm)
	}
	return fmt.Sprintf("a receive from rank %s, tag %s, comm %d", peer, tag, op.Comm)
}
