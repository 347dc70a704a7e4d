package traffic

import (
	"fmt"
	"math/bits"
	"strings"

	"netsim/kernel"
)

// MaxHosts is the largest host count NewPattern accepts. It bounds the
// permutation table of randperm (4 bytes per host) and is far beyond the
// size of any network a flit-level simulation can handle.
const MaxHosts = 1 << 24

// Canonical pattern names, as written in experiment files.
const (
	nameUniform    = "uniform"
	nameComplement = "complement"
	nameReverse    = "reverse"
	nameRotation   = "rotation"
	nameShuffle    = "shuffle"
	nameTranspose  = "transpose"
	nameRandPerm   = "randperm"
)

// randPermStream is the kernel.RNG stream, under the pattern seed, from which
// randperm draws its permutation ("randperm" in ASCII), so that it does not
// share a stream with other consumers of the same seed.
const randPermStream = 0x72616e647065726d

// PatternNames returns the canonical names of the patterns NewPattern knows,
// in a fresh slice the caller may modify.
func PatternNames() []string {
	return []string{
		nameUniform,
		nameComplement,
		nameReverse,
		nameRotation,
		nameShuffle,
		nameTranspose,
		nameRandPerm,
	}
}

// NewPattern returns the destination pattern called name for a network of
// hosts hosts. The names, their formulas and the host counts they accept are
// listed in the package documentation; "random_permutation" and
// "permutation" are accepted as aliases of "randperm".
//
// seed is used only by randperm, whose permutation is drawn from it once,
// here, by a Fisher–Yates shuffle: the same seed gives the same permutation.
// The other patterns ignore it.
//
// The Dest method of the returned pattern takes O(1) time, does not allocate,
// and requires 0 ≤ src < hosts. Every pattern except uniform ignores its rng
// argument, which may then be nil.
func NewPattern(name string, hosts int, seed uint64) (Pattern, error) {
	switch name {
	case nameUniform:
		if err := checkHosts(name, hosts); err != nil {
			return nil, err
		}
		return uniform{hosts: hosts}, nil
	case nameRandPerm, "random_permutation", "permutation":
		if err := checkHosts(nameRandPerm, hosts); err != nil {
			return nil, err
		}
		return newRandPerm(hosts, seed), nil
	case nameComplement, nameReverse, nameRotation, nameShuffle, nameTranspose:
		n, err := addressBits(name, hosts)
		if err != nil {
			return nil, err
		}
		return newBitPattern(name, n), nil
	default:
		return nil, fmt.Errorf("traffic: unknown pattern %q (known: %s; aliases of %s: random_permutation, permutation)",
			name, strings.Join(PatternNames(), ", "), nameRandPerm)
	}
}

// checkHosts reports whether hosts is a usable host count for pattern name.
func checkHosts(name string, hosts int) error {
	if hosts < 1 {
		return fmt.Errorf("traffic: pattern %q needs at least 1 host, got %d", name, hosts)
	}
	if hosts > MaxHosts {
		return fmt.Errorf("traffic: pattern %q supports at most %d hosts, got %d hosts", name, MaxHosts, hosts)
	}
	return nil
}

// addressBits returns n = log2(hosts) for bit pattern name, or an error if
// hosts is not a power of two ≥ 2 within MaxHosts.
func addressBits(name string, hosts int) (int, error) {
	if err := checkHosts(name, hosts); err != nil {
		return 0, err
	}
	if hosts < 2 {
		return 0, fmt.Errorf("traffic: pattern %q needs a power-of-two host count of at least 2, got %d", name, hosts)
	}
	if hosts&(hosts-1) != 0 {
		return 0, fmt.Errorf("traffic: pattern %q needs a power-of-two host count, got %d hosts", name, hosts)
	}
	return bits.TrailingZeros(uint(hosts)), nil
}

// Random reports whether p draws each packet's destination at random
// (uniform, hotspot, a matrix with several destinations for some source:
// their Dest needs an rng); every other pattern is a fixed map from
// source to destination.
func Random(p Pattern) bool {
	switch q := p.(type) {
	case uniform, *reachableUniform, hotspot:
		return true
	case *Matrix:
		return q.Random()
	}
	return false
}

// uniform sends each packet to a host drawn uniformly at random, the source
// included.
type uniform struct {
	hosts int
}

// Name returns "uniform".
func (u uniform) Name() string { return nameUniform }

// Dest returns a host drawn uniformly from [0, hosts) with rng.
func (u uniform) Dest(src int, rng *kernel.RNG) int { return rng.IntN(u.hosts) }

// bitKind selects the bit permutation of a bitPattern.
type bitKind uint8

const (
	bitComplement bitKind = iota
	bitReverse
	bitRotateLeft // rotation (by n−1), shuffle (by 1) and transpose (by ⌊n/2⌋)
)

// bitPattern is a permutation of the n-bit host addresses computed with a
// few bit operations, so it needs no table.
type bitPattern struct {
	name string
	kind bitKind
	n    uint   // address bits, 1 ≤ n ≤ 24
	k    uint   // left-rotation amount for bitRotateLeft, 0 ≤ k < n
	mask uint64 // 2ⁿ − 1
}

// newBitPattern returns the bit pattern called name on n address bits; name
// must be one of the bit pattern names and n ≥ 1.
func newBitPattern(name string, n int) bitPattern {
	p := bitPattern{name: name, n: uint(n), mask: 1<<uint(n) - 1}
	switch name {
	case nameComplement:
		p.kind = bitComplement
	case nameReverse:
		p.kind = bitReverse
	case nameRotation:
		// Rotating right by one is rotating left by n−1.
		p.kind, p.k = bitRotateLeft, uint(n-1)
	case nameShuffle:
		p.kind, p.k = bitRotateLeft, 1%uint(n)
	case nameTranspose:
		p.kind, p.k = bitRotateLeft, uint(n/2)
	}
	return p
}

// Name returns the canonical pattern name.
func (p bitPattern) Name() string { return p.name }

// Dest returns the image of src under the bit permutation; rng is unused.
func (p bitPattern) Dest(src int, _ *kernel.RNG) int {
	s := uint64(src) & p.mask
	switch p.kind {
	case bitComplement:
		return int(s ^ p.mask)
	case bitReverse:
		return int(bits.Reverse64(s) >> (64 - p.n))
	default:
		return int((s<<p.k | s>>(p.n-p.k)) & p.mask)
	}
}

// randPerm sends every packet from src to perm[src], a permutation drawn at
// construction.
type randPerm struct {
	perm []int32
}

// newRandPerm draws a uniformly random permutation of [0, hosts) from seed
// with a Fisher–Yates shuffle; 1 ≤ hosts ≤ MaxHosts.
func newRandPerm(hosts int, seed uint64) randPerm {
	rng := kernel.NewRNG(seed, randPermStream)
	perm := make([]int32, hosts)
	for i := range perm {
		perm[i] = int32(i)
	}
	for i := hosts - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		perm[i], perm[j] = perm[j], perm[i]
	}
	return randPerm{perm: perm}
}

// Name returns "randperm".
func (p randPerm) Name() string { return nameRandPerm }

// Dest returns the fixed destination of src; rng is unused.
func (p randPerm) Dest(src int, _ *kernel.RNG) int { return int(p.perm[src]) }
