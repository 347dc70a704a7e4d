// Package fileio reads the files netsim is given — experiment files and
// what they name, results, topologies, tables, traces — as regular files
// of bounded size: a FIFO, a device or a directory is refused before it
// is opened (it could block or never end), and a file larger than the
// cap is refused with its name and the cap, before it fills memory.
package fileio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Caps of the kinds of files netsim reads.
const (
	// MaxSmall bounds small inputs: host, root and node lists, OpenSM's
	// configurations, histograms, placements, floorplans, Slurm state.
	MaxSmall = 256 << 20
	// MaxLarge bounds topologies, traffic matrices and traces.
	MaxLarge = 1 << 30
	// MaxTables bounds forwarding tables, path records and results files,
	// which grow with the square of a fabric's hosts.
	MaxTables = 4 << 30
)

// ErrTooLarge is wrapped by the error of a file larger than its cap.
var ErrTooLarge = errors.New("file too large")

// ErrNotRegular is wrapped by the error of a path that is not a regular
// file.
var ErrNotRegular = errors.New("not a regular file")

// Open opens the regular file path for reading at most limit bytes: a
// reader that fails with ErrTooLarge past them, the file's size may grow
// while it is read.
func Open(path string, limit int64) (io.ReadCloser, error) {
	st, err := os.Stat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Op = "open" // as os.Open says it, which the caller asked for
		}
		return nil, err
	}
	if err := check(path, st, limit); err != nil {
		return nil, err
	}
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, err
	}
	// The path may name another file now than when it was looked at:
	// check the file opened, which a FIFO swapped in meanwhile cannot
	// block (it was opened without waiting for a writer).
	if st, err = f.Stat(); err == nil {
		err = check(path, st, limit)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &capped{f: f, path: path, limit: limit, left: limit}, nil
}

// ReadFile reads the regular file path, of at most limit bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	r, err := Open(path, limit)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// check refuses what is not a regular file, or one larger than limit.
func check(path string, st fs.FileInfo, limit int64) error {
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kind(st.Mode()))
	}
	if st.Size() > limit {
		return tooLarge(path, limit)
	}
	return nil
}

func tooLarge(path string, limit int64) error {
	return fmt.Errorf("%s: %w: more than the %s netsim reads", path, ErrTooLarge, Size(limit))
}

// kind names a file mode that is not a regular file.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// Size writes a byte count readably: 64 MiB, 1 GiB, 512 bytes.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// capped reads at most limit bytes of f; left is what remains.
type capped struct {
	f           *os.File
	path        string
	limit, left int64
}

// Read implements io.Reader: past the cap, ErrTooLarge.
func (c *capped) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, tooLarge(c.path, c.limit)
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1] // one more byte tells a file that grew past the cap
	}
	n, err := c.f.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return n + int(c.left), tooLarge(c.path, c.limit)
	}
	return n, err
}

// Close implements io.Closer.
func (c *capped) Close() error { return c.f.Close() }
