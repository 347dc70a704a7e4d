//go:build unix

package experiments

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockResults takes an exclusive lock on the lock file of the results file
// at path, so that two runs never append to the same results; it fails at
// once if another process (or another ResultsFile) holds it. The lock
// goes with unlockResults, which removes the lock file while it still
// holds the lock: a run that opened the file before and gets the lock
// after finds the path gone or another file there, and tries again.
func lockResults(path string) (*os.File, error) {
	name := lockPath(path)
	for range 100 {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("%s: another netsim run is writing these results (it holds %s); wait for it to end or write to another directory", path, name)
			}
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(name)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return f, nil
		}
		f.Close() // a run that ended removed the file we locked: lock the new one
	}
	return nil, fmt.Errorf("locking %s: %s keeps being replaced", path, name)
}

// unlockResults removes the lock file f of the results file at path and
// releases the lock.
func unlockResults(path string, f *os.File) {
	os.Remove(lockPath(path))
	f.Close()
}
