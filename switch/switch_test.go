package switching

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"netsim/flit"
	"netsim/flowctl"
	"netsim/kernel"
	"netsim/routing"
)

// fixedRouting returns the same candidates for every packet and keeps VLs.
type fixedRouting struct{ cands []routing.Candidate }

func (r fixedRouting) Name() string                        { return "fixed" }
func (r fixedRouting) VLs() int                            { return 1 }
func (r fixedRouting) SLs() int                            { return 1 }
func (r fixedRouting) Source(_, dst int) (int32, int, int) { return int32(dst), 0, 0 }
func (r fixedRouting) Route(_, _, _, _ int, _ int32, out []routing.Candidate) []routing.Candidate {
	return append(out, r.cands...)
}
func (r fixedRouting) OutVL(_, _, inVL, _, _ int) int { return inVL }

// delivery is one flit leaving the switch.
type delivery struct {
	at       kernel.Time
	port, vl int
	pkt      int32
}

// run is one AcceptRun call: a run of k flits leaving at at.
type run struct {
	at      kernel.Time
	port, k int
	pkt     int32
}

// sink records the flits an output sends, and the runs they come in, and,
// unless it holds them, frees each on arrival.
type sink struct {
	fc   flowctl.Control
	got  *[]delivery
	runs *[]run
	port int
	hold *bool
}

func (k sink) AcceptRun(now kernel.Time, _, vl int, pkt int32, arrive kernel.Time, n int) {
	*k.runs = append(*k.runs, run{at: now, port: k.port, k: n, pkt: pkt})
	for i := 0; i < n; i++ {
		*k.got = append(*k.got, delivery{at: now + kernel.Time(i), port: k.port, vl: vl, pkt: pkt})
	}
	if !*k.hold {
		k.fc.Freed(arrive, vl, n)
	}
}

// harness is one switch with every port wired to a recording sink.
type harness struct {
	t    *testing.T
	eng  *kernel.Engine
	sw   *Switch
	pool flit.Pool
	out  []flowctl.Control
	in   []flowctl.Control
	got  []delivery
	runs []run
	hold bool // sinks keep the flits they receive
	// next is when the link into each lane (port·VLs + VL) is free again.
	next map[int]kernel.Time
	vls  int
}

func (h *harness) Handle(now kernel.Time, ev kernel.Event) { h.sw.Tick(now) }

func newHarness(t *testing.T, ports, vls, buffer int, mode Mode, speedup int, cands ...routing.Candidate) *harness {
	h := &harness{t: t, next: map[int]kernel.Time{}, vls: vls}
	h.eng = kernel.NewEngine(h)
	h.sw = New(Params{Ports: ports, VLs: vls, Buffer: buffer, Mode: mode, Speedup: speedup,
		RoutingDelay: 0, FlitDelay: 1}, h.eng, &h.pool, fixedRouting{cands}, kernel.NewRNG(1), nil)
	fp := flowctl.Params{Kind: flowctl.KindCredit, VLs: vls, Buffer: buffer, Latency: 1, Delay: 1, Rate: speedup}
	for p := 0; p < ports; p++ {
		in, err := h.sw.ConnectIn(p, fp, nil)
		if err != nil {
			t.Fatal(err)
		}
		out, err := flowctl.New(fp)
		if err != nil {
			t.Fatal(err)
		}
		h.in, h.out = append(h.in, in), append(h.out, out)
		h.sw.ConnectOut(p, out, sink{fc: out, got: &h.got, runs: &h.runs, port: p, hold: &h.hold}, 0)
	}
	return h
}

// inject puts a packet of flits into input port, VL vl, as one run
// arriving from now on (or, after an earlier injection on the same lane,
// right after it), and returns its index.
func (h *harness) inject(port, vl, flits int) int32 {
	pi := h.pool.New()
	p := h.pool.Get(pi)
	p.Flits = uint16(flits)
	h.injectRun(port, vl, pi, 0, flits)
	return pi
}

// injectRun puts n flits of packet pi into input port, VL vl, arriving
// back to back from cycle at or when the lane's link is next free.
func (h *harness) injectRun(port, vl int, pi int32, at kernel.Time, n int) {
	now := h.eng.Now()
	lane := port*h.vls + vl
	arrive := max(now, at, h.next[lane])
	h.in[port].Sent(now, vl, arrive, n)
	h.sw.AcceptRun(now, port, vl, pi, arrive, n)
	h.next[lane] = arrive + kernel.Time(n)
}

// consume takes n credits of vl on output port's link, as if flits were
// in the next buffer already.
func (h *harness) consume(port, vl, n int) {
	for i := 0; i < n; i++ {
		h.out[port].Sent(0, vl, 1, 1)
	}
}

func (h *harness) run(until kernel.Time) {
	h.t.Helper()
	if err := h.eng.Run(until); err != nil {
		h.t.Fatal(err)
	}
}

func TestSelectionPrefersPriorityThenFreeSpace(t *testing.T) {
	tests := []struct {
		name     string
		cands    []routing.Candidate
		consumed map[int]int // credits already taken per output port
		want     int
	}{
		{"high over medium", []routing.Candidate{{Port: 1, Priority: routing.Medium}, {Port: 2, Priority: routing.High}}, map[int]int{2: 40}, 2},
		{"medium over low", []routing.Candidate{{Port: 1, Priority: routing.Low}, {Port: 2, Priority: routing.Medium}}, map[int]int{2: 40}, 2},
		{"more free space", []routing.Candidate{{Port: 1, Priority: routing.High}, {Port: 2, Priority: routing.High}}, map[int]int{1: 30, 2: 10}, 2},
		{"more free space, other order", []routing.Candidate{{Port: 1, Priority: routing.High}, {Port: 2, Priority: routing.High}}, map[int]int{1: 10, 2: 30}, 1},
		{"skip a port without room", []routing.Candidate{{Port: 1, Priority: routing.High}, {Port: 2, Priority: routing.Low}}, map[int]int{1: 60}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 3, 1, 64, CutThrough, 1, tc.cands...)
			for p, n := range tc.consumed {
				h.consume(p, 0, n)
			}
			h.inject(0, 0, 8)
			h.run(50)
			if len(h.got) != 8 {
				t.Fatalf("%d flits left, want 8", len(h.got))
			}
			for _, d := range h.got {
				if d.port != tc.want {
					t.Fatalf("flit left on port %d, want %d", d.port, tc.want)
				}
			}
		})
	}
}

// TestSelectionFewestPacketsInProgress: of two High candidates with the
// same free space on the packet's VL, a head takes the output with fewer
// packets in progress. Packet A, 16 flits on VL 0 of which only 8 have
// come, goes to either (a coin) and stays in progress there; packet B on
// VL 1, from another input two cycles later, goes to the other.
func TestSelectionFewestPacketsInProgress(t *testing.T) {
	h := newHarness(t, 4, 2, 64, CutThrough, 1,
		routing.Candidate{Port: 1, Priority: routing.High}, routing.Candidate{Port: 2, Priority: routing.High})
	ports := map[int]int{}
	for round := range 20 {
		h.got = h.got[:0]
		start := kernel.Time(round * 100)
		h.run(start)
		a := h.pool.New()
		h.pool.Get(a).Flits = 16
		h.injectRun(0, 0, a, start, 8)
		h.run(start + 2)
		b := h.inject(3, 1, 16)
		h.run(start + 30)
		h.injectRun(0, 0, a, start+30, 8)
		h.run(start + 80)
		if len(h.got) != 32 {
			t.Fatalf("round %d: %d flits left, want 32", round, len(h.got))
		}
		on := map[int32]int{}
		for _, d := range h.got {
			on[d.pkt] = d.port
		}
		if on[a] == on[b] {
			t.Fatalf("round %d: B left on port %d beside A in progress there, want the other port", round, on[b])
		}
		ports[on[a]]++
	}
	if ports[1] == 0 || ports[2] == 0 {
		t.Errorf("A's ports %v: want both taken in 20 rounds", ports)
	}
}

// TestSelectionBusyPort: two 16-flit packets from two inputs on two VLs
// prefer output 2 (High) to output 3 (Low). The first takes port 2; under
// SelectCredits the second waits for it too (its VL is free and has
// credits), under SelectIdle it leaves at once on port 3, which can start
// it now.
func TestSelectionBusyPort(t *testing.T) {
	for _, tc := range []struct {
		sel        Selection
		secondPort int
		secondLast kernel.Time // when the second packet's last flit leaves, at most
	}{
		{SelectCredits, 2, 40},
		{SelectIdle, 3, 20},
	} {
		t.Run(tc.sel.String(), func(t *testing.T) {
			h := newHarness(t, 4, 2, 64, CutThrough, 1,
				routing.Candidate{Port: 2, Priority: routing.High}, routing.Candidate{Port: 3, Priority: routing.Low})
			h.sw.selection = tc.sel
			first := h.inject(0, 0, 16)
			second := h.inject(1, 1, 16)
			h.run(100)
			if len(h.got) != 32 {
				t.Fatalf("%d flits left, want 32", len(h.got))
			}
			var last kernel.Time
			for _, d := range h.got {
				switch d.pkt {
				case first:
					if d.port != 2 {
						t.Fatalf("first packet left on port %d, want 2", d.port)
					}
				case second:
					if d.port != tc.secondPort {
						t.Fatalf("second packet left on port %d, want %d", d.port, tc.secondPort)
					}
					last = max(last, d.at)
				}
			}
			if last > tc.secondLast {
				t.Errorf("second packet's last flit left at %d, want by %d", last, tc.secondLast)
			}
		})
	}
}

// TestParseSelection: the names of experiment files, and a clear error.
func TestParseSelection(t *testing.T) {
	for _, name := range []string{"credits", "idle"} {
		sel, err := ParseSelection(name)
		if err != nil || sel.String() != name {
			t.Errorf("ParseSelection(%q) = %v, %v", name, sel, err)
		}
	}
	if _, err := ParseSelection("greedy"); err == nil || !strings.Contains(err.Error(), `unknown selection function "greedy" (known: credits, idle)`) {
		t.Errorf("ParseSelection(greedy): %v", err)
	}
}

// TestRandomTieBreak: equal candidates are chosen at random, each about
// half the time.
func TestRandomTieBreak(t *testing.T) {
	h := newHarness(t, 3, 1, 64, CutThrough, 1,
		routing.Candidate{Port: 1, Priority: routing.High}, routing.Candidate{Port: 2, Priority: routing.High})
	// One 1-flit packet at a time, so both outputs are always equal.
	count := map[int]int{}
	for i := 0; i < 400; i++ {
		h.got = h.got[:0]
		h.inject(0, 0, 1)
		h.run(h.eng.Now() + 10)
		count[h.got[0].port]++
	}
	if count[1] < 150 || count[2] < 150 {
		t.Fatalf("tie broken %v, want about 200 each", count)
	}
}

// TestCutThroughWaitsForRoomWormholeDoesNot: with 3 free credits
// downstream, an 8-flit packet does not start under cut-through but sends
// 3 flits under wormhole.
func TestCutThroughWaitsForRoomWormholeDoesNot(t *testing.T) {
	for _, tc := range []struct {
		mode Mode
		want int
	}{{CutThrough, 0}, {Wormhole, 3}} {
		h := newHarness(t, 2, 1, 8, tc.mode, 1, routing.Candidate{Port: 1, Priority: routing.High})
		h.hold = true
		h.consume(1, 0, 5)
		h.inject(0, 0, 8)
		h.run(50)
		if len(h.got) != tc.want {
			t.Errorf("mode %d: %d flits sent, want %d", tc.mode, len(h.got), tc.want)
		}
	}
}

// TestOneFlitPerOutputPerCycle: packets from two inputs to one output
// leave one flit per cycle, a whole packet at a time, alternating inputs.
func TestOneFlitPerOutputPerCycle(t *testing.T) {
	h := newHarness(t, 3, 1, 64, CutThrough, 1, routing.Candidate{Port: 2, Priority: routing.High})
	var pkts [2][]int32
	for i := 0; i < 4; i++ {
		pkts[0] = append(pkts[0], h.inject(0, 0, 4))
		pkts[1] = append(pkts[1], h.inject(1, 0, 4))
	}
	h.run(100)
	if len(h.got) != 32 {
		t.Fatalf("%d flits sent, want 32", len(h.got))
	}
	from := map[int32]int{}
	for i, p := range pkts {
		for _, pi := range p {
			from[pi] = i
		}
	}
	for i, d := range h.got {
		if i > 0 && d.at != h.got[i-1].at+1 {
			t.Fatalf("flit %d left at %d, previous at %d: the output must send one flit per cycle", i, d.at, h.got[i-1].at)
		}
		if i%4 != 0 && d.pkt != h.got[i-1].pkt {
			t.Fatalf("flit %d interleaves packets", i)
		}
		if i%4 == 0 && i > 0 && from[d.pkt] == from[h.got[i-1].pkt] {
			t.Fatalf("packet %d came from input %d again: round-robin should alternate", i/4, from[d.pkt])
		}
	}
}

// TestSpeedup: an input holding packets for two outputs on two VLs
// forwards one flit per cycle with speedup 1 — it feeds one run at a time —
// and two with speedup 2, where it feeds both runs at once.
func TestSpeedup(t *testing.T) {
	for _, speedup := range []int{1, 2} {
		h := newHarness(t, 3, 2, 64, CutThrough, speedup)
		h.sw.route = vlRouting{}
		h.inject(0, 0, 16)
		h.inject(0, 1, 16)
		h.run(100)
		last := h.got[len(h.got)-1].at
		first := h.got[0].at
		if want := kernel.Time(32/speedup - 1); last-first != want {
			t.Errorf("speedup %d: 32 flits left over %d cycles, want %d", speedup, last-first+1, want+1)
		}
		if len(h.runs) != 2 || h.runs[0].k != 16 || h.runs[1].k != 16 {
			t.Fatalf("speedup %d: runs %+v, want two runs of 16", speedup, h.runs)
		}
		if gap, want := h.runs[1].at-h.runs[0].at, kernel.Time(16*(2-speedup)); gap != want {
			t.Errorf("speedup %d: the second run starts %d cycles after the first, want %d", speedup, gap, want)
		}
	}
}

// TestRunArrivesAsOneRun: an uncontested packet leaves as one run, its
// flits back to back, in one call to the receiver; under wormhole with
// fewer credits than flits, each run is as long as the credits held when it
// starts, and as the credits come back one per cycle the runs follow each
// other without a gap.
func TestRunArrivesAsOneRun(t *testing.T) {
	for _, tc := range []struct {
		name     string
		mode     Mode
		consumed int // credits of the output taken beforehand, of 64
		want     []int
	}{
		{"cut-through", CutThrough, 0, []int{16}},
		// 8 credits at first; the credit of the flit sent at t+i is back at
		// t+i+3 (1 cycle to arrive, 1 back; the sink frees on arrival), so
		// the second run, at 8, finds 6 + 1 credits and the third, at 15, 1.
		{"wormhole, 8 credits", Wormhole, 56, []int{8, 7, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 2, 1, 64, tc.mode, 1, routing.Candidate{Port: 1, Priority: routing.High})
			h.consume(1, 0, tc.consumed)
			pi := h.inject(0, 0, 16)
			h.run(100)
			if len(h.got) != 16 {
				t.Fatalf("%d flits sent, want 16", len(h.got))
			}
			for i, d := range h.got {
				if d.at != h.got[0].at+kernel.Time(i) || d.pkt != pi {
					t.Fatalf("flit %d left at %d, want %d: a run goes back to back", i, d.at, h.got[0].at+kernel.Time(i))
				}
			}
			var ks []int
			for _, r := range h.runs {
				ks = append(ks, r.k)
			}
			if len(ks) != len(tc.want) {
				t.Fatalf("runs %v, want %v", ks, tc.want)
			}
			for i := range ks {
				if ks[i] != tc.want[i] {
					t.Fatalf("runs %v, want %v", ks, tc.want)
				}
			}
		})
	}
}

// TestStalledPacketLetsOthersRun: under wormhole, an output with two
// packets in progress keeps sending the packet of its last run while that
// one can move, turns to the other when it stalls, and takes a new grant
// when no packet in progress can move — all at run granularity.
func TestStalledPacketLetsOthersRun(t *testing.T) {
	h := newHarness(t, 3, 2, 64, Wormhole, 1, routing.Candidate{Port: 2, Priority: routing.High})
	a, b := h.pool.New(), h.pool.New()
	h.pool.Get(a).Flits, h.pool.Get(b).Flits = 8, 8
	h.injectRun(0, 0, a, 0, 4)  // A: flits at 0..3,
	h.injectRun(0, 0, a, 5, 4)  // then at 5..8
	h.injectRun(1, 1, b, 1, 2)  // B (another input and VL): at 1..2,
	h.injectRun(1, 1, b, 6, 2)  // at 6..7,
	h.injectRun(1, 1, b, 30, 4) // and at 30..33
	h.run(100)
	want := []run{
		{at: 0, port: 2, k: 4, pkt: a}, // A granted
		{at: 4, port: 2, k: 2, pkt: b}, // A stalls (next flit at 5): B granted
		{at: 6, port: 2, k: 2, pkt: b}, // both can move: B, the last run's packet, continues
		{at: 8, port: 2, k: 4, pkt: a}, // B stalls until 30: A's rest
		{at: 30, port: 2, k: 4, pkt: b},
	}
	if len(h.runs) != len(want) {
		t.Fatalf("runs %+v, want %+v", h.runs, want)
	}
	for i := range want {
		if h.runs[i] != want[i] {
			t.Fatalf("run %d: %+v, want %+v (all: %+v)", i, h.runs[i], want[i], h.runs)
		}
	}
}

// TestLaneFeedsOneRunAtATime: with speedup 2 an input may feed two runs,
// but not two from one lane: a packet behind another in a FIFO starts only
// after the other's tail has left, even when it arrives after the lane
// emptied (its flits were all committed to a run).
func TestLaneFeedsOneRunAtATime(t *testing.T) {
	h := newHarness(t, 4, 1, 64, CutThrough, 2)
	h.sw.route = dlidRouting{}
	c := h.injectTo(1, 1, 10) // input 1 holds output 1 over 0..9
	h.run(1)
	a := h.injectTo(0, 1, 16) // arrives at 1..16, waits for output 1 until 10, leaves over 10..25
	h.run(17)
	b := h.injectTo(0, 2, 4) // same lane, arrives at 17..20 while A is still leaving
	h.run(100)
	want := []run{{0, 1, 10, c}, {10, 1, 16, a}, {26, 2, 4, b}}
	if len(h.runs) != len(want) {
		t.Fatalf("runs %+v, want %+v", h.runs, want)
	}
	for i := range want {
		if h.runs[i] != want[i] {
			t.Fatalf("run %d: %+v, want %+v", i, h.runs[i], want[i])
		}
	}
}

// TestInputCreditsRamp: a run of 16 flits freed from an input buffer
// returns its credits to the upstream sender one per cycle, each one link
// latency after its flit left.
func TestInputCreditsRamp(t *testing.T) {
	h := newHarness(t, 2, 1, 64, CutThrough, 1, routing.Candidate{Port: 1, Priority: routing.High})
	h.inject(0, 0, 16) // arrives over 0..15, leaves as one run over 0..15
	h.run(1)
	if len(h.runs) != 1 || h.runs[0].at != 0 || h.runs[0].k != 16 {
		t.Fatalf("runs %+v, want one run of 16 at 0", h.runs)
	}
	for now := kernel.Time(0); now <= 20; now++ {
		want := 48 + int(min(now, 16)) // the flit leaving at i frees its credit at i+1
		if got := h.in[0].Free(now, 0); got != want {
			t.Fatalf("cycle %d: upstream sees %d credits, want %d", now, got, want)
		}
	}
}

// dlidRouting sends a packet to the port named by its DLID.
type dlidRouting struct{ fixedRouting }

func (dlidRouting) Route(_, _, _, _ int, dlid int32, out []routing.Candidate) []routing.Candidate {
	return append(out, routing.Candidate{Port: dlid, Priority: routing.High})
}

// injectTo injects a packet of flits into port's VL 0 for output port to.
func (h *harness) injectTo(port, to, flits int) int32 {
	pi := h.pool.New()
	p := h.pool.Get(pi)
	p.Flits, p.DLID = uint16(flits), int32(to)
	h.injectRun(port, 0, pi, 0, flits)
	return pi
}

// vlRouting sends VL v to port v+1.
type vlRouting struct{ fixedRouting }

func (vlRouting) Route(_, _, inVL, _ int, _ int32, out []routing.Candidate) []routing.Candidate {
	return append(out, routing.Candidate{Port: int32(inVL + 1), Priority: routing.High})
}

// TestNoRouteStopsTheRun: a routing with no candidate for a packet stops
// the run with an error naming the switch, instead of panicking.
func TestNoRouteStopsTheRun(t *testing.T) {
	h := newHarness(t, 2, 1, 8, CutThrough, 1)
	h.inject(0, 0, 1)
	if err := h.eng.Run(50); err != kernel.ErrStopped {
		t.Fatalf("Run returned %v, want ErrStopped", err)
	}
	if h.sw.Err() == nil || !strings.Contains(h.sw.Err().Error(), "no output port at switch") {
		t.Fatalf("Err() = %v", h.sw.Err())
	}
}

// TestEligibleSkipsBusyPorts: eligibleOldestFirst leaves out all the
// lanes of an input port that feeds a run (here port 12, lanes 60–64,
// which straddle two words of the waiting bitmap) whatever the pointer,
// keeps the others oldest first, then in cyclic lane order from the
// pointer, and brings next down to the run's end; the busy port's lanes
// sleep until then, and wake brings them back at the run's end.
func TestEligibleSkipsBusyPorts(t *testing.T) {
	const now, vls, ports = 100, 5, 30
	newSwitch := func() *Switch {
		s := &Switch{
			lanes:     make([]lane, ports*vls),
			waiting:   make([]uint64, 3),
			sleep:     make([]uint64, 3*sleepSlots),
			elig:      make([]uint32, ports*vls),
			parked:    make([]uint64, 3),
			parks:     make([]park, ports*vls),
			times:     make([]inRun, ports*2),
			vls:       vls,
			slots:     1,
			lpp:       vls,
			lanePorts: lanePorts(vls),
			speedup:   1,
			woke:      now,
		}
		for _, li := range []int32{0, 5, 61, 63, 64, 65, 100, 120, 149} {
			s.setWaiting(li, true)
			s.elig[li], s.lanes[li].since = now-10, now-10
		}
		s.setWaiting(100, false)
		s.times[12*2+1] = inRun{end: now + 3, lane: 61} // port 12 feeds a run
		s.elig[5] = now + 7                             // lane 5 not routed yet
		s.lanes[120].since = now - 20                   // the oldest head
		return s
	}
	for _, tc := range []struct {
		from int32
		want []int32
	}{
		{0, []int32{120, 0, 65, 149}},
		{6, []int32{120, 65, 149, 0}},
		{64, []int32{120, 65, 149, 0}},
		{121, []int32{120, 149, 0, 65}},
		{149, []int32{120, 149, 0, 65}},
	} {
		s := newSwitch()
		s.ptr = tc.from
		next := kernel.Time(now + 50)
		var got []int32
		for _, key := range s.eligibleOldestFirst(now, &next) {
			got = append(got, laneOf(key))
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("from %d: %v, want %v", tc.from, got, tc.want)
		}
		if next != now+3 {
			t.Errorf("from %d: next %d, want %d (the busy port's run end)", tc.from, next, now+3)
		}
		asleep := func() []int32 {
			var lanes []int32
			for li := int32(60); li < 65; li++ {
				for slot := int32(0); slot < sleepSlots; slot++ {
					if s.sleep[slot*3+li/64]&(1<<(li%64)) != 0 {
						lanes = append(lanes, li)
					}
				}
			}
			return lanes
		}
		if got := asleep(); fmt.Sprint(got) != "[61 63 64]" {
			t.Errorf("from %d: lanes %v of the busy port asleep, want [61 63 64]", tc.from, got)
		}
		if at := s.wake(now + 2); at != now+3 {
			t.Errorf("from %d: wake at %d gives the next slot at %d, want %d", tc.from, now+2, at, now+3)
		}
		if at := s.wake(now + 3); at != kernel.Never || len(asleep()) != 0 || s.waiting[0]>>60 != 0b1010 || s.waiting[1]&1 != 1 {
			t.Errorf("from %d: after waking at the run's end: next slot %d, lanes %v asleep, want none, and 61, 63 and 64 waiting", tc.from, at, asleep())
		}
	}
}

// TestOutPortHotLine: what moving a flit of a packet in progress reads from
// an output port fits in its first cache line.
func TestOutPortHotLine(t *testing.T) {
	var o outPort
	if end := unsafe.Offsetof(o.toPort) + unsafe.Sizeof(o.toPort); end > 64 {
		t.Fatalf("the hot fields end at byte %d, beyond the first cache line", end)
	}
}

// TestRecordSizes: a lane and an output port are one cache line each, and
// an output's selection record half of one, so in the slabs (which start
// on page boundaries) none straddles two lines.
func TestRecordSizes(t *testing.T) {
	if n := unsafe.Sizeof(outSel{}); n != 32 {
		t.Errorf("outSel is %d bytes, want 32", n)
	}
	if n := unsafe.Sizeof(lane{}); n != 64 {
		t.Errorf("lane is %d bytes, want 64", n)
	}
	if n := unsafe.Sizeof(outPort{}); n != 64 {
		t.Errorf("outPort is %d bytes, want 64", n)
	}
}

// slRouting sends a packet with SL s to port s+1 on VL s mod 2, whatever
// its VL.
type slRouting struct{ fixedRouting }

func (slRouting) Route(_, _, _, sl int, _ int32, out []routing.Candidate) []routing.Candidate {
	return append(out, routing.Candidate{Port: int32(sl + 1), Priority: routing.High})
}
func (slRouting) OutVL(_, _, _, sl, _ int) int { return sl % 2 }

// TestSLReachesTheRouting: the switch hands the packet's SL to Route and
// OutVL; packets on one input VL leave by their SLs.
func TestSLReachesTheRouting(t *testing.T) {
	h := newHarness(t, 4, 2, 64, CutThrough, 1)
	h.sw.route = slRouting{}
	want := map[int32][2]int{} // packet → port, VL
	for sl := range 3 {
		pi := h.inject(0, 0, 4)
		h.pool.Get(pi).SL = uint8(sl)
		want[pi] = [2]int{sl + 1, sl % 2}
	}
	h.run(100)
	if len(h.got) != 12 {
		t.Fatalf("%d flits left, want 12", len(h.got))
	}
	for _, d := range h.got {
		if w := want[d.pkt]; d.port != w[0] || d.vl != w[1] {
			t.Fatalf("packet %d left on port %d VL %d, want port %d VL %d", d.pkt, d.port, d.vl, w[0], w[1])
		}
	}
}
