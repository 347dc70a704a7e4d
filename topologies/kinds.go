package topologies

import (
	"slices"
	"strings"

	"netsim/keyerr"
)

// Kinds returns the values of Spec.Kind that Build accepts, in the order
// of the reference (hyperx is an alias of flatfly).
func Kinds() []string { return strings.Split(knownKinds, ", ") }

// UsedKeys returns the keys of [topology] (Keys) that a topology of kind
// uses besides kind and preset, in the order its messages name them;
// false for an unknown kind.
func UsedKeys(kind string) ([]string, bool) {
	switch kind {
	case "flatfly", "hyperx", "torus":
		return []string{"dims", "widths", "hosts_per_switch"}, true
	case "crossbar":
		return []string{"hosts"}, true
	case "ring":
		return []string{"switches", "widths", "hosts_per_switch"}, true
	case "hypercube":
		return []string{"dimension", "width", "hosts_per_switch"}, true
	case "dragonfly":
		return []string{"group_size", "global_per_switch", "hosts_per_switch", "arrangement", "omit_one_global"}, true
	case "slimfly":
		return []string{"q", "width", "hosts_per_switch"}, true
	case "product":
		return []string{"factors", "hosts_per_switch"}, true
	case "kautz":
		return []string{"b", "n", "hosts_per_switch"}, true
	case "random":
		return []string{"switches", "hosts_per_switch", "links", "ports", "seed"}, true
	case "clos":
		return []string{"ports", "hosts", "oversubscription"}, true
	case "fattree":
		return []string{"k", "n", "oversubscription"}, true
	case "xgft":
		return []string{"m", "w", "hosts"}, true
	case "deimos":
		return []string{"ports", "box_hosts", "chain_links"}, true
	case "file":
		return []string{"path", "format"}, true
	}
	return nil, false
}

// UnusedKeys returns a *keyerr.Error for every key s sets that its kind
// does not use, in the order of Spec (none for an unknown kind, which
// Build reports).
func UnusedKeys(s Spec) []error {
	used, ok := UsedKeys(s.Kind)
	if !ok {
		return nil
	}
	var errs []error
	for _, k := range specKeys(s) {
		if k.set && !slices.Contains(used, k.key) {
			errs = append(errs, keyerr.New(k.key, "not used by topology %s (it uses %s)", s.Kind, strings.Join(used, ", ")))
		}
	}
	return errs
}
