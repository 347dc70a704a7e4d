package switching

import (
	"testing"

	"netsim/flit"
	"netsim/kernel"
	"netsim/routing"
)

// TestProbeMarking checks when a route probe is marked Blocked (seed 001
// §4.3: a probe establishes whether a route is in use by another flow):
// by an output another source's packet holds or left within its length,
// or that flow control stops, but not by its own source's packets or a
// link idle for longer.
func TestProbeMarking(t *testing.T) {
	const own, other = 7, 5
	tests := []struct {
		name string
		// data is the source of a 16-flit packet arriving at cycle 0 on
		// port 0 (−1: none); probeAt is when the probe arrives on port 1.
		data    int32
		probeAt kernel.Time
		stopped bool // the output has no credit left
		want    bool
	}{
		{"free output", -1, 3, false, false},
		{"held by another flow", other, 3, false, true},
		{"held by the probe's own flow", own, 3, false, false},
		{"another flow's tail left just before", other, 20, false, true},
		{"another flow's tail left long before", other, 60, false, false},
		{"own flow's tail left just before", own, 20, false, false},
		{"stopped by flow control", -1, 3, true, true},
	}
	for _, tc := range tests {
		for _, sel := range []Selection{SelectCredits, SelectIdle} {
			t.Run(tc.name+"/"+sel.String(), func(t *testing.T) {
				if got := probeBlocked(t, sel, own, tc.data, tc.probeAt, tc.stopped); got != tc.want {
					t.Errorf("blocked = %v, want %v", got, tc.want)
				}
			})
		}
	}
}

// probeBlocked runs one case of TestProbeMarking under selection sel: a
// 16-flit packet from source data (−1: none) arriving at cycle 0 on port
// 0, a probe from source own arriving at probeAt on port 1, both for
// output 2, which has no credit left if stopped. It returns whether the
// probe was marked Blocked.
func probeBlocked(t *testing.T, sel Selection, own, data int32, probeAt kernel.Time, stopped bool) bool {
	t.Helper()
	h := newHarness(t, 3, 1, 32, Wormhole, 1, routing.Candidate{Port: 2, Priority: routing.High})
	h.sw.selection = sel
	if stopped {
		h.hold = true
		h.consume(2, 0, 32)
	}
	if data >= 0 {
		pi := h.pool.New()
		p := h.pool.Get(pi)
		p.Src, p.Flits = data, 16
		h.injectRun(0, 0, pi, 0, 16)
	}
	pi := h.pool.New()
	p := h.pool.Get(pi)
	p.Src, p.Flits, p.Probe = own, 1, flit.Probe
	h.injectRun(1, 0, pi, probeAt, 1)
	h.run(100)
	return h.pool.Get(pi).Probe&flit.Blocked != 0
}

// TestProbeSelectsAgainAtRunEnds: a probe whose one output is busy with a
// run selects again when the run ends, and is marked Blocked if another
// flow holds the output then, though its own flow held it before and
// holds it again when the probe leaves. Heads that are not probes wait
// for the run's end without selecting (onlyBusy).
func TestProbeSelectsAgainAtRunEnds(t *testing.T) {
	const own, other = 7, 5
	h := newHarness(t, 5, 3, 32, CutThrough, 1, routing.Candidate{Port: 2, Priority: routing.High})
	send := func(port, vl int, src int32, flits int, at kernel.Time, probe bool) int32 {
		pi := h.pool.New()
		p := h.pool.Get(pi)
		p.Src, p.Flits = src, uint16(flits)
		if probe {
			p.Probe = flit.Probe
		}
		h.injectRun(port, vl, pi, at, flits)
		return pi
	}
	send(0, 1, own, 16, 0, false)   // output 2 busy from 0 to 16, held by its own flow
	send(1, 2, other, 16, 2, false) // another flow's packet, on output 2 from 16 to 32
	send(4, 1, own, 16, 3, false)   // its own flow again, from 32 to 48
	probe := send(3, 0, own, 1, 4, true)
	h.run(100)
	if h.pool.Get(probe).Probe&flit.Blocked == 0 {
		t.Error("the probe waited through another flow's run on its output and was not marked Blocked")
	}
	if n := len(h.got); n != 49 {
		t.Errorf("%d flits left, want 49", n)
	}
}

// TestProbeStoppedBehindItsOwnFlow: a probe whose one output is busy with
// a run of its own flow, and whose output VL flow control has closed, is
// marked Blocked, though the credits are back by the run's end and its
// own flow holds the output when it leaves: it selects, and finds the
// output closed, rather than waiting for the run's end as other heads
// with one candidate do.
func TestProbeStoppedBehindItsOwnFlow(t *testing.T) {
	const own = 7
	h := newHarness(t, 4, 2, 32, CutThrough, 1, routing.Candidate{Port: 2, Priority: routing.High})
	h.consume(2, 0, 32) // no credit left on output 2, VL 0
	pi := h.pool.New()
	p := h.pool.Get(pi)
	p.Src, p.Flits = own, 16
	h.injectRun(0, 1, pi, 0, 16) // output 2 busy from 0 to 16 on VL 1
	probe := h.pool.New()
	p = h.pool.Get(probe)
	p.Src, p.Flits, p.Probe = own, 1, flit.Probe
	h.injectRun(1, 0, probe, 4, 1)
	h.run(10)
	// The credits come back before the run ends.
	at := h.out[2].Freed(10, 0, 32)
	if at == kernel.Never {
		t.Fatal("returning every credit of VL 0 did not open it")
	}
	h.sw.Sender(2).Unblock(0, at)
	h.run(100)
	if h.pool.Get(probe).Probe&flit.Blocked == 0 {
		t.Error("a probe stopped by flow control behind its own flow's run was not marked Blocked")
	}
	if n := len(h.got); n != 17 {
		t.Errorf("%d flits left, want 17", n)
	}
}
