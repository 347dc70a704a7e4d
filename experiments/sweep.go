package experiments

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"netsim/traffic"
)

// maxVariants bounds the variants one file may sweep: far beyond what can
// be simulated, it catches a sweep written by mistake.
const maxVariants = 100000

// Param is the value one swept key takes in a variant.
type Param struct {
	// Key is the swept key qualified by its section, as in
	// "routing.algorithm" or "flow_control.buffer_flits".
	Key string
	// Value is the key's value in the variant as TOML decodes it: a
	// string, int64, float64, bool or, for dims and the other array keys,
	// []any.
	Value any
}

// sweepAxis is one swept key and the values it takes, in file order.
type sweepAxis struct {
	section, key string
	values       []any
}

// sweptSections lists the sections whose keys may be swept, in the order
// the swept keys are enumerated.
func sweptSections() []string {
	return []string{"topology", "routing", "flow_control", "switch", "nic", "traffic"}
}

// arrayValued reports whether a single value of key is already an array
// (its schema says an array of integers), so that a sweep over it is an
// array of arrays.
func arrayValued(section, key string) bool {
	k := schemaKey(section, key)
	return k != nil && k.Type == TypeInts
}

// sweepable reports whether key of section may be swept: every key of the
// swept sections but the product's factors and the traffic patterns (a
// list of patterns is simulated pattern by pattern within each variant).
func sweepable(section, key string) bool {
	switch {
	case !slices.Contains(sweptSections(), section):
		return false
	case section == "topology" && key == "factors":
		return false
	case section == "traffic" && (key == "patterns" || key == "pattern"):
		return false
	}
	return true
}

// findSweeps returns the swept keys of root in canonical order — section
// by section in the order of sweptSections, and within a section in the
// order of sectionKeys — reporting malformed sweeps.
func (d *decoder) findSweeps(root map[string]any) []sweepAxis {
	var axes []sweepAxis
	for _, sec := range sweptSections() {
		t, ok := root[sec].(map[string]any)
		if !ok {
			continue
		}
		for _, key := range sectionKeys(sec) {
			list, ok := t[key].([]any)
			if !ok || !sweepable(sec, key) {
				continue
			}
			if arrayValued(sec, key) {
				nested := 0
				for _, x := range list {
					if _, ok := x.([]any); ok {
						nested++
					}
				}
				switch {
				case nested == 0:
					continue // a single value
				case nested < len(list):
					d.fail(sec, key, "mixes arrays and single values (a sweep over %s is an array of arrays, as in %s = [[4, 4], [8, 8]])", key, key)
					continue
				}
			}
			if len(list) == 0 {
				d.fail(sec, key, "empty sweep (expected one value, or an array of the values to sweep)")
				continue
			}
			for i, x := range list {
				for j := range i {
					if formatValue(list[j]) == formatValue(x) {
						d.fail(sec, key, "sweep value %d (%s) appears twice", i+1, formatValue(x))
					}
				}
			}
			axes = append(axes, sweepAxis{section: sec, key: key, values: list})
		}
	}
	return axes
}

// variantCount returns the number of variants of axes, or an error beyond
// maxVariants.
func variantCount(axes []sweepAxis) (int, error) {
	n := 1
	for _, a := range axes {
		n *= len(a.values)
		if n > maxVariants {
			return 0, fmt.Errorf("the sweeps make more than %d variants", maxVariants)
		}
	}
	return n, nil
}

// choice returns the index into each axis's values of variant v: variants
// enumerate the cartesian product with the last axis varying fastest.
func choice(axes []sweepAxis, v int) []int {
	idx := make([]int, len(axes))
	for k := len(axes) - 1; k >= 0; k-- {
		n := len(axes[k].values)
		idx[k] = v % n
		v /= n
	}
	return idx
}

// variantTree returns root with each swept key set to its value in the
// variant idx; root itself is not modified.
func variantTree(root map[string]any, axes []sweepAxis, idx []int) map[string]any {
	tree := make(map[string]any, len(root))
	for k, v := range root {
		tree[k] = v
	}
	copied := map[string]bool{}
	for k, a := range axes {
		orig, ok := root[a.section].(map[string]any)
		if !ok {
			continue
		}
		if !copied[a.section] {
			t := make(map[string]any, len(orig))
			for key, v := range orig {
				t[key] = v
			}
			tree[a.section], copied[a.section] = t, true
		}
		tree[a.section].(map[string]any)[a.key] = a.values[idx[k]]
	}
	return tree
}

// paramsOf returns the swept keys' values in the variant idx.
func paramsOf(axes []sweepAxis, idx []int) []Param {
	if len(axes) == 0 {
		return nil
	}
	params := make([]Param, len(axes))
	for k, a := range axes {
		params[k] = Param{Key: a.section + "." + a.key, Value: a.values[idx[k]]}
	}
	return params
}

// variantKey renders params as the variant's key: "section.key=value"
// pairs joined by ";", in canonical order ("" without sweeps).
func variantKey(params []Param) string {
	parts := make([]string, len(params))
	for i, p := range params {
		parts[i] = p.Key + "=" + formatValue(p.Value)
	}
	return strings.Join(parts, ";")
}

// formatValue renders a swept value in a variant key: strings as they are
// (quoted when empty or holding a blank or one of ;=[],"|), numbers in
// their shortest form, arrays as [a,b].
func formatValue(v any) string {
	switch x := v.(type) {
	case string:
		if x == "" || strings.ContainsAny(x, " \t\n;=[],\"|") {
			return strconv.Quote(x)
		}
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = formatValue(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return fmt.Sprintf("%v", v)
}

// paramsJSON renders params as a JSON object in canonical order, or nil
// when there are none.
func paramsJSON(params []Param) json.RawMessage {
	if len(params) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range params {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.Key)
		v, err := json.Marshal(p.Value)
		if err != nil {
			v, _ = json.Marshal(formatValue(p.Value))
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

// expand decodes every variant of the tree root of file and, when build is
// set, builds its network, routing and patterns. Problems are returned
// joined, each an *InputError; a problem common to every variant is
// reported once, as for a file without sweeps, and one that is not names
// the sweep value or the variant it comes from.
func expand(file string, root map[string]any, src *sources, build bool) ([]*Experiment, error) {
	d := &decoder{src: src}
	axes := d.findSweeps(root)
	n, err := variantCount(axes)
	if err != nil {
		f, line := src.locate(axes[0].section, axes[0].key)
		d.failAt(f, line, "", "", "%v", err)
	}
	if len(d.errs) > 0 {
		d.sortErrors()
		return nil, errors.Join(d.errs...)
	}
	cache := newBuildCache()
	exps := make([]*Experiment, 0, n)
	// The problems of each variant found decoding it, and building it
	// (variants that do not decode are built only in the sections that
	// do, and those problems count as decoding ones).
	decodeErrs, buildErrs := make([][]*InputError, n), make([][]*InputError, n)
	decoded := make([]int, 0, n)
	failed := false
	for v := range n {
		idx := choice(axes, v)
		tree, params := variantTree(root, axes, idx), paramsOf(axes, idx)
		vd := &decoder{src: src}
		e := vd.decodeTree(file, tree)
		e.Params, e.Variant = params, variantKey(params)
		decodeErrs[v] = inputErrors(vd.errs)
		switch {
		case len(vd.errs) == 0:
			decoded = append(decoded, v)
			if build {
				vd.build(e, cache)
				buildErrs[v] = inputErrors(vd.errs)
			}
		case build:
			// What decoded cleanly is built too, so independent problems
			// come in one pass; they count with the variant's decoding.
			vd.build(e, cache)
			decodeErrs[v] = inputErrors(vd.errs)
		}
		failed = failed || len(vd.errs) > 0
		exps = append(exps, e)
	}
	if failed {
		all := make([]int, n)
		for v := range all {
			all[v] = v
		}
		errs := annotateVariantErrors(axes, all, decodeErrs)
		errs = append(errs, annotateVariantErrors(axes, decoded, buildErrs)...)
		sortInputErrors(errs, src)
		return nil, errors.Join(errs...)
	}
	return replicate(exps)
}

// replicate returns exps with each experiment followed by its
// replications 1 to N − 1 ([sim] replications = N): copies seeded with
// ReplicaSeed, their patterns drawn from their seed (randperm's
// permutation, say) and their configuration hashed with it.
func replicate(exps []*Experiment) ([]*Experiment, error) {
	var out []*Experiment
	for _, e := range exps {
		out = append(out, e)
		for r := 1; r < e.Sim.Replications; r++ {
			c := *e
			c.Replication, c.Seed = r, ReplicaSeed(e.Seed, r)
			if e.patterns != nil {
				c.patterns = make([]traffic.Pattern, len(e.patterns))
				for i, name := range e.Traffic.Patterns {
					p, err := traffic.NewNetworkPattern(name, e.net, c.Seed, e.patternOpts)
					if err != nil {
						return nil, fmt.Errorf("%s: replication %d: pattern %s: %w", e.File, r, name, err)
					}
					c.patterns[i] = p
				}
			}
			if e.config != "" {
				c.config = configHash(&c)
			}
			out = append(out, &c)
		}
	}
	return out, nil
}

// inputErrors returns the *InputErrors of errs.
func inputErrors(errs []error) []*InputError {
	var out []*InputError
	for _, err := range errs {
		var ie *InputError
		if errors.As(err, &ie) {
			out = append(out, ie)
		}
	}
	return out
}

// annotateVariantErrors merges the problems perVariant found in the
// variants of universe (those that reached the check). A problem found in
// all of them is reported once as it is. Any other is reported once per
// combination of the fewest swept keys that tells the variants having it
// from the others: as "sweep value I (V): ..." when that is the problem's
// own key alone, else as "with KEY=V;...: ...".
func annotateVariantErrors(axes []sweepAxis, universe []int, perVariant [][]*InputError) []error {
	occ := map[string][]int{}
	for _, v := range universe {
		for _, e := range perVariant[v] {
			occ[e.Error()] = append(occ[e.Error()], v)
		}
	}
	var out []error
	seen := map[string]bool{}
	cause := map[string][]int{}
	for _, v := range universe {
		idx := choice(axes, v)
		for _, e := range perVariant[v] {
			text := e.Error()
			s, ok := cause[text]
			if !ok {
				s = causeAxes(axes, occ[text], universe)
				cause[text] = s
			}
			a := *e
			switch {
			case len(s) == 0:
			case len(s) == 1 && axes[s[0]].section == e.Section && slices.Contains(strings.Split(e.Key, "/"), axes[s[0]].key):
				k := s[0]
				a.Msg = fmt.Sprintf("sweep value %d (%s): %s", idx[k]+1, formatValue(axes[k].values[idx[k]]), e.Msg)
			default:
				params := paramsOf(axes, idx)
				sub := make([]Param, len(s))
				for i, k := range s {
					sub[i] = params[k]
				}
				a.Msg = fmt.Sprintf("with %s: %s", variantKey(sub), e.Msg)
			}
			if t := a.Error(); !seen[t] {
				seen[t] = true
				out = append(out, &a)
			}
		}
	}
	return out
}

// causeAxes returns the smallest set of axes (the first in canonical order
// among sets of that size) on which the variants users are told from the
// other variants of universe: every variant of universe whose values on
// these axes are those of a user is a user. The set of all axes always
// qualifies.
func causeAxes(axes []sweepAxis, users, universe []int) []int {
	for size := 0; size <= len(axes); size++ {
		var found []int
		ok := false
		forSubsets(len(axes), size, func(s []int) bool {
			if explains(axes, s, users, universe) {
				found, ok = slices.Clone(s), true
			}
			return !ok
		})
		if ok {
			return found
		}
	}
	return nil
}

// explains reports whether the axes s tell users from the rest of
// universe: for each combination of values on s that a user has, every
// variant of universe with it is a user.
func explains(axes []sweepAxis, s []int, users, universe []int) bool {
	project := func(v int) string {
		idx := choice(axes, v)
		key := make([]byte, 0, 4*len(s))
		for _, k := range s {
			key = fmt.Appendf(key, "%d,", idx[k])
		}
		return string(key)
	}
	return countMatches(users, universe, project)
}

// countMatches reports whether, for every combination (by project) that a
// user has, the users with it are all the variants of universe with it.
func countMatches(users, universe []int, project func(int) string) bool {
	nu := map[string]int{}
	for _, u := range users {
		nu[project(u)]++
	}
	nv := map[string]int{}
	for _, v := range universe {
		nv[project(v)]++
	}
	for p, c := range nu {
		if nv[p] != c {
			return false
		}
	}
	return true
}

// forSubsets calls f with every subset of {0..n-1} of the given size, in
// lexicographic order, until f returns false.
func forSubsets(n, size int, f func([]int) bool) {
	s := make([]int, size)
	var rec func(start, i int) bool
	rec = func(start, i int) bool {
		if i == size {
			return f(s)
		}
		for x := start; x < n; x++ {
			s[i] = x
			if !rec(x+1, i+1) {
				return false
			}
		}
		return true
	}
	rec(0, 0)
}
