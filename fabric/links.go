package fabric

import (
	"netsim/kernel"
	"netsim/topologies"
)

// LinkSampleCycles is how often, in cycles, a point with Config.LinkStats
// looks at every link for flow control holding it back.
const LinkSampleCycles = 64

// LinkStats are the links' load over a point's measurement window
// (Config.LinkStats).
type LinkStats struct {
	// Window is the measurement window's length in cycles; Samples counts
	// the times the links were looked at in it, every LinkSampleCycles
	// cycles from its start.
	Window, Samples int64
	// VLs is the number of VLs per link.
	VLs int
	// Links are the directed links: every switch port's outgoing link,
	// switch by switch and port by port, then every host's link to its
	// switch.
	Links []LinkStat
}

// LinkStat is the load of one directed link over the window.
type LinkStat struct {
	// From and To are the link's ends.
	From, To LinkEnd
	// Dim is the link's class (topologies.Port.Dim): the dimension a
	// link between switches spans, −1 for a host's.
	Dim int16
	// Flits counts the flits sent on each VL in the window (a run counts
	// when it starts).
	Flits []int64
	// Stalled counts, for each VL of a link out of a switch, the samples
	// at which a packet held the VL and flow control kept it from
	// sending (no credit, or STOP); nil for a host's link. Blocked counts
	// the samples at which flow control held back any VL, for a host's
	// link the NIC.
	Stalled []int64
	Blocked int64
}

// LinkEnd is one end of a link: a switch port (Host −1), or a host
// (Switch and Port −1).
type LinkEnd struct {
	Switch, Port, Host int32
}

// Utilisation returns the fraction of the window's cycles the link
// carried flits on VL vl, or on all its VLs for vl < 0.
func (l *LinkStat) Utilisation(window int64, vl int) float64 {
	var f int64
	for v, n := range l.Flits {
		if vl < 0 || v == vl {
			f += n
		}
	}
	return float64(f) / float64(window)
}

// linkMeter gathers the LinkStats of a point.
type linkMeter struct {
	stats LinkStats
	// base holds each link's counts at the start of the window.
	base [][]int64
	// next is the cycle of the next sample, end the window's end.
	next, end kernel.Time
}

// newLinkMeter makes the switches and NICs of p count their flits, and
// returns the meter of their links.
func (p *point) newLinkMeter() *linkMeter {
	net := p.cfg.Net
	m := &linkMeter{stats: LinkStats{VLs: p.cfg.VLs}, next: kernel.Time(p.cfg.Warmup)}
	host := LinkEnd{Switch: -1, Port: -1}
	for i, sw := range net.Switches {
		p.switches[i].CountLinkFlits()
		for pi, port := range sw.Ports {
			l := LinkStat{From: LinkEnd{Switch: int32(i), Port: int32(pi), Host: -1}, Dim: port.Dim,
				Stalled: make([]int64, p.cfg.VLs)}
			switch port.Kind {
			case topologies.HostPort:
				l.To = host
				l.To.Host = port.Peer
			case topologies.SwitchPort:
				l.To = LinkEnd{Switch: port.Peer, Port: port.PeerPort, Host: -1}
			default:
				l.To = LinkEnd{Switch: -1, Port: -1, Host: -1} // unconnected
			}
			m.stats.Links = append(m.stats.Links, l)
		}
	}
	for h, hs := range net.Hosts {
		p.nics[h].CountLinkFlits(p.cfg.VLs)
		from := host
		from.Host = int32(h)
		m.stats.Links = append(m.stats.Links, LinkStat{From: from, To: LinkEnd{Switch: hs.Switch, Port: hs.Port, Host: -1}, Dim: -1})
	}
	return m
}

// counts returns the flit counters of p's links, in the order of
// LinkStats.Links.
func (p *point) linkCounts() [][]int64 {
	var c [][]int64
	for _, s := range p.switches {
		f := s.LinkFlits()
		for port := 0; port*p.cfg.VLs < len(f); port++ {
			c = append(c, f[port*p.cfg.VLs:(port+1)*p.cfg.VLs])
		}
	}
	for _, n := range p.nics {
		c = append(c, n.LinkFlits())
	}
	return c
}

// sample looks at every link at now for flow control holding it back.
func (p *point) sampleLinks(now kernel.Time) {
	m := p.links
	m.stats.Samples++
	i := 0
	for _, s := range p.switches {
		ports := len(s.LinkFlits()) / p.cfg.VLs
		for port := range ports {
			l := &m.stats.Links[i]
			i++
			held := s.Held(port)
			any := false
			for vl := 0; held != 0; vl++ {
				if held&1 != 0 && s.Stalled(now, port, vl) {
					l.Stalled[vl]++
					any = true
				}
				held >>= 1
			}
			if any {
				l.Blocked++
			}
		}
	}
	for _, n := range p.nics {
		if n.Blocked() {
			m.stats.Links[i].Blocked++
		}
		i++
	}
}

// startLinks records the links' counts at the start of the window.
func (p *point) startLinks() {
	for _, c := range p.linkCounts() {
		p.links.base = append(p.links.base, append([]int64(nil), c...))
	}
}

// linkStats returns the links' load over the window, ended at cycle end.
func (p *point) linkStats(end kernel.Time) *LinkStats {
	st := p.links.stats
	st.Window = int64(end) - p.cfg.Warmup
	st.Links = append([]LinkStat(nil), st.Links...)
	for i, c := range p.linkCounts() {
		f := make([]int64, len(c))
		for v := range c {
			f[v] = c[v] - p.links.base[i][v]
		}
		st.Links[i].Flits = f
	}
	return &st
}
