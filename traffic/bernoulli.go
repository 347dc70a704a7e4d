package traffic

import (
	"fmt"
	"math"

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
//
// Modulated by an on/off Markov chain (NewOnOff), the host alternates
// bursts and idle periods of geometric lengths with means Burst and Idle
// cycles; it creates packets only in bursts, at the per-cycle probability
// load/flits·(Burst+Idle)/Burst, so the offered load stays load on
// average while packets come in clumps (a Markov-modulated Bernoulli
// process).
type Bernoulli struct {
	load  float64 // offered load, flits/host/cycle, in [0, 1]
	flits int     // packet length in flits, ≥ 1 (0 only in the zero value)
	p     float64 // per-cycle packet probability: load/flits, or in a burst its raised rate
	// burst and idle are the mean on and off lengths in cycles; 0 for
	// plain Bernoulli.
	burst, idle float64
}

// NewOnOff returns the Bernoulli process of load and packetFlits
// modulated by bursts and idle periods of mean lengths burst and idle
// cycles (each ≥ 1). The rate within bursts, load/packetFlits ·
// (burst+idle)/burst, must be at most one packet a cycle.
func NewOnOff(load float64, packetFlits int, burst, idle float64) (Bernoulli, error) {
	b, err := NewBernoulli(load, packetFlits)
	if err != nil {
		return b, err
	}
	if !(burst >= 1) || !(idle >= 1) || math.IsInf(burst, 0) || math.IsInf(idle, 0) {
		return Bernoulli{}, fmt.Errorf("traffic: bursts and idle periods must last at least 1 cycle on average, got %v and %v", burst, idle)
	}
	p := b.p * (burst + idle) / burst
	if p > 1 {
		return Bernoulli{}, fmt.Errorf("traffic: load %v in bursts of %v cycles every %v needs %.3g packets a cycle within bursts, more than 1 (lower the load or idle, or raise burst)",
			load, burst, burst+idle, p)
	}
	b.p, b.burst, b.idle = p, burst, idle
	return b, nil
}

// WithMessages returns b creating messages of mean length mean flits
// (several packets each) in place of packets: its rate becomes
// Load/mean, so the offered load is unchanged.
func (b Bernoulli) WithMessages(mean float64) (Bernoulli, error) {
	if !(mean >= 1) {
		return Bernoulli{}, fmt.Errorf("traffic: mean message length %v is below 1 flit", mean)
	}
	b.p *= float64(b.flits) / mean
	if b.p > 1 {
		return Bernoulli{}, fmt.Errorf("traffic: load %v in messages of %v flits on average needs %.3g messages a cycle, more than 1", b.load, mean, b.p)
	}
	return b, nil
}

// Bursty reports whether the process is modulated on/off.
func (b Bernoulli) Bursty() bool { return b.burst > 0 }

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
// cycle, Load/PacketFlits (within a burst, for an on/off process).
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
	if b.burst == 0 {
		return rng.Geometric(b.p)
	}
	// A packet's cycle is in a burst, which goes on for a geometric
	// number of further cycles (0 or more: it ends after any cycle with
	// probability 1/Burst).
	return b.gapFrom(rng, rng.Geometric(1/b.burst)-1)
}

// gapFrom returns the cycles to the next packet of an on/off process
// whose current burst has rest more cycles (after the current one).
func (b Bernoulli) gapFrom(rng *kernel.RNG, rest int64) int64 {
	var t int64
	for {
		if g := rng.Geometric(b.p); g <= rest {
			return t + g
		}
		// The burst ends; an idle period, then a burst of at least one
		// cycle.
		t += rest + rng.Geometric(1/b.idle)
		rest = rng.Geometric(1 / b.burst)
	}
}

// FirstGap is Gap for the first packet of a host that starts now: an
// on/off process starts in a burst with probability Burst/(Burst+Idle),
// else idle, as in its steady state.
func (b Bernoulli) FirstGap(rng *kernel.RNG) int64 {
	if b.burst == 0 || b.p <= 0 {
		return b.Gap(rng)
	}
	if rng.Float64() < b.burst/(b.burst+b.idle) {
		return b.gapFrom(rng, rng.Geometric(1/b.burst)) // in a burst from the first cycle
	}
	t := rng.Geometric(1 / b.idle) // idle first
	return t + b.gapFrom(rng, rng.Geometric(1/b.burst))
}
