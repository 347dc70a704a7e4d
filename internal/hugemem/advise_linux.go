package hugemem

import (
	"syscall"
	"unsafe"
)

// advise asks Linux to back [p, p+n) with transparent huge pages. Failure
// (an old kernel, THP disabled) only costs speed, so it is ignored.
func advise(p unsafe.Pointer, n int) {
	_ = syscall.Madvise(unsafe.Slice((*byte)(p), n), syscall.MADV_HUGEPAGE)
}
