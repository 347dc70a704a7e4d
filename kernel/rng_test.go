package kernel

import (
	"fmt"
	"math"
	"testing"
)

func draw(r RNG, n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = r.Uint64()
	}
	return out
}

func TestRNGDeterminism(t *testing.T) {
	tests := []struct {
		seed   uint64
		stream []uint64
	}{
		{0, nil},
		{1, nil},
		{1, []uint64{0}},
		{42, []uint64{3, 7}},
		{math.MaxUint64, []uint64{math.MaxUint64}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.seed, tc.stream), func(t *testing.T) {
			a := draw(NewRNG(tc.seed, tc.stream...), 100)
			b := draw(NewRNG(tc.seed, tc.stream...), 100)
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("draw %d differs between two generators with the same seed and stream", i)
				}
			}
			// A copy of the value continues the same sequence.
			r := NewRNG(tc.seed, tc.stream...)
			r.Uint64()
			c := r
			if r.Uint64() != c.Uint64() {
				t.Errorf("a copied RNG diverges from its original")
			}
		})
	}
}

func TestRNGStreamsDiffer(t *testing.T) {
	gens := []struct {
		name string
		r    RNG
	}{
		{"seed 1", NewRNG(1)},
		{"seed 2", NewRNG(2)},
		{"seed 1 stream 0", NewRNG(1, 0)},
		{"seed 1 stream 1", NewRNG(1, 1)},
		{"seed 1 stream 2", NewRNG(1, 2)},
		{"seed 2 stream 1", NewRNG(2, 1)},
		{"seed 1 stream 1,2", NewRNG(1, 1, 2)},
		{"seed 1 stream 2,1", NewRNG(1, 2, 1)},
		{"seed 0", NewRNG(0)},
		{"seed 0 stream 0", NewRNG(0, 0)},
	}
	seqs := make([][]uint64, len(gens))
	for i, g := range gens {
		seqs[i] = draw(g.r, 64)
	}
	for i := range gens {
		for j := i + 1; j < len(gens); j++ {
			same := 0
			for k := range seqs[i] {
				if seqs[i][k] == seqs[j][k] {
					same++
				}
			}
			if same > 0 {
				t.Errorf("%s and %s agree on %d of 64 draws", gens[i].name, gens[j].name, same)
			}
		}
	}
}

// TestRNGBitBalance checks that every output bit is set about half the time.
func TestRNGBitBalance(t *testing.T) {
	const n = 100000
	r := NewRNG(2024)
	var ones [64]int
	for range n {
		x := r.Uint64()
		for b := range ones {
			ones[b] += int(x >> uint(b) & 1)
		}
	}
	for b, c := range ones {
		// 6 standard deviations: sqrt(n/4) ≈ 158.
		if math.Abs(float64(c)-n/2) > 6*math.Sqrt(n/4) {
			t.Errorf("bit %d set %d times in %d draws", b, c, n)
		}
	}
}

func TestIntN(t *testing.T) {
	tests := []struct {
		n     int
		draws int
	}{
		{1, 1000},
		{2, 100000},
		{3, 100000},
		{10, 200000},
		{64, 200000},
		{1000, 500000},
		{1<<62 + 1, 100000}, // rejection region of about a quarter
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.n), func(t *testing.T) {
			r := NewRNG(7, uint64(tc.n))
			bins := min(tc.n, 1000)
			counts := make([]int, bins)
			for range tc.draws {
				v := r.IntN(tc.n)
				if v < 0 || v >= tc.n {
					t.Fatalf("IntN(%d) = %d", tc.n, v)
				}
				// Bin by value range, so large n is tested too.
				counts[min(int(float64(v)/float64(tc.n)*float64(bins)), bins-1)]++
			}
			if bins == 1 {
				return
			}
			exp := float64(tc.draws) / float64(bins)
			chi2 := 0.0
			for _, c := range counts {
				d := float64(c) - exp
				chi2 += d * d / exp
			}
			// Loose bound: mean bins-1, standard deviation sqrt(2(bins-1)).
			df := float64(bins - 1)
			if limit := df + 6*math.Sqrt(2*df) + 10; chi2 > limit {
				t.Errorf("chi-square %.1f with %d bins exceeds %.1f", chi2, bins, limit)
			}
		})
	}
}

func TestIntNPanics(t *testing.T) {
	for _, n := range []int{0, -1} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("IntN(%d) did not panic", n)
				}
			}()
			r := NewRNG(1)
			r.IntN(n)
		})
	}
}

func TestFloat64(t *testing.T) {
	const n = 200000
	r := NewRNG(11)
	sum := 0.0
	for range n {
		f := r.Float64()
		if f < 0 || f >= 1 {
			t.Fatalf("Float64() = %v", f)
		}
		sum += f
	}
	// Mean 1/2, standard deviation of the mean sqrt(1/12/n).
	if m := sum / n; math.Abs(m-0.5) > 6*math.Sqrt(1.0/12/n) {
		t.Errorf("mean of %d draws = %v, want about 0.5", n, m)
	}
}

func TestGeometric(t *testing.T) {
	tests := []struct {
		p     float64
		draws int
	}{
		{1, 1000},
		{0.9, 100000},
		{0.5, 100000},
		{0.1, 100000},
		{0.01, 100000},
		{0.0001, 100000},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.p), func(t *testing.T) {
			r := NewRNG(3, math.Float64bits(tc.p))
			sum, ones := 0.0, 0
			for range tc.draws {
				g := r.Geometric(tc.p)
				if g < 1 {
					t.Fatalf("Geometric(%v) = %d", tc.p, g)
				}
				if g == 1 {
					ones++
				}
				sum += float64(g)
			}
			mean, want := sum/float64(tc.draws), 1/tc.p
			// Standard deviation of the mean: sqrt((1-p)/p²/draws).
			sd := math.Sqrt((1-tc.p)/(tc.p*tc.p)/float64(tc.draws)) + 1e-9
			if math.Abs(mean-want) > 6*sd {
				t.Errorf("mean of %d draws = %v, want %v ± %v", tc.draws, mean, want, 6*sd)
			}
			// P(G = 1) = p.
			sdOne := math.Sqrt(tc.p*(1-tc.p)/float64(tc.draws)) + 1e-9
			if f := float64(ones) / float64(tc.draws); math.Abs(f-tc.p) > 6*sdOne {
				t.Errorf("P(G=1) = %v, want %v", f, tc.p)
			}
		})
	}
}

func BenchmarkRNG(b *testing.B) {
	b.Run("Uint64", func(b *testing.B) {
		r := NewRNG(1)
		for b.Loop() {
			r.Uint64()
		}
	})
	b.Run("IntN", func(b *testing.B) {
		r := NewRNG(1)
		for b.Loop() {
			r.IntN(1000)
		}
	})
	b.Run("Geometric", func(b *testing.B) {
		r := NewRNG(1)
		for b.Loop() {
			r.Geometric(0.05)
		}
	})
}
