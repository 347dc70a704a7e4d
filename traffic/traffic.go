// Package traffic provides destination patterns and injection processes.
//
// # Destination patterns
//
// NewPattern builds a Pattern by the name used in experiment files (the
// patterns list of the TOML traffic table). Hosts are numbered 0 … H−1; for
// the bit patterns H = 2ⁿ and a host address is the n-bit word
// s = sₙ₋₁ … s₁s₀.
//
//	uniform     d uniform on {0, …, H−1}, independently for every packet
//	complement  d = ¬s                                   (dᵢ = ¬sᵢ)
//	reverse     d = sₙ₋₁ … s₀ read backwards             (dᵢ = sₙ₋₁₋ᵢ)
//	rotation    d = s rotated right by one bit           (dᵢ = sᵢ₊₁ mod n)
//	shuffle     d = s rotated left by one bit            (dᵢ = sᵢ₋₁ mod n)
//	transpose   d = s rotated left by k = ⌊n/2⌋ bits     (dᵢ = sᵢ₋ₖ mod n)
//	randperm    d = π(s), π a random permutation fixed at construction
//
// Uniform includes the source itself among the destinations, as BookSim does
// and as the classic 58.6 % saturation throughput of input-queued switches
// under uniform traffic assumes; such a packet goes to its own host.
//
// For even n, transpose swaps the high and low halves of the address: host
// (r, c) of a 2^(n/2) × 2^(n/2) row-major matrix, r the high half, sends to
// host (c, r). For odd n it is the rotation left by ⌊n/2⌋ bits, which is the
// transpose of a 2^⌊n/2⌋ × 2^⌈n/2⌉ row-major matrix whose row index is the
// high ⌊n/2⌋ bits; on 2 hosts (n = 1) it is the identity, and on 8 hosts
// (n = 3) it coincides with shuffle.
//
// Every pattern except uniform is a permutation of the hosts. A host that the
// permutation maps to itself (the all-equal addresses under rotation and
// shuffle, palindromic addresses under reverse, the diagonal under transpose,
// fixed points of randperm) sends its packets to itself; patterns are not
// altered to avoid this, so that results compare with the literature.
//
// The bit patterns need a power-of-two host count of at least 2; uniform and
// randperm accept any count from 1 to MaxHosts.
//
// # Injection
//
// Bernoulli is the injection process of every host: each cycle a host
// creates a packet with a fixed probability, drawn as a geometric gap so
// that hosts are scheduled once per packet rather than polled every cycle.
package traffic

import "netsim/kernel"

// Pattern chooses the destination host of each packet.
//
// Implementations are read-only after construction and safe for concurrent
// use; randomness comes only from the rng passed in.
type Pattern interface {
	// Name returns the pattern name as written in experiment files.
	Name() string
	// Dest returns the destination of the next packet from host src.
	Dest(src int, rng *kernel.RNG) int
}
