//go:build unix

package experiments

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResultsFileLock: while one ResultsFile is open, a second one on the
// same path fails with an error naming the file and the lock, and leaves
// the file alone; after Close or Finish the path opens again.
func TestResultsFileLock(t *testing.T) {
	exps := testExperiments(t)
	path := filepath.Join(t.TempDir(), "results.jsonl")
	first, err := OpenResults(path, exps)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Append(Record{Kind: KindPoint, Experiment: exps[0], Pattern: exps[0].Traffic.Patterns[0], Offered: 0.5}); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = OpenResults(path, exps)
	if err == nil {
		t.Fatal("second OpenResults on a locked file succeeded")
	}
	for _, want := range []string{path, "another netsim run", lockPath(path)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Errorf("the refused open changed the file:\n%s\nwas\n%s", after, before)
	}
	for _, release := range []struct {
		name string
		f    func(*ResultsFile) error
	}{
		{"Close", (*ResultsFile).Close},
		{"Finish", func(rf *ResultsFile) error { return rf.Finish(nil) }},
	} {
		if err := release.f(first); err != nil {
			t.Fatalf("%s: %v", release.name, err)
		}
		if first, err = OpenResults(path, exps); err != nil {
			t.Fatalf("open after %s: %v", release.name, err)
		}
	}
	first.Close()
}

// TestResultsFileLeavesNothing: a run leaves its results file only: the
// lock file goes with the lock, and the files a run killed while
// rewriting left behind go when the next run opens the results.
func TestResultsFileLeavesNothing(t *testing.T) {
	exps := testExperiments(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "results.jsonl")
	for _, stale := range []string{".results-123.jsonl", ".results.jsonl-456.tmp"} {
		if err := os.WriteFile(filepath.Join(dir, stale), []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rf, err := OpenResults(path, exps)
	if err != nil {
		t.Fatal(err)
	}
	if err := rf.Finish(nil); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "results.jsonl" {
		t.Errorf("the directory holds %q, want results.jsonl only", names)
	}
}
