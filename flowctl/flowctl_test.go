package flowctl

import (
	"strings"
	"testing"

	"netsim/kernel"
)

// link drives one Control with a greedy sender and a receiver that drains
// its buffer at random, and checks the buffer invariants every cycle.
type link struct {
	t        *testing.T
	p        Params
	c        Control
	occupied []int           // flits in the receiver buffer per VL
	wire     [][]kernel.Time // arrival times of flits on the wire per VL
	sent     int
}

func newLink(t *testing.T, p Params) *link {
	c, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	return &link{t: t, p: p, c: c, occupied: make([]int, p.VLs), wire: make([][]kernel.Time, p.VLs)}
}

// run simulates cycles; drain(now, vl) says whether the receiver frees a
// flit of vl this cycle.
func (l *link) run(cycles int, drain func(now kernel.Time, vl int) bool) {
	for now := kernel.Time(0); now < kernel.Time(cycles); now++ {
		for vl := 0; vl < l.p.VLs; vl++ {
			// Arrivals.
			for len(l.wire[vl]) > 0 && l.wire[vl][0] <= now {
				l.wire[vl] = l.wire[vl][1:]
				l.occupied[vl]++
			}
			if l.occupied[vl]+len(l.wire[vl]) > l.p.Buffer && l.p.Kind == KindCredit {
				l.t.Fatalf("cycle %d VL %d: %d flits buffered or on the wire, buffer %d", now, vl, l.occupied[vl]+len(l.wire[vl]), l.p.Buffer)
			}
			if l.occupied[vl] > l.p.Buffer {
				l.t.Fatalf("cycle %d VL %d: buffer overflow, %d flits in %d slots", now, vl, l.occupied[vl], l.p.Buffer)
			}
			if free := l.c.Free(now, vl); l.p.Kind == KindCredit && free < 0 {
				l.t.Fatalf("cycle %d VL %d: negative credits %d", now, vl, free)
			}
			// Departures, up to Rate per cycle over all VLs is not needed
			// here: one per VL keeps the test simple and within Rate·VLs.
			if l.occupied[vl] > 0 && drain(now, vl) {
				l.occupied[vl]--
				l.c.Freed(now, vl, 1)
			}
		}
		// The sender sends one flit per cycle on the first VL it may.
		for k := 0; k < l.p.VLs; k++ {
			vl := (int(now) + k) % l.p.VLs
			if l.c.CanSend(now, vl, 1) {
				arrive := now + kernel.Time(l.p.Delay)
				l.c.Sent(now, vl, arrive, 1)
				l.wire[vl] = append(l.wire[vl], arrive)
				l.sent++
				break
			}
		}
	}
}

func TestInvariants(t *testing.T) {
	for _, p := range []Params{
		{Kind: KindCredit, VLs: 1, Buffer: 4, Latency: 1, Delay: 2, Rate: 1},
		{Kind: KindCredit, VLs: 3, Buffer: 16, Latency: 5, Delay: 6, Rate: 3},
		{Kind: KindStopGo, VLs: 1, Buffer: 8, Latency: 1, Delay: 2, Rate: 1, StopMark: 6, GoMark: 2},
		{Kind: KindStopGo, VLs: 2, Buffer: 32, Latency: 4, Delay: 6, Rate: 2, StopMark: 23, GoMark: 8},
	} {
		for _, pattern := range []struct {
			name  string
			drain func(now kernel.Time, vl int) bool
		}{
			{"never", func(kernel.Time, int) bool { return false }},
			{"slow", func(now kernel.Time, vl int) bool { return (int(now)+vl)%7 == 0 }},
			{"bursty", func(now kernel.Time, _ int) bool { return (now/50)%2 == 0 }},
			{"always", func(kernel.Time, int) bool { return true }},
		} {
			l := newLink(t, p)
			l.run(2000, pattern.drain)
			if pattern.name == "never" && l.sent > p.Buffer*p.VLs {
				t.Errorf("%s/%s: sent %d flits into %d slots that never drain", p.Kind, pattern.name, l.sent, p.Buffer*p.VLs)
			}
			if pattern.name == "always" && l.sent < 1900 {
				t.Errorf("%s/%s: sent only %d flits in 2000 cycles over a free link", p.Kind, pattern.name, l.sent)
			}
		}
	}
}

// TestCreditTiming: a credit freed at t is usable at t+latency, not before.
func TestCreditTiming(t *testing.T) {
	c, err := New(Params{Kind: KindCredit, VLs: 2, Buffer: 1, Latency: 3, Delay: 3, Rate: 1})
	if err != nil {
		t.Fatal(err)
	}
	c.Sent(0, 1, 3, 1)
	if c.CanSend(0, 1, 1) || !c.CanSend(0, 0, 1) {
		t.Fatal("credits are not per VL")
	}
	if back := c.Freed(10, 1, 1); back != 13 {
		t.Fatalf("Freed returned %d, want 13", back)
	}
	if got := c.Pending(10); got != 13 {
		t.Fatalf("Pending = %d, want 13", got)
	}
	if c.CanSend(12, 1, 1) {
		t.Fatal("credit usable before it came back")
	}
	if !c.CanSend(13, 1, 1) {
		t.Fatal("credit not usable when it came back")
	}
	if c.Pending(13) != kernel.Never {
		t.Fatal("Pending after the last credit returned")
	}
}

// TestStopGoTiming: STOP takes effect one latency after the occupancy
// reaches the stop mark, and GO one latency after it falls to the go mark.
func TestStopGoTiming(t *testing.T) {
	c, err := New(Params{Kind: KindStopGo, VLs: 1, Buffer: 10, Latency: 2, Delay: 3, Rate: 1, StopMark: 3, GoMark: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := kernel.Time(0); i < 3; i++ {
		c.Sent(i, 0, i+3, 1) // arrivals at 3, 4, 5: the third reaches the mark
	}
	if !c.CanSend(6, 0, 1) {
		t.Fatal("stopped before STOP could arrive")
	}
	if c.CanSend(7, 0, 1) {
		t.Fatal("not stopped one latency after the occupancy reached the stop mark")
	}
	if back := c.Freed(8, 0, 1); back != kernel.Never {
		t.Fatalf("occupancy 2 is above the go mark, but Freed signalled GO at %d", back)
	}
	if back := c.Freed(9, 0, 1); back != 11 {
		t.Fatalf("GO due at 11, Freed returned %d", back)
	}
	if c.CanSend(10, 0, 1) || !c.CanSend(11, 0, 1) {
		t.Fatal("GO not applied exactly one latency after it was sent")
	}
}

func TestValidate(t *testing.T) {
	ok := Params{Kind: KindCredit, VLs: 2, Buffer: 8, Latency: 1, Delay: 2, Rate: 1}
	for _, c := range []struct {
		mutate func(*Params)
		key    string
	}{
		{func(p *Params) { p.VLs = 0 }, "vls"},
		{func(p *Params) { p.VLs = MaxVLs + 1 }, "vls"},
		{func(p *Params) { p.Buffer = 0 }, "buffer_flits"},
		{func(p *Params) { p.Latency = 0 }, "link_latency"},
		{func(p *Params) { p.Rate = 0 }, "speedup"},
		{func(p *Params) { p.Kind = "xon" }, "kind"},
		{func(p *Params) { p.Kind, p.StopMark, p.GoMark = KindStopGo, 4, 4 }, "go_mark"},
		{func(p *Params) { p.Kind, p.StopMark, p.GoMark = KindStopGo, 7, 1 }, "stop_mark"},
	} {
		p := ok
		c.mutate(&p)
		_, err := New(p)
		if err == nil || !strings.HasPrefix(err.Error(), c.key+":") {
			t.Errorf("want an error about %s, got %v", c.key, err)
		}
	}
	if _, err := New(ok); err != nil {
		t.Fatal(err)
	}
}

// TestTimesWrap: entries keep 32-bit cycles; credits and signals still
// arrive exactly on time across the 2³² boundary.
func TestTimesWrap(t *testing.T) {
	for _, base := range []kernel.Time{1<<32 - 3, 5<<32 - 1, 1 << 40} {
		c, err := New(Params{Kind: KindCredit, VLs: 1, Buffer: 1, Latency: 4, Delay: 4, Rate: 1})
		if err != nil {
			t.Fatal(err)
		}
		c.Sent(base, 0, base+4, 1)
		back := c.Freed(base+5, 0, 1)
		if back != base+9 || c.Pending(base+5) != base+9 {
			t.Fatalf("base %d: credit back at %d, Pending %d, want %d", base, back, c.Pending(base+5), base+9)
		}
		if c.CanSend(base+8, 0, 1) || !c.CanSend(base+9, 0, 1) {
			t.Fatalf("base %d: credit not usable exactly at %d", base, base+9)
		}
		g, err := New(Params{Kind: KindStopGo, VLs: 1, Buffer: 10, Latency: 2, Delay: 3, Rate: 1, StopMark: 1, GoMark: 0})
		if err != nil {
			t.Fatal(err)
		}
		g.Sent(base, 0, base+3, 1)
		if !g.CanSend(base+4, 0, 1) || g.CanSend(base+5, 0, 1) {
			t.Fatalf("base %d: STOP not applied exactly at %d", base, base+5)
		}
	}
}

func TestReserve(t *testing.T) {
	c, err := New(Params{Kind: KindCredit, VLs: 2, Buffer: 8, Latency: 1, Delay: 1, Rate: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Reserve(0, 1, 5) {
		t.Fatal("credit flow control did not reserve")
	}
	if c.Free(0, 1) != 3 || c.Free(0, 0) != 8 {
		t.Fatalf("after reserving 5 of 8 on VL 1: free %d and %d, want 3 and 8", c.Free(0, 1), c.Free(0, 0))
	}
	if c.CanSend(0, 1, 4) {
		t.Fatal("reserved credits still usable")
	}
	g, err := New(Params{Kind: KindStopGo, VLs: 1, Buffer: 8, Latency: 1, Delay: 1, Rate: 1, StopMark: 4, GoMark: 1})
	if err != nil {
		t.Fatal(err)
	}
	if g.Reserve(0, 0, 4) {
		t.Fatal("STOP/GO reserved room it cannot know")
	}
}

// TestCreditRuns: credits freed in consecutive cycles share one entry and
// still come back one per cycle.
func TestCreditRuns(t *testing.T) {
	l := new(Link)
	if err := l.Init(Params{Kind: KindCredit, VLs: 2, Buffer: 16, Latency: 2, Delay: 2, Rate: 1}); err != nil {
		t.Fatal(err)
	}
	l.Reserve(0, 1, 16)
	l.Reserve(0, 0, 1)
	for i := kernel.Time(10); i < 18; i++ {
		l.Freed(i, 1, 1) // back at 12..19
	}
	l.Freed(18, 0, 1) // another VL: a new entry
	if n := l.c.returns.Len(); n != 2 {
		t.Fatalf("%d entries for a run of 8 and one more, want 2", n)
	}
	for now := kernel.Time(11); now <= 20; now++ {
		want := int(min(max(now-11, 0), 8))
		if got := l.Free(now, 1); got != want {
			t.Fatalf("cycle %d: %d credits back on VL 1, want %d", now, got, want)
		}
		want0 := 15
		if now >= 20 {
			want0 = 16 // its credit is back at 20
		}
		if got := l.Free(now, 0); got != want0 {
			t.Fatalf("cycle %d: VL 0 has %d credits, want %d", now, got, want0)
		}
	}
}

// TestRunInvariants drives a credit link with runs: a sender that sends
// runs of up to Burst flits back to back, and a receiver that frees runs of
// arrived flits as ramps, on several VLs at once (a switch with speedup),
// so returned ramps overlap. The buffer never overflows, credits never go
// negative, and every credit comes back: a saturated link stays busy.
func TestRunInvariants(t *testing.T) {
	for _, p := range []Params{
		{Kind: KindCredit, VLs: 1, Buffer: 4, Latency: 1, Delay: 2, Rate: 1},
		{Kind: KindCredit, VLs: 3, Buffer: 16, Latency: 5, Delay: 6, Rate: 3},
		{Kind: KindCredit, VLs: 4, Buffer: 64, Latency: 2, Delay: 3, Rate: 4},
	} {
		for _, drain := range []int{1, 3, 10} { // the receiver starts a run with probability 1/drain
			c, err := New(p)
			if err != nil {
				t.Fatal(err)
			}
			rng := kernel.NewRNG(uint64(drain))
			wire := make([][]kernel.Time, p.VLs) // arrival times
			arrived := make([]int, p.VLs)        // in the buffer, not yet leaving
			leaving := make([][]kernel.Time, p.VLs)
			laneFree := make([]kernel.Time, p.VLs)
			senderFree, vlNext, sent := kernel.Time(0), 0, 0
			const cycles = 5000
			for now := kernel.Time(0); now < cycles; now++ {
				for vl := 0; vl < p.VLs; vl++ {
					for len(wire[vl]) > 0 && wire[vl][0] <= now {
						wire[vl] = wire[vl][1:]
						arrived[vl]++
					}
					for len(leaving[vl]) > 0 && leaving[vl][0] < now {
						leaving[vl] = leaving[vl][1:]
					}
					if held := arrived[vl] + len(leaving[vl]) + len(wire[vl]); held > p.Buffer {
						t.Fatalf("%+v cycle %d VL %d: %d flits buffered or on the wire, buffer %d", p, now, vl, held, p.Buffer)
					}
					if free := c.Free(now, vl); free < 0 {
						t.Fatalf("%+v cycle %d VL %d: negative credits %d", p, now, vl, free)
					}
					if laneFree[vl] <= now && arrived[vl] > 0 && rng.IntN(drain) == 0 {
						k := 1 + rng.IntN(arrived[vl])
						c.Freed(now, vl, k)
						for i := 0; i < k; i++ {
							leaving[vl] = append(leaving[vl], now+kernel.Time(i))
						}
						arrived[vl] -= k
						laneFree[vl] = now + kernel.Time(k)
					}
				}
				if senderFree > now {
					continue
				}
				for j := 0; j < p.VLs; j++ {
					vl := (vlNext + j) % p.VLs
					b := c.Burst(now, vl)
					if b <= 0 {
						continue
					}
					k := min(b, 1+rng.IntN(8))
					arrive := now + kernel.Time(p.Delay)
					c.Sent(now, vl, arrive, k)
					for i := 0; i < k; i++ {
						wire[vl] = append(wire[vl], arrive+kernel.Time(i))
					}
					sent += k
					senderFree, vlNext = now+kernel.Time(k), vl+1
					break
				}
			}
			if drain == 1 && sent < cycles*9/10 {
				t.Errorf("%+v: sent %d flits in %d cycles over a link drained at once", p, sent, cycles)
			}
			if sent == 0 {
				t.Errorf("%+v drain 1/%d: nothing sent", p, drain)
			}
		}
	}
}

// TestCreditRamp: n slots freed at once come back one per cycle from one
// latency later, and ramps of two VLs freed in overlapping cycles (a
// receiver with speedup 2) both come back on time; Pending names the
// earliest next credit.
func TestCreditRamp(t *testing.T) {
	c, err := New(Params{Kind: KindCredit, VLs: 2, Buffer: 16, Latency: 3, Delay: 3, Rate: 2})
	if err != nil {
		t.Fatal(err)
	}
	c.Reserve(0, 0, 16)
	c.Reserve(0, 1, 16)
	c.Freed(10, 0, 8) // back at 13..20
	c.Freed(12, 1, 4) // back at 15..18
	for now := kernel.Time(12); now <= 22; now++ {
		want0 := int(min(max(now-12, 0), 8))
		want1 := int(min(max(now-14, 0), 4))
		if got0, got1 := c.Free(now, 0), c.Free(now, 1); got0 != want0 || got1 != want1 {
			t.Fatalf("cycle %d: credits %d and %d back, want %d and %d", now, got0, got1, want0, want1)
		}
		want := now + 1
		if now >= 20 {
			want = kernel.Never
		}
		if got := c.Pending(now); got != want {
			t.Fatalf("cycle %d: Pending %d, want %d", now, got, want)
		}
	}
}

// TestBurst: a credit sender may send as many flits back to back as it
// holds credits, counting those back by now; a STOP/GO sender one under GO
// and none under STOP.
func TestBurst(t *testing.T) {
	c, err := New(Params{Kind: KindCredit, VLs: 1, Buffer: 4, Latency: 2, Delay: 2, Rate: 1})
	if err != nil {
		t.Fatal(err)
	}
	c.Sent(0, 0, 2, 4)
	if c.Burst(4, 0) != 0 {
		t.Fatal("credits before any was freed")
	}
	c.Freed(3, 0, 2) // back at 5 and 6
	for _, w := range []struct {
		now  kernel.Time
		want int
	}{{4, 0}, {5, 1}, {6, 2}, {9, 2}} {
		if got := c.Burst(w.now, 0); got != w.want {
			t.Errorf("Burst at %d = %d, want %d", w.now, got, w.want)
		}
	}
	g, err := New(Params{Kind: KindStopGo, VLs: 1, Buffer: 10, Latency: 1, Delay: 1, Rate: 1, StopMark: 5, GoMark: 2})
	if err != nil {
		t.Fatal(err)
	}
	if g.Burst(0, 0) != 1 {
		t.Fatal("STOP/GO under GO: Burst must be 1 (a STOP may come any cycle)")
	}
	for i := kernel.Time(0); i < 5; i++ {
		g.Sent(i, 0, i+1, 1) // the fifth arrival, at 5, reaches the stop mark
	}
	if g.Burst(6, 0) != 0 {
		t.Fatal("STOP/GO under STOP: Burst must be 0")
	}
}

// TestReserveCollectsLazily drives a cut-through sender that checks its
// credits (CanSend) and reserves whole packets (Reserve), which collects
// the returned credits only when they fall short or the ramps pile up,
// and a receiver that frees each packet's slots later, on several VLs.
// CanSend and Free answer as a model that counts every credit back by
// now, and the returns never outgrow the ring inside the Link.
func TestReserveCollectsLazily(t *testing.T) {
	for _, p := range []Params{
		{Kind: KindCredit, VLs: 4, Buffer: 64, Latency: 1, Delay: 1, Rate: 1},
		{Kind: KindCredit, VLs: 8, Buffer: 32, Latency: 3, Delay: 3, Rate: 2},
	} {
		l := new(Link)
		if err := l.Init(p); err != nil {
			t.Fatal(err)
		}
		const pkt = 16
		type ramp struct {
			back kernel.Time
			vl   int
		}
		var ramps []ramp
		taken := make([]int, p.VLs) // credits reserved, ever
		model := func(now kernel.Time, vl int) int {
			n := p.Buffer - taken[vl]
			for _, r := range ramps {
				if r.vl == vl {
					n += int(min(max(now-r.back+1, 0), pkt))
				}
			}
			return n
		}
		var frees []ramp // packets to free: (when, vl)
		rng := kernel.NewRNG(uint64(p.VLs))
		reserved := 0
		for now := kernel.Time(0); now < 40000; now++ {
			rest := frees[:0]
			for _, f := range frees {
				if f.back == now {
					l.Freed(now, f.vl, pkt)
					ramps = append(ramps, ramp{back: now + kernel.Time(p.Latency), vl: f.vl})
				} else {
					rest = append(rest, f)
				}
			}
			frees = rest
			if now%pkt != 0 {
				continue // the link carries a flit per cycle: a packet per pkt cycles
			}
			vl := rng.IntN(p.VLs)
			want := model(now, vl) >= pkt
			if got := l.CanSend(now, vl, pkt); got != want {
				t.Fatalf("%+v cycle %d VL %d: CanSend %v, the model %v", p, now, vl, got, want)
			}
			if want {
				l.Reserve(now, vl, pkt)
				taken[vl] += pkt
				reserved++
				frees = append(frees, ramp{back: now + kernel.Time(p.Delay+rng.IntN(60)), vl: vl})
			}
			if l.c.returns.Len() > len(l.c.inline) {
				t.Fatalf("%+v cycle %d: %d ramps, more than the %d inside the Link", p, now, l.c.returns.Len(), len(l.c.inline))
			}
			if now%(7*pkt) == 0 {
				for v := 0; v < p.VLs; v++ {
					if got, want := l.Free(now, v), model(now, v); got != want {
						t.Fatalf("%+v cycle %d VL %d: Free %d, the model %d", p, now, v, got, want)
					}
				}
			}
		}
		if reserved < 100 {
			t.Errorf("%+v: %d packets reserved, too few to test", p, reserved)
		}
	}
}
