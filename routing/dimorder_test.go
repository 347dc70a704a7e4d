package routing

import (
	"slices"
	"testing"
)

func TestDimOrdersSeed(t *testing.T) {
	tests := []struct {
		n    int
		want [][]int
	}{
		{1, [][]int{{0}}},
		{2, [][]int{{0, 1}, {1, 0}}},
		{3, [][]int{{0, 1, 2}, {1, 2, 0}, {2, 0, 1}}},
		// Seed 004 §3.3: (1,2,3,4), (2,4,1,3), (3,1,4,2), (4,3,2,1).
		{4, [][]int{{0, 1, 2, 3}, {1, 3, 0, 2}, {2, 0, 3, 1}, {3, 2, 1, 0}}},
		// Williams: 0, 1, 7, 2, 6, 3, 5, 4 and its shifts.
		{8, [][]int{
			{0, 1, 7, 2, 6, 3, 5, 4}, {1, 2, 0, 3, 7, 4, 6, 5}, {2, 3, 1, 4, 0, 5, 7, 6}, {3, 4, 2, 5, 1, 6, 0, 7},
			{4, 5, 3, 6, 2, 7, 1, 0}, {5, 6, 4, 7, 3, 0, 2, 1}, {6, 7, 5, 0, 4, 1, 3, 2}, {7, 0, 6, 1, 5, 2, 4, 3},
		}},
	}
	for _, tc := range tests {
		got := dimOrders(tc.n)
		if !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("dimOrders(%d) = %v, want %v", tc.n, got, tc.want)
		}
	}
}

// TestDimOrdersBalance checks the properties dimOrders promises for every
// n up to 16: n orders forming a Latin square, row-complete (every ordered
// pair of distinct dimensions consecutive exactly once) for even n, and for
// odd n every consecutive pair used by exactly 0 or 2 orders.
func TestDimOrdersBalance(t *testing.T) {
	for n := 1; n <= 16; n++ {
		orders := dimOrders(n)
		if len(orders) != n {
			t.Fatalf("n=%d: %d orders", n, len(orders))
		}
		atPos := make([][]int, n) // atPos[dim][pos]
		for i := range atPos {
			atPos[i] = make([]int, n)
		}
		pairs := make([]int, n*n)
		for _, o := range orders {
			if len(o) != n {
				t.Fatalf("n=%d: order %v", n, o)
			}
			for pos, d := range o {
				if d < 0 || d >= n {
					t.Fatalf("n=%d: order %v", n, o)
				}
				atPos[d][pos]++
				if pos > 0 {
					pairs[o[pos-1]*n+d]++
				}
			}
		}
		for d := range n {
			for pos := range n {
				if atPos[d][pos] != 1 {
					t.Fatalf("n=%d: dimension %d is at position %d in %d orders, want 1: %v", n, d, pos, atPos[d][pos], orders)
				}
			}
		}
		for a := range n {
			for b := range n {
				c := pairs[a*n+b]
				switch {
				case a == b && c != 0:
					t.Fatalf("n=%d: pair (%d,%d) consecutive", n, a, b)
				case a != b && n%2 == 0 && c != 1:
					t.Fatalf("n=%d: pair (%d,%d) consecutive in %d orders, want 1", n, a, b, c)
				case a != b && n%2 == 1 && c != 0 && c != 2:
					t.Fatalf("n=%d: pair (%d,%d) consecutive in %d orders, want 0 or 2", n, a, b, c)
				}
			}
		}
	}
}
