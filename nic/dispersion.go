package nic

import (
	"math"

	"netsim/keyerr"
)

// Mode is how a NIC disperses its packets over the routes of a multipath
// source routing (seed 001 §4).
type Mode uint8

const (
	// Static sends every packet to a destination on one fixed route.
	Static Mode = iota
	// Random draws a route for every packet (randomized oblivious).
	Random
	// Adaptive keeps a route per destination and changes it at random when
	// flow control has stopped Threshold packets to that destination.
	Adaptive
	// Probing is Adaptive that first probes the new route (seed 001 §4.3).
	Probing
)

// String returns the mode as written in experiment files.
func (m Mode) String() string {
	switch m {
	case Random:
		return "random"
	case Adaptive:
		return "adaptive"
	case Probing:
		return "probing"
	}
	return "static"
}

// MarshalText returns the mode's name (Mode.String).
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// Modes lists the dispersion modes, in the order of their values.
func Modes() []Mode { return []Mode{Static, Random, Adaptive, Probing} }

// ParseMode parses a dispersion mode as written in experiment files
// (Mode.String).
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes() {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, keyerr.New("dispersion", "unknown dispersion %q (known: static, random, adaptive, probing)", s)
}

// Dispersion configures the route choice of a NIC.
type Dispersion struct {
	Mode Mode
	// Threshold is the number of packets to a destination that flow
	// control must have stopped since the last decision before an
	// Adaptive NIC considers a new route (0 acts as 1: every stopped
	// packet). Seed 001's best: 4.
	Threshold int
	// Probability is the chance an Adaptive NIC then changes route, in
	// [0, 1]. Seed 001's best: 0.5.
	Probability float64
	// MaxProbes is the number of blocked probes in a row after which a
	// Probing NIC changes route anyway and doubles its threshold for that
	// destination until a probe succeeds (seed 001 §4.4.2).
	MaxProbes int
	// Lag is how many packets ahead of the wire an Adaptive or Probing
	// NIC running an exchange prepares its packets: a packet's route is
	// written into its header when it enters the send pipeline, Lag
	// packets before it starts, so a decision takes effect Lag packets
	// late and the packets prepared meanwhile still take the old route
	// (seed 001 §4.2.1). 0: the route is chosen as the packet starts.
	Lag int
}

// MaxLag is the largest Dispersion.Lag.
const MaxLag = 1024

// Validate checks d, naming the experiment key at fault.
func (d Dispersion) Validate() error {
	if d.Threshold < 0 || d.Threshold > math.MaxUint16 {
		return keyerr.New("threshold", "must be between 0 and %d packets, got %d", math.MaxUint16, d.Threshold)
	}
	if d.Mode == Probing && (d.MaxProbes < 1 || d.MaxProbes > math.MaxUint16) {
		return keyerr.New("max_probes", "must be between 1 and %d, got %d", math.MaxUint16, d.MaxProbes)
	}
	if d.Lag < 0 || d.Lag > MaxLag {
		return keyerr.New("route_lag", "must be between 0 and %d packets, got %d", MaxLag, d.Lag)
	}
	if !(d.Probability >= 0 && d.Probability <= 1) {
		return keyerr.New("probability", "must be in [0, 1], got %v", d.Probability)
	}
	return nil
}
