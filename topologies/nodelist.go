package topologies

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
)

// IndexNames maps each name to its index.
func IndexNames(names []string) map[string]int {
	m := make(map[string]int, len(names))
	for i, n := range names {
		m[n] = i
	}
	return m
}

// ReadNodeList reads a list of nodes one a line, each named by the first
// word of its line, which find resolves to an index or explains; blank
// lines and lines starting with '#' are skipped. A word find refuses, a
// node listed twice (kind names it) or an empty list (the error empty) is
// an error naming the file and line. It returns the indices in order.
func ReadNodeList(data []byte, file, kind, empty string, find func(word string) (int, string)) ([]int, error) {
	var nodes []int
	seen := map[int]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		word := strings.Fields(text)[0]
		n, msg := find(word)
		if msg != "" {
			return nil, FileErrorf(file, line, "%s", msg)
		}
		if first, dup := seen[n]; dup {
			return nil, FileErrorf(file, line, "%s %s is listed twice (first at line %d)", kind, word, first)
		}
		seen[n] = line
		nodes = append(nodes, n)
	}
	if err := sc.Err(); err != nil {
		return nil, FileErrorf(file, line+1, "%v", err)
	}
	if len(nodes) == 0 {
		return nil, FileErrorf(file, 0, "%s", empty)
	}
	return nodes, nil
}

// EachLine calls f for each line of r that holds more than a comment,
// with its number (from 1) and its text: the line cut at its first '#'
// and trimmed. It stops at f's first error. A line longer than maxLine
// bytes, or a read error, is an error naming the file and the line.
func EachLine(r io.Reader, file string, maxLine int, f func(line int, text string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(64<<10, maxLine)), maxLine)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		if text = strings.TrimSpace(text); text == "" {
			continue
		}
		if err := f(line, text); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return FileErrorf(file, line+1, "line longer than %d bytes", maxLine)
		}
		return FileErrorf(file, line+1, "%v", err)
	}
	return nil
}
