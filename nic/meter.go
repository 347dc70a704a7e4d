package nic

import (
	"math"

	"netsim/flit"
	"netsim/kernel"
)

// Meter gathers the measurements of all NICs of one simulation.
type Meter struct {
	// From and To bound the measurement window [From, To).
	From, To kernel.Time

	// Whole-run flit counts.
	Injected, Ejected, FlitHops int64
	// ProbesHeld counts the probes and replies that have arrived (their
	// flit is ejected) and that their NIC has not acted on yet: it does in
	// its tick of the cycle the flit arrives in.
	ProbesHeld int64
	// DataDelivered counts the packets delivered but route probes and
	// their replies.
	DataDelivered int64
	// Queued is the number of flits in source queues. A run leaves them
	// when it starts; NIC.Unsent tells how many of its flits are still to
	// go on the link.
	Queued int64

	// Window counts.
	GeneratedFlits, EjectedFlits int64
	MeasuredPackets, Delivered   int64
	latencySum, hopsSum          int64
	mediumHopsSum, lowHopsSum    int64
	latency                      []int64 // histogram: latency → packets
}

func (m *Meter) inWindow(t kernel.Time) bool { return t >= m.From && t < m.To }

// generated records a packet of flits created at t and reports whether it is
// measured.
func (m *Meter) generated(t kernel.Time, flits int32) bool {
	if !m.inWindow(t) {
		return false
	}
	m.GeneratedFlits += int64(flits)
	m.MeasuredPackets++
	return true
}

// ejected records k flits arriving at t, t+1, …, t+k−1; each counts in
// the window if it arrives in it.
func (m *Meter) ejected(t kernel.Time, k int) {
	m.Ejected += int64(k)
	if lo, hi := max(t, m.From), min(t+kernel.Time(k), m.To); lo < hi {
		m.EjectedFlits += int64(hi - lo)
	}
}

func (m *Meter) delivered(p *flit.Packet, t kernel.Time) {
	if !p.Measured {
		return
	}
	m.Delivered++
	lat := int64(t - p.Created)
	m.latencySum += lat
	m.hopsSum += int64(p.Hops)
	m.mediumHopsSum += int64(p.MediumHops)
	m.lowHopsSum += int64(p.LowHops)
	for int64(len(m.latency)) <= lat {
		m.latency = append(m.latency, 0)
	}
	m.latency[lat]++
}

// LatencyAvg returns the mean latency of delivered measured packets.
func (m *Meter) LatencyAvg() float64 {
	if m.Delivered == 0 {
		return 0
	}
	return float64(m.latencySum) / float64(m.Delivered)
}

// LatencyQuantile returns the smallest latency at or below which a fraction
// q of the delivered measured packets arrived.
func (m *Meter) LatencyQuantile(q float64) float64 {
	if m.Delivered == 0 {
		return 0
	}
	want := max(int64(math.Ceil(q*float64(m.Delivered))), 1) // nearest rank
	var seen int64
	for lat, c := range m.latency {
		seen += c
		if seen >= want {
			return float64(lat)
		}
	}
	return float64(len(m.latency) - 1)
}

// HopsAvg returns the mean number of switches traversed by delivered
// measured packets.
func (m *Meter) HopsAvg() float64 {
	if m.Delivered == 0 {
		return 0
	}
	return float64(m.hopsSum) / float64(m.Delivered)
}

// HopsByPriority returns the mean number of hops per delivered measured
// packet that took a sideways (Medium priority) and a deflection (Low
// priority; for the Dragonfly's adaptive routings, any non-minimal hop)
// candidate; HopsAvg less the two is the mean of minimal (High) hops.
func (m *Meter) HopsByPriority() (medium, low float64) {
	if m.Delivered == 0 {
		return 0, 0
	}
	n := float64(m.Delivered)
	return float64(m.mediumHopsSum) / n, float64(m.lowHopsSum) / n
}
