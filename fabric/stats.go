package fabric

import (
	"strconv"

	"netsim/kernel"
	"netsim/nic"
	"netsim/results"
)

// queued returns the flits in the source queues now, flit by flit: those of
// runs still going onto the links count as queued.
func (p *point) queued() int64 {
	q := p.meter.Queued
	for _, n := range p.nics {
		q += n.Unsent(p.now())
	}
	return q
}

// inFlight returns the flits sent by a source and not yet delivered.
func (p *point) inFlight() int64 { return p.meter.Injected - p.meter.Ejected }

// buffered returns the flits left in the switches' buffers.
func (p *point) buffered() int {
	n := 0
	for _, s := range p.switches {
		n += s.Buffered()
	}
	return n
}

// fill sets the statistics of st from the point's meter, switches and
// engine.
func (p *point) fill(st *Stats) {
	m := p.meter
	hosts := float64(p.cfg.Sources())
	window := float64(m.To - m.From)
	st.Window = int64(m.To - m.From)
	st.Bins = st.Bins[:0]
	for i := range m.Bins {
		if m.BinStart(i) >= m.To {
			break
		}
		st.Bins = append(st.Bins, Bin{Bin: m.Bins[i], Cycles: int64(m.BinStart(i+1) - m.BinStart(i))})
	}
	st.Generated = float64(m.GeneratedFlits) / hosts / window
	st.Accepted = float64(m.EjectedFlits) / hosts / window
	st.LatencyAvg = m.LatencyAvg()
	st.LatencyP99 = m.LatencyQuantile(0.99)
	st.Distribution = nil
	if p.cfg.LatencyDistribution {
		st.Distribution = distribution(m)
	}
	st.Timeline = nil
	if m.Timeline != nil {
		st.Timeline = timeline(m, p.now(), hosts)
	}
	st.RTTAvg = 0
	if m.RTTCount > 0 {
		st.RTTAvg = float64(m.RTTSum) / float64(m.RTTCount)
	}
	st.HopsAvg = m.HopsAvg()
	st.HopsMedium, st.HopsLow = m.HopsByPriority()
	st.MeasuredPackets, st.Delivered = m.MeasuredPackets, m.Delivered
	st.InjectedFlits, st.EjectedFlits = m.Injected, m.Ejected
	st.InFlight = p.inFlight()
	st.FlitHops = m.FlitHops
	for _, s := range p.switches {
		st.FlitHops += s.FlitHops
	}
	st.Cycles = p.now()
	st.Events = p.events()
}

// cdfSteps is how many quantiles, at fractions 1/cdfSteps to 1, a latency
// distribution's CDF holds (besides the 99.9th percentile).
const cdfSteps = 64

// distribution returns the latency distribution of m's delivered measured
// packets.
func distribution(m *nic.Meter) *results.Distribution {
	d := &results.Distribution{
		LatencyP50: m.LatencyQuantile(0.5), LatencyP90: m.LatencyQuantile(0.9), LatencyP999: m.LatencyQuantile(0.999),
		SourceAvg: m.WaitAvg(), NetworkAvg: m.LatencyAvg() - m.WaitAvg(),
	}
	var steps [][2]float64
	add := func(q float64) {
		lat := m.LatencyQuantile(q)
		if n := len(steps); n > 0 && steps[n-1][0] == lat {
			steps[n-1][1] = q // the later fraction at the same latency covers it
			return
		}
		steps = append(steps, [2]float64{lat, q})
	}
	for i := 1; i <= cdfSteps && m.Delivered > 0; i++ {
		if i == cdfSteps {
			add(0.999) // between 63/64 and 1
		}
		add(float64(i) / cdfSteps)
	}
	b := []byte{'['}
	for i, s := range steps {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendFloat(b, s[0], 'f', -1, 64)
		b = append(b, ',')
		b = strconv.AppendFloat(b, s[1], 'f', -1, 64)
		b = append(b, ']')
	}
	d.LatencyCDF = append(b, ']')
	return d
}

// timeline returns the load generated and accepted in each window of m's
// timeline that ended by cycle now, in flits/host/cycle (a window the run
// ended in is left out: the flits of runs under way at the end are
// counted already).
func timeline(m *nic.Meter, now kernel.Time, hosts float64) *results.Timeline {
	w := int64(m.TimelineCycles())
	tl := &results.Timeline{Window: w, Warmup: int64(m.From), End: int64(m.To)}
	for i, x := range m.Timeline {
		if int64(i+1)*w > int64(now) {
			break
		}
		cycles := float64(w)
		tl.Generated = append(tl.Generated, results.Round(float64(x.GeneratedFlits)/hosts/cycles, 6))
		tl.Accepted = append(tl.Accepted, results.Round(float64(x.EjectedFlits)/hosts/cycles, 6))
	}
	return tl
}
