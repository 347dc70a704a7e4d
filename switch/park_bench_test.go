package switching

import (
	"testing"

	"netsim/flit"
	"netsim/flowctl"
	"netsim/kernel"
	"netsim/routing"
)

// BenchmarkParkedHeads measures a tick of a switch of 32 ports and 8 VLs
// whose 248 waiting heads are parked for want of credits on port 31, when
// news of room comes from another port (other-port: the heads stay
// parked, and the tick passes them over without selecting for them
// again) or names no port (any-port: every head selects again and fails,
// as every report of room made them do before the switch had a Sender
// per port). Run it with -benchmem: a tick allocates nothing.
func BenchmarkParkedHeads(b *testing.B) {
	b.Run("other-port", func(b *testing.B) { benchParkedHeads(b, true) })
	b.Run("any-port", func(b *testing.B) { benchParkedHeads(b, false) })
}

// benchParkedHeads is BenchmarkParkedHeads, with news from port 0 if
// portNews, else from no port in particular.
func benchParkedHeads(b *testing.B, portNews bool) {
	const ports, vls, buffer = 32, 8, 64
	var pool flit.Pool
	ticker := &switchTicker{}
	eng := kernel.NewEngine(ticker)
	sw := New(Params{Ports: ports, VLs: vls, Buffer: buffer, Mode: CutThrough, Speedup: 1, FlitDelay: 1},
		eng, &pool, fixedRouting{[]routing.Candidate{{Port: ports - 1, Priority: routing.High}}}, kernel.NewRNG(1), nil)
	fp := flowctl.Params{Kind: flowctl.KindCredit, VLs: vls, Buffer: buffer, Latency: 1, Delay: 1, Rate: 1}
	var hold bool
	var got []delivery
	var runs []run
	for p := 0; p < ports; p++ {
		if _, err := sw.ConnectIn(p, fp, nil); err != nil {
			b.Fatal(err)
		}
		out, err := flowctl.New(fp)
		if err != nil {
			b.Fatal(err)
		}
		for vl := 0; vl < vls; vl++ {
			out.Sent(0, vl, 1, buffer) // no credits left downstream
		}
		sw.ConnectOut(p, out, sink{fc: out, got: &got, runs: &runs, port: p, hold: &hold}, 0)
	}
	for p := 0; p < ports-1; p++ {
		for vl := 0; vl < vls; vl++ {
			pi := pool.New()
			pool.Get(pi).Flits = 16
			sw.AcceptRun(0, p, vl, pi, 1, 16)
		}
	}
	ticker.sw = sw
	if err := eng.Run(2); err != nil { // every head selects once and is parked
		b.Fatal(err)
	}
	if sw.nWaiting != (ports-1)*vls {
		b.Fatalf("%d heads waiting, want %d", sw.nWaiting, (ports-1)*vls)
	}
	var news flit.Sender = sw
	if portNews {
		news = sw.Sender(0)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now := kernel.Time(2 + i)
		news.Unblock(0, now)
		sw.Wake(now)
		if err := eng.Run(now + 1); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if len(got) != 0 {
		b.Fatalf("%d flits left without credits", len(got))
	}
	if ticker.ticks < b.N {
		b.Fatalf("%d ticks for %d reports of room", ticker.ticks, b.N)
	}
}

// switchTicker ticks its switch for every event.
type switchTicker struct {
	sw    *Switch
	ticks int
}

func (t *switchTicker) Handle(now kernel.Time, _ kernel.Event) {
	t.ticks++
	t.sw.Tick(now)
}

// BenchmarkBusyInputs measures a tick of a switch of 32 ports and 8 VLs
// whose 248 waiting heads sit on 31 input ports that each feed a run: the
// tick passes over each port's heads at once, looking up neither their
// eligible times nor their parking. Run it with -benchmem: a tick
// allocates nothing.
func BenchmarkBusyInputs(b *testing.B) {
	const ports, vls, buffer = 32, 8, 64
	var pool flit.Pool
	ticker := &switchTicker{}
	eng := kernel.NewEngine(ticker)
	sw := New(Params{Ports: ports, VLs: vls, Buffer: buffer, Mode: CutThrough, Speedup: 1, FlitDelay: 1},
		eng, &pool, fixedRouting{[]routing.Candidate{{Port: ports - 1, Priority: routing.High}}}, kernel.NewRNG(1), nil)
	fp := flowctl.Params{Kind: flowctl.KindCredit, VLs: vls, Buffer: buffer, Latency: 1, Delay: 1, Rate: 1}
	var hold bool
	var got []delivery
	var runs []run
	for p := 0; p < ports; p++ {
		if _, err := sw.ConnectIn(p, fp, nil); err != nil {
			b.Fatal(err)
		}
		out, err := flowctl.New(fp)
		if err != nil {
			b.Fatal(err)
		}
		sw.ConnectOut(p, out, sink{fc: out, got: &got, runs: &runs, port: p, hold: &hold}, 0)
	}
	for p := 0; p < ports-1; p++ {
		for vl := 0; vl < vls; vl++ {
			pi := pool.New()
			pool.Get(pi).Flits = 16
			sw.AcceptRun(0, p, vl, pi, 1, 16)
		}
	}
	// Each input port feeds a run (of a packet not modelled here) that
	// ends after the next tick.
	busy := func(now kernel.Time) {
		for p := 0; p < ports-1; p++ {
			sw.times[p*2+1] = inRun{end: now + 1, lane: int32(p * vls)}
		}
	}
	busy(0)
	ticker.sw = sw
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now := kernel.Time(2 + i)
		busy(now)
		sw.Wake(now)
		if err := eng.Run(now + 1); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if len(got) != 0 || sw.nWaiting != (ports-1)*vls {
		b.Fatalf("%d flits left and %d heads waiting; want none left and %d waiting", len(got), sw.nWaiting, (ports-1)*vls)
	}
	if ticker.ticks < b.N {
		b.Fatalf("%d ticks for %d wake-ups", ticker.ticks, b.N)
	}
}
