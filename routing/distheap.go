package routing

// distHeap is an indexed binary min-heap of switches keyed by (dist[s], s),
// for the Dijkstra searches of the SSSP routings: each switch is in it at
// most once and a shorter distance moves it up in place (decrease-key), so
// a search allocates nothing once the heap has grown to the switch count.
type distHeap struct {
	dist []int64 // keys, owned by the caller
	sw   []int32 // the heap
	pos  []int32 // index of each switch in sw, −1 when absent
}

func newDistHeap(dist []int64) *distHeap {
	h := &distHeap{dist: dist, sw: make([]int32, 0, len(dist)), pos: make([]int32, len(dist))}
	for i := range h.pos {
		h.pos[i] = -1
	}
	return h
}

// less orders heap slots i and j by distance, then switch index, so that
// the searches are deterministic.
func (h *distHeap) less(i, j int) bool {
	a, b := h.sw[i], h.sw[j]
	da, db := h.dist[a], h.dist[b]
	return da < db || da == db && a < b
}

func (h *distHeap) swap(i, j int) {
	h.sw[i], h.sw[j] = h.sw[j], h.sw[i]
	h.pos[h.sw[i]], h.pos[h.sw[j]] = int32(i), int32(j)
}

// update inserts switch s, or moves it up after its distance decreased.
func (h *distHeap) update(s int32) {
	i := int(h.pos[s])
	if i < 0 {
		i = len(h.sw)
		h.sw = append(h.sw, s)
		h.pos[s] = int32(i)
	}
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h.swap(i, p)
		i = p
	}
}

// pop removes and returns the switch of least distance; the heap must not
// be empty.
func (h *distHeap) pop() int32 {
	s := h.sw[0]
	last := len(h.sw) - 1
	h.swap(0, last)
	h.sw = h.sw[:last]
	h.pos[s] = -1
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < last && h.less(l, m) {
			m = l
		}
		if l+1 < last && h.less(l+1, m) {
			m = l + 1
		}
		if m == i {
			break
		}
		h.swap(i, m)
		i = m
	}
	return s
}

// clear empties the heap.
func (h *distHeap) clear() {
	for _, s := range h.sw {
		h.pos[s] = -1
	}
	h.sw = h.sw[:0]
}
