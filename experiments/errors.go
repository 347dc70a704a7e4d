package experiments

import (
	"fmt"
	"strings"
)

// InputError is a problem with an experiment file: a syntax error, an
// unknown key, a value of the wrong type or out of range, or a combination
// of values that cannot be simulated.
type InputError struct {
	// File is the experiment file's name as given to Load.
	File string
	// Line is the 1-based line of the offending key, or 0 if unknown.
	Line int
	// Section is the TOML table ("topology", "sweep", ...), empty for
	// top-level keys.
	Section string
	// Key is the offending key within Section, empty when the problem
	// concerns the whole section or file; keys that decide together are
	// written as one ("dims/widths").
	Key string
	// Msg says what is wrong and what was expected.
	Msg string
}

// Error formats the problem as FILE:LINE: [section] key: message.
func (e *InputError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Section != "" {
		fmt.Fprintf(&b, "[%s] ", e.Section)
	}
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}
