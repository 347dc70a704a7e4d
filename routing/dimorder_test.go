package routing

import (
	"reflect"
	"slices"
	"testing"
)

func TestDimOrdersSeed(t *testing.T) {
	// Seed 004 §3.3, dimensions numbered from 1 there, from 0 here.
	want := [][]int{{0, 1, 2, 3}, {1, 3, 0, 2}, {2, 0, 3, 1}, {3, 2, 1, 0}}
	if got := dimOrders(4, mixedOrders); !reflect.DeepEqual(got, want) {
		t.Fatalf("dimOrders(4, 4) = %v, want the seed's %v", got, want)
	}
}

func TestDimOrders(t *testing.T) {
	tests := []struct {
		nd, count int
		want      [][]int
	}{
		{1, 4, [][]int{{0}}},
		{2, 4, [][]int{{0, 1}, {1, 0}}},
		{3, 4, [][]int{{0, 1, 2}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}}},
		{4, 2, [][]int{{0, 1, 2, 3}, {1, 3, 0, 2}}},
		{5, 4, [][]int{{0, 1, 2, 3, 4}, {1, 3, 0, 2, 4}, {2, 1, 4, 0, 3}, {3, 0, 4, 1, 2}}},
		{0, 4, nil},
		{3, 0, nil},
	}
	for _, tc := range tests {
		if got := dimOrders(tc.nd, tc.count); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("dimOrders(%d, %d) = %v, want %v", tc.nd, tc.count, got, tc.want)
		}
	}
}

// TestDimOrdersArePermutations: for every dimension count the topologies
// allow, the orders are distinct permutations, the first ascending, and
// there are min(count, 4) of them from 3 dimensions on.
func TestDimOrdersArePermutations(t *testing.T) {
	for nd := 1; nd <= 32; nd++ {
		orders := dimOrders(nd, 8)
		if nd >= 3 && len(orders) < 4 || len(orders) > 8 || len(orders) == 0 {
			t.Fatalf("nd=%d: %d orders", nd, len(orders))
		}
		for i, o := range orders {
			s := slices.Sorted(slices.Values(o))
			for n := range nd {
				if len(s) != nd || s[n] != n {
					t.Fatalf("nd=%d: order %d = %v is not a permutation", nd, i, o)
				}
			}
			if i == 0 && !slices.Equal(o, s) {
				t.Fatalf("nd=%d: order 0 = %v, want ascending", nd, o)
			}
			for j := range i {
				if slices.Equal(o, orders[j]) {
					t.Fatalf("nd=%d: orders %d and %d are both %v", nd, j, i, o)
				}
			}
		}
	}
}
