package traffic

import (
	"fmt"

	"netsim/kernel"
)

// Bernoulli is the Bernoulli injection process of one host: every cycle the
// host creates a packet of PacketFlits flits with probability
// Load/PacketFlits, independently of other cycles, so it offers Load flits
// per cycle on average.
//
// Rather than flipping that coin every cycle, a host draws the gap to its
// next packet with Gap, once per packet; the gaps are geometric, which gives
// exactly the same packet-creation times in distribution. Starting from
// cycle t₀, the first packet is created at cycle t₀ − 1 + Gap and each later
// one Gap cycles after the previous.
//
// A Bernoulli is an immutable value, safe for concurrent use. The zero
// value has load 0 and never creates a packet.
type Bernoulli struct {
	load  float64 // offered load, flits/host/cycle, in [0, 1]
	flits int     // packet length in flits, ≥ 1 (0 only in the zero value)
	p     float64 // per-cycle packet probability load/flits
}

// NewBernoulli returns the Bernoulli process that offers load flits per host
// per cycle in packets of packetFlits flits. load must be in [0, 1] and
// packetFlits at least 1. A load of 0 is accepted so that load sweeps may
// start at zero: such a process never creates a packet, and its Gap returns
// kernel.Never.
func NewBernoulli(load float64, packetFlits int) (Bernoulli, error) {
	// The negated comparison also rejects NaN.
	if !(load >= 0 && load <= 1) {
		return Bernoulli{}, fmt.Errorf("traffic: load must be in [0, 1] flits/host/cycle, got %v", load)
	}
	if packetFlits < 1 {
		return Bernoulli{}, fmt.Errorf("traffic: packet length must be at least 1 flit, got packetFlits = %d", packetFlits)
	}
	return Bernoulli{load: load, flits: packetFlits, p: load / float64(packetFlits)}, nil
}

// Load returns the offered load in flits per host per cycle.
func (b Bernoulli) Load() float64 { return b.load }

// PacketFlits returns the packet length in flits.
func (b Bernoulli) PacketFlits() int { return b.flits }

// Rate returns the probability that a host creates a packet in a given
// cycle, Load/PacketFlits.
func (b Bernoulli) Rate() float64 { return b.p }

// Gap returns the number of cycles, at least 1, from one packet of the host
// to the next, drawn with at most one value of rng: a geometric variate
// with success probability Rate and mean PacketFlits/Load. Gap does not
// allocate.
//
// When the load is zero Gap returns kernel.Never without touching rng; the
// caller must then schedule no packet at all rather than add the gap to the
// current time, which would overflow. For positive loads the gap is at most
// math.MaxInt64/4 (the cap of kernel.RNG.Geometric), so adding it to any
// reachable time is safe.
func (b Bernoulli) Gap(rng *kernel.RNG) int64 {
	if b.p <= 0 {
		return kernel.Never
	}
	return rng.Geometric(b.p)
}
