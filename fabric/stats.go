package fabric

// queued returns the flits in the source queues now, flit by flit: those of
// runs still going onto the links count as queued.
func (p *point) queued() int64 {
	q := p.meter.Queued
	for _, n := range p.nics {
		q += n.Unsent(p.eng.Now())
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
	m := &p.meter
	hosts := float64(len(p.nics))
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
	st.HopsAvg = m.HopsAvg()
	st.HopsMedium, st.HopsLow = m.HopsByPriority()
	st.MeasuredPackets, st.Delivered = m.MeasuredPackets, m.Delivered
	st.InjectedFlits, st.EjectedFlits = m.Injected, m.Ejected
	st.InFlight = p.inFlight()
	st.FlitHops = m.FlitHops
	for _, s := range p.switches {
		st.FlitHops += s.FlitHops
	}
	st.Cycles = p.eng.Now()
	st.Events = p.eng.Events()
}
