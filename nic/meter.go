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
	// ProbesHeld counts the probes and replies, and the requests and
	// replies of request–reply traffic, that have arrived (their
	// flit is ejected) and that their NIC has not acted on yet: it does in
	// its tick of the cycle the flit arrives in.
	ProbesHeld int64
	// DataDelivered counts the packets delivered but route probes and
	// their replies.
	DataDelivered int64
	// RTTSum and RTTCount sum the round trips, in cycles, of the measured
	// requests of request–reply traffic answered so far, and count them.
	RTTSum, RTTCount int64
	// Queued is the number of flits in source queues. A run leaves them
	// when it starts; NIC.Unsent tells how many of its flits are still to
	// go on the link.
	Queued int64

	// Window counts.
	GeneratedFlits, EjectedFlits int64
	MeasuredPackets, Delivered   int64
	latencySum, hopsSum, waitSum int64
	mediumHopsSum, lowHopsSum    int64
	latency                      []int64 // histogram: latency → packets

	// Timeline, if any (SetTimeline), counts the flits generated and
	// ejected over the whole run in windows of timelineCycles cycles.
	Timeline       []TimelineWindow
	timelineCycles kernel.Time

	// Bins, if any (SetBins), split the window and what may extend it
	// into stretches; window flits are counted in them by the cycle they
	// were created or arrived in.
	Bins []Bin
	// binCycles and perBins define the bins' bounds: bin i starts
	// ⌊i·binCycles/perBins⌋ cycles after From.
	binCycles, perBins int64
	// last is the bin found last, [lastLo, lastHi) its cycles.
	last           int
	lastLo, lastHi kernel.Time
}

// TimelineWindow is one window of a run's timeline: the flits of the
// packets generated in it (measured or not) and the flits that arrived at
// a host in it.
type TimelineWindow struct {
	GeneratedFlits, EjectedFlits int64
}

// SetTimeline counts the run's flits in windows of cycles cycles, n of
// them (those past the last are not counted).
func (m *Meter) SetTimeline(cycles int64, n int) {
	m.timelineCycles = kernel.Time(cycles)
	m.Timeline = make([]TimelineWindow, n)
}

// TimelineCycles returns the windows' length of the timeline.
func (m *Meter) TimelineCycles() kernel.Time { return m.timelineCycles }

// Bin is one stretch of a measurement window.
type Bin struct {
	// GeneratedFlits counts the flits of the packets created in the bin,
	// EjectedFlits the flits that arrived at a host in it.
	GeneratedFlits, EjectedFlits int64
	// Delivered counts the packets created in the bin and delivered,
	// LatencySum their latencies in cycles.
	Delivered, LatencySum int64
}

// SetBins splits [From, From+cycles·n/per) into n bins, bin i starting
// ⌊i·cycles/per⌋ cycles after From: per bins to every cycles cycles, as
// evenly as whole cycles allow (1 ≤ per ≤ cycles).
func (m *Meter) SetBins(cycles, per int64, n int) {
	m.binCycles, m.perBins = cycles, per
	m.Bins = make([]Bin, n)
}

// BinStart returns the cycle bin i starts (i = len(Bins): where the last
// one ends).
func (m *Meter) BinStart(i int) kernel.Time {
	return m.From + kernel.Time(int64(i)*m.binCycles/m.perBins)
}

// bin returns the bin holding cycle t ≥ From, or len(Bins) past the last.
func (m *Meter) bin(t kernel.Time) int {
	if t >= m.lastLo && t < m.lastHi {
		return m.last // time moves on: most flits fall in the bin before
	}
	i := m.binAt(t)
	if i < len(m.Bins) {
		m.last, m.lastLo, m.lastHi = i, m.BinStart(i), m.BinStart(i+1)
	}
	return i
}

// binAt is bin without the cache.
func (m *Meter) binAt(t kernel.Time) int {
	return int(min(((int64(t-m.From)+1)*m.perBins-1)/m.binCycles, int64(len(m.Bins))))
}

// Extend moves the end of the window to to, past To: the flits that
// arrived in [To, to) and were recorded already, as those of a run
// arriving over several cycles are, count in it.
func (m *Meter) Extend(to kernel.Time) {
	for i := m.bin(m.To); i < len(m.Bins) && m.BinStart(i) < to; i++ {
		m.EjectedFlits += m.Bins[i].EjectedFlits
	}
	m.To = to
}

// Truncate ends the window at to, a bin boundary no later than the
// current cycle (nothing at or after to has been created yet, though
// flits of runs already under way may be recorded as arriving after it):
// the flits accepted in the window are then those its bins hold. Extend
// undoes it.
func (m *Meter) Truncate(to kernel.Time) {
	m.To = to
	m.EjectedFlits = 0
	for i := 0; i < len(m.Bins) && m.BinStart(i) < to; i++ {
		m.EjectedFlits += m.Bins[i].EjectedFlits
	}
}

func (m *Meter) inWindow(t kernel.Time) bool { return t >= m.From && t < m.To }

// generated records a packet of flits created at t and reports whether it is
// measured.
func (m *Meter) generated(t kernel.Time, flits int32) bool {
	if m.Timeline != nil {
		if i := int(t / m.timelineCycles); i < len(m.Timeline) {
			m.Timeline[i].GeneratedFlits += int64(flits)
		}
	}
	if !m.inWindow(t) {
		return false
	}
	m.GeneratedFlits += int64(flits)
	m.MeasuredPackets++
	if m.Bins != nil {
		m.Bins[m.bin(t)].GeneratedFlits += int64(flits)
	}
	return true
}

// ejected records k flits arriving at t, t+1, …, t+k−1; each counts in
// the window if it arrives in it, and in its bin if it has one.
func (m *Meter) ejected(t kernel.Time, k int) {
	m.Ejected += int64(k)
	if m.Timeline != nil {
		for lo, hi := t, t+kernel.Time(k); lo < hi; {
			i := int(lo / m.timelineCycles)
			if i >= len(m.Timeline) {
				break
			}
			end := min(hi, kernel.Time(i+1)*m.timelineCycles)
			m.Timeline[i].EjectedFlits += int64(end - lo)
			lo = end
		}
	}
	if lo, hi := max(t, m.From), min(t+kernel.Time(k), m.To); lo < hi {
		m.EjectedFlits += int64(hi - lo)
	}
	if m.Bins == nil {
		return
	}
	// Bins beyond To count too: Extend adds them to the window.
	for lo, hi := max(t, m.From), t+kernel.Time(k); lo < hi; {
		i := m.bin(lo)
		if i == len(m.Bins) {
			break
		}
		end := min(hi, m.lastHi) // bin cached bin i
		m.Bins[i].EjectedFlits += int64(end - lo)
		lo = end
	}
}

func (m *Meter) delivered(p *flit.Packet, t kernel.Time) {
	if !p.Measured {
		return
	}
	m.Delivered++
	lat := int64(t - p.Created)
	if m.Bins != nil {
		b := &m.Bins[m.binAt(p.Created)] // an older bin: the cache stays with the arrivals
		b.Delivered++
		b.LatencySum += lat
	}
	m.latencySum += lat
	m.waitSum += int64(p.Waited)
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

// WaitAvg returns the mean cycles the delivered measured packets waited
// at their source (flit.Packet.Waited).
func (m *Meter) WaitAvg() float64 {
	if m.Delivered == 0 {
		return 0
	}
	return float64(m.waitSum) / float64(m.Delivered)
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

// Gather sets m to the sum of the meters ms, which cover disjoint sets of
// NICs of one simulation with the same window, bins and timeline (the
// partitions of a network simulated on several threads). The counts are
// integers, so the sum is the meter one set of all the NICs would hold.
func (m *Meter) Gather(ms []*Meter) {
	bins, timeline, latency := m.Bins[:0], m.Timeline[:0], m.latency[:0]
	*m = *ms[0]
	m.Bins = append(bins, ms[0].Bins...)
	m.Timeline = append(timeline, ms[0].Timeline...)
	m.latency = append(latency, ms[0].latency...)
	for _, o := range ms[1:] {
		m.Injected += o.Injected
		m.Ejected += o.Ejected
		m.FlitHops += o.FlitHops
		m.ProbesHeld += o.ProbesHeld
		m.DataDelivered += o.DataDelivered
		m.RTTSum += o.RTTSum
		m.RTTCount += o.RTTCount
		m.Queued += o.Queued
		m.GeneratedFlits += o.GeneratedFlits
		m.EjectedFlits += o.EjectedFlits
		m.MeasuredPackets += o.MeasuredPackets
		m.Delivered += o.Delivered
		m.latencySum += o.latencySum
		m.hopsSum += o.hopsSum
		m.waitSum += o.waitSum
		m.mediumHopsSum += o.mediumHopsSum
		m.lowHopsSum += o.lowHopsSum
		for len(m.latency) < len(o.latency) {
			m.latency = append(m.latency, 0)
		}
		for i, c := range o.latency {
			m.latency[i] += c
		}
		for i, t := range o.Timeline {
			m.Timeline[i].GeneratedFlits += t.GeneratedFlits
			m.Timeline[i].EjectedFlits += t.EjectedFlits
		}
		for i, b := range o.Bins {
			s := &m.Bins[i]
			s.GeneratedFlits += b.GeneratedFlits
			s.EjectedFlits += b.EjectedFlits
			s.Delivered += b.Delivered
			s.LatencySum += b.LatencySum
		}
	}
}
