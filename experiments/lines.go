package experiments

import (
	"regexp"
	"strings"
)

// keyLines finds the line on which a key of an experiment file is written.
// The TOML decoder does not export key positions, so keyLines scans the
// text: it tracks the current [table] header and matches "key =" lines,
// dotted keys ("sweep.mode = ...", "[a] b.c = ...") and keys inside
// single-line inline tables ("sweep = { mode = ... }").
type keyLines struct {
	// entries holds, per line, the full dotted path of the key assigned
	// there (or of the table header), and the raw right-hand side.
	entries []lineEntry
}

// lineEntry is what one line of the file defines.
type lineEntry struct {
	path   string // dotted key path assigned or table opened, "" if none
	header bool   // the line is a [table] header
	rhs    string // text after '=' for assignments
}

// newKeyLines indexes the lines of text.
func newKeyLines(text string) keyLines {
	lines := strings.Split(text, "\n")
	kl := keyLines{entries: make([]lineEntry, len(lines))}
	table := ""
	for i, raw := range lines {
		line := strings.TrimSpace(stripComment(raw))
		switch {
		case line == "":
		case strings.HasPrefix(line, "["):
			name := strings.Trim(line, "[] \t")
			table = normalizeKey(name)
			kl.entries[i] = lineEntry{path: table, header: true}
		default:
			eq := strings.IndexByte(line, '=')
			if eq <= 0 {
				continue
			}
			key := normalizeKey(line[:eq])
			if table != "" {
				key = table + "." + key
			}
			kl.entries[i] = lineEntry{path: key, rhs: line[eq+1:]}
		}
	}
	return kl
}

// line returns the 1-based line on which key of section is written; for
// key "" the line where section is opened. When the key is not found it
// falls back to the section's line, and to 0 when neither is found.
func (kl keyLines) line(section, key string) int {
	want := key
	if section != "" {
		want = section
		if key != "" {
			want = section + "." + key
		}
	}
	if want == "" {
		return 0
	}
	for i, e := range kl.entries {
		if e.path == want {
			return i + 1
		}
	}
	// Inline table: "section = { key = ... }" or a dotted prefix of it.
	for i, e := range kl.entries {
		if e.header || e.path == "" || !strings.HasPrefix(want, e.path+".") {
			continue
		}
		rest := strings.TrimPrefix(want, e.path+".")
		last := rest[strings.LastIndexByte(rest, '.')+1:]
		if inlineKey(last).MatchString(e.rhs) {
			return i + 1
		}
	}
	// Fall back to the first line that opens or assigns inside section.
	if key != "" {
		return kl.line(section, "")
	}
	for i, e := range kl.entries {
		if strings.HasPrefix(e.path, want+".") {
			return i + 1
		}
	}
	return 0
}

// arrayLine returns the 1-based line of key inside the index-th (0-based)
// table of the array of tables [[path]], the table's header line when key
// is not written there, or 0 when there is no such table (as for an inline
// array).
func (kl keyLines) arrayLine(path string, index int, key string) int {
	n := -1
	for i, e := range kl.entries {
		if !e.header || e.path != path {
			continue
		}
		if n++; n != index {
			continue
		}
		for j := i + 1; j < len(kl.entries) && !kl.entries[j].header; j++ {
			if kl.entries[j].path == path+"."+key {
				return j + 1
			}
		}
		return i + 1
	}
	return 0
}

// inlineKey matches "key =" inside an inline table.
func inlineKey(key string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[{,\s])"?` + regexp.QuoteMeta(key) + `"?\s*=`)
}

// normalizeKey removes quotes and the blanks around dots of a TOML key.
func normalizeKey(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}

// stripComment removes a trailing # comment that is not inside a string.
func stripComment(s string) string {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			return s[:i]
		}
	}
	return s
}
