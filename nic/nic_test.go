package nic

import (
	"testing"

	"netsim/flit"
	"netsim/flowctl"
	"netsim/kernel"
	"netsim/routing"
	"netsim/traffic"
)

// toDst sends every packet to host dst and puts it on VL dst mod 2.
type toDst struct{ dst int }

func (toDst) Name() string                     { return "to" }
func (p toDst) Dest(int, *kernel.RNG) int      { return p.dst }
func (vlByDst) Name() string                   { return "vl" }
func (vlByDst) VLs() int                       { return 2 }
func (vlByDst) Source(_, dst int) (int32, int) { return int32(dst), dst % 2 }
func (vlByDst) OutVL(_, _, inVL, _ int) int    { return inVL }
func (vlByDst) Route(_, _, _ int, _ int32, out []routing.Candidate) []routing.Candidate {
	return out
}

type vlByDst struct{}

// wire records the flits a NIC injects.
type wire struct {
	sent []kernel.Time
	vls  []int
}

func (w *wire) Accept(now kernel.Time, _, vl int, _ int32, _ kernel.Time) {
	w.sent = append(w.sent, now)
	w.vls = append(w.vls, vl)
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
	w := &wire{}
	n.ConnectOut(fc, w, 0)
	m.n = n
	return n, eng, w, fc, meter
}

// TestOneFlitPerCycle: a packet generated in a cycle after the NIC has
// already sent that cycle's flit waits for the next cycle: the link carries
// one flit per cycle whatever the order of the NIC's events.
func TestOneFlitPerCycle(t *testing.T) {
	n, eng, w, _, _ := newNIC(t, 1e-9, 4, 64, 1) // practically no own traffic
	n.generating = true
	n.Generate(0) // a 4-flit packet, injected in cycles 0..3
	if err := eng.Run(2); err != nil {
		t.Fatal(err)
	}
	// The tick of cycle 2 is already queued; a generation event queued now
	// comes after it in cycle 2.
	eng.Schedule(2, kernel.Event{Kind: 1})
	if err := eng.Run(20); err != nil {
		t.Fatal(err)
	}
	if len(w.sent) != 8 {
		t.Fatalf("%d flits sent, want 8", len(w.sent))
	}
	for i := 1; i < len(w.sent); i++ {
		if w.sent[i] == w.sent[i-1] {
			t.Fatalf("two flits injected in cycle %d: %v", w.sent[i], w.sent)
		}
	}
}

// TestFullVLDoesNotBlockOthers: when the switch buffer of one VL is full,
// packets of the other VL queued behind them still go.
func TestFullVLDoesNotBlockOthers(t *testing.T) {
	n, eng, w, fc, _ := newNIC(t, 1e-9, 4, 8, 1) // destination 1: VL 1
	for i := 0; i < 8; i++ {
		fc.Sent(0, 1, 1) // VL 1 of the switch buffer is full and stays full
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
	for _, vl := range w.vls {
		if vl != 0 {
			t.Fatal("a flit went on the full VL 1")
		}
	}
	if n.Queued() != 2 {
		t.Fatalf("%d packets queued, want the 2 blocked on VL 1", n.Queued())
	}
}
