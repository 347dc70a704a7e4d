package kernel

import (
	"container/heap"
	"fmt"
	"testing"
)

// The hold model: N events are pending; each step removes the minimum and
// schedules a new event at now + delay. It measures the cost of one
// schedule+pop pair at a constant population, for the timing-wheel Engine
// and for binary heaps keyed by (time, seq).
//
// Delays are uniform in [1, 2·mean] with mean = max(16, N/1000), so that
// 60–1000 events share each cycle, as in a loaded network; the "far"
// variant sends 3 % of the delays to [65536, 131072), beyond every wheel.

// holdCase is one population and delay distribution.
type holdCase struct {
	n      int
	farPct int
	mean   int // 0: max(16, n/1000)
}

func (c holdCase) delay() holdDelay {
	mean := c.mean
	if mean == 0 {
		mean = max(16, c.n/1000)
	}
	return holdDelay{rng: NewRNG(12345, uint64(c.n)), mean: mean, farPct: c.farPct, farMin: 1 << 16}
}

func (c holdCase) String() string {
	s := fmt.Sprintf("N=%.0e", float64(c.n))
	if c.farPct > 0 {
		s += fmt.Sprintf("/far=%d%%", c.farPct)
	}
	return s
}

// holdCases returns the populations and delay distributions benchmarked.
func holdCases() []holdCase {
	return []holdCase{
		{n: 1e3}, {n: 1e5}, {n: 1e6},
		{n: 1e3, farPct: 3}, {n: 1e5, farPct: 3}, {n: 1e6, farPct: 3},
	}
}

// reportPerEvent reports the time per schedule+pop pair.
func reportPerEvent(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/event")
}

// benchWheel runs the hold model through Engine.Run with a wheel of w
// buckets; the cost includes the Handler dispatch.
func benchWheel(b *testing.B, w int, c holdCase) {
	m := newHold(w, c.n, c.delay())
	// Warm up until every bucket has been filled a few times and the
	// population has mixed, so that capacities have settled.
	m.left = -1
	warm := 4*Time(w) + 8*Time(m.delay.mean)
	if c.farPct > 0 {
		warm += 4 * Time(m.delay.farMin)
	}
	if err := m.eng.Run(warm); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	m.left = b.N
	if err := m.eng.Run(Never); err != ErrStopped {
		b.Fatal(err)
	}
	reportPerEvent(b)
}

// itemQueue is a priority queue of items ordered by (time, seq).
type itemQueue interface {
	push(it item)
	pop() item
}

// benchQueue runs the hold model directly on q, without any dispatch.
func benchQueue(b *testing.B, q itemQueue, c holdCase) {
	d := c.delay()
	var seq uint64
	for i := range c.n {
		q.push(item{at: d.next(), seq: seq, ev: Event{Target: int32(i)}})
		seq++
	}
	step := func() {
		it := q.pop()
		q.push(item{at: it.at + d.next(), seq: seq, ev: it.ev})
		seq++
	}
	for range c.n {
		step()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		step()
	}
	reportPerEvent(b)
}

// stdHeap is a binary heap through container/heap.
type stdHeap []item

func (h stdHeap) Len() int           { return len(h) }
func (h stdHeap) Less(i, j int) bool { return h[i].less(&h[j]) }
func (h stdHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *stdHeap) Push(x any)        { *h = append(*h, x.(item)) }
func (h *stdHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// stdQueue adapts stdHeap to itemQueue.
type stdQueue struct{ h stdHeap }

func (q *stdQueue) push(it item) { heap.Push(&q.h, it) }
func (q *stdQueue) pop() item    { return heap.Pop(&q.h).(item) }

// quadHeap is a hand-written 4-ary heap with no interface calls.
type quadHeap struct{ h []item }

func (q *quadHeap) push(it item) {
	h := append(q.h, it)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !it.less(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = it
	q.h = h
}

func (q *quadHeap) pop() item {
	h := q.h
	top := h[0]
	n := len(h) - 1
	last := h[n]
	h = h[:n]
	q.h = h
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		for j := c + 1; j < min(c+4, n); j++ {
			if h[j].less(&h[m]) {
				m = j
			}
		}
		if !h[m].less(&last) {
			break
		}
		h[i] = h[m]
		i = m
	}
	if n > 0 {
		h[i] = last
	}
	return top
}

// binHeap is the Engine's own overflow heap: a hand-written binary heap
// with no interface calls.
type binHeap struct{ e Engine }

func (q *binHeap) push(it item) { q.e.push(it) }
func (q *binHeap) pop() item    { return q.e.pop() }

// BenchmarkHold compares the queues on the hold model. Compare the
// ns/event metric; ns/op is the same quantity.
func BenchmarkHold(b *testing.B) {
	for _, c := range holdCases() {
		b.Run(c.String(), func(b *testing.B) {
			b.Run("wheel", func(b *testing.B) { benchWheel(b, DefaultWheelSize, c) })
			b.Run("quadheap", func(b *testing.B) { benchQueue(b, &quadHeap{}, c) })
			b.Run("binheap", func(b *testing.B) { benchQueue(b, &binHeap{}, c) })
			b.Run("container-heap", func(b *testing.B) { benchQueue(b, &stdQueue{}, c) })
		})
	}
}

// BenchmarkWheelSize measures the hold model for several wheel sizes; it
// is how DefaultWheelSize was chosen.
func BenchmarkWheelSize(b *testing.B) {
	for _, c := range holdCases() {
		for _, w := range []int{256, 1024, 4096, 16384} {
			b.Run(fmt.Sprintf("%v/W=%d", c, w), func(b *testing.B) { benchWheel(b, w, c) })
		}
	}
}

// BenchmarkSparse measures an engine whose few events are far apart, so
// that most of the work is skipping empty buckets.
func BenchmarkSparse(b *testing.B) {
	for _, mean := range []int{100, 1000, 100000} {
		b.Run(fmt.Sprintf("mean=%d", mean), func(b *testing.B) {
			benchWheel(b, DefaultWheelSize, holdCase{n: 10, mean: mean})
		})
	}
}
