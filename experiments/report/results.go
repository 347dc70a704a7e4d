package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Result kinds, as in the "kind" field of a results line.
const (
	KindPoint      = "point"
	KindSaturation = "saturation"
	KindEBB        = "ebb" // an exchange's effective bisection bandwidth
	KindError      = "error"
)

// Result is one line of a results file: every field as written, and where
// the line came from.
type Result struct {
	// Kind is KindPoint, KindSaturation, KindEBB or KindError.
	Kind string
	// Source is "FILE:LINE".
	Source string
	fields map[string]json.RawMessage
}

// LineError is a line of a results file that cannot be used.
type LineError struct {
	File string
	Line int
	Msg  string
}

// Error formats the problem as FILE:LINE: message.
func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// field is a field a results line must have: text, or else a number.
type field struct {
	key  string
	text bool
}

// requiredFields returns the fields a line of kind must have; false for
// an unknown kind.
func requiredFields(kind string) ([]field, bool) {
	labels := []field{{"topology", true}, {"routing", true}, {"pattern", true}}
	switch kind {
	case KindPoint:
		return append(labels, field{"offered", false}), true
	case KindSaturation:
		return append(labels, field{"saturation", false}), true
	case KindEBB:
		return append(labels, field{"dispersion", true}, field{"hosts", false},
			field{"min", false}, field{"avg", false}, field{"max", false}), true
	case KindError:
		return labels, true
	}
	return nil, false
}

// Read decodes the results lines of r, named name in messages. Blank lines
// are skipped. A line that is not a JSON object with a known kind and the
// fields of that kind is an error (a *LineError); a last line that does
// not end in a newline and does not decode (a run interrupted while
// writing it) is skipped, with a note in the returned notes.
func Read(r io.Reader, name string) (results []Result, notes []string, err error) {
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, rerr := br.ReadBytes('\n')
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return nil, nil, fmt.Errorf("%s: %w", name, rerr)
		}
		torn := rerr != nil && len(line) > 0
		if len(bytes.TrimSpace(line)) > 0 {
			res, lerr := parseLine(line, name, n)
			switch {
			case lerr != nil && torn:
				notes = append(notes, fmt.Sprintf("%s:%d: incomplete last line (an interrupted run?) skipped", name, n))
			case lerr != nil:
				return nil, nil, lerr
			default:
				results = append(results, res)
			}
		}
		if rerr != nil {
			return results, notes, nil
		}
	}
}

// ReadFiles reads every file in turn (see Read).
func ReadFiles(paths []string) (results []Result, notes []string, err error) {
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, nil, fmt.Errorf("reading results: %w", err)
		}
		res, n, err := Read(f, p)
		f.Close()
		if err != nil {
			return nil, nil, err
		}
		results = append(results, res...)
		notes = append(notes, n...)
	}
	return results, notes, nil
}

// parseLine decodes one non-blank line.
func parseLine(line []byte, file string, n int) (Result, error) {
	bad := func(format string, a ...any) error {
		return &LineError{File: file, Line: n, Msg: fmt.Sprintf(format, a...)}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil || fields == nil {
		return Result{}, bad("not a JSON object (expected one result per line, as netsim run --json writes)")
	}
	r := Result{Source: fmt.Sprintf("%s:%d", file, n), fields: fields}
	kind, ok := r.Text("kind")
	if raw := bytes.TrimSpace(fields["kind"]); !ok || raw[0] != '"' {
		return Result{}, bad(`no "kind" text field`)
	}
	req, ok := requiredFields(kind)
	if !ok {
		return Result{}, bad(`kind %q: unknown (expected "point", "saturation", "ebb" or "error")`, kind)
	}
	r.Kind = kind
	for _, f := range req {
		raw, present := fields[f.key]
		if !present {
			return Result{}, bad("%s line lacks %q", kind, f.key)
		}
		if f.text {
			if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '"' {
				return Result{}, bad("%s: expected text, got %s", f.key, raw)
			}
		} else if _, ok := r.Number(f.key); !ok {
			return Result{}, bad("%s: expected a number, got %s", f.key, raw)
		}
	}
	return r, nil
}

// Text returns the field key as text: a string's value, or the JSON text
// of a number, boolean, array or object. It reports false for a missing
// field or null.
func (r Result) Text(key string) (string, bool) {
	raw, ok := r.fields[key]
	if !ok {
		return "", false
	}
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return "", false
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", false
		}
		return s, true
	default:
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			return "", false
		}
		return b.String(), true
	}
}

// Number returns the field key as a number; it reports false when the
// field is missing, null or not a number.
func (r Result) Number(key string) (float64, bool) {
	raw, ok := r.fields[key]
	if !ok {
		return 0, false
	}
	var v *float64
	if err := json.Unmarshal(raw, &v); err != nil || v == nil {
		return 0, false
	}
	return *v, true
}

// keys returns the names of the fields of r.
func (r Result) keys() []string {
	ks := make([]string, 0, len(r.fields))
	for k := range r.fields {
		ks = append(ks, k)
	}
	return ks
}
