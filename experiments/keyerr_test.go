package experiments

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"netsim/keyerr"
)

// keyerrFile is an experiment file whose keys the builder errors of
// TestBuilderErrorKeys name; the test looks their lines up by text.
const keyerrFile = `name = "k"

[topology]
kind = "product"
hosts_per_switch = 2

[[topology.factors]]
kind = "flatfly"
dims = [4]

[[topology.factors]]
kind = "slimfly"
q = 5

[routing]
algorithm = "dor"

[flow_control]
vls = 2
`

// lineOf returns the 1-based line of the first line of text that is
// want, after the line starting from (0: from the top).
func lineOf(t *testing.T, text, want string, from int) int {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if i+1 > from && l == want {
			return i + 1
		}
	}
	t.Fatalf("no line %q after line %d", want, from)
	return 0
}

// TestBuilderErrorKeys checks that builderError finds the key at fault
// in the type of the error, *keyerr.Error, not in its text: the section
// and line it reports, for a plain key, a compound key, a key of another
// section than home, and a product factor's own key.
func TestBuilderErrorKeys(t *testing.T) {
	text := keyerrFile
	factor2 := lineOf(t, text, "[[topology.factors]]", lineOf(t, text, "[[topology.factors]]", 0))
	tests := []struct {
		name string
		home string
		err  error
		want string
	}{
		{"plain key", "topology", keyerr.New("hosts_per_switch", "need at least %d, got %d", 1, 0),
			fmt.Sprintf("f.toml:%d: [topology] hosts_per_switch: need at least 1, got 0", lineOf(t, text, "hosts_per_switch = 2", 0))},
		{"key of another section", "routing", keyerr.New("vls", "routing %s needs at least %d virtual lanes, got %d", "dor", 4, 2),
			fmt.Sprintf("f.toml:%d: [flow_control] vls: routing dor needs at least 4 virtual lanes, got 2", lineOf(t, text, "vls = 2", 0))},
		{"compound key, first set", "topology", keyerr.New("kind/hosts_per_switch", "too many"),
			fmt.Sprintf("f.toml:%d: [topology] kind/hosts_per_switch: too many", lineOf(t, text, `kind = "product"`, 0))},
		{"compound key, second set", "topology", keyerr.New("dims/hosts_per_switch", "radix %d: too many ports", 9),
			fmt.Sprintf("f.toml:%d: [topology] dims/hosts_per_switch: radix 9: too many ports", lineOf(t, text, "hosts_per_switch = 2", 0))},
		{"compound key, none set", "topology", keyerr.New("dims/widths", "radix %d exceeds the limit", 9),
			"f.toml:3: [topology] dims/widths: radix 9 exceeds the limit"},
		{"factor's key", "topology",
			keyerr.Element("factors", 2, "factor %d (%s): %w", 2, "slimfly", keyerr.New("q", "%d is not a prime power", 6)),
			fmt.Sprintf("f.toml:%d: [topology] factors: factor 2 (slimfly): q: 6 is not a prime power", lineOf(t, text, "q = 5", factor2))},
		{"factor's compound key", "topology",
			keyerr.Element("factors", 1, "factor %d (%s): %w", 1, "flatfly", keyerr.New("dims/widths", "radix too large")),
			fmt.Sprintf("f.toml:%d: [topology] factors: factor 1 (flatfly): dims/widths: radix too large", lineOf(t, text, "[[topology.factors]]", 0))},
		{"factor without a key", "topology",
			keyerr.Element("factors", 1, "factor %d has kind %q, expected one of %s", 1, "torus", "slimfly, flatfly"),
			fmt.Sprintf(`f.toml:%d: [topology] factors: factor 1 has kind "torus", expected one of slimfly, flatfly`, lineOf(t, text, "[[topology.factors]]", 0))},
		{"factors as a whole", "topology", keyerr.New("factors", "need at least 2 factor tables, got %d", 1),
			fmt.Sprintf("f.toml:%d: [topology] factors: need at least 2 factor tables, got 1", lineOf(t, text, "[[topology.factors]]", 0))},
		{"annotated key error", "topology", keyerr.Annotate(keyerr.New("q", "too large"), " (%s from preset %q)", "q", "p"),
			`f.toml:3: [topology] q: too large (q from preset "p")`},
		{"key in the text only", "routing", errors.New("vls: routing dor needs at least 4 virtual lanes, got 2"),
			"f.toml:15: [routing] vls: routing dor needs at least 4 virtual lanes, got 2"},
		{"unknown key", "switch", keyerr.New("load", "must be in (0, 1], got %v", 2),
			"f.toml: [switch] load: must be in (0, 1], got 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, src, err := readTree("f.toml", []byte(text), nil)
			if err != nil {
				t.Fatal(err)
			}
			d := &decoder{src: src}
			d.builderError(tt.home, tt.err)
			if len(d.errs) != 1 {
				t.Fatalf("got %d errors %v, want 1", len(d.errs), d.errs)
			}
			if got := d.errs[0].Error(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestBuilderKeyErrorLines checks, through ParseTopology, that the
// builders' key errors land on the line of their key: a product factor's
// own key within its [[topology.factors]] table, and a compound
// "dims/widths" key on the first of its keys the file sets (widths, when
// a preset gives dims).
func TestBuilderKeyErrorLines(t *testing.T) {
	product := strings.Replace(keyerrFile, "q = 5", "q = 6", 1)
	tests := []struct {
		name, text, want string
	}{
		{"factor key", product, fmt.Sprintf("f.toml:%d: [topology] factors: factor 2 (slimfly): q: 6 is not a prime power (expected 3, 4, 5, 7, 8, 9, 11, 13, …)",
			lineOf(t, product, "q = 6", 0))},
		{"dims/widths, both set", "[topology]\nkind = \"flatfly\"\ndims = [256, 256]\nwidths = [1, 1]\nhosts_per_switch = 8\n",
			"f.toml:3: [topology] dims/widths: radix 518 on 65536 switches gives 33947648 ports, more than the limit of 8388608"},
		{"dims/widths, widths set", "[topology]\npreset = \"flatfly\"\nwidths = [2000, 1, 1, 1]\n",
			"f.toml:3: [topology] dims/widths: radix 6029 on 2048 switches gives 12347392 ports, more than the limit of 8388608"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseTopology("f.toml", []byte(tt.text))
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
