//go:build unix

package fileio

import (
	"os"
	"syscall"
)

// openNonBlocking opens path for reading without waiting, as opening a
// FIFO would, for a writer; reads of a regular file do not block anyway.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
