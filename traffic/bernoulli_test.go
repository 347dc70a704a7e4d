package traffic

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"netsim/kernel"
)

func TestBernoulliGapMean(t *testing.T) {
	tests := []struct {
		load  float64
		flits int
	}{
		{1, 1},
		{0.5, 1},
		{0.05, 1},
		{1, 4},
		{0.3, 4},
		{0.9, 16},
		{0.1, 16},
		{0.586, 8},
	}
	const draws = 200000
	for _, tt := range tests {
		t.Run(fmt.Sprintf("load=%v/flits=%d", tt.load, tt.flits), func(t *testing.T) {
			b, err := NewBernoulli(tt.load, tt.flits)
			if err != nil {
				t.Fatalf("NewBernoulli: %v", err)
			}
			if b.Load() != tt.load || b.PacketFlits() != tt.flits {
				t.Errorf("Load, PacketFlits = %v, %d; want %v, %d", b.Load(), b.PacketFlits(), tt.load, tt.flits)
			}
			p := tt.load / float64(tt.flits)
			if b.Rate() != p {
				t.Errorf("Rate() = %v, want %v", b.Rate(), p)
			}
			rng := kernel.NewRNG(11, uint64(tt.flits))
			var sum float64
			ones := 0
			for range draws {
				g := b.Gap(&rng)
				if g < 1 {
					t.Fatalf("Gap = %d, want ≥ 1", g)
				}
				if g == 1 {
					ones++
				}
				sum += float64(g)
			}
			// Mean gap 1/p: the offered load is flits·p flits per cycle.
			mean, want := sum/draws, 1/p
			if math.Abs(mean-want) > 0.02*want {
				t.Errorf("mean gap = %.3f, want %.3f ± 2%%", mean, want)
			}
			// A gap of one cycle means success on the first coin flip,
			// which has probability p.
			frac := float64(ones) / draws
			if tol := 5*math.Sqrt(p*(1-p)/draws) + 1e-9; math.Abs(frac-p) > tol {
				t.Errorf("P(gap = 1) = %.4f, want %.4f ± %.4f", frac, p, tol)
			}
		})
	}
}

func TestBernoulliGapDistribution(t *testing.T) {
	// The gap must be distributed like the index of the first success in a
	// sequence of per-cycle coin flips: P(gap > k) = (1−p)^k.
	b, err := NewBernoulli(0.4, 2)
	if err != nil {
		t.Fatal(err)
	}
	p := b.Rate()
	rng := kernel.NewRNG(12)
	const draws = 200000
	var over [8]int
	for range draws {
		g := b.Gap(&rng)
		for k := range over {
			if g > int64(k) {
				over[k]++
			}
		}
	}
	for k, c := range over {
		want := math.Pow(1-p, float64(k))
		got := float64(c) / draws
		if tol := 5*math.Sqrt(want*(1-want)/draws) + 1e-9; math.Abs(got-want) > tol {
			t.Errorf("P(gap > %d) = %.4f, want %.4f ± %.4f", k, got, want, tol)
		}
	}
}

func TestBernoulliZeroLoad(t *testing.T) {
	tests := []struct {
		name string
		b    func() (Bernoulli, error)
	}{
		{"NewBernoulli(0, 4)", func() (Bernoulli, error) { return NewBernoulli(0, 4) }},
		{"zero value", func() (Bernoulli, error) { return Bernoulli{}, nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.b()
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			rng := kernel.NewRNG(1)
			before := rng
			for range 10 {
				if g := b.Gap(&rng); g != kernel.Never {
					t.Fatalf("Gap = %d, want kernel.Never (%d)", g, kernel.Never)
				}
			}
			if rng != before {
				t.Errorf("Gap drew from the rng at zero load")
			}
			if b.Load() != 0 || b.Rate() != 0 {
				t.Errorf("Load, Rate = %v, %v; want 0, 0", b.Load(), b.Rate())
			}
		})
	}
}

func TestNewBernoulliErrors(t *testing.T) {
	tests := []struct {
		load  float64
		flits int
		want  string
	}{
		{-0.1, 1, "load"},
		{1.0000001, 1, "load"},
		{1.5, 4, "got 1.5"},
		{math.NaN(), 1, "load"},
		{math.Inf(1), 1, "load"},
		{math.Inf(-1), 1, "load"},
		{0.5, 0, "packetFlits = 0"},
		{0.5, -2, "packetFlits = -2"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("load=%v/flits=%d", tt.load, tt.flits), func(t *testing.T) {
			_, err := NewBernoulli(tt.load, tt.flits)
			if err == nil {
				t.Fatalf("NewBernoulli(%v, %d) succeeded, want an error", tt.load, tt.flits)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestGapDoesNotAllocate(t *testing.T) {
	tests := []struct {
		load  float64
		flits int
	}{
		{0, 1},
		{0.3, 4},
		{1, 1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("load=%v/flits=%d", tt.load, tt.flits), func(t *testing.T) {
			b, err := NewBernoulli(tt.load, tt.flits)
			if err != nil {
				t.Fatal(err)
			}
			rng := kernel.NewRNG(1)
			var sum int64
			allocs := testing.AllocsPerRun(1000, func() {
				sum += b.Gap(&rng)
			})
			if allocs != 0 {
				t.Errorf("Gap allocates %v times per call, want 0", allocs)
			}
		})
	}
}
