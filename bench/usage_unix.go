//go:build unix

package bench

import (
	"runtime"
	"syscall"
	"time"
)

// usage returns the CPU time the process has used (user and system, all
// threads) and its peak resident memory in bytes; ok is false where the
// system does not say.
func usage() (cpu time.Duration, peak int64, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, false
	}
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	peak = int64(ru.Maxrss)
	if runtime.GOOS != "darwin" {
		peak *= 1024 // kilobytes, but on macOS
	}
	return cpu, peak, true
}
