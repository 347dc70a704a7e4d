// Package indexheap is a binary heap of small non-negative integers —
// indices into the caller's key array — that keeps the position of each,
// so that an item's key can change in place (Fix, Update) and any item can
// be removed, in O(log n) and without allocating once the heap has grown.
package indexheap

import "cmp"

// Order says which item a Heap gives first.
type Order uint8

const (
	// Ascending gives the item of least key first.
	Ascending Order = iota
	// Descending gives the item of largest key first.
	Descending
)

// Heap orders items by key[item] in its Order, equal keys by least item,
// so that the order is total and the heap deterministic. The caller owns
// key and pos: pos[v] is v's index in the heap, −1 when v is in none;
// several heaps may share one pos slice as long as an item is in at most
// one of them. The zero Heap is not usable; call New.
type Heap[K cmp.Ordered] struct {
	items []int32
	pos   []int32
	key   []K
	order Order
}

// New returns an empty heap of items 0..len(pos)−1 ordered by key in
// order. The caller sets pos[v] = −1 for every v not in a heap.
func New[K cmp.Ordered](key []K, pos []int32, order Order) Heap[K] {
	return Heap[K]{pos: pos, key: key, order: order}
}

// less reports whether item a comes before item b.
func (h *Heap[K]) less(a, b int32) bool {
	ka, kb := h.key[a], h.key[b]
	if ka != kb {
		return (ka < kb) == (h.order == Ascending)
	}
	return a < b
}

// Len returns the number of items in h.
func (h *Heap[K]) Len() int { return len(h.items) }

// Items returns h's items in heap order; the slice is h's own and changes
// with it.
func (h *Heap[K]) Items() []int32 { return h.items }

// Push adds v, which must be in no heap.
func (h *Heap[K]) Push(v int32) {
	h.items = append(h.items, v)
	h.pos[v] = int32(len(h.items) - 1)
	h.up(len(h.items) - 1)
}

// Top returns the least item, or −1 when h is empty.
func (h *Heap[K]) Top() int32 {
	if len(h.items) == 0 {
		return -1
	}
	return h.items[0]
}

// Pop removes and returns the least item; h must not be empty.
func (h *Heap[K]) Pop() int32 {
	v := h.items[0]
	h.Remove(v)
	return v
}

// Remove takes v, which must be in h, out of h.
func (h *Heap[K]) Remove(v int32) {
	i := int(h.pos[v])
	last := len(h.items) - 1
	h.swap(i, last)
	h.items = h.items[:last]
	h.pos[v] = -1
	if i < last {
		h.Fix(h.items[i])
	}
}

// Fix restores the order after the key of v, which is in h, changed.
func (h *Heap[K]) Fix(v int32) {
	h.up(int(h.pos[v]))
	h.down(int(h.pos[v]))
}

// Update adds v if it is in no heap, else restores the order after its key
// changed.
func (h *Heap[K]) Update(v int32) {
	if h.pos[v] < 0 {
		h.Push(v)
		return
	}
	h.Fix(v)
}

// Clear empties h, setting pos of its items to −1.
func (h *Heap[K]) Clear() {
	for _, v := range h.items {
		h.pos[v] = -1
	}
	h.items = h.items[:0]
}

func (h *Heap[K]) swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.pos[h.items[i]] = int32(i)
	h.pos[h.items[j]] = int32(j)
}

func (h *Heap[K]) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(h.items[i], h.items[p]) {
			return
		}
		h.swap(i, p)
		i = p
	}
}

func (h *Heap[K]) down(i int) {
	n := len(h.items)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && h.less(h.items[c+1], h.items[c]) {
			c++
		}
		if !h.less(h.items[c], h.items[i]) {
			return
		}
		h.swap(i, c)
		i = c
	}
}
