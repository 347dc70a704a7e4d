// Package workload describes application traffic as programs of ranks —
// sends, receives, waits and computes, as an MPI program makes them — and
// runs them over a network (Executor): MPI collectives built as such
// programs (AllToAll, AllreduceRing, AllreduceDoubling, Broadcast,
// Halo3D), traces in netsim's own text format (ReadTrace, WriteTrace),
// converted from DUMPI's ASCII dumps (FromDUMPI), and the placement of
// ranks on hosts (Place).
//
// # Semantics
//
// A rank runs its operations in order. A send (Isend, or the blocking
// Send) hands its message to the rank's adapter at once — an eager
// protocol with unbounded receive buffers — and completes when the
// message's last flit has left the adapter. A receive completes when a
// matching message has arrived whole: messages match on source, tag and
// communicator (a receive may take any source or any tag), and messages
// from one rank to another enter matching in the order they were sent,
// whatever order their packets arrived in, so they do not overtake each
// other, as MPI requires. A compute holds the rank for its duration. A
// wait holds the rank until the requests it names have completed; the
// end of a rank's program waits for all of its requests. A message
// larger than the receive that matches it is an error (MPI_ERR_TRUNCATE).
package workload

import (
	"fmt"
)

// OpKind is what an operation does.
type OpKind uint8

// Operation kinds.
const (
	// Isend starts a send of Bytes to rank Peer with Tag and Comm, as
	// request Req.
	Isend OpKind = iota
	// Irecv posts a receive of at most Bytes from Peer (or AnySource)
	// with Tag (or AnyTag) and Comm, as request Req.
	Irecv
	// Send is a blocking Isend: the rank waits for it.
	Send
	// Recv is a blocking Irecv.
	Recv
	// Wait waits for the requests Reqs.
	Wait
	// WaitAll waits for every request the rank has started.
	WaitAll
	// Compute holds the rank for NS nanoseconds.
	Compute
)

var opNames = [...]string{Isend: "isend", Irecv: "irecv", Send: "send", Recv: "recv", Wait: "wait", WaitAll: "waitall", Compute: "compute"}

// String returns the kind's name in the trace format.
func (k OpKind) String() string {
	if int(k) < len(opNames) {
		return opNames[k]
	}
	return fmt.Sprintf("OpKind(%d)", k)
}

// Wildcards of Op.Peer and Op.Tag in receives.
const (
	// AnySource matches a message from any rank.
	AnySource = -1
	// AnyTag matches a message with any tag.
	AnyTag = -1
)

// Op is one operation of a rank.
type Op struct {
	// Kind is what the operation does; the fields below it uses.
	Kind OpKind
	// Peer is the destination rank of a send, the source of a receive
	// (or AnySource).
	Peer int32
	// Tag (or AnyTag for a receive) and Comm are the message's envelope.
	Tag, Comm int32
	// Req names the request of an Isend or Irecv, unique among the
	// rank's requests not yet waited for.
	Req int32
	// Bytes is the size of a send, or the most a receive takes.
	Bytes int64
	// NS is the duration of a compute, in nanoseconds.
	NS float64
	// Reqs are the requests a Wait waits for.
	Reqs []int32
	// Line is the line of the trace file the operation comes from (0 for
	// built workloads).
	Line int32
}

// Workload is the programs of a set of ranks.
type Workload struct {
	// Name names the workload in messages: a collective's name or a
	// trace file.
	Name string
	// Ranks holds each rank's operations, in order.
	Ranks [][]Op
}

// MaxRanks bounds the ranks of a workload.
const MaxRanks = 1 << 22

// MaxBytes bounds the size of one message.
const MaxBytes = 1 << 40

// MaxOps bounds the operations of a workload, all ranks together (an
// operation takes about 70 bytes).
const MaxOps = 1 << 24

// Check checks that every operation names ranks of the workload, sizes
// and durations in range, and that a rank's requests are started once
// before they are waited for. Errors name the rank, the operation and,
// for a trace, its line.
func (w *Workload) Check() error {
	n := len(w.Ranks)
	if n == 0 {
		return fmt.Errorf("%s: no ranks", w.Name)
	}
	if n > MaxRanks {
		return fmt.Errorf("%s: %d ranks, more than %d", w.Name, n, MaxRanks)
	}
	ops := 0
	for r, prog := range w.Ranks {
		ops += len(prog)
		if ops > MaxOps {
			return fmt.Errorf("%s: more than %d operations", w.Name, MaxOps)
		}
		open := map[int32]bool{}
		for i := range prog {
			op := &prog[i]
			if err := w.checkOp(r, op, open); err != nil {
				return w.opError(r, i, err)
			}
		}
	}
	return nil
}

// checkOp checks one operation of rank r; open holds the rank's requests
// started and not yet waited for.
func (w *Workload) checkOp(r int, op *Op, open map[int32]bool) error {
	n := int32(len(w.Ranks))
	switch op.Kind {
	case Isend, Send, Irecv, Recv:
		recv := op.Kind == Irecv || op.Kind == Recv
		switch {
		case op.Peer >= n || op.Peer < 0 && !(recv && op.Peer == AnySource):
			return fmt.Errorf("rank %d is not one of the %d ranks", op.Peer, n)
		case op.Tag < 0 && !(recv && op.Tag == AnyTag):
			return fmt.Errorf("bad tag %d (expected 0 or more)", op.Tag)
		case op.Bytes < 0 || op.Bytes > MaxBytes:
			return fmt.Errorf("bad size %d bytes (expected 0 to %d)", op.Bytes, int64(MaxBytes))
		case op.Comm < 0:
			return fmt.Errorf("bad communicator %d (expected 0 or more)", op.Comm)
		}
		if op.Kind == Isend || op.Kind == Irecv {
			if open[op.Req] {
				return fmt.Errorf("request %d is already in use", op.Req)
			}
			open[op.Req] = true
		}
	case Wait:
		if len(op.Reqs) == 0 {
			return fmt.Errorf("wait names no request")
		}
		for _, q := range op.Reqs {
			if !open[q] {
				return fmt.Errorf("request %d was not started (or was waited for already)", q)
			}
			delete(open, q)
		}
	case WaitAll:
		clear(open)
	case Compute:
		if !(op.NS >= 0) || op.NS > 1e15 {
			return fmt.Errorf("bad duration %v ns (expected 0 to 1e15)", op.NS)
		}
	default:
		return fmt.Errorf("unknown operation %v", op.Kind)
	}
	return nil
}

// opError names operation i of rank r (and its trace line) in err.
func (w *Workload) opError(r, i int, err error) error {
	op := w.Ranks[r][i]
	if op.Line > 0 {
		return fmt.Errorf("%s:%d: rank %d, %s: %w", w.Name, op.Line, r, op.Kind, err)
	}
	return fmt.Errorf("%s: rank %d, operation %d (%s): %w", w.Name, r, i+1, op.Kind, err)
}

// Sent returns the bytes each rank sends.
func (w *Workload) Sent() []int64 {
	b := make([]int64, len(w.Ranks))
	for r, prog := range w.Ranks {
		for _, op := range prog {
			if op.Kind == Isend || op.Kind == Send {
				b[r] += op.Bytes
			}
		}
	}
	return b
}
