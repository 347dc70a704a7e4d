package experiments

import (
	"bytes"
	"errors"
	"fmt"
	"netsim/internal/fileio"
	"os"
	"path/filepath"
)

// ResultsFile is a results file (JSON lines) that a run appends to as its
// points finish, and that a later run of the same experiments resumes
// from.
type ResultsFile struct {
	path string
	f    *os.File
	lock *os.File // held from OpenResults to Close or Finish; nil without flock
	// Store holds the results the file held when it was opened.
	Store *Store
	// Torn is the half-written last line cut off when the file was opened
	// (nil if there was none); its point is run again.
	Torn []byte
}

// OpenResults opens the results file at path, creating it if needed, to
// resume a run of exps: its lines are read into Store (see NewStore) and a
// torn last line (see ReadResults) is cut off. The file is not modified
// when it cannot be resumed from. While the ResultsFile is open it holds a
// lock (a file next to it, see lockPath), so a second run writing to the
// same file fails here instead of mixing its lines into it.
func OpenResults(path string, exps []*Experiment) (_ *ResultsFile, err error) {
	rf := &ResultsFile{path: path}
	if rf.lock, err = lockResults(path); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			rf.unlock()
		}
	}()
	removeStale(path)
	data, err := fileio.ReadFile(path, fileio.MaxTables)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("reading results: %w", err)
	}
	lines, torn, err := ReadResults(bytes.NewReader(data), path)
	if err != nil {
		return nil, err
	}
	if rf.Store, err = NewStore(exps, lines); err != nil {
		return nil, err
	}
	if torn >= 0 {
		rf.Torn = bytes.Clone(data[torn:])
		if err := os.Truncate(path, torn); err != nil {
			return nil, fmt.Errorf("cutting the torn last line of %s: %w", path, err)
		}
	}
	rf.f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening results: %w", err)
	}
	return rf, nil
}

// Path returns the file's path.
func (rf *ResultsFile) Path() string { return rf.path }

// lockPath returns the lock file of the results file at path: a hidden
// file beside it.
func lockPath(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
}

// unlock releases the lock and removes its file.
func (rf *ResultsFile) unlock() {
	if rf.lock != nil {
		unlockResults(rf.path, rf.lock)
		rf.lock = nil
	}
}

// tempPattern is the name of the files Finish writes before it renames
// them over the results: hidden, beside them.
func tempPattern(path string) string { return "." + filepath.Base(path) + "-*.tmp" }

// removeStale removes what runs killed before their end left of the
// results file at path: the files Finish wrote and did not rename (under
// tempPattern, and .results-*.jsonl, their earlier name). The caller
// holds the lock, so no run is writing them.
func removeStale(path string) {
	dir := filepath.Dir(path)
	entries, _ := os.ReadDir(dir) // not a glob of dir: its name may hold * or [
	for _, e := range entries {
		for _, pattern := range []string{tempPattern(path), ".results-*.jsonl"} {
			if ok, _ := filepath.Match(pattern, e.Name()); ok && e.Type().IsRegular() {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
}

// Append writes r at the end of the file, in one write.
func (rf *ResultsFile) Append(r Record) error {
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		return err
	}
	if _, err := rf.f.Write(b.Bytes()); err != nil {
		return fmt.Errorf("appending to %s: %w", rf.path, err)
	}
	return nil
}

// Close closes the file, leaving its lines in the order they were
// appended, and releases its lock.
func (rf *ResultsFile) Close() error {
	defer rf.unlock()
	if err := rf.f.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", rf.path, err)
	}
	return nil
}

// Finish closes the file and rewrites it in canonical order: records (a
// complete run's records in the order Runner.Run emits them) followed by
// the lines of the store no run took, in their order. The new file
// replaces the old one atomically, so a crash leaves one or the other.
// The lock is released when the new file is in place.
func (rf *ResultsFile) Finish(records []Record) error {
	defer rf.unlock()
	if err := rf.f.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", rf.path, err)
	}
	var b bytes.Buffer
	for _, r := range records {
		if err := WriteJSON(&b, r); err != nil {
			return err
		}
	}
	for _, l := range rf.Store.Unused() {
		b.Write(l.Text)
		b.WriteByte('\n')
	}
	tmp, err := os.CreateTemp(filepath.Dir(rf.path), tempPattern(rf.path))
	if err != nil {
		return fmt.Errorf("rewriting %s: %w", rf.path, err)
	}
	_, werr := tmp.Write(b.Bytes())
	if err := errors.Join(werr, tmp.Chmod(0o644), tmp.Sync(), tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("rewriting %s: %w", rf.path, err)
	}
	if err := os.Rename(tmp.Name(), rf.path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("rewriting %s: %w", rf.path, err)
	}
	return nil
}
