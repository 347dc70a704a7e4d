package routing

import (
	"slices"
	"testing"

	"netsim/kernel"
)

// TestDistHeap inserts switches with random distances, lowers some of them,
// and checks that pop returns them by (distance, index), each once.
func TestDistHeap(t *testing.T) {
	for _, n := range []int{1, 2, 7, 100} {
		rng := kernel.NewRNG(uint64(n), 0)
		dist := make([]int64, n)
		h := newDistHeap(dist)
		for s := range n {
			dist[s] = int64(rng.IntN(10))
			h.update(int32(s))
		}
		for range n {
			s := int32(rng.IntN(n))
			if d := dist[s] - int64(rng.IntN(5)); d >= 0 {
				dist[s] = d
				h.update(s)
			}
		}
		want := make([]int32, n)
		for s := range want {
			want[s] = int32(s)
		}
		slices.SortFunc(want, func(a, b int32) int {
			if dist[a] != dist[b] {
				return int(dist[a] - dist[b])
			}
			return int(a - b)
		})
		var got []int32
		for len(h.sw) > 0 {
			got = append(got, h.pop())
		}
		if !slices.Equal(got, want) {
			t.Errorf("n=%d: popped %v, want %v", n, got, want)
		}
		h.update(0)
		h.clear()
		if len(h.sw) != 0 || h.pos[0] != -1 {
			t.Errorf("n=%d: clear left %v", n, h.sw)
		}
	}
}
