package flit

import (
	"math"
	"testing"

	"netsim/kernel"
)

// TestQueueMatchesReference pushes runs of flits and pops parts of the
// front run in random patterns — packets sent without a stall, with
// stalls, interleaved — and compares every flit, and the front run's
// length, with a plain per-flit FIFO.
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
				n := 1 + rng.IntN(min(left, capacity-len(ref), 4))
				ready := now + kernel.Time(rng.IntN(2)) // stalls make new runs
				if len(ref) > 0 && ready <= ref[len(ref)-1].Ready(now) {
					ready = ref[len(ref)-1].Ready(now) + kernel.Time(rng.IntN(2))
				}
				q.Push(ring, capacity, pkt, now-1, ready, n) // sent a cycle ago: FrontRun(now) sees it whole
				for i := 0; i < n; i++ {
					ref = append(ref, NewSlot(pkt, ready+kernel.Time(i)))
				}
				left -= n
			}
			if len(ref) > 0 && rng.IntN(2) == 0 {
				want := 1 // the reference's front run
				for want < len(ref) && ref[want].Pkt == ref[0].Pkt && ref[want].Ready(now) == ref[0].Ready(now)+kernel.Time(want) {
					want++
				}
				got, n := q.FrontRun(now)
				if got.Pkt != ref[0].Pkt || got.Ready(now) != ref[0].Ready(now) || n != want {
					t.Fatalf("capacity %d step %d: front (%d, %d) run %d, want (%d, %d) run %d",
						capacity, step, got.Pkt, got.Ready(now), n, ref[0].Pkt, ref[0].Ready(now), want)
				}
				k := 1 + rng.IntN(n)
				q.Pop(ring, k)
				ref = ref[k:]
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
			q.Push(ring, 64, p, kernel.Time(16*int(p)+i-1), kernel.Time(16*int(p)+i), 1)
		}
	}
	if q.mid != 1 {
		t.Fatalf("%d runs in the ring, want 1 (front, one in the ring, back)", q.mid)
	}
}

// TestQueuePushRun: a run pushed at once is one run, merges with a run of
// the same packet that ends right before it, and not with one that does
// not; popping part of it keeps the rest's timing.
func TestQueuePushRun(t *testing.T) {
	ring := make([]Run, RingRuns(64))
	var q Queue
	q.Push(ring, 64, 1, 98, 100, 5)   // 100..104
	q.Push(ring, 64, 1, 103, 105, 11) // 105..115: contiguous, merges
	q.Push(ring, 64, 1, 115, 117, 4)  // a stall: a new run
	if f, n := q.FrontRun(100); f.Pkt != 1 || f.Ready(100) != 100 || n != 16 || q.Len() != 20 {
		t.Fatalf("front (%d, %d) run %d, %d flits; want (1, 100) run 16, 20 flits", f.Pkt, f.Ready(100), n, q.Len())
	}
	q.Pop(ring, 10)
	if f, n := q.FrontRun(110); f.Ready(100) != 110 || n != 6 {
		t.Fatalf("after popping 10: front at %d run %d, want 110 run 6", f.Ready(100), n)
	}
	q.Pop(ring, 6)
	if f, n := q.FrontRun(117); f.Ready(100) != 117 || n != 4 || q.Len() != 4 {
		t.Fatalf("second run: front at %d run %d (%d flits), want 117 run 4", f.Ready(100), n, q.Len())
	}
	defer func() {
		if recover() == nil {
			t.Fatal("popping more than the front run did not panic")
		}
	}()
	q.Pop(ring, 5)
}

// TestQueueHidesMergeOfTheCycle: flits that join the front run by a push
// in cycle t are not part of it in cycle t — a switch ticking in t sees
// the same whether its upstream port ticked before it or after — and are
// from t+1 on; a push that starts a new run is seen at once.
func TestQueueHidesMergeOfTheCycle(t *testing.T) {
	ring := make([]Run, RingRuns(64))
	var q Queue
	q.Push(ring, 64, 1, 98, 100, 4)  // 100..103
	q.Push(ring, 64, 1, 102, 104, 4) // 104..107, sent in 102: merges
	for _, c := range []struct {
		now  kernel.Time
		want int
	}{{102, 4}, {103, 8}} {
		if _, n := q.FrontRun(c.now); n != c.want {
			t.Errorf("cycle %d: front run %d, want %d", c.now, n, c.want)
		}
	}
	q.Push(ring, 64, 1, 103, 108, 2) // sent in 103: merges too
	if _, n := q.FrontRun(103); n != 8 {
		t.Errorf("cycle 103 after a second merge: front run %d, want 8", n)
	}
	q.Pop(ring, 8)
	if f, n := q.FrontRun(103); f.Ready(103) != 108 || n != 2 {
		t.Errorf("only the merged flits left: front at %d run %d, want 108 run 2", f.Ready(103), n)
	}
	q.Pop(ring, 2)
	q.Push(ring, 64, 2, 120, 122, 3) // a new run, not a merge
	if _, n := q.FrontRun(120); n != 3 {
		t.Errorf("new run pushed in the cycle: front run %d, want 3", n)
	}
	q.Push(ring, 64, 2, 121, 126, 2) // a stall: a second run
	q.Push(ring, 64, 2, 124, 128, 1) // merges with the newest run, not the front
	if _, n := q.FrontRun(124); n != 3 {
		t.Errorf("merge into the back run: front run %d, want 3", n)
	}
	q.Pop(ring, 3)
	if _, n := q.FrontRun(124); n != 2 {
		t.Errorf("newest run merged in the cycle, now the front: run %d, want 2", n)
	}
	if _, n := q.FrontRun(125); n != 3 {
		t.Errorf("the cycle after: run %d, want 3", n)
	}
}

func TestQueueOverflowPanics(t *testing.T) {
	for _, c := range []struct{ capacity, filled, run int }{{1, 1, 1}, {3, 3, 1}, {3, 2, 2}, {16, 0, 17}} {
		ring := make([]Run, RingRuns(c.capacity))
		var q Queue
		for i := 0; i < c.filled; i++ {
			q.Push(ring, c.capacity, int32(i), -1, 0, 1)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Fatalf("%+v: pushing past the capacity did not panic", c)
				}
			}()
			q.Push(ring, c.capacity, 99, 4, 5, c.run)
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
	q.Pop(nil, 1)
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

// TestRebalance: pools that share chunks end with their free indices
// spread evenly (to within the remainder), none lost or duplicated, and
// a pool that only releases does not hoard them: the pools that only
// create reuse them instead of taking fresh chunks.
func TestRebalance(t *testing.T) {
	for _, frees := range [][]int{{0, 0}, {10, 0}, {0, 7, 1}, {5, 5, 5}, {100, 0, 0, 3}, {1, 2, 3, 4, 5}} {
		a := &Pool{}
		pools := []*Pool{a}
		for range frees[1:] {
			pools = append(pools, a.Share())
		}
		seen := map[int32]bool{}
		var made []int32
		for i, n := range frees {
			for range n {
				x := pools[i].New()
				seen[x] = true
				made = append(made, x)
			}
		}
		// Pool i releases frees[i] of them (any pool may release any).
		for i, n := range frees {
			for _, x := range made[:n] {
				pools[i].Release(x)
			}
			made = made[n:]
		}
		Rebalance(pools)
		total, got := 0, map[int32]bool{}
		for _, n := range frees {
			total += n
		}
		for _, p := range pools {
			if n := len(p.free); n < total/len(pools) || n > total/len(pools)+total%len(pools) {
				t.Errorf("%v: a pool has %d free indices of %d", frees, n, total)
			}
			for _, x := range p.free {
				if got[x] {
					t.Errorf("%v: index %d twice", frees, x)
				}
				got[x] = true
			}
		}
		if len(got) != len(seen) {
			t.Errorf("%v: %d free indices, want %d", frees, len(got), len(seen))
		}
	}
	// A hotspot: one pool only releases what the other creates.
	src := &Pool{}
	dst := src.Share()
	for round := 0; round < 4*ChunkPackets; round++ {
		for i := 0; i < 4; i++ {
			dst.Release(src.New())
		}
		Rebalance([]*Pool{src, dst})
	}
	if n := src.chunks.used.Load(); n != 1 {
		t.Errorf("a hotspot took %d chunks, want 1", n)
	}
}
