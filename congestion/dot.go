package congestion

import (
	"bufio"
	"fmt"
	"io"

	"netsim/topologies"
)

// WriteCableDot writes the cable congestion map of seed 003 §2.5: the
// network as a dot digraph (names as topologies.WriteDot gives them, ports
// 1-based) whose every edge carries congestion, its streams summed over
// levels and runs scaled by the largest sum (0..1), the raw sum as
// streams, and a colour from green (0) through yellow to red (1).
func WriteCableDot(w io.Writer, p *Paths, cable []int64) error {
	if len(cable) != p.channels {
		return fmt.Errorf("cable map: %d channels, paths have %d", len(cable), p.channels)
	}
	net := p.net
	sw, hosts := net.DisplayNames()
	var top int64
	for _, v := range cable {
		top = max(top, v)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("digraph network {\n")
	edge := func(from, to string, attrs string, v int64) {
		scaled := 0.0
		if top > 0 {
			scaled = float64(v) / float64(top)
		}
		fmt.Fprintf(bw, "\t\"%s\" -> \"%s\" [ %scongestion = %.4f, streams = %d, color = \"%s\" ];\n",
			from, to, attrs, scaled, v, colour(scaled))
	}
	for s, swt := range net.Switches {
		for port, pt := range swt.Ports {
			c := int64(p.portBase[s]) + int64(port)
			switch pt.Kind {
			case topologies.SwitchPort:
				edge(sw[s], sw[pt.Peer], fmt.Sprintf("srcport = %d, dstport = %d, ", port+1, pt.PeerPort+1), cable[c])
			case topologies.HostPort:
				edge(sw[s], hosts[pt.Peer], fmt.Sprintf("srcport = %d, ", port+1), cable[c])
			}
		}
	}
	for h, a := range net.Hosts {
		edge(hosts[h], sw[a.Switch], fmt.Sprintf("dstport = %d, ", a.Port+1), cable[h])
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// colour maps x in [0, 1] to green → yellow → red as "#RRGGBB".
func colour(x float64) string {
	x = min(max(x, 0), 1)
	r, g := 255, 255
	if x < 0.5 {
		r = int(510 * x)
	} else {
		g = int(510 * (1 - x))
	}
	return fmt.Sprintf("#%02x%02x00", r, g)
}
