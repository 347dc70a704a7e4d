package flit

import (
	"math"
	"testing"

	"netsim/kernel"
)

// TestQueueMatchesReference pushes and pops flits in random patterns —
// packets sent without a stall, with stalls, interleaved — and compares
// every flit with a plain per-flit FIFO.
func TestQueueMatchesReference(t *testing.T) {
	for _, capacity := range []int{1, 2, 3, 5, 16, 64} {
		rng := kernel.NewRNG(uint64(capacity))
		ring := make([]Run, RingRuns(capacity))
		var q Queue
		var ref []Slot
		now := kernel.Time(math.MaxUint32 - 500) // cross the 2³² wrap too
		pkt, left := int32(0), 0
		for step := 0; step < 20000; step++ {
			now++
			if len(ref) < capacity && rng.IntN(3) != 0 {
				if left == 0 {
					pkt, left = pkt+1, 1+rng.IntN(2*capacity)
				}
				ready := now + kernel.Time(rng.IntN(2)) // stalls make new runs
				if len(ref) > 0 && ready < ref[len(ref)-1].Ready(now) {
					ready = ref[len(ref)-1].Ready(now)
				}
				q.Push(ring, capacity, pkt, ready)
				ref = append(ref, NewSlot(pkt, ready))
				left--
			}
			if len(ref) > 0 && rng.IntN(2) == 0 {
				got, want := q.Front(), ref[0]
				if got.Pkt != want.Pkt || got.Ready(now) != want.Ready(now) {
					t.Fatalf("capacity %d step %d: front (%d, %d), want (%d, %d)",
						capacity, step, got.Pkt, got.Ready(now), want.Pkt, want.Ready(now))
				}
				q.Pop(ring)
				ref = ref[1:]
			}
			if q.Len() != len(ref) {
				t.Fatalf("capacity %d step %d: Len %d, want %d", capacity, step, q.Len(), len(ref))
			}
		}
	}
}

// TestQueueRunsPerPacket: a packet's flits arriving in consecutive cycles
// make one run, so the ring is not touched while they move.
func TestQueueRunsPerPacket(t *testing.T) {
	ring := make([]Run, RingRuns(64))
	var q Queue
	for p := int32(0); p < 3; p++ {
		for i := 0; i < 16; i++ {
			q.Push(ring, 64, p, kernel.Time(16*int(p)+i))
		}
	}
	if q.mid != 1 {
		t.Fatalf("%d runs in the ring, want 1 (front, one in the ring, back)", q.mid)
	}
}

func TestQueueOverflowPanics(t *testing.T) {
	for _, capacity := range []int{1, 3} {
		ring := make([]Run, RingRuns(capacity))
		var q Queue
		for i := 0; i < capacity; i++ {
			q.Push(ring, capacity, int32(i), 0)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Fatalf("capacity %d: pushing into a full buffer did not panic", capacity)
				}
			}()
			q.Push(ring, capacity, 9, 0)
		}()
	}
}

func TestQueueEmptyPopPanics(t *testing.T) {
	var q Queue
	defer func() {
		if recover() == nil {
			t.Fatal("popping an empty buffer did not panic")
		}
	}()
	q.Pop(nil)
}

// TestSlotReady checks the 32-bit arrival time across the wrap of 2³².
func TestSlotReady(t *testing.T) {
	for _, base := range []kernel.Time{0, 1000, math.MaxUint32 - 5, math.MaxUint32 + 7, 3 << 40} {
		s := NewSlot(1, base+10)
		for _, c := range []struct {
			now   kernel.Time
			ready bool
		}{{base, false}, {base + 9, false}, {base + 10, true}, {base + 11, true}, {base + 1<<30, true}} {
			if got := s.ReadyBy(c.now); got != c.ready {
				t.Errorf("ready at %d, ReadyBy(%d) = %v", base+10, c.now, got)
			}
			if got := s.Ready(c.now); got != base+10 {
				t.Errorf("Ready(%d) = %d, want %d", c.now, got, base+10)
			}
		}
	}
}

func TestPoolRecycles(t *testing.T) {
	var p Pool
	a, b := p.New(), p.New()
	p.Get(a).Hops = 5
	p.Release(a)
	c := p.New()
	if c != a || p.Get(c).Hops != 0 {
		t.Fatalf("released index not recycled as a fresh packet: got %d (hops %d)", c, p.Get(c).Hops)
	}
	if p.Live() != 2 || b == a {
		t.Fatalf("Live = %d, want 2", p.Live())
	}
	if n := testing.AllocsPerRun(100, func() { p.Release(p.New()) }); n != 0 {
		t.Fatalf("steady-state New/Release allocates %v times", n)
	}
}
