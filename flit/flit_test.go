package flit

import (
	"math"
	"testing"

	"netsim/kernel"
)

func TestQueueFIFO(t *testing.T) {
	for _, capacity := range []int{1, 2, 5, 64} {
		q := NewQueue(capacity, nil)
		if q.Cap() != capacity || q.Len() != 0 {
			t.Fatalf("capacity %d: Cap %d Len %d", capacity, q.Cap(), q.Len())
		}
		next, want := int32(0), int32(0)
		// Interleave pushes and pops so the ring wraps many times.
		for step := 0; step < 1000; step++ {
			if q.Len() < capacity && (step%3 != 0 || q.Len() == 0) {
				q.Push(NewSlot(next, kernel.Time(next)))
				next++
				continue
			}
			if got := q.Front().Pkt; got != want {
				t.Fatalf("capacity %d step %d: front %d, want %d", capacity, step, got, want)
			}
			q.Pop()
			want++
		}
	}
}

func TestQueueOverflowPanics(t *testing.T) {
	for _, capacity := range []int{1, 3} {
		q := NewQueue(capacity, nil)
		for i := 0; i < capacity; i++ {
			q.Push(NewSlot(int32(i), 0))
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Fatalf("capacity %d: pushing into a full buffer did not panic", capacity)
				}
			}()
			q.Push(NewSlot(3, 0))
		}()
	}
}

func TestQueueEmptyPopPanics(t *testing.T) {
	q := NewQueue(3, nil)
	defer func() {
		if recover() == nil {
			t.Fatal("popping an empty buffer did not panic")
		}
	}()
	q.Pop()
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
