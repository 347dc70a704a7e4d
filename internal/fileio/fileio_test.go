package fileio

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, path string
		limit      int64
		want       error
		msg        string
	}{
		{"fits", small, 5, nil, ""},
		{"too large", small, 4, ErrTooLarge, "small: file too large: more than the 4 bytes netsim reads"},
		{"directory", dir, 1 << 20, ErrNotRegular, "not a regular file (a directory)"},
		{"fifo", fifo, 1 << 20, ErrNotRegular, "not a regular file (a FIFO)"}, // refused without blocking
		{"device", "/dev/zero", 1 << 20, ErrNotRegular, "/dev/zero: not a regular file (a device)"},
		{"missing", filepath.Join(dir, "none"), 1, os.ErrNotExist, "no such file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ReadFile(tc.path, tc.limit)
			if tc.want == nil {
				if err != nil || string(b) != "hello" {
					t.Fatalf("ReadFile = %q, %v", b, err)
				}
				return
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want %v with %q", err, tc.want, tc.msg)
			}
		})
	}
}

// TestOpenGrows: a file that grows past the cap while it is read fails
// with ErrTooLarge, not with more bytes than the cap.
func TestOpenGrows(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(p, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := os.WriteFile(p, []byte("abcdefgh"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if !errors.Is(err, ErrTooLarge) || len(b) > 4 {
		t.Fatalf("read %q, %v; want at most 4 bytes and ErrTooLarge", b, err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{512: "512 bytes", 4 << 10: "4 KiB", 64 << 20: "64 MiB", 1 << 30: "1 GiB", 1<<20 + 1: "1048577 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
