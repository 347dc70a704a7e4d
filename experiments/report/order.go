package report

import (
	"cmp"
	"strconv"
	"strings"
)

// compareValues orders two values of the field key: traffic patterns in
// seed 004's order, dispersions in seed 001's (static, random, adaptive,
// probing), numbers by value, other text in natural order (digit
// runs by value, so "flatfly 4x4" comes before "flatfly 16x16"; letters
// regardless of case first, so "D" < "distance" < "G"). The empty value (a
// missing field) comes first.
func compareValues(key, a, b string) int {
	if a == b {
		return 0
	}
	if a == "" || b == "" {
		return cmp.Compare(len(a), len(b))
	}
	if key == "pattern" {
		ia, ib := patternRank(a), patternRank(b)
		if ia != ib {
			return cmp.Compare(ia, ib)
		}
	}
	if key == "dispersion" {
		ia, ib := dispersionRank(a), dispersionRank(b)
		if ia != ib {
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
