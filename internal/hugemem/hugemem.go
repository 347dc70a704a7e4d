// Package hugemem allocates the simulator's large, randomly accessed arrays
// (flit buffers, per-lane state) so the operating system can back them with
// huge pages: a network's buffers span hundreds of megabytes, and with 4 KiB
// pages nearly every flit movement would also miss the TLB.
package hugemem

import "unsafe"

// hugePage is the size of an x86-64 / arm64 transparent huge page.
const hugePage = 2 << 20

// Make returns a zeroed slice of n elements. Slices of at least a few huge
// pages are aligned to a huge-page boundary and advised for transparent huge
// pages where the platform supports it; smaller ones are plain allocations.
func Make[T any](n int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if size == 0 || n*size < 4*hugePage {
		return make([]T, n)
	}
	// Over-allocate so the slice can start on a huge-page boundary. It is an
	// ordinary Go allocation: the advice changes only how the memory is
	// mapped, so T may hold pointers.
	raw := make([]T, n+hugePage/size+1)
	base := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	skip := 0
	if off := base % hugePage; off != 0 {
		skip = int((hugePage - off + uintptr(size) - 1) / uintptr(size))
	}
	s := raw[skip : skip+n : skip+n]
	advise(unsafe.Pointer(unsafe.SliceData(s)), n*size)
	return s
}
