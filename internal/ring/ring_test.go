package ring

import "testing"

func TestRingFIFO(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(*Ring[int])
	}{
		{"zero value", func(*Ring[int]) {}},
		{"init 3", func(r *Ring[int]) { r.Init(3) }},
		{"store 2", func(r *Ring[int]) { var a [2]int; r.WithStore(a[:]) }},
	} {
		var r Ring[int]
		c.setup(&r)
		next, want := 0, 0
		for step := 0; step < 2000; step++ {
			// Grow to about 40 elements, then drain, twice over.
			if (step/500)%2 == 0 && step%5 != 4 || r.Len() == 0 {
				r.Push(next)
				next++
				continue
			}
			if got := r.Front(); got != want {
				t.Fatalf("%s step %d: front %d, want %d", c.name, step, got, want)
			}
			if got := *r.At(r.Len() - 1); got != next-1 {
				t.Fatalf("%s step %d: back %d, want %d", c.name, step, got, next-1)
			}
			if got := r.Pop(); got != want {
				t.Fatalf("%s step %d: popped %d, want %d", c.name, step, got, want)
			}
			want++
		}
		if r.Len() != next-want {
			t.Fatalf("%s: Len %d, want %d", c.name, r.Len(), next-want)
		}
	}
}

func TestRingSteadyStateAllocatesNothing(t *testing.T) {
	var r Ring[int]
	r.Init(8)
	if n := testing.AllocsPerRun(1000, func() { r.Push(1); r.Push(2); r.Pop(); r.Pop() }); n != 0 {
		t.Fatalf("steady state allocates %v times per round", n)
	}
}
