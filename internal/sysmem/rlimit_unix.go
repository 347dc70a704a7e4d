//go:build unix

package sysmem

import "syscall"

// addressSpace returns the address-space limit (ulimit -v), 0 if none.
func addressSpace() int64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur == ^uint64(0) || r.Cur >= 1<<60 {
		return 0
	}
	return int64(r.Cur)
}
