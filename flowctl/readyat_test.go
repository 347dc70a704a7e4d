package flowctl

import (
	"fmt"
	"testing"

	"netsim/kernel"
)

// TestReadyAt checks ReadyAt against stepping CanSend forward on a replica
// of the link, at random points of random traffic: for credits it is the
// first time CanSend holds (with no Freed meanwhile), for stop/go a time
// before which CanSend stays false.
func TestReadyAt(t *testing.T) {
	for _, p := range []Params{
		{Kind: KindCredit, VLs: 3, Buffer: 16, Latency: 1, Delay: 2, Rate: 1},
		{Kind: KindCredit, VLs: 2, Buffer: 64, Latency: 5, Delay: 6, Rate: 3},
		{Kind: KindStopGo, VLs: 2, Buffer: 16, Latency: 2, Delay: 3, Rate: 1, StopMark: 8, GoMark: 4},
	} {
		for seed := uint64(1); seed <= 4; seed++ {
			name := fmt.Sprintf("%s rate %d latency %d seed %d", p.Kind, p.Rate, p.Latency, seed)
			rng := kernel.NewRNG(seed)
			var ops []func(Control) // every call that changes the link, to replay
			replay := func() Control {
				c, err := New(p)
				if err != nil {
					t.Fatal(err)
				}
				for _, op := range ops {
					op(c)
				}
				return c
			}
			c := replay()
			held := make([]int, p.VLs) // flits sent and not yet freed
			checked := 0
			for now := kernel.Time(0); now < 400; now++ {
				vl := rng.IntN(p.VLs)
				if k := c.Burst(now, vl); k > 0 && rng.IntN(4) != 0 {
					k = 1 + rng.IntN(k)
					if p.Kind == KindStopGo {
						k = 1
					}
					op := func(c Control) { c.Sent(now, vl, now+kernel.Time(p.Delay), k) }
					op(c)
					ops = append(ops, op)
					held[vl] += k
				}
				// Free at random, on any VL: ramps of one VL may overlap.
				if fv := rng.IntN(p.VLs); held[fv] > 0 && rng.IntN(5) == 0 {
					k := 1 + rng.IntN(held[fv])
					at := now + kernel.Time(p.Delay)
					op := func(c Control) { c.Freed(at, fv, k) }
					op(c)
					ops = append(ops, op)
					held[fv] -= k
				}
				if rng.IntN(4) != 0 {
					continue
				}
				n := 1 + rng.IntN(p.Buffer)
				got := c.ReadyAt(now, vl, n)
				op := func(c Control) { c.ReadyAt(now, vl, n) } // collects, as any call at now
				ops = append(ops, op)
				r := replay()
				first := kernel.Never
				for tt := now; tt < now+200; tt++ {
					if r.CanSend(tt, vl, n) {
						first = tt
						break
					}
				}
				if p.Kind == KindCredit && got != first || got > first {
					t.Fatalf("%s: ReadyAt(%d, vl %d, %d) = %d, CanSend first holds at %d", name, now, vl, n, got, first)
				}
				if got != now && got != kernel.Never {
					checked++
				}
			}
			if checked == 0 {
				t.Errorf("%s: no query had to wait for credits or a signal on their way", name)
			}
		}
	}
}
