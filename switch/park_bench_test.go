package switching

import (
	"fmt"
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
	bb := newBenchSwitch(b)
	sw := bb.sw
	for _, out := range bb.outs {
		for vl := 0; vl < benchVLs; vl++ {
			out.Sent(0, vl, 1, benchBuffer) // no credits left downstream
		}
	}
	if err := bb.eng.Run(2); err != nil { // every head selects once and is parked
		b.Fatal(err)
	}
	if sw.nWaiting != (benchPorts-1)*benchVLs {
		b.Fatalf("%d heads waiting, want %d", sw.nWaiting, (benchPorts-1)*benchVLs)
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
		if err := bb.eng.Run(now + 1); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if len(bb.got) != 0 {
		b.Fatalf("%d flits left without credits", len(bb.got))
	}
	if bb.ticker.ticks < b.N {
		b.Fatalf("%d ticks for %d reports of room", bb.ticker.ticks, b.N)
	}
}

// benchSwitch is a switch of 32 ports and 8 VLs for the benchmarks here,
// each of whose packets may take only the last port; got records what
// its outputs send.
type benchSwitch struct {
	sw     *Switch
	eng    *kernel.Engine
	ticker *switchTicker
	pool   flit.Pool
	outs   []flowctl.Control
	got    []delivery
	runs   []run
	hold   bool
}

const benchPorts, benchVLs, benchBuffer = 32, 8, 64

// newBenchSwitch returns the switch of the benchmarks, its ports
// connected, with a 16-flit packet waiting on every VL of every input
// port but the last.
func newBenchSwitch(b *testing.B) *benchSwitch {
	bb := &benchSwitch{ticker: &switchTicker{}}
	bb.eng = kernel.NewEngine(bb.ticker)
	bb.sw = New(Params{Ports: benchPorts, VLs: benchVLs, Buffer: benchBuffer, Mode: CutThrough, Speedup: 1, FlitDelay: 1},
		bb.eng, &bb.pool, fixedRouting{[]routing.Candidate{{Port: benchPorts - 1, Priority: routing.High}}}, kernel.NewRNG(1), nil)
	fp := flowctl.Params{Kind: flowctl.KindCredit, VLs: benchVLs, Buffer: benchBuffer, Latency: 1, Delay: 1, Rate: 1}
	for p := 0; p < benchPorts; p++ {
		if _, err := bb.sw.ConnectIn(p, fp, nil); err != nil {
			b.Fatal(err)
		}
		out, err := flowctl.New(fp)
		if err != nil {
			b.Fatal(err)
		}
		bb.outs = append(bb.outs, out)
		bb.sw.ConnectOut(p, out, sink{fc: out, got: &bb.got, runs: &bb.runs, port: p, hold: &bb.hold}, 0)
	}
	for p := 0; p < benchPorts-1; p++ {
		for vl := 0; vl < benchVLs; vl++ {
			pi := bb.pool.New()
			bb.pool.Get(pi).Flits = 16
			bb.sw.AcceptRun(0, p, vl, pi, 1, 16)
		}
	}
	bb.ticker.sw = bb.sw
	return bb
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
// eligible times nor their parking, and puts them to sleep until the
// run's end. With runs of 1 cycle every tick puts them to sleep and the
// next wakes them all (the worst case for sleeping); with runs of 8
// cycles the 7 ticks between find them asleep. Run it with -benchmem: a
// tick allocates nothing.
func BenchmarkBusyInputs(b *testing.B) {
	for _, run := range []int{1, 8} {
		b.Run(fmt.Sprintf("run=%d", run), func(b *testing.B) {
			bb := newBenchSwitch(b)
			sw := bb.sw
			// Each input port feeds a run (of a packet not modelled here)
			// that ends run cycles after it starts.
			busy := func(now kernel.Time) {
				for p := 0; p < benchPorts-1; p++ {
					sw.times[p*2+1] = inRun{end: now + kernel.Time(run), lane: int32(p * benchVLs)}
				}
			}
			busy(0)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				now := kernel.Time(2 + i)
				if i%run == 0 {
					busy(now)
				}
				sw.Wake(now)
				if err := bb.eng.Run(now + 1); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if want := (benchPorts - 1) * benchVLs; len(bb.got) != 0 || int(sw.nWaiting) != want {
				b.Fatalf("%d flits left and %d heads waiting; want none left and %d waiting", len(bb.got), sw.nWaiting, want)
			}
			if bb.ticker.ticks < b.N {
				b.Fatalf("%d ticks for %d wake-ups", bb.ticker.ticks, b.N)
			}
		})
	}
}
