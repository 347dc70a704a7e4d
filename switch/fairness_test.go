package switching

import (
	"testing"

	"netsim/flit"
	"netsim/flowctl"
	"netsim/kernel"
)

// drainSink records the packets an output sends and frees their flits in
// the next buffer no faster than one every period cycles, so the output's
// flow control pushes back when period > 1.
type drainSink struct {
	fc     flowctl.Control
	sw     *Switch
	period kernel.Time
	held   []kernel.Time // arrival of each flit not yet freed, in order
	lastAt kernel.Time   // when the last flit was freed
	pkts   *[]int32      // packets, in the order their first flit left
	seen   map[int32]bool
}

func (k *drainSink) AcceptRun(now kernel.Time, _, _ int, pkt int32, arrive kernel.Time, n int) {
	if !k.seen[pkt] {
		k.seen[pkt] = true
		*k.pkts = append(*k.pkts, pkt)
	}
	for i := 0; i < n; i++ {
		k.held = append(k.held, arrive+kernel.Time(i))
	}
}

// drain frees the flit at the front of the buffer if it has arrived by now
// and period cycles have passed since the last one.
func (k *drainSink) drain(now kernel.Time) {
	if len(k.held) == 0 || k.held[0] > now || now < k.lastAt+k.period {
		return
	}
	k.held = k.held[1:]
	k.lastAt = now
	if t := k.fc.Freed(now, 0, 1); t != kernel.Never {
		k.sw.Unblock(0, t)
	}
}

// fairnessCase is n saturated inputs sending packets to one output.
type fairnessCase struct {
	name    string
	mode    Mode
	kind    flowctl.Kind
	inputs  int
	flits   int         // per packet
	period  kernel.Time // cycles per flit the output's next buffer frees
	speedup int
	// background adds an input sending packets of that many flits to an
	// output of its own, so the switch grants other packets meanwhile.
	background int
}

// grantSequence runs the case for cycles and returns the input of each
// packet the output sent, in order.
func grantSequence(t *testing.T, tc fairnessCase, cycles kernel.Time) []int {
	t.Helper()
	const buffer = 64
	n := tc.inputs
	h := &harness{t: t, next: map[int]kernel.Time{}, vls: 1}
	h.eng = kernel.NewEngine(h)
	h.sw = New(Params{Ports: n + 2, VLs: 1, Buffer: buffer, Mode: tc.mode, Speedup: tc.speedup,
		RoutingDelay: 1, FlitDelay: 1}, h.eng, &h.pool, dlidRouting{}, kernel.NewRNG(1), nil)
	fp := flowctl.Params{Kind: tc.kind, VLs: 1, Buffer: buffer, Latency: 1, Delay: 1, Rate: tc.speedup,
		StopMark: 48, GoMark: 32}
	for p := 0; p < n+2; p++ {
		in, err := h.sw.ConnectIn(p, fp, nil)
		if err != nil {
			t.Fatal(err)
		}
		h.in = append(h.in, in)
	}
	out, err := flowctl.New(fp)
	if err != nil {
		t.Fatal(err)
	}
	var pkts []int32
	drain := &drainSink{fc: out, sw: h.sw, period: tc.period, pkts: &pkts, seen: map[int32]bool{}, lastAt: -1 << 30}
	h.sw.ConnectOut(n, out, drain, 0)
	bgOut, err := flowctl.New(fp)
	if err != nil {
		t.Fatal(err)
	}
	var bgRuns []run
	var bgGot []delivery
	h.sw.ConnectOut(n+1, bgOut, sink{fc: bgOut, got: &bgGot, runs: &bgRuns, port: n + 1, hold: &h.hold}, 0)
	from := map[int32]int{}
	for now := kernel.Time(0); now < cycles; now++ {
		for p := 0; p < n; p++ {
			// The upstream sends a packet whenever its link is free and
			// flow control admits all of it (so a STOP/GO sender never
			// overruns the buffer).
			if h.next[p] <= now && h.in[p].Free(now, 0) >= tc.flits {
				pi := h.pool.New()
				h.pool.Get(pi).Flits = uint16(tc.flits)
				h.pool.Get(pi).DLID = int32(n)
				from[pi] = p
				h.injectRun(p, 0, pi, now, tc.flits)
			}
		}
		if bg := n + 1; tc.background > 0 && h.next[bg] <= now && h.in[bg].Free(now, 0) >= tc.background {
			pi := h.pool.New()
			h.pool.Get(pi).Flits = uint16(tc.background)
			h.pool.Get(pi).DLID = int32(bg)
			h.injectRun(bg, 0, pi, now, tc.background)
		}
		bgGot, bgRuns = bgGot[:0], bgRuns[:0]
		drain.drain(now)
		h.run(now + 1)
	}
	seq := make([]int, len(pkts))
	for i, pi := range pkts {
		seq[i] = from[pi]
	}
	return seq
}

// fairness returns each input's share of the granted packets and the
// longest streak of consecutive packets from one input.
func fairness(seq []int, inputs int) (shares []float64, streak int) {
	count := make([]int, inputs)
	run := 0
	for i, p := range seq {
		count[p]++
		if i > 0 && p == seq[i-1] {
			run++
		} else {
			run = 1
		}
		streak = max(streak, run)
	}
	for _, c := range count {
		shares = append(shares, float64(c)/float64(max(len(seq), 1)))
	}
	return shares, streak
}

// TestOutputFairness: saturated inputs sending multi-flit packets to one
// output each get an equal share of it, taking turns packet by packet —
// under cut-through with credits and under wormhole with STOP/GO, with the
// output's next buffer draining at link rate or at half of it (so the
// output is held back by flow control, as in a congested network).
func TestOutputFairness(t *testing.T) {
	var cases []fairnessCase
	for _, fc := range []struct {
		mode Mode
		kind flowctl.Kind
	}{{CutThrough, flowctl.KindCredit}, {Wormhole, flowctl.KindStopGo}, {Wormhole, flowctl.KindCredit}} {
		for _, inputs := range []int{2, 4} {
			for _, period := range []kernel.Time{1, 2} {
				for _, bg := range []int{0, 3} {
					name := map[Mode]string{CutThrough: "cut-through", Wormhole: "wormhole"}[fc.mode] + "/" + string(fc.kind)
					cases = append(cases, fairnessCase{name: name, mode: fc.mode, kind: fc.kind,
						inputs: inputs, flits: 16, period: period, speedup: 1, background: bg})
				}
			}
		}
	}
	for _, tc := range cases {
		seq := grantSequence(t, tc, 20000)
		seq = seq[len(seq)/10:] // skip the start
		shares, streak := fairness(seq, tc.inputs)
		t.Logf("%s, %d inputs, drain 1/%d, background %d: %d packets, shares %.3f, longest streak %d",
			tc.name, tc.inputs, tc.period, tc.background, len(seq), shares, streak)
		for p, s := range shares {
			if d := s - 1/float64(tc.inputs); d > 0.03 || d < -0.03 {
				t.Errorf("%s, %d inputs, drain 1/%d, background %d: input %d has %.3f of the output, want %.3f ± 0.03",
					tc.name, tc.inputs, tc.period, tc.background, p, s, 1/float64(tc.inputs))
			}
		}
		if streak > 2 {
			t.Errorf("%s, %d inputs, drain 1/%d, background %d: one input got %d packets in a row, want at most 2",
				tc.name, tc.inputs, tc.period, tc.background, streak)
		}
	}
}

var _ flit.Receiver = (*drainSink)(nil)

// TestEligibleOldestFirst: eligible waiting lanes come oldest first, equal
// ages in lane order from the round-robin pointer; lanes not yet eligible
// are left out and set the next wake-up.
func TestEligibleOldestFirst(t *testing.T) {
	const now = 100
	s := &Switch{lanes: make([]lane, 8), elig: make([]uint32, 8), parks: make([]park, 8), waiting: make([]uint64, 1), parked: make([]uint64, 1), vls: 1, slots: 1, lpp: 1, lanePorts: lanePorts(1), speedup: 1,
		times: make([]inRun, 8*2)}
	for _, l := range []struct {
		li          int32
		since, elig uint32
	}{{1, 90, 100}, {2, 95, 95}, {4, 90, 90}, {5, 80, 120}, {6, 95, 99}} {
		s.lanes[l.li].since, s.elig[l.li] = l.since, l.elig
		s.setWaiting(l.li, true)
	}
	for _, tc := range []struct {
		ptr  int32
		want []int32
	}{
		{0, []int32{1, 4, 2, 6}},
		{3, []int32{4, 1, 6, 2}},
		{5, []int32{1, 4, 6, 2}},
	} {
		s.ptr = tc.ptr
		next := kernel.Never
		var got []int32
		for _, key := range s.eligibleOldestFirst(now, &next) {
			got = append(got, laneOf(key))
		}
		if len(got) != len(tc.want) || next != 120 {
			t.Fatalf("ptr %d: %v, next %d; want %v, next 120", tc.ptr, got, next, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Fatalf("ptr %d: %v, want %v", tc.ptr, got, tc.want)
			}
		}
	}
}
