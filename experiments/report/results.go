package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"netsim/internal/fileio"
	"netsim/results"
)

// Result kinds, as in the "kind" field of a results line.
const (
	KindPoint      = results.KindPoint
	KindSaturation = results.KindSaturation
	KindEBB        = results.KindEBB      // an exchange's effective bisection bandwidth
	KindWorkload   = results.KindWorkload // a workload's completion
	KindError      = results.KindError
)

// Result is one line of a results file, and where the line came from.
type Result struct {
	// Kind is KindPoint, KindSaturation, KindEBB, KindWorkload or
	// KindError.
	Kind string
	// Source is "FILE:LINE".
	Source string
	line   results.Line
}

// LineError is a line of a results file that cannot be used.
type LineError struct {
	File string
	Line int
	Msg  string
}

// Error formats the problem as FILE:LINE: message.
func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Read decodes the results lines of r, named name in messages. Blank lines
// are skipped. A line that is not a JSON object with a known kind and the
// fields of that kind, or whose fields of that kind have values of the
// wrong type or out of range (a load or saturation outside 0 to 1, a
// negative latency), is an error (a *LineError); a last line that does not
// end in a newline and does not decode (a run interrupted while writing
// it) is skipped, with a note in the returned notes.
func Read(r io.Reader, name string) (results []Result, notes []string, err error) {
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, rerr := br.ReadBytes('\n')
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return nil, nil, fmt.Errorf("%s: %w", name, rerr)
		}
		torn := rerr != nil && !json.Valid(line) // a last line cut short
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
		f, err := fileio.Open(p, fileio.MaxTables)
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
	l, err := results.Decode(line)
	if err != nil {
		return Result{}, &LineError{File: file, Line: n, Msg: err.Error()}
	}
	return Result{Kind: l.Kind, Source: fmt.Sprintf("%s:%d", file, n), line: l}, nil
}

// Text returns the field key as text: a string's value, or the JSON text
// of a number, boolean or object. It reports false for a field the line
// does not hold, or holds as null.
func (r Result) Text(key string) (string, bool) {
	f, ok := results.FieldNamed(key)
	if !ok {
		return "", false
	}
	return f.Text(&r.line)
}

// Number returns the field key as a number; it reports false when the
// field is missing, null or not a number.
func (r Result) Number(key string) (float64, bool) {
	f, ok := results.FieldNamed(key)
	if !ok {
		return 0, false
	}
	return f.Number(&r.line)
}

// Measure returns the measurement key of r as Number does, but reports
// false where it has no sample: a point's latencies and hop counts
// (latency_avg, latency_p99, hops_avg, hops_medium, hops_low: the fields
// results.Field.Sample marks) average over its measured packets
// delivered, and netsim run writes them as 0 when that count (field
// delivered) is 0, as it is far past saturation. Tables and figures show
// such a value as missing, not as 0.
func (r Result) Measure(key string) (float64, bool) {
	v, ok := r.Number(key)
	if !ok {
		return 0, false
	}
	if f, _ := results.FieldNamed(key); f.Sample {
		if d, ok := r.Number("delivered"); ok && d == 0 {
			return 0, false
		}
	}
	return v, true
}

// has reports whether r holds the field key (perhaps as null).
func (r Result) has(key string) bool {
	f, ok := results.FieldNamed(key)
	return ok && f.Holds(&r.line)
}

// keys returns the names of the fields r holds.
func (r Result) keys() []string {
	var ks []string
	for _, f := range results.Fields() {
		if f.Holds(&r.line) {
			ks = append(ks, f.Name)
		}
	}
	return ks
}
