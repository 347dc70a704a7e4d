package experiments

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
)

// decoder walks the generic map the TOML parser produces, converting and
// checking each key, and collects every problem as an *InputError.
type decoder struct {
	src  *sources
	errs []error
	// patternKey is the [traffic] key the patterns were given under.
	patternKey string
}

// fail records a problem with key of section.
func (d *decoder) fail(section, key, format string, args ...any) {
	file, line := d.src.locate(section, key)
	d.failAt(file, line, section, key, format, args...)
}

// failAt records a problem with key of section, written on line of file.
func (d *decoder) failAt(file string, line int, section, key, format string, args ...any) {
	d.errs = append(d.errs, &InputError{
		File:    file,
		Line:    line,
		Section: section,
		Key:     key,
		Msg:     fmt.Sprintf(format, args...),
	})
}

// sortErrors orders the recorded problems file by file (the experiment
// file first, then its includes), and by line within a file.
func (d *decoder) sortErrors() {
	sortInputErrors(d.errs, d.src)
}

// sortInputErrors orders errs file by file, in the order of src, and by
// line within a file.
func sortInputErrors(errs []error, src *sources) {
	slices.SortStableFunc(errs, func(a, b error) int {
		var x, y *InputError
		if !errors.As(a, &x) || !errors.As(b, &y) {
			return 0
		}
		if rx, ry := src.rank(x.File), src.rank(y.File); rx != ry {
			return rx - ry
		}
		return x.Line - y.Line
	})
}

// checkKeys reports every key of t not in accepted, in sorted order, with
// the accepted key it is a near miss of (a typo) or the section it belongs
// in, when there is one.
func (d *decoder) checkKeys(t map[string]any, section string, accepted []string) {
	for _, k := range slices.Sorted(maps.Keys(t)) {
		if slices.Contains(accepted, k) {
			continue
		}
		hint := ""
		if s := suggest(k, accepted); s != "" {
			hint = fmt.Sprintf("did you mean %s? ", s)
		} else if other := sectionOf(k, section); other != "" {
			hint = fmt.Sprintf("%s is a key of %s; ", k, other)
		}
		d.fail(section, k, "unknown key (%saccepted: %s)", hint, strings.Join(accepted, ", "))
	}
}

// sectionOf names the other section than section that has key, "the top
// level" or "[sim]", or "" when none has it.
func sectionOf(key, section string) string {
	for _, s := range append([]string{""}, sectionNames()...) {
		if s != section && slices.Contains(sectionKeys(s), key) {
			if s == "" {
				return "the top level"
			}
			return "[" + s + "]"
		}
	}
	return ""
}

// table returns section of root as a table; nil if absent or not a table.
func (d *decoder) table(root map[string]any, section string, required bool) map[string]any {
	v, ok := root[section]
	if !ok {
		if required {
			d.fail(section, "", "missing section")
		}
		return nil
	}
	t, ok := v.(map[string]any)
	if !ok {
		d.fail("", section, "expected a table [%s], got %s", section, describe(v))
		return nil
	}
	return t
}

// str returns the string value of key and whether it is present and a
// string.
func (d *decoder) str(t map[string]any, section, key string) (string, bool) {
	v, ok := t[key]
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		d.fail(section, key, "expected a string, got %s%s", describe(v), sweepHint(section, key, v))
		return "", false
	}
	return s, true
}

// oneOf returns the string value of key, def when absent, checking that it
// is one of allowed.
func (d *decoder) oneOf(t map[string]any, section, key, def string, allowed ...string) string {
	s, ok := d.str(t, section, key)
	if !ok {
		return def
	}
	if !slices.Contains(allowed, s) {
		d.fail(section, key, "unknown value %q (expected one of: %s)", s, strings.Join(allowed, ", "))
		return def
	}
	return s
}

// boolean returns the boolean value of key, nil when absent.
func (d *decoder) boolean(t map[string]any, section, key string) *bool {
	v, ok := t[key]
	if !ok {
		return nil
	}
	b, ok := v.(bool)
	if !ok {
		d.fail(section, key, "expected a boolean, got %s%s", describe(v), sweepHint(section, key, v))
		return nil
	}
	return &b
}

// integer returns the integer value of key, def when absent, checking
// lo ≤ value ≤ hi.
func (d *decoder) integer(t map[string]any, section, key string, def, lo, hi int64) int64 {
	v, ok := t[key]
	if !ok {
		return def
	}
	n, ok := v.(int64)
	if !ok {
		d.fail(section, key, "expected an integer, got %s%s", describe(v), sweepHint(section, key, v))
		return def
	}
	if n < lo || n > hi {
		d.fail(section, key, "%d is out of range (expected %s)", n, describeRange(lo, hi))
		return def
	}
	return n
}

// intList returns the list of integers of key (nil when absent), each
// within [lo, hi].
func (d *decoder) intList(t map[string]any, section, key string, lo, hi int64) []int {
	v, ok := t[key]
	if !ok {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		d.fail(section, key, "expected an array of integers, got %s", describe(v))
		return nil
	}
	out := make([]int, 0, len(list))
	for i, x := range list {
		n, ok := x.(int64)
		if !ok {
			d.fail(section, key, "element %d: expected an integer, got %s", i+1, describe(x))
			return nil
		}
		if n < lo || n > hi {
			d.fail(section, key, "element %d: %d is out of range (expected %s)", i+1, n, describeRange(lo, hi))
			return nil
		}
		out = append(out, int(n))
	}
	return out
}

// number returns the float value of key (integers accepted), def when
// absent.
func (d *decoder) number(t map[string]any, section, key string, def float64) float64 {
	v, ok := t[key]
	if !ok {
		return def
	}
	f, ok := toFloat(v)
	if !ok {
		d.fail(section, key, "expected a number, got %s%s", describe(v), sweepHint(section, key, v))
		return def
	}
	return f
}

// numberList returns the list of numbers of key (nil when absent).
func (d *decoder) numberList(t map[string]any, section, key string) []float64 {
	v, ok := t[key]
	if !ok {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		d.fail(section, key, "expected an array of numbers, got %s", describe(v))
		return nil
	}
	out := make([]float64, 0, len(list))
	for i, x := range list {
		f, ok := toFloat(x)
		if !ok {
			d.fail(section, key, "element %d: expected a number, got %s", i+1, describe(x))
			return nil
		}
		out = append(out, f)
	}
	return out
}

// strList returns the list of strings of key (nil when absent); a single
// string is accepted as a list of one.
func (d *decoder) strList(t map[string]any, section, key string) []string {
	v, ok := t[key]
	if !ok {
		return nil
	}
	if s, ok := v.(string); ok {
		return []string{s}
	}
	list, ok := v.([]any)
	if !ok {
		d.fail(section, key, "expected an array of strings, got %s", describe(v))
		return nil
	}
	out := make([]string, 0, len(list))
	for i, x := range list {
		s, ok := x.(string)
		if !ok {
			d.fail(section, key, "element %d: expected a string, got %s", i+1, describe(x))
			return nil
		}
		out = append(out, s)
	}
	return out
}

// sweepHint explains, for an array given to a key that cannot be swept,
// which keys can; "" otherwise.
func sweepHint(section, key string, v any) string {
	_, isArray := v.([]any)
	switch {
	case !isArray || sweepable(section, key):
		return ""
	case section == "traffic" && key == "pattern":
		return " (several patterns are given as patterns = [...])"
	case slices.Contains(sweptSections(), section):
		return ""
	}
	return " (only the keys of [topology], [routing], [flow_control], [switch], [traffic] and [nic] can be swept)"
}

// toFloat converts a TOML integer or float to float64.
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	}
	return 0, false
}

// describe names the TOML type of v, with the value for scalars.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("string %q", x)
	case int64:
		return fmt.Sprintf("integer %d", x)
	case float64:
		return fmt.Sprintf("float %v", x)
	case bool:
		return fmt.Sprintf("boolean %v", x)
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	case time.Time:
		return "a date-time"
	}
	return fmt.Sprintf("a value of type %T", v)
}

// describeRange renders the accepted interval of an integer key.
func describeRange(lo, hi int64) string {
	if hi == math.MaxInt64 {
		return fmt.Sprintf("≥ %d", lo)
	}
	return fmt.Sprintf("%d..%d", lo, hi)
}

// intKey returns the integer key of section, with the default and range
// of its schema entry.
func (d *decoder) intKey(t map[string]any, section, key string) int64 {
	k := schemaKey(section, key)
	def, _ := k.Default.(int64)
	return d.integer(t, section, key, def, k.Min, k.Max)
}

// intKeyOr is intKey with the default def, for a key whose default
// depends on other keys.
func (d *decoder) intKeyOr(t map[string]any, section, key string, def int64) int64 {
	k := schemaKey(section, key)
	return d.integer(t, section, key, def, k.Min, k.Max)
}

// choiceKey returns the string key of section, one of the values of its
// schema entry, its default when absent.
func (d *decoder) choiceKey(t map[string]any, section, key string) string {
	k := schemaKey(section, key)
	def, _ := k.Default.(string)
	return d.oneOf(t, section, key, def, k.Values...)
}

// choiceKeyOr is choiceKey with the default def, for a key whose default
// depends on other keys.
func (d *decoder) choiceKeyOr(t map[string]any, section, key, def string) string {
	return d.oneOf(t, section, key, def, schemaKey(section, key).Values...)
}

// numberKey returns the number key of section, its schema default when
// absent, checked against the range of its schema entry (an error, and
// the number returned, when out of range).
func (d *decoder) numberKey(t map[string]any, section, key string) float64 {
	k := schemaKey(section, key)
	def, _ := k.Default.(float64)
	f := d.number(t, section, key, def)
	if k.Range != nil && !k.Range.Holds(f) {
		d.fail(section, key, "%v is out of range (expected %s)", f, k.Range.expect(key))
	}
	return f
}

// numberListKey returns the list of numbers of key (nil when absent),
// each checked against the range of its schema entry; the elements out of
// range are reported and kept.
func (d *decoder) numberListKey(t map[string]any, section, key string) []float64 {
	k := schemaKey(section, key)
	list := d.numberList(t, section, key)
	for i, f := range list {
		if k.Range != nil && !k.Range.Holds(f) {
			d.fail(section, key, "element %d: %v is out of range (expected %s)", i+1, f, k.Range.expect(strings.TrimSuffix(key, "s")))
		}
	}
	return list
}
