// Package numfmt renders numbers the way netsim's results files and tables
// print them: fixed decimals without trailing zeros, so that a value read
// back from a file prints as it was written.
package numfmt

import (
	"strconv"
	"strings"
)

// Decimal renders v with at most places decimals (the shortest form that
// reads back as v if places < 0), without trailing zeros or a negative
// zero.
func Decimal(v float64, places int) string {
	s := strconv.FormatFloat(v, 'f', places, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}
