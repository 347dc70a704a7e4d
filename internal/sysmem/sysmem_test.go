package sysmem

import "testing"

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
