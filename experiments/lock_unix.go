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
// file stays; the lock goes with the returned file's Close.
func lockResults(path string) (*os.File, error) {
	name := lockPath(path)
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
	return f, nil
}
