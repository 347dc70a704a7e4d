package results

import (
	"fmt"
	"reflect"
	"strings"
)

// Reference returns the reference of the results fields in markdown: the
// fields every line holds, then those each kind adds, each with its
// values and its one-line doc, in the order of the lines. docs/results.md
// holds it (a test checks that it does).
func Reference() string {
	var b strings.Builder
	common := func(f Field) bool { return len(f.Kinds) == len(Kinds()) }
	table := func(title, kind string, keep func(Field) bool) {
		fmt.Fprintf(&b, "%s\n\n| field | values | meaning |\n|---|---|---|\n", title)
		for _, f := range lineSchema.fields {
			if keep(f) {
				fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f.Name, f.values(kind), mdEscape(f.Doc))
			}
		}
		b.WriteString("\n")
	}
	table("Every line holds:", KindPoint, common)
	for _, k := range Kinds() {
		table(fmt.Sprintf("`\"kind\":\"%s\"` lines add:", k), k, func(f Field) bool { return !common(f) && f.Has(k) })
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// values describes the values of f in lines of kind for the reference:
// its type, its decimals, and when it may be missing.
func (f Field) values(kind string) string {
	var notes []string
	if f.elem().Kind() == reflect.Float64 && f.Places >= 0 {
		notes = append(notes, fmt.Sprintf("up to %d decimals", f.Places))
	}
	switch {
	case f.Required(kind):
		notes = append(notes, "required")
	case f.Default != "":
		notes = append(notes, fmt.Sprintf("absent when %s", f.Default))
	case f.OmitNaN || f.typ.Kind() == reflect.Pointer:
		notes = append(notes, "may be absent")
	}
	if f.Sample {
		notes = append(notes, "no value when `delivered` is 0")
	}
	s := mdEscape(f.Type())
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, "; ") + ")"
	}
	return s
}

// mdEscape escapes text for a markdown table cell.
func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
