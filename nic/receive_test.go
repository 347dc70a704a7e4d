package nic

import (
	"testing"

	"netsim/kernel"
)

// TestReceiveRate: a NIC draining at half the link rate takes the flits of
// a run one every two cycles, frees each buffer slot (the sender's credit)
// only when it drains the flit, and receives the packet at its tail's
// drain; at rate 0.91 the 16 flits take ⌈15 / 0.91⌉ + 1 cycles.
func TestReceiveRate(t *testing.T) {
	cases := []struct {
		rate  float64
		last  kernel.Time // drain of the tail
		frees []struct {
			now  kernel.Time
			free int
		}
	}{
		{0.5, 80, []struct {
			now  kernel.Time
			free int
		}{{50, 0}, {51, 1}, {52, 1}, {53, 2}, {65, 8}, {80, 15}, {81, 16}}},
		{0.91, 67, []struct {
			now  kernel.Time
			free int
		}{{51, 1}, {52, 1}, {53, 2}, {67, 15}, {68, 16}}},
	}
	for _, tc := range cases {
		n, eng, meter, down, pi := receiving(t)
		n.rxGap = rxGap(tc.rate)
		n.AcceptRun(48, 0, 1, pi, 50, 16) // arrives over 50..65
		if meter.Ejected != 0 {
			t.Fatalf("rate %v: %d flits ejected on arrival, want 0 before they drain", tc.rate, meter.Ejected)
		}
		if err := eng.Run(tc.last); err != nil { // the events before the tail's drain
			t.Fatal(err)
		}
		if meter.Ejected != 15 || meter.Delivered != 0 {
			t.Fatalf("rate %v: before cycle %d %d flits ejected, %d packets; want 15, 0", tc.rate, tc.last, meter.Ejected, meter.Delivered)
		}
		if err := eng.Run(200); err != nil {
			t.Fatal(err)
		}
		if meter.Ejected != 16 || meter.Delivered != 1 || n.pool.Live() != 0 {
			t.Fatalf("rate %v: ejected %d flits, %d packets delivered, %d live; want 16, 1, 0", tc.rate, meter.Ejected, meter.Delivered, n.pool.Live())
		}
		if got, want := meter.LatencyAvg(), float64(tc.last-10); got != want {
			t.Errorf("rate %v: latency %v, want %v", tc.rate, got, want)
		}
		for _, c := range tc.frees {
			if got := down.Free(c.now, 1); got != c.free {
				t.Errorf("rate %v, cycle %d: sender sees %d credits, want %d", tc.rate, c.now, got, c.free)
			}
		}
	}
}

func TestRxGap(t *testing.T) {
	for _, c := range []struct{ rate, gap float64 }{{0, 1}, {1, 1}, {0.5, 2}, {0.25, 4}} {
		if got := rxGap(c.rate); got != c.gap {
			t.Errorf("rxGap(%v) = %v, want %v", c.rate, got, c.gap)
		}
	}
}
