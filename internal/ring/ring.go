// Package ring provides a growable FIFO ring buffer that allocates only
// when it outgrows its capacity, for queues on the simulator's hot paths.
package ring

// Ring is a FIFO of T. The zero value is an empty ring; Init or WithStore
// give it initial room.
type Ring[T any] struct {
	buf  []T
	head int
	n    int
}

// Init empties r and gives it room for capacity elements.
func (r *Ring[T]) Init(capacity int) { *r = Ring[T]{buf: make([]T, max(capacity, 1))} }

// WithStore empties r and uses store as its initial room (for example an
// array inside the owner, so a small ring needs no allocation of its own).
func (r *Ring[T]) WithStore(store []T) { *r = Ring[T]{buf: store} }

// Len returns the number of elements.
func (r *Ring[T]) Len() int { return r.n }

// At returns a pointer to the i-th oldest element, 0 ≤ i < Len().
func (r *Ring[T]) At(i int) *T {
	i += r.head
	if i >= len(r.buf) {
		i -= len(r.buf)
	}
	return &r.buf[i]
}

// Front returns the oldest element; the ring must not be empty.
func (r *Ring[T]) Front() T { return r.buf[r.head] }

// Push appends v, doubling the room when the ring is full.
func (r *Ring[T]) Push(v T) {
	if r.n == len(r.buf) {
		nb := make([]T, max(2*len(r.buf), 4))
		for i := 0; i < r.n; i++ {
			nb[i] = *r.At(i)
		}
		r.buf, r.head = nb, 0
	}
	r.n++
	*r.At(r.n - 1) = v
}

// Pop removes the oldest element; the ring must not be empty.
func (r *Ring[T]) Pop() T {
	v := r.buf[r.head]
	r.head++
	if r.head == len(r.buf) {
		r.head = 0
	}
	r.n--
	return v
}
