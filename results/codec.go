package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"

	"netsim/internal/numfmt"
)

// FieldError is a results line that cannot be decoded; Field names the
// field at fault ("" when the line as a whole is).
type FieldError struct {
	Field string
	Msg   string
}

// Error returns the message.
func (e *FieldError) Error() string { return e.Msg }

// AppendJSON appends l as one line of JSON, without its newline: the
// fields its kind carries, in the order of Fields, each as its tags say.
func (l *Line) AppendJSON(b []byte) ([]byte, error) {
	if !slices.Contains(Kinds(), l.Kind) {
		return b, fmt.Errorf("results line: unknown kind %q", l.Kind)
	}
	b = append(b, '{')
	first := true
	v := reflect.ValueOf(l).Elem()
	for i := range lineSchema.fields {
		f := &lineSchema.fields[i]
		if !f.Has(l.Kind) {
			continue
		}
		enc, ok, err := f.encode(v.FieldByIndex(f.index))
		if err != nil {
			return b, fmt.Errorf("results line, field %s: %w", f.Name, err)
		}
		if !ok {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = strconv.AppendQuote(b, f.Name) // names are plain ASCII
		b = append(b, ':')
		b = append(b, enc...)
	}
	return append(b, '}'), nil
}

// encode returns the JSON text of the field's value v, or false when the
// field is left out of the line.
func (f *Field) encode(v reflect.Value) ([]byte, bool, error) {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil, false, nil
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Float64:
		x := v.Float()
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0):
			if f.OmitNaN {
				return nil, false, nil
			}
			return []byte("null"), true, nil
		}
		return []byte(numfmt.Decimal(x, f.Places)), true, nil
	case reflect.String:
		s := v.String()
		if f.Default != "" && (s == f.Default || s == "") || f.OmitNaN && s == "" {
			return nil, false, nil
		}
		b, err := json.Marshal(s)
		return b, true, err
	case reflect.Bool:
		if f.OmitNaN && !v.Bool() {
			return nil, false, nil
		}
		return strconv.AppendBool(nil, v.Bool()), true, nil
	case reflect.Int, reflect.Int64:
		if f.OmitNaN && v.Int() == 0 {
			return nil, false, nil
		}
		return strconv.AppendInt(nil, v.Int(), 10), true, nil
	case reflect.Uint64:
		if f.OmitNaN && v.Uint() == 0 {
			return nil, false, nil
		}
		return strconv.AppendUint(nil, v.Uint(), 10), true, nil
	case reflect.Slice: // json.RawMessage
		if f.OmitNaN && v.Len() == 0 {
			return nil, false, nil
		}
		b, err := json.Marshal(json.RawMessage(v.Bytes()))
		return b, true, err
	}
	return nil, false, fmt.Errorf("type %s not supported", v.Type())
}

// Decode decodes one results line. A line that is not a JSON object, has
// no or an unknown kind, lacks a field its kind requires, or holds a value
// of the wrong type or out of range in a field its kind carries is a
// *FieldError. Fields the kind does not carry, and unknown fields, are
// ignored. A field the line does not hold reads as its default (NaN for
// a float, the zero value otherwise, Default for a text).
func Decode(text []byte) (Line, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(text, &raw); err != nil || raw == nil {
		return Line{}, &FieldError{Msg: "not a JSON object (expected one result per line, as netsim run --json writes)"}
	}
	var l Line
	k := bytes.TrimSpace(raw["kind"])
	if len(k) == 0 || k[0] != '"' || json.Unmarshal(k, &l.Kind) != nil {
		return Line{}, &FieldError{Field: "kind", Msg: `no "kind" text field`}
	}
	if !slices.Contains(Kinds(), l.Kind) {
		return Line{}, &FieldError{Field: "kind", Msg: fmt.Sprintf(`kind %q: unknown (expected "point", "saturation", "ebb", "workload" or "error")`, l.Kind)}
	}
	v := reflect.ValueOf(&l).Elem()
	for i := range lineSchema.fields {
		f := &lineSchema.fields[i]
		if !f.Has(l.Kind) {
			continue
		}
		dst := v.FieldByIndex(f.index)
		r, ok := raw[f.Name]
		if !ok {
			if f.Required(l.Kind) {
				return Line{}, &FieldError{Field: f.Name, Msg: fmt.Sprintf("%s line lacks %q", l.Kind, f.Name)}
			}
			f.setDefault(dst)
			if f.Default != "" {
				l.present[f.bit/64] |= 1 << (f.bit % 64) // the line says it by leaving it out
			}
			continue
		}
		if err := f.decode(bytes.TrimSpace(r), dst); err != nil {
			return Line{}, &FieldError{Field: f.Name, Msg: fmt.Sprintf("field %s: expected %s, got %s", f.Name, f.Type(), r)}
		}
		l.present[f.bit/64] |= 1 << (f.bit % 64)
	}
	return l, nil
}

// setDefault sets dst, the field's value in a line without it.
func (f *Field) setDefault(dst reflect.Value) {
	switch dst.Kind() {
	case reflect.Float64:
		dst.SetFloat(math.NaN())
	case reflect.String:
		dst.SetString(f.Default)
	}
}

// decode sets dst from r, the field's JSON text.
func (f *Field) decode(r json.RawMessage, dst reflect.Value) error {
	bad := fmt.Errorf("invalid")
	if string(r) == "null" {
		switch {
		case dst.Kind() == reflect.Pointer:
			return nil
		case dst.Kind() == reflect.Float64 && f.Null:
			dst.SetFloat(math.NaN())
			return nil
		}
		return bad
	}
	switch f.elem().Kind() {
	case reflect.String:
		if r[0] != '"' {
			return bad
		}
	case reflect.Bool:
		if string(r) != "true" && string(r) != "false" {
			return bad
		}
	case reflect.Slice:
		if open := byte('{'); f.Array && r[0] != '[' || !f.Array && r[0] != open {
			return bad
		}
	default:
		var x float64
		if err := json.Unmarshal(r, &x); err != nil || x < f.Min || x > f.Max || math.IsInf(x, 0) ||
			f.Integer() && x != math.Trunc(x) {
			return bad
		}
	}
	if dst.Kind() == reflect.Pointer {
		dst.Set(reflect.New(dst.Type().Elem()))
		dst = dst.Elem()
	}
	if err := json.Unmarshal(r, dst.Addr().Interface()); err != nil {
		return bad
	}
	return nil
}

// Holds reports whether l, a line Decode returned, holds f (perhaps as
// null).
func (f Field) Holds(l *Line) bool { return l.present[f.bit/64]&(1<<(f.bit%64)) != 0 }

// Text returns the value of f in l, a line Decode returned, as text: a
// text's value, or the JSON text of a number, boolean or object. It
// reports false when the line does not hold f, or holds null.
func (f Field) Text(l *Line) (string, bool) {
	if !f.Holds(l) {
		return "", false
	}
	fv := reflect.ValueOf(l).Elem().FieldByIndex(f.index)
	if fv.Kind() == reflect.String {
		return fv.String(), true
	}
	b, ok, err := f.encode(fv)
	if !ok || err != nil || string(b) == "null" {
		return "", false
	}
	return string(b), true
}

// Number returns the value of f in l, a line Decode returned, as a
// number; it reports false when the line does not hold f, holds null, or
// f is not a number.
func (f Field) Number(l *Line) (float64, bool) {
	if !f.Holds(l) {
		return 0, false
	}
	fv := reflect.ValueOf(l).Elem().FieldByIndex(f.index)
	if fv.Kind() == reflect.Pointer {
		fv = fv.Elem()
	}
	if !fv.IsValid() {
		return 0, false
	}
	switch fv.Kind() {
	case reflect.Float64:
		if x := fv.Float(); !math.IsNaN(x) {
			return x, true
		}
	case reflect.Int, reflect.Int64:
		return float64(fv.Int()), true
	case reflect.Uint64:
		return float64(fv.Uint()), true
	}
	return 0, false
}

// Quantize rounds the floats of m (a *Measures or *Exchange) to the
// decimals a results line writes, so a record computed now and the same
// record read back from a results file print alike everywhere.
func Quantize[T Measures | Exchange | Verdict | Distribution | Workload](m *T) {
	v := reflect.ValueOf(m).Elem()
	sf, _ := reflect.TypeFor[Line]().FieldByName(v.Type().Name())
	for i := range lineSchema.fields {
		f := &lineSchema.fields[i]
		if len(f.index) == 2 && f.index[0] == sf.Index[0] && f.typ.Kind() == reflect.Float64 {
			x := v.Field(f.index[1])
			x.SetFloat(Round(x.Float(), f.Places))
		}
	}
}

// Round rounds v to places decimals as a results line writes it (places
// < 0: v unchanged); NaN and infinities are unchanged.
func Round(v float64, places int) float64 {
	if places < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'f', places, 64), 64)
	if err != nil {
		return v
	}
	return r
}
