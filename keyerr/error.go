package keyerr

import (
	"errors"
	"fmt"
	"strings"
)

// Error is the error of one configuration key. Its message is Key, ": "
// and Msg.
type Error struct {
	// Key is the TOML key at fault ("dims"), or the keys that decide
	// together joined by "/" ("dims/widths"), in the order the message
	// names them.
	Key string
	// Index is the element, from 1, of the array of tables Key names
	// that the error is about; 0 when it is about the key as a whole.
	Index int
	// Msg says what is wrong, without the key.
	Msg string
	// Err is the error Msg wraps (with %w), or nil: for an element of an
	// array of tables, the element's own error.
	Err error
}

// New returns the error of key, whose message is key, ": " and the
// arguments formatted as fmt.Errorf formats them. A %w verb makes the
// error wrap its operand (one %w at most).
func New(key, format string, args ...any) error {
	return newError(key, 0, format, args...)
}

// Element returns the error of element index (from 1) of key, an array
// of tables, formatted as New formats it; the element's own error is
// usually an operand of %w.
func Element(key string, index int, format string, args ...any) error {
	return newError(key, index, format, args...)
}

// newError builds the Error of New and Element.
func newError(key string, index int, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	return &Error{Key: key, Index: index, Msg: err.Error(), Err: errors.Unwrap(err)}
}

// Error returns Key, ": " and Msg.
func (e *Error) Error() string { return e.Key + ": " + e.Msg }

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// Keys returns the keys Key names: one, or those joined by "/".
func (e *Error) Keys() []string { return strings.Split(e.Key, "/") }

// Annotate returns err with text, formatted as fmt.Sprintf formats it,
// appended to its message. When err is an *Error, so is the result, of
// the same key, element and cause, its Msg extended; otherwise the
// result wraps err.
func Annotate(err error, format string, args ...any) error {
	text := fmt.Sprintf(format, args...)
	e, ok := err.(*Error)
	if !ok {
		return fmt.Errorf("%w%s", err, text)
	}
	annotated := *e
	annotated.Msg += text
	return &annotated
}
