package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
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

// field is a field of a results line the package reads: text, or else a
// number from min to max (an integer if integer is set). A required field
// must be present; a nullable one may be null, as netsim run writes a
// point's measurement that has no value (NaN, a latency without delivered
// packets).
type field struct {
	key                string
	text               bool
	required, nullable bool
	min, max           float64
	integer            bool
}

// kindFields returns the fields of a line of kind that the package reads;
// false for an unknown kind.
func kindFields(kind string) ([]field, bool) {
	inf := math.Inf(1)
	fs := []field{
		{key: "topology", text: true, required: true},
		{key: "routing", text: true, required: true},
		{key: "pattern", text: true, required: true},
	}
	switch kind {
	case KindPoint:
		return append(fs,
			field{key: "offered", required: true, max: 1},
			field{key: "accepted", nullable: true, max: inf},
			field{key: "latency_avg", nullable: true, max: inf},
			field{key: "latency_p99", nullable: true, max: inf},
			field{key: "hops_avg", nullable: true, max: inf},
			field{key: "hops_medium", max: inf}, // absent from lines written before netsim measured it
			field{key: "hops_low", max: inf}), true
	case KindSaturation:
		return append(fs,
			field{key: "saturation", required: true, max: 1},
			field{key: "resolution", min: 1, max: inf, integer: true},
			field{key: "tolerance", max: 1}), true
	case KindEBB:
		return append(fs,
			field{key: "dispersion", text: true, required: true},
			field{key: "hosts", required: true, min: 1, max: inf, integer: true},
			field{key: "min", required: true, max: 1},
			field{key: "avg", required: true, max: 1},
			field{key: "max", required: true, max: 1},
			field{key: "packets", max: inf, integer: true},
			field{key: "out_of_order", max: inf, integer: true}), true
	case KindError:
		return append(fs, field{key: "offered", max: 1}), true
	}
	return nil, false
}

// valid reports whether raw is a value field f may have.
func (f field) valid(raw json.RawMessage) bool {
	if f.text {
		t := bytes.TrimSpace(raw)
		return len(t) > 0 && t[0] == '"'
	}
	var v *float64
	if err := json.Unmarshal(raw, &v); err != nil {
		return false // not a number, or beyond the range of float64
	}
	if v == nil {
		return f.nullable
	}
	return f.min <= *v && *v <= f.max && (!f.integer || *v == math.Trunc(*v))
}

// expected describes the values f may have.
func (f field) expected() string {
	if f.text {
		return "text"
	}
	s := fmt.Sprintf("a number from %g to %g", f.min, f.max)
	switch {
	case f.integer:
		s = fmt.Sprintf("an integer ≥ %g", f.min)
	case math.IsInf(f.max, 1):
		s = fmt.Sprintf("a finite number ≥ %g", f.min)
	}
	if f.nullable {
		s += " or null"
	}
	return s
}

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
	fs, ok := kindFields(kind)
	if !ok {
		return Result{}, bad(`kind %q: unknown (expected "point", "saturation", "ebb" or "error")`, kind)
	}
	r.Kind = kind
	if _, ok := fields["selection"]; !ok && fields["switching"] != nil {
		// netsim leaves the default selection function out of its lines
		// (and wrote none before the key existed): it is "credits".
		fields["selection"] = json.RawMessage(`"credits"`)
	}
	for _, f := range fs {
		raw, present := fields[f.key]
		switch {
		case !present && f.required:
			return Result{}, bad("%s line lacks %q", kind, f.key)
		case present && !f.valid(raw):
			return Result{}, bad("field %s: expected %s, got %s", f.key, f.expected(), raw)
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

// Measure returns the measurement key of r as Number does, but reports
// false where it has no sample: a point's latencies and hop counts
// (latency_avg, latency_p99, hops_avg, hops_medium, hops_low) average
// over its measured packets delivered, and netsim run writes them as 0
// when that count (field delivered) is 0, as it is far past saturation.
// Tables and figures show such a value as missing, not as 0.
func (r Result) Measure(key string) (float64, bool) {
	v, ok := r.Number(key)
	if !ok {
		return 0, false
	}
	switch key {
	case ValueLatencyAvg, ValueLatencyP99, ValueHops, ValueHopsMedium, ValueHopsLow:
		if d, ok := r.Number("delivered"); ok && d == 0 {
			return 0, false
		}
	}
	return v, true
}

// keys returns the names of the fields of r.
func (r Result) keys() []string {
	ks := make([]string, 0, len(r.fields))
	for k := range r.fields {
		ks = append(ks, k)
	}
	return ks
}
