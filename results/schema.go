package results

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Field is one field of the results lines, as Line declares it.
type Field struct {
	// Name is the field's name in the lines.
	Name string
	// Kinds are the kinds of line that carry it.
	Kinds []string
	// Doc is its one-line description; Label describes a value in
	// captions and axes ("" if it has none).
	Doc, Label string

	// Places are the decimals a float is written with (-1: the shortest
	// exact form).
	Places int
	// Null says NaN is written as null; OmitNaN that NaN (floats) or the
	// zero value (other types) is left out; Default is a text left out of
	// lines when it has this value.
	Null, OmitNaN bool
	Default       string
	// Min and Max bound a number (Max +Inf: any finite number); Min is
	// -Inf and Max +Inf when unbounded.
	Min, Max float64
	// Outcome says the field is a measurement or outcome, not part of what
	// identifies a result; Sample that it averages over the measured
	// packets delivered, so has no value when delivered is 0.
	Outcome, Sample bool
	// Value is the field's rank among the values tables show (0: not
	// one); Show the decimals a table rounds it to for reading, Precise
	// those it keeps in CSV; Percent says it is a fraction shown in %.
	Value, Show, Precise int
	Percent              bool
	// Array says a JSON field (json.RawMessage) holds an array, not an
	// object.
	Array bool

	index    []int // of the struct field in Line
	bit      uint  // of the field in Line.present
	required []string
	typ      reflect.Type
}

// schema holds the fields of Line, computed once from its declaration.
type schema struct {
	fields []Field
	byName map[string]int
}

var lineSchema = mustSchema()

// mustSchema derives the schema from Line's tags; a bad tag is a
// programming error, so it panics (tests run it).
func mustSchema() *schema {
	s, err := newSchema(reflect.TypeFor[Line]())
	if err != nil {
		panic(err)
	}
	return s
}

// Fields returns the fields of the results lines, in the order of the
// lines.
func Fields() []Field { return slices.Clone(lineSchema.fields) }

// FieldNamed returns the field called name.
func FieldNamed(name string) (Field, bool) {
	i, ok := lineSchema.byName[name]
	if !ok {
		return Field{}, false
	}
	return lineSchema.fields[i], true
}

// Values returns the names of the fields tables can show in their cells,
// in order.
func Values() []string {
	var vs []Field
	for _, f := range lineSchema.fields {
		if f.Value > 0 {
			vs = append(vs, f)
		}
	}
	slices.SortFunc(vs, func(a, b Field) int { return a.Value - b.Value })
	names := make([]string, len(vs))
	for i, f := range vs {
		names[i] = f.Name
	}
	return names
}

// Has reports whether lines of kind carry f.
func (f Field) Has(kind string) bool { return slices.Contains(f.Kinds, kind) }

// Required reports whether a line of kind must hold f.
func (f Field) Required(kind string) bool { return slices.Contains(f.required, kind) }

// Integer reports whether f holds an integer.
func (f Field) Integer() bool {
	switch f.elem().Kind() {
	case reflect.Int, reflect.Int64, reflect.Uint64:
		return true
	}
	return false
}

// IsText reports whether f holds a text.
func (f Field) IsText() bool { return f.elem().Kind() == reflect.String }

// elem is the type of f's values (through a pointer).
func (f Field) elem() reflect.Type {
	if f.typ.Kind() == reflect.Pointer {
		return f.typ.Elem()
	}
	return f.typ
}

// Type describes the values of f, as the reference and error messages
// name them.
func (f Field) Type() string {
	t := f.elem()
	var s string
	switch {
	case t.Kind() == reflect.String:
		s = "text"
	case t.Kind() == reflect.Bool:
		s = "true or false"
	case t.Kind() == reflect.Slice && f.Array: // json.RawMessage
		s = "an array"
	case t.Kind() == reflect.Slice: // json.RawMessage
		s = "an object"
	case f.Integer() && !math.IsInf(f.Min, -1):
		s = fmt.Sprintf("an integer ≥ %g", f.Min)
	case f.Integer():
		s = "an integer"
	case math.IsInf(f.Min, -1):
		s = "a number"
	case math.IsInf(f.Max, 1):
		s = fmt.Sprintf("a finite number ≥ %g", f.Min)
	default:
		s = fmt.Sprintf("a number from %g to %g", f.Min, f.Max)
	}
	if f.Null {
		s += " or null"
	}
	return s
}

// newSchema derives the fields of t (Line) from its tags.
func newSchema(t reflect.Type) (*schema, error) {
	s := &schema{byName: map[string]int{}}
	for _, sf := range reflect.VisibleFields(t) {
		if !sf.IsExported() || sf.Anonymous {
			continue
		}
		f, err := parseField(sf)
		if err != nil {
			return nil, fmt.Errorf("results.Line.%s: %w", sf.Name, err)
		}
		if _, dup := s.byName[f.Name]; dup {
			return nil, fmt.Errorf("results.Line.%s: field %q declared twice", sf.Name, f.Name)
		}
		f.bit = uint(len(s.fields))
		if f.bit >= 128 {
			return nil, fmt.Errorf("results.Line: more than 128 fields")
		}
		s.byName[f.Name] = len(s.fields)
		s.fields = append(s.fields, f)
	}
	return s, nil
}

// parseField reads the tags of one struct field.
func parseField(sf reflect.StructField) (Field, error) {
	f := Field{Name: sf.Tag.Get("json"), Doc: sf.Tag.Get("doc"), Label: sf.Tag.Get("label"),
		Places: -1, Min: math.Inf(-1), Max: math.Inf(1), index: sf.Index, typ: sf.Type, Kinds: Kinds()}
	if f.Name == "" || strings.Contains(f.Name, ",") {
		return f, fmt.Errorf("json tag %q: want the field's name only", f.Name)
	}
	if f.Doc == "" {
		return f, fmt.Errorf("no doc tag")
	}
	opts := sf.Tag.Get("results")
	required := false
	for i, opt := range strings.Split(opts, ",") {
		if opt == "" {
			continue
		}
		key, val, hasVal := strings.Cut(opt, "=")
		num := func() (int, error) { return strconv.Atoi(val) }
		var err error
		switch {
		case i == 0 && !hasVal && isKindList(opt):
			f.Kinds = strings.Split(opt, "|")
		case key == "required" && !hasVal:
			required = true
		case key == "required":
			f.required = strings.Split(val, "|")
		case key == "places":
			f.Places, err = num()
		case key == "null" && !hasVal:
			f.Null = true
		case key == "omitnan" && !hasVal:
			f.OmitNaN = true
		case key == "default":
			f.Default = val
		case key == "min" || key == "max":
			var v float64
			v, err = strconv.ParseFloat(val, 64)
			if key == "min" {
				f.Min = v
			} else {
				f.Max = v
			}
		case key == "outcome" && !hasVal:
			f.Outcome = true
		case key == "sample" && !hasVal:
			f.Sample = true
		case key == "value":
			f.Value, err = num()
		case key == "show":
			f.Show, err = num()
		case key == "precise":
			f.Precise, err = num()
		case key == "percent" && !hasVal:
			f.Percent = true
		case key == "array" && !hasVal:
			f.Array = true
		default:
			return f, fmt.Errorf("results tag: unknown option %q", opt)
		}
		if err != nil {
			return f, fmt.Errorf("results tag: option %q: %w", opt, err)
		}
	}
	if required {
		f.required = f.Kinds
	}
	if f.Precise == 0 {
		f.Precise = f.Places
	}
	if f.Default != "" && sf.Type.Kind() != reflect.String {
		return f, fmt.Errorf("default for a field that is not a text")
	}
	return f, nil
}

// isKindList reports whether s is a list of kinds, KIND|KIND.
func isKindList(s string) bool {
	for _, k := range strings.Split(s, "|") {
		if !slices.Contains(Kinds(), k) {
			return false
		}
	}
	return true
}
