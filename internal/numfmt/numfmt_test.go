package numfmt

import (
	"math"
	"testing"
)

func TestDecimal(t *testing.T) {
	tests := []struct {
		v      float64
		places int
		want   string
	}{
		{0.5, 6, "0.5"},
		{0.125, 2, "0.12"}, // round half to even, as strconv
		{1, 3, "1"},
		{100, 0, "100"},
		{-0.0001, 3, "0"},
		{math.Copysign(0, -1), 2, "0"},
		{-1.25, 4, "-1.25"},
		{0.30000000000000004, -1, "0.30000000000000004"},
		{81.25, 1, "81.2"},
		{1e-7, 6, "0"},
	}
	for _, tc := range tests {
		if got := Decimal(tc.v, tc.places); got != tc.want {
			t.Errorf("Decimal(%v, %d) = %q, want %q", tc.v, tc.places, got, tc.want)
		}
	}
}
