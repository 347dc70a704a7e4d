package routing

import "netsim/topologies"

// PortDestinations returns the routing comments of r on net for
// topologies.WriteDot (the ORCS dot format of seed 003): for switch sw, for
// each port, the destination hosts whose packets r sends out of that port
// at sw. Each destination is asked about as a packet from itself
// (Source(dst, dst)) arriving on port 0 with its source SL and VL, which
// is exact for destination-based routings such as those of this package; when r
// offers several candidate ports, the destination is listed on each.
func PortDestinations(r Routing, net *topologies.Network) topologies.SwitchRoutes {
	return func(sw int) [][]int32 {
		ports := make([][]int32, len(net.Switches[sw].Ports))
		if len(ports) == 0 {
			return ports
		}
		var cands []Candidate
		for h := range net.Hosts {
			dlid, sl, vl := r.Source(h, h)
			cands = r.Route(sw, 0, vl, sl, dlid, cands[:0])
			for _, c := range cands {
				if c.Port >= 0 && int(c.Port) < len(ports) {
					ports[c.Port] = append(ports[c.Port], int32(h))
				}
			}
		}
		return ports
	}
}
