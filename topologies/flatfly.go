package topologies

import "netsim/keyerr"

// FlatFly returns the FlatFly (HyperX, generalized hypercube) K_0 × … ×
// K_{N-1}: the Cartesian product of the complete graphs K_n, with widths[n]
// parallel links between two switches adjacent in dimension n and c hosts
// on every switch (seed 004 §1.2). Its diameter is the number of dimensions
// with K_n > 1 and its radix is c + Σ widths[n]·(K_n − 1).
//
// Switch numbering: switch index = Σ x_n·K_0·…·K_{n-1}, a mixed-radix
// number with dimension 0 the least significant digit; Switch.Coord holds
// x_0, …, x_{N-1}.
//
// Port layout of every switch (routing relies on it):
//
//   - ports 0..c-1 are host ports; host = switch·c + port (switch-major);
//   - then, for each dimension n in increasing order, for each coordinate
//     value v ≠ x_n in increasing order, widths[n] parallel ports to the
//     switch whose coordinate n is v (and equal otherwise), with Dim = n.
//
// So the ports to the neighbour with value v in dimension n start at
// c + Σ_{m<n} widths[m]·(K_m − 1) + j·widths[n], where j = v when v < x_n
// and v − 1 otherwise; parallel link i on one side is parallel link i on
// the other.
//
// Network.Bisection is min_n K_n·L_n/(2c) over the dimensions with
// K_n > 1 when all those K_n are even, 0 otherwise.
//
// FlatFly validates its arguments like Build does for the keys dims,
// widths (nil means all 1) and hosts_per_switch.
func FlatFly(dims, widths []int, c int) (*Network, error) {
	return Build(Spec{Kind: "flatfly", Dims: dims, Widths: widths, HostsPerSwitch: c})
}

// buildFlatFly validates s and builds the FlatFly it describes.
func buildFlatFly(s Spec) (*Network, error) {
	widths, switches, err := checkGrid(s)
	if err != nil {
		return nil, err
	}
	radix := s.HostsPerSwitch
	for n, k := range s.Dims {
		radix += widths[n] * (k - 1) // ≤ MaxPorts·MaxSwitches each: no overflow
	}
	if err := checkTotals(switches, radix, s.HostsPerSwitch, "hosts_per_switch", "dims/widths"); err != nil {
		return nil, err
	}
	return flatFly(append([]int(nil), s.Dims...), widths, s.HostsPerSwitch, switches, radix), nil
}

// flatFly builds a validated FlatFly; see FlatFly for the layout.
func flatFly(dims, widths []int, c, switches, radix int) *Network {
	sw := newSwitches(switches, radix, len(dims))
	hosts := attachHosts(sw, c)
	assignCoords(sw, dims)
	st := strides(dims)
	base := make([]int, len(dims)) // first port of each dimension
	b := c
	for n, k := range dims {
		base[n] = b
		b += widths[n] * (k - 1)
	}
	for s := range sw {
		ports := sw[s].Ports
		for n, k := range dims {
			own, l := int(sw[s].Coord[n]), widths[n]
			for v := range k {
				if v == own {
					continue
				}
				peer := int32(s + (v-own)*st[n])
				p := base[n] + slot(v, own)*l // our ports to the peer
				q := base[n] + slot(own, v)*l // the peer's ports to us
				for i := range l {
					ports[p+i] = Port{Kind: SwitchPort, Peer: peer, PeerPort: int32(q + i), Dim: int16(n)}
				}
			}
		}
	}
	return &Network{
		Kind:           "flatfly",
		Switches:       sw,
		Hosts:          hosts,
		Dims:           dims,
		Widths:         widths,
		HostsPerSwitch: c,
		Bisection:      flatFlyBisection(dims, widths, c),
	}
}

// flatFlyBisection returns min_n K_n·L_n/(2C) over the dimensions with
// K_n > 1, the relative bisection of a FlatFly (seed 004 §1.2, from
// HyperX), or 0 when some K_n > 1 is odd or there is no such dimension.
//
// The formula is exact for even sizes: halving dimension n crosses
// L_n·(K_n/2)²·(switches/K_n) = L_n·K_n·switches/4 links, and no balanced
// cut crosses fewer, since the Laplacian's second eigenvalue of a product
// of complete graphs K_{K_n} with multiplicities L_n is min_n L_n·K_n and
// a balanced cut crosses at least that times switches/4 links.
func flatFlyBisection(dims, widths []int, c int) float64 {
	b := 0.0
	for n, k := range dims {
		if k == 1 {
			continue
		}
		if k%2 != 0 {
			return 0
		}
		v := float64(k*widths[n]) / (2 * float64(c))
		if b == 0 || v < b {
			b = v
		}
	}
	return b
}

// slot returns the position of coordinate value v among the values other
// than own, in increasing order.
func slot(v, own int) int {
	if v < own {
		return v
	}
	return v - 1
}

// checkGrid checks the keys of a coordinate family (flatfly, torus): dims,
// widths (nil means all 1) and hosts_per_switch, and returns the widths and
// the number of switches.
func checkGrid(s Spec) (widths []int, switches int, err error) {
	if err := checkUsed(s); err != nil {
		return nil, 0, err
	}
	if err := checkDims(s.Dims); err != nil {
		return nil, 0, err
	}
	if widths, err = widthsFor(s.Widths, len(s.Dims)); err != nil {
		return nil, 0, err
	}
	if err := checkCount("hosts_per_switch", s.HostsPerSwitch, 1, MaxHosts); err != nil {
		return nil, 0, err
	}
	switches, ok := product(s.Dims, MaxSwitches)
	if !ok {
		return nil, 0, keyerr.New("dims", "%v gives more than the limit of %d switches", s.Dims, MaxSwitches)
	}
	return widths, switches, nil
}
