package report

import (
	"cmp"
	"strconv"
	"strings"
)

// compareValues orders two values of the field key: traffic patterns in
// seed 004's order, routings in the order of its §3 (see routingRank),
// topologies by family in the order of its §1 (see topologyRank),
// dispersions in seed 001's (static, random, adaptive, probing), numbers
// by value, other text in natural order (digit runs by value, so "flatfly
// 4x4" comes before "flatfly 16x16"; letters regardless of case first, so
// "B" < "beta" < "C"). The empty value (a missing field) comes first.
func compareValues(key, a, b string) int {
	if a == b {
		return 0
	}
	if a == "" || b == "" {
		return cmp.Compare(len(a), len(b))
	}
	if rank := rankOf(key); rank != nil {
		if ia, ib := rank(a), rank(b); ia != ib {
			return cmp.Compare(ia, ib)
		}
	}
	fa, erra := strconv.ParseFloat(a, 64)
	fb, errb := strconv.ParseFloat(b, 64)
	if erra == nil && errb == nil && fa != fb {
		return cmp.Compare(fa, fb)
	}
	if c := naturalCompare(a, b); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// rankOf returns the function ranking the values of the field key in a
// seed's order (a smaller rank first), or nil for a field without one.
func rankOf(key string) func(string) int {
	switch key {
	case "pattern":
		return patternRank
	case "dispersion":
		return dispersionRank
	case "routing":
		return routingRank
	case "topology":
		return topologyRank
	}
	return nil
}

// patternRank is a pattern's position in the column order of seed 004's
// saturation table, or 6 for any other pattern (those follow in
// alphabetical order).
func patternRank(p string) int {
	switch p {
	case "uniform":
		return 0
	case "complement":
		return 1
	case "reverse":
		return 2
	case "rotation":
		return 3
	case "shuffle":
		return 4
	case "transpose":
		return 5
	}
	return 6
}

// dispersionRank is a dispersion's position in seed 001's order, or 4 for
// any other.
func dispersionRank(d string) int {
	switch d {
	case "static":
		return 0
	case "random":
		return 1
	case "adaptive":
		return 2
	case "probing":
		return 3
	}
	return 4
}

// routingRank is a routing's position in the order seed 004 §3 presents
// them: the DOR family (the torus's and FlatFly's dor, then mixed, twisted,
// and the ADOR variants), the hypercube's turn models, the Dragonfly's
// static routing and letter combinations, the Slim Fly's minimal routing,
// then the Distance Based family (distance and distance+E, then
// deflection+E; E in natural order). Any other routing ranks after these,
// in natural order.
func routingRank(r string) int {
	switch r {
	case "dor":
		return 0
	case "mixed-dor":
		return 1
	case "twisted-dor":
		return 2
	case "twisted-mixed-dor":
		return 3
	case "ador":
		return 4
	case "mixed-ador":
		return 5
	case "twisted-ador":
		return 6
	case "twisted-mixed-ador":
		return 7
	case "negative-first":
		return 8
	case "abo-negative-first":
		return 9
	case "abo-positive-last":
		return 10
	case "static":
		return 11
	case "S":
		return 12
	case "D":
		return 13
	case "SD":
		return 14
	case "G":
		return 15
	case "GS":
		return 16
	case "GI":
		return 17
	case "GD":
		return 18
	case "GSI":
		return 19
	case "GID":
		return 20
	case "GSD":
		return 21
	case "GSID":
		return 22
	case "minimal":
		return 23
	}
	switch {
	case r == "distance" || strings.HasPrefix(r, "distance+"):
		return 24
	case strings.HasPrefix(r, "deflection+"):
		return 25
	}
	return 26
}

// topologyRank is the position of a topology label's family (its first
// word) in the order of seed 004 §1: torus, flatfly, hypercube, dragonfly,
// slimfly, then products (SF×FF); any other family ranks after these, in
// natural order.
func topologyRank(t string) int {
	family, _, _ := strings.Cut(t, " ")
	family, _, _ = strings.Cut(family, "[")
	switch family {
	case "torus":
		return 0
	case "flatfly":
		return 1
	case "hypercube":
		return 2
	case "dragonfly":
		return 3
	case "slimfly":
		return 4
	case "product":
		return 5
	}
	return 6
}

// naturalCompare compares text with runs of digits compared by value and
// letters regardless of case.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := isDigit(a[0]), isDigit(b[0])
		if da && db {
			na, ra := digitRun(a)
			nb, rb := digitRun(b)
			ta, tb := strings.TrimLeft(na, "0"), strings.TrimLeft(nb, "0")
			if c := cmp.Compare(len(ta), len(tb)); c != 0 {
				return c
			}
			if c := strings.Compare(ta, tb); c != 0 {
				return c
			}
			a, b = ra, rb
			continue
		}
		if ca, cb := lower(a[0]), lower(b[0]); ca != cb {
			return cmp.Compare(ca, cb)
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digitRun splits s after its leading run of digits.
func digitRun(s string) (run, rest string) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// lower maps ASCII upper-case letters to lower case.
func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// compareRows orders rows of key values field by field.
func compareRows(keys []string, a, b []string) int {
	for i, k := range keys {
		if c := compareValues(k, a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}
