package kernel

import (
	"math"
	"math/bits"
)

// RNG is a small, fast pseudo-random generator (xoshiro256**) used for every
// random decision of a simulation. It is a value type: embed it in the
// component that owns the stream, and derive each stream from the
// experiment seed with NewRNG so runs are reproducible.
type RNG struct {
	s [4]uint64
}

// splitmix64 advances x and returns the next splitmix64 output.
func splitmix64(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	z := *x
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// NewRNG returns the stream identified by stream under seed. Distinct
// (seed, stream...) tuples give independent-looking streams.
func NewRNG(seed uint64, stream ...uint64) RNG {
	x := seed
	h := splitmix64(&x)
	for _, s := range stream {
		x = h ^ (s * 0xd1342543de82ef95)
		h = splitmix64(&x)
	}
	var r RNG
	x = h
	for i := range r.s {
		r.s[i] = splitmix64(&x)
	}
	if r.s == [4]uint64{} {
		r.s[0] = 1
	}
	return r
}

func rotl(x uint64, k uint) uint64 { return (x << k) | (x >> (64 - k)) }

// Uint64 returns a uniformly distributed 64-bit value.
func (r *RNG) Uint64() uint64 {
	s := &r.s
	result := rotl(s[1]*5, 7) * 9
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = rotl(s[3], 45)
	return result
}

// IntN returns a uniform integer in [0, n). It panics if n <= 0.
func (r *RNG) IntN(n int) int {
	if n <= 0 {
		panic("kernel: RNG.IntN with n <= 0")
	}
	// Lemire's multiply-shift; the bias for n << 2^64 is negligible but we
	// reject to keep it exact.
	un := uint64(n)
	for {
		hi, lo := bits.Mul64(r.Uint64(), un)
		if lo >= un || lo >= (-un)%un {
			return int(hi)
		}
	}
}

// Float64 returns a uniform value in [0, 1).
func (r *RNG) Float64() float64 {
	return float64(r.Uint64()>>11) * (1.0 / (1 << 53))
}

// Geometric returns the number of Bernoulli(p) trials up to and including
// the first success (a value ≥ 1): the gap, in cycles, between packets of a
// Bernoulli injection process. p must be in (0, 1].
func (r *RNG) Geometric(p float64) int64 {
	if p >= 1 {
		return 1
	}
	u := 1 - r.Float64() // (0, 1]
	g := math.Floor(math.Log(u)/math.Log1p(-p)) + 1
	if g > math.MaxInt64/4 {
		return math.MaxInt64 / 4
	}
	return int64(g)
}
