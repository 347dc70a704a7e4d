//go:build !linux

package hugemem

import "unsafe"

// advise is a no-op where transparent huge pages cannot be requested.
func advise(unsafe.Pointer, int) {}
