package experiments

import (
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// Override sets one key of every experiment file it is loaded with, over
// the value the file or its includes give (as BookSim's key=value
// arguments after its configuration file): netsim's --set.
type Override struct {
	// Section and Key name the key: Section is "" for a top-level key.
	Section, Key string
	// Value is the key's value as TOML decodes it (an array sweeps the
	// key, as in a file).
	Value any
	// Arg is the argument as given, which errors name.
	Arg string
}

// ParseOverride parses an override written SECTION.KEY=VALUE (or KEY=VALUE
// for a top-level key other than include): VALUE is a TOML value ("4",
// "0.5", "true", "[1, 2]", "\"dor\"") or, when it is not one, a string
// ("dor"). Whether the key exists and takes such a value is checked when
// a file is loaded with it, as for a key in the file; a relative path
// (topology.path, routing.path) is relative to the current directory.
func ParseOverride(arg string) (Override, error) {
	path, value, ok := strings.Cut(arg, "=")
	path, value = strings.TrimSpace(path), strings.TrimSpace(value)
	if !ok || path == "" {
		return Override{}, fmt.Errorf("expected SECTION.KEY=VALUE (such as switch.vl_choice=dynamic), got %q", arg)
	}
	if path == includeKey {
		return Override{}, fmt.Errorf("%s cannot be set from the command line (its files are read before the overrides apply; give the files as arguments instead)", includeKey)
	}
	o := Override{Key: path, Arg: arg}
	if sec, key, ok := strings.Cut(path, "."); ok {
		sec, key = strings.TrimSpace(sec), strings.TrimSpace(key)
		if sec == "" || key == "" || strings.Contains(key, ".") {
			return Override{}, fmt.Errorf("%q is not SECTION.KEY or a top-level KEY (expected SECTION.KEY=VALUE)", path)
		}
		o.Section, o.Key = sec, key
	}
	var doc map[string]any
	if _, err := toml.Decode("v = "+value, &doc); err == nil {
		o.Value = doc["v"]
	} else {
		o.Value = value // a bare word: a string
	}
	return o, nil
}

// applyOverrides merges the overrides into the merged tree root of a file whose
// keys come from src, each as a source of its own (named "--set ARG") that
// wins over the file and its includes.
func applyOverrides(root map[string]any, src *sources, overrides []Override) {
	for _, o := range overrides {
		idx := len(src.files)
		src.files = append(src.files, source{file: "--set " + o.Arg, override: true})
		tree := map[string]any{o.Key: copyValue(o.Value)}
		if o.Section != "" {
			tree = map[string]any{o.Section: tree}
		}
		treeOrigin := map[string]int{}
		markOrigin(tree, "", idx, treeOrigin)
		if o.Section != "" {
			if _, ok := root[o.Section].(map[string]any); ok {
				// The section stays the file's: only the key is the
				// override's (errors about the section name the file).
				delete(treeOrigin, o.Section)
				treeOrigin[o.Section] = src.origin[o.Section]
			}
		}
		mergeTree(root, tree, src.origin, treeOrigin, "")
	}
}
