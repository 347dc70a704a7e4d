package experiments

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
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

func TestGallopFindsThreshold(t *testing.T) {
	for _, res := range []int{1, 2, 3, 7, 32, 100, 128} {
		for threshold := 0; threshold <= res; threshold++ {
			for hint := 0; hint <= res; hint++ {
				tested := map[int]bool{}
				got, err := gallop(res, hint, func(k int) (bool, error) {
					if k < 1 || k > res || tested[k] {
						t.Fatalf("res %d threshold %d hint %d: tested k = %d (outside [1, %d] or twice)", res, threshold, hint, k, res)
					}
					tested[k] = true
					return k <= threshold, nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if got != threshold {
					t.Errorf("res %d threshold %d hint %d: got %d", res, threshold, hint, got)
				}
				// Off by d steps costs at most 2·⌈log2(d+1)⌉ + 2 points,
				// and never more than twice bisection's.
				d := threshold - min(max(hint, 1), res)
				if d < 0 {
					d = -d - 1 // an unstable guess counts from the step below it
				}
				limit := min(2*bits.Len(uint(d))+2, 2*bits.Len(uint(res)))
				if len(tested) > limit {
					t.Errorf("res %d threshold %d hint %d: %d points, want ≤ %d", res, threshold, hint, len(tested), limit)
				}
			}
		}
	}
}

func TestGallopExactHint(t *testing.T) {
	tests := []struct {
		name             string
		hint, threshold  int
		wantPoints, want int
	}{
		{"interior", 40, 40, 2, 40},
		{"none stable", 0, 0, 1, 0},
		{"all stable", 128, 128, 1, 128},
		{"one below", 41, 40, 2, 40},
		{"one above", 39, 40, 4, 40},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			points := 0
			got, err := gallop(128, tc.hint, func(k int) (bool, error) { points++; return k <= tc.threshold, nil })
			if err != nil || got != tc.want || points != tc.wantPoints {
				t.Errorf("got %d, %v after %d points; want %d after %d", got, err, points, tc.want, tc.wantPoints)
			}
		})
	}
}

// TestSearchesEndAtTransition checks, for stability that is not monotone
// in load (noise near saturation), what every search still guarantees:
// the answer was tested stable (or is 0) and the next step was tested
// unstable (or the answer is the resolution).
func TestSearchesEndAtTransition(t *testing.T) {
	const res = 64
	for seed := uint64(1); seed <= 200; seed++ {
		pattern := make([]bool, res+1)
		x := seed
		for k := 1; k <= res; k++ {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			pattern[k] = x%3 != 0
		}
		searches := map[string]func(func(int) (bool, error)) (int, error){
			"bisect": func(f func(int) (bool, error)) (int, error) { return bisect(res, f) },
			"gallop": func(f func(int) (bool, error)) (int, error) { return gallop(res, int(seed%res), f) },
			"guided": func(f func(int) (bool, error)) (int, error) {
				rng := rand.New(rand.NewPCG(seed, 3))
				return guided(res, int(seed%(res+1))-1, func(k int) (bool, float64, error) {
					ok, err := f(k)
					return ok, rng.Float64(), err
				})
			},
		}
		for name, search := range searches {
			verdict := map[int]bool{0: true}
			got, err := search(func(k int) (bool, error) { verdict[k] = pattern[k]; return pattern[k], nil })
			if err != nil {
				t.Fatal(err)
			}
			if ok, tested := verdict[got]; !tested || !ok {
				t.Errorf("%s seed %d: answer %d not tested stable", name, seed, got)
			}
			if got < res {
				if ok, tested := verdict[got+1]; !tested || ok {
					t.Errorf("%s seed %d: answer %d but %d not tested unstable", name, seed, got, got+1)
				}
			}
		}
	}
}

func TestGallopStopsAtError(t *testing.T) {
	boom := errors.New("boom")
	for _, fail := range []int{1, 2, 3, 4} {
		calls := 0
		_, err := gallop(128, 60, func(k int) (bool, error) {
			calls++
			if calls == fail {
				return false, boom
			}
			return k <= 50, nil
		})
		if !errors.Is(err, boom) || calls != fail {
			t.Errorf("failing call %d: got %v after %d calls", fail, err, calls)
		}
	}
}

// acceptedModels are ways a network's accepted load may behave past its
// saturation threshold (in steps of res), for the guided search: flat at
// the threshold as most do, following the offered load (each guess one
// step below the load tested), reading above the load tested (every guess
// clamped to the bracket's top), noise, and no reading at all.
func acceptedModels(res int) map[string]func(k, threshold int, rng *rand.Rand) float64 {
	r := float64(res)
	return map[string]func(k, threshold int, rng *rand.Rand) float64{
		"flat":    func(_, threshold int, _ *rand.Rand) float64 { return (float64(threshold) + 0.5) / r },
		"follows": func(k, _ int, _ *rand.Rand) float64 { return (float64(k) - 0.5) / r },
		"above":   func(k, _ int, _ *rand.Rand) float64 { return min(float64(k)+0.5, r) / r },
		"noise":   func(_, _ int, rng *rand.Rand) float64 { return rng.Float64() },
		"nan":     func(int, int, *rand.Rand) float64 { return math.NaN() },
		"wild": func(_, _ int, rng *rand.Rand) float64 {
			return []float64{-1, -0.5, 1.5, 2, math.Inf(1), math.Inf(-1), math.NaN()}[rng.IntN(7)]
		},
	}
}

func TestGuidedFindsThreshold(t *testing.T) {
	for _, res := range []int{1, 2, 3, 7, 32, 100, 128} {
		for name, model := range acceptedModels(res) {
			rng := rand.New(rand.NewPCG(uint64(res), 1))
			worst := 0
			for threshold := 0; threshold <= res; threshold++ {
				for hint := -3; hint <= res+2; hint++ {
					var order []int
					tested := map[int]bool{}
					got, err := guided(res, hint, func(k int) (bool, float64, error) {
						if k < 1 || k > res || tested[k] {
							t.Fatalf("res %d %s threshold %d hint %d: tested k = %d (outside [1, %d] or twice)", res, name, threshold, hint, k, res)
						}
						tested[k] = true
						order = append(order, k)
						return k <= threshold, model(k, threshold, rng), nil
					})
					if err != nil {
						t.Fatal(err)
					}
					if got != threshold {
						t.Errorf("res %d %s threshold %d hint %d: got %d", res, name, threshold, hint, got)
					}
					worst = max(worst, len(tested))
					// A flat accepted load is read exactly: when the
					// first load tested is unstable, the threshold and
					// the step above it follow (each if not 0 and not
					// tested already).
					first := (res + 1) / 2
					if hint >= 0 {
						first = min(max(hint, 1), res)
					}
					if name == "flat" && first > threshold {
						want := []int{first}
						if threshold > 0 {
							want = append(want, threshold)
						}
						if threshold+1 < first {
							want = append(want, threshold+1)
						}
						if !slices.Equal(order, want) {
							t.Errorf("res %d flat threshold %d hint %d: tested %v, want %v", res, threshold, hint, order, want)
						}
					}
				}
			}
			// However the accepted loads mislead, about twice bisection
			// (19 at 1/128, as the doc of guided says).
			if limit := 2*bits.Len(uint(res)) + 3; worst > limit {
				t.Errorf("res %d %s: up to %d points, want ≤ %d", res, name, worst, limit)
			}
		}
	}
}

func TestGuidedStopsAtError(t *testing.T) {
	boom := errors.New("boom")
	for _, hint := range []int{-1, 60} {
		for _, fail := range []int{1, 2, 3, 4} {
			calls := 0
			_, err := guided(128, hint, func(k int) (bool, float64, error) {
				calls++
				if calls == fail {
					return false, 0, boom
				}
				return k <= 50, 40.0 / 128, nil
			})
			if !errors.Is(err, boom) || calls != fail {
				t.Errorf("hint %d, failing call %d: got %v after %d calls", hint, fail, err, calls)
			}
		}
	}
}

// TestSearchUnderBound checks search with a ceiling (the channel-load
// bound): for a monotone stability whose threshold is at most the
// ceiling, every search, from any hint, finds the threshold, tests no
// load above the ceiling nor any twice, and without a hint starts at the
// ceiling, so a threshold at the ceiling costs one point; a ceiling of 0
// tests nothing.
func TestSearchUnderBound(t *testing.T) {
	const res = 32
	for _, guide := range []bool{false, true} {
		for ceil := 0; ceil <= res; ceil++ {
			for threshold := 0; threshold <= ceil; threshold++ {
				for hint := -1; hint <= res; hint++ {
					name := fmt.Sprintf("guide %v ceil %d threshold %d hint %d", guide, ceil, threshold, hint)
					var order []int
					got, err := search(res, ceil, hint, guide, func(k int) (bool, float64, error) {
						if k < 1 || k > ceil || slices.Contains(order, k) {
							t.Fatalf("%s: tested %d after %v", name, k, order)
						}
						order = append(order, k)
						return k <= threshold, float64(min(k, threshold)) / res, nil
					})
					if err != nil || got != threshold {
						t.Fatalf("%s: got %d, %v; tested %v", name, got, err, order)
					}
					switch {
					case ceil == 0 && len(order) > 0:
						t.Errorf("%s: tested %v", name, order)
					case ceil > 0 && ceil < res && (hint < 0 || hint > ceil) && order[0] != ceil:
						t.Errorf("%s: started at %d", name, order[0])
					case ceil > 0 && ceil < res && threshold == ceil && (hint < 0 || hint >= ceil) && len(order) != 1:
						t.Errorf("%s: tested %v for a threshold at the bound", name, order)
					}
				}
			}
		}
	}
}
