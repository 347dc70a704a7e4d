package hugemem

import (
	"testing"
	"unsafe"
)

func TestMake(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 3 << 20} {
		s := Make[uint64](n)
		if len(s) != n || cap(s) != n {
			t.Fatalf("n=%d: len %d cap %d", n, len(s), cap(s))
		}
		for i := range s {
			if s[i] != 0 {
				t.Fatalf("n=%d: element %d not zero", n, i)
			}
			s[i] = uint64(i)
		}
		if n*8 >= 4*hugePage {
			if p := uintptr(unsafe.Pointer(unsafe.SliceData(s))); p%hugePage != 0 {
				t.Fatalf("n=%d: large slice at %#x, not on a huge-page boundary", n, p)
			}
		}
	}
}
