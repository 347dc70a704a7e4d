package topologies

// torus builds the Cartesian product of the cycles C_{K_0} × … × C_{K_{N-1}}
// with widths[n] parallel links between switches adjacent in dimension n and
// c hosts per switch. Every K_n must be at least 3, so that a switch's +1
// and −1 neighbours differ; arguments must already be validated and
// switches, radix consistent with them (radix = c + Σ 2·widths[n]).
//
// Numbering and coordinates are as in FlatFly (mixed radix, dimension 0
// least significant). Port layout of every switch:
//
//   - ports 0..c-1 are host ports; host = switch·c + port;
//   - then, for each dimension n in increasing order, widths[n] ports to the
//     +1 neighbour (coordinate x_n+1 mod K_n) followed by widths[n] ports to
//     the −1 neighbour (x_n−1 mod K_n), all with Dim = n.
//
// Parallel link i to the +1 neighbour is parallel link i to the −1
// neighbour on the other side.
func torus(kind string, dims, widths []int, c, switches, radix int) *Network {
	sw := newSwitches(switches, radix, len(dims))
	hosts := attachHosts(sw, c)
	assignCoords(sw, dims)
	st := strides(dims)
	for s := range sw {
		ports := sw[s].Ports
		base := c
		for n, k := range dims {
			own, l := int(sw[s].Coord[n]), widths[n]
			up := s + ((own+1)%k-own)*st[n]
			down := s + ((own+k-1)%k-own)*st[n]
			for i := range l {
				ports[base+i] = Port{Kind: SwitchPort, Peer: int32(up), PeerPort: int32(base + l + i), Dim: int16(n)}
				ports[base+l+i] = Port{Kind: SwitchPort, Peer: int32(down), PeerPort: int32(base + i), Dim: int16(n)}
			}
			base += 2 * l
		}
	}
	return &Network{
		Kind:           kind,
		Switches:       sw,
		Hosts:          hosts,
		Dims:           dims,
		Widths:         widths,
		HostsPerSwitch: c,
	}
}
