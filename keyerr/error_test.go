package keyerr

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"testing"
)

func TestError(t *testing.T) {
	inner := New("q", "%d is not a prime power", 6)
	tests := []struct {
		name  string
		err   error
		text  string
		key   string
		keys  []string
		index int
		msg   string
		cause error
	}{
		{"plain", New("dims", "need at least one dimension, got %v", []int{}),
			"dims: need at least one dimension, got []", "dims", []string{"dims"}, 0,
			"need at least one dimension, got []", nil},
		{"no arguments", New("pattern", "missing"),
			"pattern: missing", "pattern", []string{"pattern"}, 0, "missing", nil},
		{"compound key", New("dims/widths", "radix %d exceeds the limit of %d ports", 70000, 65535),
			"dims/widths: radix 70000 exceeds the limit of 65535 ports", "dims/widths", []string{"dims", "widths"}, 0,
			"radix 70000 exceeds the limit of 65535 ports", nil},
		{"wraps", New("path", "cannot read the topology file: %w", fs.ErrNotExist),
			"path: cannot read the topology file: file does not exist", "path", []string{"path"}, 0,
			"cannot read the topology file: file does not exist", fs.ErrNotExist},
		{"element", Element("factors", 2, "factor %d (%s): %w", 2, "slimfly", inner),
			"factors: factor 2 (slimfly): q: 6 is not a prime power", "factors", []string{"factors"}, 2,
			"factor 2 (slimfly): q: 6 is not a prime power", inner},
		{"element without cause", Element("factors", 1, "factor %d has kind %q", 1, "torus"),
			`factors: factor 1 has kind "torus"`, "factors", []string{"factors"}, 1, `factor 1 has kind "torus"`, nil},
		{"annotated", Annotate(New("dims/widths", "too big"), " (%s from preset %q)", "dims/widths", "torus3d"),
			`dims/widths: too big (dims/widths from preset "torus3d")`, "dims/widths", []string{"dims", "widths"}, 0,
			`too big (dims/widths from preset "torus3d")`, nil},
		{"annotated element", Annotate(Element("factors", 1, "factor 1 (slimfly): %w", inner), " (factors from preset %q)", "sfxff1"),
			`factors: factor 1 (slimfly): q: 6 is not a prime power (factors from preset "sfxff1")`, "factors", []string{"factors"}, 1,
			`factor 1 (slimfly): q: 6 is not a prime power (factors from preset "sfxff1")`, inner},
		{"wrapped by fmt", fmt.Errorf("run: %w", New("vls", "need %d", 2)),
			"run: vls: need 2", "vls", []string{"vls"}, 0, "need 2", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.text {
				t.Errorf("Error() = %q, want %q", got, tt.text)
			}
			var e *Error
			if !errors.As(tt.err, &e) {
				t.Fatalf("errors.As found no *Error in %v", tt.err)
			}
			if e.Key != tt.key || e.Index != tt.index || e.Msg != tt.msg {
				t.Errorf("Key, Index, Msg = %q, %d, %q, want %q, %d, %q", e.Key, e.Index, e.Msg, tt.key, tt.index, tt.msg)
			}
			if got := e.Keys(); !slices.Equal(got, tt.keys) {
				t.Errorf("Keys() = %q, want %q", got, tt.keys)
			}
			if e.Unwrap() != tt.cause {
				t.Errorf("Unwrap() = %v, want %v", e.Unwrap(), tt.cause)
			}
			if tt.cause != nil && !errors.Is(tt.err, tt.cause) {
				t.Errorf("errors.Is(err, %v) = false", tt.cause)
			}
		})
	}
}

func TestElementInnerKey(t *testing.T) {
	err := Element("factors", 3, "factor %d (%s): %w", 3, "hypercube", New("width", "need at least 1, got %d", 0))
	var outer *Error
	if !errors.As(err, &outer) || outer.Key != "factors" || outer.Index != 3 {
		t.Fatalf("outer = %+v, want key factors, index 3", outer)
	}
	var inner *Error
	if !errors.As(outer.Err, &inner) || inner.Key != "width" || inner.Msg != "need at least 1, got 0" {
		t.Fatalf("inner = %+v, want key width", inner)
	}
}

func TestAnnotateOther(t *testing.T) {
	base := errors.New("the network is disconnected")
	err := Annotate(base, " (%s)", "hint")
	if got, want := err.Error(), "the network is disconnected (hint)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(err, base) {
		t.Error("Annotate of a plain error does not wrap it")
	}
	var e *Error
	if errors.As(err, &e) {
		t.Errorf("Annotate of a plain error made a key error: %+v", e)
	}
}

func ExampleElement() {
	err := Element("factors", 1, "factor %d (%s): %w", 1, "slimfly", New("q", "%d is not a prime power", 6))
	var e *Error
	if errors.As(err, &e) {
		var inner *Error
		errors.As(e.Err, &inner)
		fmt.Printf("%s\nkey %s, element %d, its key %s\n", err, e.Key, e.Index, inner.Key)
	}
	// Output:
	// factors: factor 1 (slimfly): q: 6 is not a prime power
	// key factors, element 1, its key q
}
