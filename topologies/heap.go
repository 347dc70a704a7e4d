package topologies

// gainHeap is a max-heap of vertices keyed by their gain, with positions
// kept so that a vertex's key can change in place. Several heaps may share
// the gain and pos slices as long as a vertex is in at most one of them.
type gainHeap struct {
	items []int32
	// pos[v] is v's index in items, or −1 when v is in no heap.
	pos  []int32
	gain []int
}

// push adds v, which must be in no heap.
func (h *gainHeap) push(v int32) {
	h.items = append(h.items, v)
	h.pos[v] = int32(len(h.items) - 1)
	h.up(len(h.items) - 1)
}

// top returns the vertex of largest gain, or −1 when h is empty.
func (h *gainHeap) top() int32 {
	if len(h.items) == 0 {
		return -1
	}
	return h.items[0]
}

// remove takes v, which must be in h, out of h.
func (h *gainHeap) remove(v int32) {
	i := int(h.pos[v])
	last := len(h.items) - 1
	h.swap(i, last)
	h.items = h.items[:last]
	h.pos[v] = -1
	if i < last {
		h.fix(h.items[i])
	}
}

// fix restores the heap order after the gain of v, which is in h, changed.
func (h *gainHeap) fix(v int32) {
	i := int(h.pos[v])
	h.up(i)
	h.down(int(h.pos[v]))
}

// reset empties h without touching pos: every vertex must already have
// been removed or have its pos reset by the caller.
func (h *gainHeap) reset() { h.items = h.items[:0] }

func (h *gainHeap) less(i, j int) bool { return h.gain[h.items[i]] > h.gain[h.items[j]] }

func (h *gainHeap) swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.pos[h.items[i]] = int32(i)
	h.pos[h.items[j]] = int32(j)
}

func (h *gainHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			return
		}
		h.swap(i, p)
		i = p
	}
}

func (h *gainHeap) down(i int) {
	n := len(h.items)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && h.less(c+1, c) {
			c++
		}
		if !h.less(c, i) {
			return
		}
		h.swap(i, c)
		i = c
	}
}
