package flowctl

import (
	"testing"
	"unsafe"
)

// TestLinkLayout checks that a Link keeps the sender's side, with the
// STOP/GO pointer every call looks at first, on its first cache line, and
// that Links in an aligned array start on a cache line.
func TestLinkLayout(t *testing.T) {
	var l Link
	if got := unsafe.Sizeof(l); got != linkSize || got%64 != 0 {
		t.Errorf("Link is %d bytes, want %d, a multiple of 64", got, linkSize)
	}
	if off := unsafe.Offsetof(l.c) + unsafe.Offsetof(l.c.returns); off != 64 {
		t.Errorf("the receiver's side starts at byte %d, want 64", off)
	}
	if off := unsafe.Offsetof(l.c) + unsafe.Offsetof(l.c.latency); off >= 64 || unsafe.Offsetof(l.s) != 0 {
		t.Errorf("the sender's side ends past the first cache line (latency at %d, s at %d)", off, unsafe.Offsetof(l.s))
	}
	if off := unsafe.Offsetof(l.c) + unsafe.Offsetof(l.c.queued); off+2 > 64 {
		t.Errorf("the count of ramps the sender reads is at byte %d, past the first cache line", off)
	}
}
