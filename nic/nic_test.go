package nic

import (
	"slices"
	"testing"

	"netsim/flit"
	"netsim/flowctl"
	"netsim/kernel"
	"netsim/routing"
	"netsim/traffic"
)

// toDst sends every packet to host dst and puts it on VL dst mod 2.
type toDst struct{ dst int }

func (toDst) Name() string                          { return "to" }
func (p toDst) Dest(int, *kernel.RNG) int           { return p.dst }
func (vlByDst) Name() string                        { return "vl" }
func (vlByDst) VLs() int                            { return 2 }
func (vlByDst) SLs() int                            { return 16 }
func (vlByDst) Source(_, dst int) (int32, int, int) { return int32(dst), 10 + dst, dst % 2 }
func (vlByDst) OutVL(_, _, inVL, _, _ int) int      { return inVL }
func (vlByDst) Route(_, _, _, _ int, _ int32, out []routing.Candidate) []routing.Candidate {
	return out
}

type vlByDst struct{}

// wire records the flits a NIC injects, with their VL and their packet's
// SL, and the runs they come in.
type wire struct {
	pool *flit.Pool
	sent []kernel.Time
	vls  []int
	sls  []int
	runs []int
}

func (w *wire) AcceptRun(now kernel.Time, _, vl int, pkt int32, _ kernel.Time, k int) {
	for i := 0; i < k; i++ {
		w.sent = append(w.sent, now+kernel.Time(i))
		w.vls = append(w.vls, vl)
		w.sls = append(w.sls, int(w.pool.Get(pkt).SL))
	}
	w.runs = append(w.runs, k)
}

type model struct {
	n *NIC
}

func (m *model) Handle(now kernel.Time, ev kernel.Event) {
	switch ev.Kind {
	case 0:
		m.n.Tick(now)
	case 1:
		m.n.Generate(now)
	}
}

func newNIC(t *testing.T, load float64, flits, buffer int, dst int) (*NIC, *kernel.Engine, *wire, flowctl.Control, *Meter) {
	t.Helper()
	m := &model{}
	eng := kernel.NewEngine(m)
	proc, err := traffic.NewBernoulli(load, flits)
	if err != nil {
		t.Fatal(err)
	}
	var pool flit.Pool
	meter := &Meter{From: 0, To: kernel.Never}
	n := New(Params{Host: 0, CutThrough: true, VLs: 2, PacketFlits: flits, LinkLatency: 1, TickKind: 0, GenKind: 1},
		eng, &pool, meter, vlByDst{}, toDst{dst}, proc, kernel.NewRNG(1))
	fc, err := flowctl.New(flowctl.Params{Kind: flowctl.KindCredit, VLs: 2, Buffer: buffer, Latency: 1, Delay: 1, Rate: 1})
	if err != nil {
		t.Fatal(err)
	}
	w := &wire{pool: &pool}
	n.ConnectOut(fc, w, 0)
	m.n = n
	return n, eng, w, fc, meter
}

// TestOneFlitPerCycle: a packet generated while the NIC sends a run waits
// for the run's end: the link carries one flit per cycle whatever the order
// of the NIC's events.
func TestOneFlitPerCycle(t *testing.T) {
	n, eng, w, _, _ := newNIC(t, 1e-9, 4, 64, 1) // practically no own traffic
	n.generating = true
	n.Generate(0) // a 4-flit packet, injected in cycles 0..3 as one run
	if err := eng.Run(2); err != nil {
		t.Fatal(err)
	}
	// In cycle 2 the flits of cycles 2 and 3 are still in the source queue.
	if got := n.Unsent(2); got != 2 {
		t.Fatalf("Unsent(2) = %d, want 2", got)
	}
	eng.Schedule(2, kernel.Event{Kind: 1}) // another packet, mid-run
	if err := eng.Run(20); err != nil {
		t.Fatal(err)
	}
	if len(w.sent) != 8 {
		t.Fatalf("%d flits sent, want 8", len(w.sent))
	}
	for i := 1; i < len(w.sent); i++ {
		if w.sent[i] != w.sent[i-1]+1 {
			t.Fatalf("flits injected in cycles %v, want one per cycle back to back", w.sent)
		}
	}
	if len(w.runs) != 2 || w.runs[0] != 4 || w.runs[1] != 4 {
		t.Fatalf("runs %v, want one run of 4 per packet", w.runs)
	}
}

// TestFullVLDoesNotBlockOthers: when the switch buffer of one VL is full,
// packets of the other VL queued behind them still go.
func TestFullVLDoesNotBlockOthers(t *testing.T) {
	n, eng, w, fc, _ := newNIC(t, 1e-9, 4, 8, 1) // destination 1: VL 1
	for i := 0; i < 8; i++ {
		fc.Sent(0, 1, 1, 1) // VL 1 of the switch buffer is full and stays full
	}
	n.generating = true
	n.Generate(0) // VL 1, blocked
	n.Generate(0)
	n.pattern = toDst{2}
	n.Generate(0) // VL 0, behind them
	if err := eng.Run(100); err != nil {
		t.Fatal(err)
	}
	if len(w.vls) != 4 {
		t.Fatalf("%d flits injected, want the 4 of the VL-0 packet", len(w.vls))
	}
	for i, vl := range w.vls {
		if vl != 0 {
			t.Fatal("a flit went on the full VL 1")
		}
		if w.sls[i] != 12 {
			t.Fatalf("a flit's packet has SL %d, want Source's 12", w.sls[i])
		}
	}
	if n.Queued() != 2 {
		t.Fatalf("%d packets queued, want the 2 blocked on VL 1", n.Queued())
	}
}

// receiving returns a NIC whose input link has room for a 16-flit packet
// on VL 1, and that packet (created at 10, measured), to be delivered to
// it with AcceptRun(48, 0, 1, pi, …).
func receiving(t *testing.T) (*NIC, *kernel.Engine, *Meter, flowctl.Control, int32) {
	t.Helper()
	n, eng, _, _, meter := newNIC(t, 1e-9, 16, 64, 1)
	down, err := n.ConnectIn(flowctl.Params{Kind: flowctl.KindCredit, VLs: 2, Buffer: 16, Latency: 1, Delay: 2, Rate: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pi := n.pool.New()
	p := n.pool.Get(pi)
	p.Flits, p.Created, p.Measured = 16, 10, true
	down.Reserve(48, 1, 16)
	return n, eng, meter, down, pi
}

// TestEjectionTakesRuns: the NIC counts every flit of a run, times the
// packet's latency to its tail — the last flit of the run that ends it —
// and frees its buffer as the flits arrive, so the sender's credits come
// back one per cycle.
func TestEjectionTakesRuns(t *testing.T) {
	n, _, meter, down, pi := receiving(t)
	n.AcceptRun(48, 0, 1, pi, 50, 10) // arrives over 50..59
	n.AcceptRun(60, 0, 1, pi, 62, 6)  // over 62..67: the tail at 67
	if meter.Ejected != 16 || meter.Delivered != 1 || n.pool.Live() != 0 {
		t.Fatalf("ejected %d flits, %d packets delivered, %d live; want 16, 1, 0", meter.Ejected, meter.Delivered, n.pool.Live())
	}
	if got := meter.LatencyAvg(); got != 57 {
		t.Fatalf("latency %v, want 67 − 10 = 57", got)
	}
	for _, c := range []struct {
		now  kernel.Time
		free int
	}{{50, 0}, {51, 1}, {55, 5}, {60, 10}, {63, 11}, {68, 16}} {
		if got := down.Free(c.now, 1); got != c.free {
			t.Errorf("cycle %d: sender sees %d credits, want %d", c.now, got, c.free)
		}
	}
}

// TestInjectionRunsFollowCredits: without a reservation (wormhole), a run
// is as long as the credits the NIC holds when it starts; credits coming
// back one per cycle let it continue one flit per cycle, without a gap.
func TestInjectionRunsFollowCredits(t *testing.T) {
	n, eng, w, fc, _ := newNIC(t, 1e-9, 16, 8, 1) // 8 credits on VL 1
	n.cutThrough = false
	n.generating = true
	n.Generate(0)
	if err := eng.Run(20); err != nil {
		t.Fatal(err)
	}
	if len(w.runs) != 1 || w.runs[0] != 8 {
		t.Fatalf("runs %v before any credit came back, want [8]", w.runs)
	}
	// The switch frees the 8 flits over 20..27; the credits are back over
	// 21..28, and the NIC, waiting on the link, is told.
	if at := fc.Freed(20, 1, 8); at != 21 {
		t.Fatalf("Freed reported %d to the waiting NIC, want 21", at)
	}
	n.Unblock(0, 21)
	if err := eng.Run(100); err != nil {
		t.Fatal(err)
	}
	if len(w.sent) != 16 {
		t.Fatalf("%d flits sent, want 16", len(w.sent))
	}
	for i, at := range w.sent[8:] {
		if want := kernel.Time(21 + i); at != want {
			t.Fatalf("flit %d sent at %d, want %d", 8+i, at, want)
		}
	}
}

// TestBlockedNICWakesWhenPacketFits: a cut-through NIC whose packet waits
// for credits wakes when the last credit it needs is back, not for each
// credit of the ramp nor for news of another VL or a packet queued behind
// the waiting one, and still sends in the first cycle it can.
func TestBlockedNICWakesWhenPacketFits(t *testing.T) {
	n, eng, w, fc, _ := newNIC(t, 1e-9, 16, 16, 1) // 16-flit packets on VL 1, 16 credits
	fc.Reserve(0, 1, 16)                           // VL 1 of the switch buffer is full
	n.generating = true
	n.Generate(0)
	if err := eng.Run(20); err != nil {
		t.Fatal(err)
	}
	if len(w.sent) != 0 || !n.blocked {
		t.Fatalf("%d flits sent, blocked %v; want none sent, blocked", len(w.sent), n.blocked)
	}
	before := eng.Events()
	// The switch frees the buffer over 20..35; the credits are back over
	// 21..36, the last one the packet needs at 36.
	n.Unblock(1, fc.Freed(20, 1, 16))
	n.Unblock(0, 21)                        // VL 0: no packet waits there
	eng.Schedule(25, kernel.Event{Kind: 1}) // a packet behind the waiting one
	if err := eng.Run(100); err != nil {
		t.Fatal(err)
	}
	if len(w.sent) != 16 || w.sent[0] != 36 || n.Queued() != 1 {
		t.Fatalf("%d flits sent, the first in cycle %v, %d packets queued; want 16 from cycle 36, 1 queued", len(w.sent), w.sent, n.Queued())
	}
	// Events: the generation at 25, the wake-up at 36 and the one at the
	// run's end (52), where the second packet finds no credit. A wake-up
	// per credit would make 16 more.
	if got := eng.Events() - before; got > 4 {
		t.Errorf("%d events from 20 to 100, want at most 4 (no wake-up per credit)", got)
	}
}

// oneVL is a routing that starts every packet on VL 0 of 1.
type oneVL struct{ vlByDst }

func (oneVL) VLs() int                            { return 1 }
func (oneVL) Source(_, dst int) (int32, int, int) { return int32(dst), 0, 0 }

// TestDynamicVLChoice: under dynamic VL choice a NIC starts each packet on
// the VL of its class with the most credits (the lower of equals), so one
// class over 2 VLs of 8 credits takes 4 packets of 4 flits before it stops
// (VLs 0, 1, 0, 1), where the static choice stops after 2 on VL 0.
func TestDynamicVLChoice(t *testing.T) {
	for _, dyn := range []bool{false, true} {
		m := &model{}
		eng := kernel.NewEngine(m)
		proc, err := traffic.NewBernoulli(1, 4)
		if err != nil {
			t.Fatal(err)
		}
		var classes *routing.Classes
		if dyn {
			if classes, err = routing.NewClasses(1, 2); err != nil {
				t.Fatal(err)
			}
		}
		var pool flit.Pool
		n := New(Params{Host: 0, CutThrough: true, VLs: 2, PacketFlits: 4, LinkLatency: 1, TickKind: 0, GenKind: 1, Classes: classes},
			eng, &pool, &Meter{From: 0, To: kernel.Never}, oneVL{}, toDst{1}, proc, kernel.NewRNG(1))
		fc, err := flowctl.New(flowctl.Params{Kind: flowctl.KindCredit, VLs: 2, Buffer: 8, Latency: 1, Delay: 1, Rate: 1})
		if err != nil {
			t.Fatal(err)
		}
		w := &wire{pool: &pool}
		n.ConnectOut(fc, w, 0)
		m.n = n
		n.Start(0)
		if err := eng.Run(100); err != nil {
			t.Fatal(err)
		}
		var starts []int
		for i := 0; i < len(w.vls); i += 4 {
			starts = append(starts, w.vls[i])
		}
		want := []int{0, 0}
		if dyn {
			want = []int{0, 1, 0, 1}
		}
		if !slices.Equal(starts, want) {
			t.Errorf("dynamic %v: packets on VLs %v, want %v", dyn, starts, want)
		}
	}
}
