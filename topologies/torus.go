package topologies

import "netsim/keyerr"

// Torus returns the torus C_{K_0} × … × C_{K_{N-1}}: the Cartesian product
// of cycles (seed 004 §1.1), with widths[n] parallel links between switches
// adjacent in dimension n and c hosts on every switch. Every K_n must be at
// least 2; in a dimension with K_n = 2 the +1 and the −1 neighbour are the
// same switch, which is then joined by 2·widths[n] links (both wrap-around
// directions), so the degree is c + 2·Σ widths[n] for every size. Its
// diameter is Σ ⌊K_n/2⌋.
//
// Numbering, coordinates and port layout are those of torus (below);
// Network.Bisection is min_n 4·widths[n]/(c·K_n) when every K_n is even
// (cutting dimension n in half crosses 2·widths[n]·(switches/K_n) links),
// 0 otherwise.
//
// Torus validates its arguments like Build does for the keys dims, widths
// (nil means all 1) and hosts_per_switch.
func Torus(dims, widths []int, c int) (*Network, error) {
	return Build(Spec{Kind: "torus", Dims: dims, Widths: widths, HostsPerSwitch: c})
}

// buildTorus validates s and builds the torus it describes.
func buildTorus(s Spec) (*Network, error) {
	widths, switches, err := checkGrid(s)
	if err != nil {
		return nil, err
	}
	for i, k := range s.Dims {
		if k < 2 {
			return nil, keyerr.New("dims", "element %d is %d, a torus dimension needs at least 2 switches", i+1, k)
		}
	}
	radix := s.HostsPerSwitch
	for _, l := range widths {
		radix += 2 * l // ≤ 2·MaxPorts·MaxDims: no overflow
	}
	if err := checkTotals(switches, radix, s.HostsPerSwitch, "hosts_per_switch", "dims/widths"); err != nil {
		return nil, err
	}
	net := torus("torus", append([]int(nil), s.Dims...), widths, s.HostsPerSwitch, switches, radix)
	net.Bisection = torusBisection(net.Dims, widths, s.HostsPerSwitch)
	return net, nil
}

// torusBisection returns min_n 4·L_n/(C·K_n), the relative bisection of a
// torus whose sizes are all even, or 0 when one is odd (the dimension cut
// is then not balanced and no formula is known here).
func torusBisection(dims, widths []int, c int) float64 {
	b := 0.0
	for n, k := range dims {
		if k%2 != 0 {
			return 0
		}
		v := 4 * float64(widths[n]) / (float64(c) * float64(k))
		if b == 0 || v < b {
			b = v
		}
	}
	return b
}

// torus builds the Cartesian product of the cycles C_{K_0} × … × C_{K_{N-1}}
// with widths[n] parallel links between switches adjacent in dimension n and
// c hosts per switch. Every K_n must be at least 2 (with K_n = 2 the +1 and
// −1 neighbours coincide and get 2·widths[n] links); arguments must already
// be validated and switches, radix consistent with them (radix = c + Σ
// 2·widths[n]).
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

// checkDims reports whether dims has between 1 and MaxDims entries, each in
// [1, MaxSwitches].
func checkDims(dims []int) error {
	if len(dims) == 0 {
		return keyerr.New("dims", "need at least one dimension, got %v", dims)
	}
	if len(dims) > MaxDims {
		return keyerr.New("dims", "has %d dimensions, more than the limit of %d", len(dims), MaxDims)
	}
	return checkEntries("dims", dims, 1, MaxSwitches)
}
