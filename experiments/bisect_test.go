package experiments

import (
	"errors"
	"math/bits"
	"testing"
)

func TestBisectFindsThreshold(t *testing.T) {
	for _, res := range []int{1, 2, 3, 7, 32, 100, 128} {
		for threshold := 0; threshold <= res; threshold++ {
			calls := 0
			got, err := bisect(res, func(k int) (bool, error) {
				if k < 1 || k > res {
					t.Fatalf("res %d: tested k = %d outside [1, %d]", res, k, res)
				}
				calls++
				return k <= threshold, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if got != threshold {
				t.Errorf("res %d threshold %d: got %d", res, threshold, got)
			}
			if limit := bits.Len(uint(res)); calls > limit {
				t.Errorf("res %d threshold %d: %d calls, want ≤ %d", res, threshold, calls, limit)
			}
		}
	}
}

func TestBisectEdges(t *testing.T) {
	tests := []struct {
		name   string
		stable func(int) bool
		want   int
	}{
		{"all stable", func(int) bool { return true }, 128},
		{"none stable", func(int) bool { return false }, 0},
		{"only the first", func(k int) bool { return k == 1 }, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := bisect(128, func(k int) (bool, error) { return tc.stable(k), nil })
			if err != nil || got != tc.want {
				t.Errorf("got %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

func TestBisectStopsAtError(t *testing.T) {
	boom := errors.New("boom")
	calls := 0
	_, err := bisect(128, func(int) (bool, error) { calls++; return false, boom })
	if !errors.Is(err, boom) || calls != 1 {
		t.Errorf("got %v after %d calls, want boom after 1", err, calls)
	}
}
