package experiments

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"netsim/fabric"
)

// TestRunnerCores: with Runner.Cores every simulation gets between
// Cores/Jobs and Cores threads, never more than Cores at once, a search
// running alone gets them all,
// and the records are those of a run without: the same bytes, emitted
// and (in completion order, which timing decides) finished.
func TestRunnerCores(t *testing.T) {
	file := strings.Replace(cheaperFile, `patterns = ["uniform", "complement", "transpose"]`, `patterns = ["uniform", "complement"]`, 1)
	exps, err := LoadFile(writeTemp(t, "cores.toml", file))
	if err != nil {
		t.Fatal(err)
	}
	want, wantFin, err := runLines(context.Background(), Runner{Jobs: 2}, exps)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ jobs, cores int }{{2, 4}, {1, 3}} {
		var mu sync.Mutex
		seen := map[int]int{}
		running, most := 0, 0 // threads of the simulations running
		sim := func(ctx context.Context, cfg fabric.Config) (fabric.Stats, error) {
			mu.Lock()
			seen[cfg.Threads]++
			running += cfg.Threads
			most = max(most, running)
			mu.Unlock()
			defer func() {
				mu.Lock()
				running -= cfg.Threads
				mu.Unlock()
			}()
			return fabric.Run(ctx, cfg)
		}
		got, gotFin, err := runLines(context.Background(), Runner{Jobs: c.jobs, Cores: c.cores, Simulate: sim}, exps)
		if err != nil {
			t.Fatal(err)
		}
		if got != want || !sameLines(gotFin, wantFin) {
			t.Errorf("jobs %d, cores %d: the records differ from a run on one thread each:\n%s\nwant\n%s", c.jobs, c.cores, got, want)
		}
		for threads := range seen {
			if threads < c.cores/c.jobs || threads > c.cores {
				t.Errorf("jobs %d, cores %d: a simulation on %d threads (%v)", c.jobs, c.cores, threads, seen)
			}
		}
		if most > c.cores {
			t.Errorf("jobs %d, cores %d: %d threads ran at once", c.jobs, c.cores, most)
		}
		if c.jobs == 1 && (len(seen) != 1 || seen[c.cores] == 0) {
			t.Errorf("one job, %d cores: threads %v, want all on %d", c.cores, seen, c.cores)
		}
	}
}

// writeTemp writes data to a file named name in a test's temporary
// directory and returns its path.
func writeTemp(t *testing.T, name, data string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// sameLines reports whether a and b hold the same lines in any order.
func sameLines(a, b string) bool {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	slices.Sort(la)
	slices.Sort(lb)
	return slices.Equal(la, lb)
}
