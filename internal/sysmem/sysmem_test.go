package sysmem

import (
	"strings"
	"testing"
)

// TestLimit: on Linux the limit is the machine's memory at most, and
// more than a few MiB.
func TestLimit(t *testing.T) {
	l := Limit()
	total := memTotal()
	if total > 0 && (l <= 16<<20 || l > total) {
		t.Errorf("Limit() = %d, MemTotal %d", l, total)
	}
	t.Logf("limit %d MiB (MemTotal %d MiB)", l>>20, total>>20)
}

// TestCgroupLimitFiles: the limit files of the process's cgroup and of
// those above it, for each hierarchy /proc/self/cgroup names.
func TestCgroupLimitFiles(t *testing.T) {
	for _, f := range cgroupLimitFiles() {
		if !strings.HasSuffix(f, "/memory.max") && !strings.HasSuffix(f, "/memory.limit_in_bytes") {
			t.Errorf("%s is not a limit file", f)
		}
	}
	t.Log(cgroupLimitFiles())
}
