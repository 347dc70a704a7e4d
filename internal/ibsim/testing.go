package ibsim

import (
	"syscall"
	"testing"

	"netsim/topologies"
)

// StartTest starts a fabric of net in a temporary directory of tb, failing
// tb when the programs are missing or ibsim does not start, and stops it
// by its process id when tb ends, failing tb if the process survives.
func StartTest(tb testing.TB, net *topologies.Network) *Fabric {
	tb.Helper()
	if err := Check(); err != nil {
		tb.Fatal(err)
	}
	f, err := Start(tb.TempDir(), net)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		pid := f.Pid()
		f.Stop()
		if syscall.Kill(pid, 0) == nil {
			tb.Errorf("ibsim (pid %d) still runs after Stop", pid)
		}
	})
	return f
}
