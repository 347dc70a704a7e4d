package experiments

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"netsim/internal/fileio"
)

// source is one file of an experiment: its name as reported in errors and
// where each of its keys is written.
type source struct {
	file  string
	lines keyLines
	// override marks a --set argument (Override): its keys have no line.
	override bool
}

// sources locates the keys of an experiment assembled from a file and the
// files it includes: every key of the merged tree remembers the file whose
// value won, so an error names that file and line.
type sources struct {
	// files[0] is the experiment file itself; included files follow in the
	// order they were read (a file included twice appears twice).
	files []source
	// origin maps the dotted path of every key of the merged tree (tables
	// included) to the index in files of the file that set it last.
	origin map[string]int
}

// locate returns the file and 1-based line where key of section is written
// (line 0 when unknown). A key absent from the merged tree, as in "missing
// key" errors, is located at its section in the file that set the section
// last, and otherwise in the experiment file itself.
func (s *sources) locate(section, key string) (string, int) {
	path := joinPath(section, key)
	for _, p := range []string{path, section} {
		if p == "" {
			continue
		}
		if i, ok := s.origin[p]; ok {
			if line := s.files[i].lines.line(section, key); line > 0 {
				return s.files[i].file, line
			}
			if s.files[i].override && p == path {
				return s.files[i].file, 0
			}
		}
	}
	return s.files[0].file, s.files[0].lines.line(section, key)
}

// has reports whether some file sets key of section.
func (s *sources) has(section, key string) bool {
	_, ok := s.origin[joinPath(section, key)]
	return ok
}

// arrayLine returns the file and line of key in the index-th table of the
// array of tables [[path]] (see keyLines.arrayLine), looked up in the file
// that set the array.
func (s *sources) arrayLine(path string, index int, key string) (string, int) {
	i := s.origin[path]
	return s.files[i].file, s.files[i].lines.arrayLine(path, index, key)
}

// dirOf returns the directory a relative path set by key of section is
// relative to: that of the file that set it, or of the one that set its
// closest enclosing table, or of the experiment file; the current
// directory for a --set argument (Override).
func (s *sources) dirOf(section, key string) string {
	for p := joinPath(section, key); p != ""; {
		if i, ok := s.origin[p]; ok {
			if s.files[i].override {
				return "."
			}
			return filepath.Dir(s.files[i].file)
		}
		dot := strings.LastIndexByte(p, '.')
		if dot < 0 {
			break
		}
		p = p[:dot]
	}
	return filepath.Dir(s.files[0].file)
}

// rank returns the position of file in s, for ordering errors file by
// file; files not in s come last.
func (s *sources) rank(file string) int {
	for i, f := range s.files {
		if f.file == file {
			return i
		}
	}
	return len(s.files)
}

// joinPath joins a section and a key into a dotted path.
func joinPath(section, key string) string {
	switch {
	case section == "":
		return key
	case key == "":
		return section
	}
	return section + "." + key
}

// includeKey is the top-level key listing the files a file includes.
const includeKey = "include"

// includer reads an experiment file and, recursively, the files it
// includes, and merges them into one tree.
type includer struct {
	src  *sources
	errs []error
	// read holds each file read, by its resolved path, so that a file
	// included twice (a diamond, a repeated include) is read and decoded
	// once; bytes counts what the included files hold.
	read  map[string]decoded
	bytes int
}

// decoded is a file decoded and merged with its includes, and where its
// keys come from.
type decoded struct {
	tree   map[string]any
	origin map[string]int
}

// Limits of an experiment file and its includes, checked before a file is
// decoded, so a hostile file cannot exhaust memory.
const (
	// MaxFileBytes bounds an experiment file or an included one.
	MaxFileBytes = 16 << 20
	// MaxIncludedFiles bounds the distinct files a file includes, all
	// levels together.
	MaxIncludedFiles = 1024
	// MaxNesting bounds the nesting of tables and arrays in a file.
	MaxNesting = 64
	// MaxIncludedBytes bounds what the included files hold together.
	MaxIncludedBytes = 64 << 20
)

// lastOfEach returns the files of an include list (relative to dir) each
// once, at its last place: merging a file again over what came between
// gives what merging it last once does.
func lastOfEach(files []string, dir string) []string {
	last := map[string]int{}
	for i, f := range files {
		p := f
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		last[resolved(p)] = i
	}
	var out []string
	for i, f := range files {
		p := f
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if last[resolved(p)] == i {
			out = append(out, f)
		}
	}
	return out
}

// readTree decodes the experiment file called file, whose contents are
// data, merged with the files it includes (see mergeTree), and returns the
// merged tree and where its keys come from. Problems (syntax errors, files
// that cannot be read, cycles) are returned joined, each an *InputError.
// The overrides are merged last, over the file and its includes.
func readTree(file string, data []byte, overrides []Override) (map[string]any, *sources, error) {
	in := &includer{src: &sources{origin: map[string]int{}}, read: map[string]decoded{}}
	root, origin := in.load(file, data, nil)
	if len(in.errs) > 0 {
		return nil, nil, errors.Join(in.errs...)
	}
	in.src.origin = origin
	applyOverrides(root, in.src, overrides)
	return root, in.src, nil
}

// load decodes one file and its includes; stack holds the files being
// included, outermost first, to detect cycles. It returns the file's
// merged tree and the origin of each of its keys.
func (in *includer) load(file string, data []byte, stack []string) (map[string]any, map[string]int) {
	text := string(data)
	idx := len(in.src.files)
	in.src.files = append(in.src.files, source{file: file, lines: newKeyLines(text)})
	var own map[string]any
	if line, err := checkNesting(text); err != nil {
		in.errs = append(in.errs, &InputError{File: file, Line: line, Msg: err.Error()})
		return nil, nil
	}
	if _, err := toml.Decode(text, &own); err != nil {
		in.errs = append(in.errs, syntaxError(file, text, err))
		return nil, nil
	}
	merged, origin := map[string]any{}, map[string]int{}
	stack = append(stack, file)
	for _, inc := range lastOfEach(in.includes(idx, own), filepath.Dir(file)) {
		path := inc
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(file), inc)
		}
		if cycle := includeCycle(stack, path); cycle != "" {
			in.fail(idx, "cycle: %s (a file may not include itself, directly or not)", cycle)
			continue
		}
		key := resolved(path)
		d, done := in.read[key]
		if !done {
			if len(in.read) == MaxIncludedFiles {
				in.fail(idx, "more than %d files included", MaxIncludedFiles)
				return nil, nil
			}
			incData, err := fileio.ReadFile(path, MaxFileBytes)
			if err != nil {
				in.fail(idx, "cannot read %s", readError(path, err))
				continue
			}
			if in.bytes += len(incData); in.bytes > MaxIncludedBytes {
				in.fail(idx, "the included files hold more than %s together", fileio.Size(MaxIncludedBytes))
				return nil, nil
			}
			d.tree, d.origin = in.load(path, incData, stack)
			in.read[key] = d
		}
		tree, treeOrigin := d.tree, d.origin
		if tree == nil {
			continue
		}
		delete(tree, "name") // an experiment's name is its own
		mergeTree(merged, tree, origin, treeOrigin, "")
	}
	delete(own, includeKey)
	ownOrigin := map[string]int{}
	markOrigin(own, "", idx, ownOrigin)
	mergeTree(merged, own, origin, ownOrigin, "")
	return merged, origin
}

// resolved returns the path that identifies the file path names: absolute,
// with symbolic links resolved (path as it is when it cannot be).
func resolved(path string) string {
	p, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if q, err := filepath.EvalSymlinks(p); err == nil {
		return q
	}
	return p
}

// readError describes why path could not be read: the reason alone for a
// system error (the message names the file), else err.
func readError(path string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s: %v", path, pe.Err)
	}
	return err.Error()
}

// checkNesting checks that the TOML text nests tables and arrays at most
// MaxNesting deep, outside strings and comments, and returns the line of
// the first bracket too deep: the decoder would build every level before
// failing.
func checkNesting(text string) (int, error) {
	depth, line := 0, 1
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '\n':
			line++
		case '#':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			line++
		case '"', '\'':
			triple := strings.Repeat(string(c), 3)
			if strings.HasPrefix(text[i:], triple) {
				// A multi-line string: escapes (in basic strings) and up to
				// two quotes before the closing three belong to it.
				j := i + 3
				for {
					if j >= len(text) {
						return 0, nil // unterminated: the decoder reports it
					}
					if c == '"' && text[j] == '\\' {
						if j+1 < len(text) && text[j+1] == '\n' {
							line++
						}
						j += 2
						continue
					}
					if strings.HasPrefix(text[j:], triple) {
						j += 3
						for k := 0; k < 2 && j < len(text) && text[j] == c; k++ {
							j++
						}
						break
					}
					if text[j] == '\n' {
						line++
					}
					j++
				}
				i = j - 1
				continue
			}
			for i++; i < len(text) && text[i] != c && text[i] != '\n'; i++ {
				if c == '"' && text[i] == '\\' {
					i++
				}
			}
			if i < len(text) && text[i] == '\n' {
				line++
			}
		case '{', '[':
			if depth++; depth > MaxNesting {
				return line, fmt.Errorf("tables and arrays nested more than %d deep", MaxNesting)
			}
		case '}', ']':
			depth = max(depth-1, 0)
		}
	}
	return 0, nil
}

// includes returns the files listed by the include key of the tree of file
// idx, reporting a value that is not a string or an array of strings.
func (in *includer) includes(idx int, tree map[string]any) []string {
	v, ok := tree[includeKey]
	if !ok {
		return nil
	}
	if s, ok := v.(string); ok {
		return []string{s}
	}
	list, ok := v.([]any)
	if !ok {
		in.fail(idx, "expected an array of file names, got %s", describe(v))
		return nil
	}
	var out []string
	for i, x := range list {
		s, ok := x.(string)
		if !ok || s == "" {
			in.fail(idx, "element %d: expected a file name, got %s", i+1, describe(x))
			continue
		}
		out = append(out, s)
	}
	return out
}

// fail records a problem with the include key of file idx.
func (in *includer) fail(idx int, format string, args ...any) {
	f := in.src.files[idx]
	in.errs = append(in.errs, &InputError{File: f.file, Line: f.lines.line("", includeKey),
		Key: includeKey, Msg: fmt.Sprintf(format, args...)})
}

// includeCycle returns the chain "a → b → a" when path is already being
// included (stack holds the files being included), or "".
func includeCycle(stack []string, path string) string {
	for i, f := range stack {
		if sameFile(f, path) {
			return strings.Join(append(append([]string(nil), stack[i:]...), path), " → ")
		}
	}
	return ""
}

// sameFile reports whether two paths name the same file: the same cleaned
// absolute path, or the same file on disk.
func sameFile(a, b string) bool {
	aa, errA := filepath.Abs(a)
	bb, errB := filepath.Abs(b)
	if errA == nil && errB == nil && aa == bb {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// mergeTree merges src into dst: tables are merged key by key, any other
// value (arrays included) replaces dst's. origin receives the origin of
// every key set from srcOrigin.
func mergeTree(dst, src map[string]any, origin, srcOrigin map[string]int, prefix string) {
	for k, v := range src {
		path := joinPath(prefix, k)
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				mergeTree(dm, sm, origin, srcOrigin, path)
				origin[path] = srcOrigin[path]
				continue
			}
		}
		if old, had := dst[k]; had {
			forgetOrigin(origin, path, old)
		}
		dst[k] = copyValue(v)
		copyOrigin(origin, srcOrigin, path, v)
	}
}

// markOrigin sets the origin of every key of tree, under prefix, to idx.
func markOrigin(tree map[string]any, prefix string, idx int, origin map[string]int) {
	for k, v := range tree {
		path := joinPath(prefix, k)
		origin[path] = idx
		if m, ok := v.(map[string]any); ok {
			markOrigin(m, path, idx, origin)
		}
	}
}

// forgetOrigin removes path and the keys below it from origin; old is
// the value there, whose tables name the keys below (walking them costs
// their size, not the whole map's).
func forgetOrigin(origin map[string]int, path string, old any) {
	delete(origin, path)
	if m, ok := old.(map[string]any); ok {
		for k, v := range m {
			forgetOrigin(origin, joinPath(path, k), v)
		}
	}
}

// copyOrigin copies the origin of path and of the keys below it, v being
// the value there.
func copyOrigin(dst, src map[string]int, path string, v any) {
	if i, ok := src[path]; ok {
		dst[path] = i
	}
	if m, ok := v.(map[string]any); ok {
		for k, x := range m {
			copyOrigin(dst, src, joinPath(path, k), x)
		}
	}
}

// copyValue returns a deep copy of a decoded TOML value, so merged and
// expanded trees never share tables.
func copyValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = copyValue(e)
		}
		return m
	case []map[string]any:
		out := make([]map[string]any, len(x))
		for i, e := range x {
			out[i] = copyValue(e).(map[string]any)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = copyValue(e)
		}
		return out
	}
	return v
}
