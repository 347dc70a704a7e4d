package fabric

import (
	"context"
	"errors"
	"fmt"

	"netsim/kernel"
	"netsim/keyerr"
	"netsim/nic"
	"netsim/workload"
)

// Workload is an application workload to run on a network: the programs
// of its ranks (package workload), run Repeat times over (0 or 1: once),
// the host of each rank, and how its messages are cut: into packets of
// at most MTUBytes, flits of FlitBytes; a cycle lasts CycleNS
// nanoseconds (a flit's time on a link), which turns computes into
// cycles.
type Workload struct {
	W                   *workload.Workload
	Repeat              int
	Hosts               []int
	MTUBytes, FlitBytes int
	CycleNS             float64
}

// WorkloadStats are the measurements of a workload run.
type WorkloadStats struct {
	// Completion holds the cycle each rank finished; Cycles is the
	// last of them, the workload's completion time.
	Completion []int64
	Cycles     int64
	// Sent holds the bytes each rank sent.
	Sent []int64
	// Messages, Packets and Flits count what the ranks sent.
	Messages, Packets, Flits int64
	// RouteChanges and Probes are the NICs' dispersion's.
	RouteChanges, Probes int64
}

// Flits returns the flits of a message of b bytes: packets of at most
// MTUBytes, each of ⌈bytes / FlitBytes⌉ flits; an empty message is one
// flit.
func (x *Workload) Flits(b int64) int64 { return messageFlits(x.message(0, 0, b)) }

// messageFlits returns the flits of all of m's packets.
func messageFlits(m nic.Message) int64 {
	return int64(m.Packets-1)*int64(m.Flits) + int64(m.LastFlits)
}

// message returns the NIC message of b bytes to host dst.
func (x *Workload) message(id int32, dst int, b int64) nic.Message {
	mtu := int64(x.MTUBytes)
	fb := int64(x.FlitBytes)
	m := nic.Message{Dst: int32(dst), ID: id, Flits: int32((mtu + fb - 1) / fb)}
	full := b / mtu
	rest := b - full*mtu
	m.Packets, m.LastFlits = int32(full), m.Flits
	if rest > 0 || b == 0 {
		m.Packets++
		m.LastFlits = int32(max((rest+fb-1)/fb, 1))
	}
	return m
}

// validate checks x for a network of hosts hosts.
func (x *Workload) validate(hosts int) error {
	switch {
	case x.W == nil:
		return errors.New("workload: missing")
	case len(x.Hosts) != len(x.W.Ranks):
		return fmt.Errorf("workload %s: %d hosts for %d ranks", x.W.Name, len(x.Hosts), len(x.W.Ranks))
	case !(x.CycleNS > 0):
		return fmt.Errorf("workload: cycle of %v ns", x.CycleNS)
	}
	if err := checkPacketBytes(x.MTUBytes, x.FlitBytes); err != nil {
		return err
	}
	seen := make(map[int]int, len(x.Hosts))
	for r, h := range x.Hosts {
		if h < 0 || h >= hosts {
			return fmt.Errorf("workload %s: rank %d on host %d, not one of the %d hosts", x.W.Name, r, h, hosts)
		}
		if q, dup := seen[h]; dup {
			return fmt.Errorf("workload %s: ranks %d and %d on one host %d", x.W.Name, q, r, h)
		}
		seen[h] = r
	}
	return x.CheckMessages()
}

// CheckMessages checks that every message of x cuts into at most
// MaxMessagePackets packets, naming the first that does not (and its
// trace line).
func (x *Workload) CheckMessages() error {
	for r, prog := range x.W.Ranks {
		for _, op := range prog {
			if (op.Kind == workload.Isend || op.Kind == workload.Send) && (op.Bytes-1)/int64(x.MTUBytes)+1 > MaxMessagePackets {
				where := fmt.Sprintf("rank %d", r)
				if op.Line > 0 {
					where = fmt.Sprintf("%s:%d: %s", x.W.Name, op.Line, where)
				}
				return keyerr.New("mtu_bytes", "%s sends %d bytes, more than %d packets of mtu_bytes = %d", where, op.Bytes, MaxMessagePackets, x.MTUBytes)
			}
		}
	}
	return nil
}

// workloadRun connects an executor to a point's NICs: it is the
// executor's network and the NICs' message sink.
type workloadRun struct {
	p    *point
	x    *Workload
	exec *workload.Executor
	// Per message: packets not yet departed, not yet arrived, and the
	// latest arrival so far.
	departing, arriving []int32
	last                []kernel.Time
	stats               *WorkloadStats
}

// Send implements workload.Network.
func (w *workloadRun) Send(now int64, id int32, src, dst int, bytes int64) {
	m := w.x.message(id, w.x.Hosts[dst], bytes)
	w.departing = append(w.departing, m.Packets)
	w.arriving = append(w.arriving, m.Packets)
	w.last = append(w.last, 0)
	w.stats.Messages++
	w.stats.Packets += int64(m.Packets)
	w.stats.Flits += messageFlits(m)
	w.p.nics[w.x.Hosts[src]].SendMessage(m, now)
}

// Wake implements workload.Network.
func (w *workloadRun) Wake(rank int, at int64) {
	w.p.parts[0].eng.Schedule(at, kernel.Event{Kind: kindRank, Target: int32(rank)})
}

// Departed implements nic.MessageSink. A message is sent at the end of
// the cycle its last flit leaves in: its rank sees it the cycle after, as
// it sees the end of a compute.
func (w *workloadRun) Departed(id int32, at kernel.Time) {
	if w.departing[id]--; w.departing[id] == 0 {
		w.exec.Sent(id, at+1)
	}
}

// Arrived implements nic.MessageSink: a message has arrived the cycle
// after its last flit did.
func (w *workloadRun) Arrived(id int32, at kernel.Time) {
	w.last[id] = max(w.last[id], at)
	if w.arriving[id]--; w.arriving[id] == 0 {
		w.exec.Arrived(id, w.last[id]+1)
	}
}

// RunWorkload runs the workload x on the network, routing, flow control,
// switches and dispersion of cfg (its load, pattern, phases, packet
// length and request–reply are not used), on one thread, until every
// rank has finished. A run whose ranks wait for messages that no rank
// will send ends with an error naming them and what they wait for, one
// that leaves messages no receive took with an error naming them, and a
// deadlocked network with an error wrapping *kernel.DeadlockError.
func RunWorkload(ctx context.Context, cfg Config, x Workload) (WorkloadStats, error) {
	if cfg.Net == nil {
		return WorkloadStats{}, errors.New("topology: missing")
	}
	if err := x.validate(len(cfg.Net.Hosts)); err != nil {
		return WorkloadStats{}, err
	}
	if err := x.W.Check(); err != nil {
		return WorkloadStats{}, err
	}
	cfg.PacketFlits = (x.MTUBytes + x.FlitBytes - 1) / x.FlitBytes
	cfg.shortest = 1
	cfg.Load = 1
	cfg.Warmup, cfg.Measure, cfg.Drain = 0, maxCycles, 0
	cfg.Threads = 1
	cfg.Outstanding = 0
	if err := cfg.ValidateHardware(); err != nil {
		return WorkloadStats{}, err
	}
	p, err := assemble(&cfg)
	if err != nil {
		return WorkloadStats{}, err
	}
	st := WorkloadStats{Sent: x.W.Sent()}
	w := &workloadRun{p: p, x: &x, stats: &st}
	w.exec = workload.NewExecutor(x.W, w, x.CycleNS, x.Repeat)
	p.work = w
	for _, n := range p.nics {
		n.SetSink(w)
	}
	w.exec.Start(0)
	eng := p.parts[0].eng
	stuck := false
	stop := func() bool {
		if w.exec.Done() || w.exec.Err() != nil {
			return true
		}
		stuck = eng.Pending() == 0
		return stuck
	}
	if err := p.runTo(ctx, maxCycles, stop); err != nil {
		return st, fmt.Errorf("workload %s: %w", x.W.Name, err)
	}
	if err := w.exec.Err(); err != nil {
		return st, err
	}
	if err := w.exec.Unmatched(); err != nil && w.exec.Done() {
		return st, err
	}
	if !w.exec.Done() {
		if stuck {
			return st, fmt.Errorf("workload %s: stuck at cycle %d with the network idle: %s", x.W.Name, p.now(), w.exec.Blocked(5))
		}
		return st, fmt.Errorf("workload %s: not finished within %d cycles", x.W.Name, int64(maxCycles))
	}
	st.Completion = w.exec.Completion
	for _, c := range st.Completion {
		st.Cycles = max(st.Cycles, c)
	}
	for _, n := range p.nics {
		st.RouteChanges += n.RouteChanges()
		st.Probes += n.ProbesSent
	}
	return st, nil
}
