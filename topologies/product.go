package topologies

import (
	"slices"
	"strings"

	"netsim/keyerr"
)

// productFactorKinds lists the kinds a product's factors may have.
func productFactorKinds() []string { return []string{"slimfly", "flatfly", "hyperx", "hypercube"} }

// Product returns the Cartesian product of the networks factors describe
// (seed 004 §1.5: Slim Fly × FlatFly), with c hosts per switch. Each
// factor is a Slim Fly, FlatFly/HyperX or hypercube spec without
// hosts_per_switch; it keeps its own link widths. Two switches are joined
// by a factor's links when they differ only in that factor's switch and
// those two factor switches are joined there.
//
// Dimensions: a Slim Fly factor is one dimension, of size 2q² and width L,
// whose coordinate is the Slim Fly switch index (t·q² + x·q + y); a
// FlatFly or hypercube factor brings its own dimensions. Network.Dims,
// Widths and Switch.Coord concatenate the factors' in order, the switch
// index is the mixed-radix number of Coord over Dims (dimension 0 least
// significant), and every inter-switch port's Dim is the product dimension
// it spans.
//
// Port layout: ports 0..c-1 are host ports (host = switch·c + port); then,
// for each factor in order, the factor switch's inter-switch ports in the
// factor's own order.
//
// Network.Bisection is min over the factors of their relative bisection
// with one host per switch, divided by c, when every factor has one, else
// 0. That is the cut halving the factor with the narrowest bisection; it
// is exact for these factors (FlatFly with even sizes, hypercube, Slim Fly
// with q = 2^p), whose narrowest cuts meet the spectral bound, since the
// Laplacian's second eigenvalue of a product is the least of the
// factors'.
//
// Product validates its arguments like Build does for the keys factors and
// hosts_per_switch.
func Product(factors []Spec, c int) (*Network, error) {
	return Build(Spec{Kind: "product", Factors: factors, HostsPerSwitch: c})
}

// buildProduct validates s and builds the product it describes.
func buildProduct(s Spec) (*Network, error) {
	if err := checkUsed(s); err != nil {
		return nil, err
	}
	if len(s.Factors) < 2 {
		return nil, keyerr.New("factors", "need at least 2 factor tables ([[topology.factors]]), got %d", len(s.Factors))
	}
	if len(s.Factors) > MaxDims {
		return nil, keyerr.New("factors", "has %d factors, more than the limit of %d", len(s.Factors), MaxDims)
	}
	c := s.HostsPerSwitch
	if err := checkCount("hosts_per_switch", c, 1, MaxHosts); err != nil {
		return nil, err
	}
	nets := make([]*Network, len(s.Factors))
	switches, radix, dims := 1, c, 0
	for i, f := range s.Factors {
		net, err := buildFactor(i, f)
		if err != nil {
			return nil, err
		}
		nets[i] = net
		n := len(net.Switches)
		if switches > MaxSwitches/n {
			return nil, keyerr.New("factors", "the product has more than the limit of %d switches", MaxSwitches)
		}
		switches *= n
		radix += len(net.Switches[0].Ports) - 1 // ≤ MaxPorts per factor: no overflow
		dims += len(factorDims(net))
	}
	if dims > MaxDims {
		return nil, keyerr.New("factors", "the product has %d dimensions, more than the limit of %d", dims, MaxDims)
	}
	if err := checkTotals(switches, radix, c, "hosts_per_switch", "factors"); err != nil {
		return nil, err
	}
	return cartesian(nets, c, switches, radix), nil
}

// buildFactor builds factor i (from 0) of a product, with one host per
// switch; messages count factors from 1.
func buildFactor(i int, f Spec) (*Network, error) {
	if kinds := productFactorKinds(); !slices.Contains(kinds, f.Kind) {
		return nil, keyerr.Element("factors", i+1, "factor %d has kind %q, expected one of %s", i+1, f.Kind, strings.Join(kinds, ", "))
	}
	if f.Preset != "" {
		return nil, keyerr.Element("factors", i+1, "factor %d (%s): %w", i+1, f.Kind, keyerr.New("preset", "not allowed in a factor"))
	}
	if f.HostsPerSwitch != 0 {
		return nil, keyerr.Element("factors", i+1, "factor %d (%s): %w", i+1, f.Kind, keyerr.New("hosts_per_switch", "belongs to the product, not to a factor"))
	}
	f.HostsPerSwitch = 1
	net, err := build(f)
	if err != nil {
		return nil, keyerr.Element("factors", i+1, "factor %d (%s): %w", i+1, f.Kind, err)
	}
	net.Spec = withDefaults(f)
	return net, nil
}

// factorDims returns the sizes of the dimensions a factor brings.
func factorDims(f *Network) []int {
	if f.Kind == "slimfly" {
		return []int{len(f.Switches)}
	}
	return f.Dims
}

// cartesian builds the validated product of nets; see Product.
func cartesian(nets []*Network, c, switches, radix int) *Network {
	var dims, widths []int
	for _, f := range nets {
		dims = append(dims, factorDims(f)...)
		if f.Kind == "slimfly" {
			widths = append(widths, f.Spec.Width)
		} else {
			widths = append(widths, f.Widths...)
		}
	}
	sw := newSwitches(switches, radix, len(dims))
	hosts := attachHosts(sw, c)
	bisection := nets[0].Bisection
	stride, portOff, dimOff := 1, c, 0
	for _, f := range nets {
		n := len(f.Switches)
		nd := len(factorDims(f))
		for s := range sw {
			i := s / stride % n
			if f.Kind == "slimfly" {
				sw[s].Coord[dimOff] = int32(i)
			} else {
				copy(sw[s].Coord[dimOff:], f.Switches[i].Coord)
			}
			for p, port := range f.Switches[i].Ports[1:] {
				sw[s].Ports[portOff+p] = Port{
					Kind:     SwitchPort,
					Peer:     int32(s + (int(port.Peer)-i)*stride),
					PeerPort: int32(portOff + int(port.PeerPort) - 1),
					Dim:      int16(dimOff) + port.Dim,
				}
			}
		}
		stride *= n
		portOff += len(f.Switches[0].Ports) - 1
		dimOff += nd
		bisection = min(bisection, f.Bisection)
	}
	return &Network{
		Kind:           "product",
		Switches:       sw,
		Hosts:          hosts,
		Dims:           dims,
		Widths:         widths,
		HostsPerSwitch: c,
		Bisection:      bisection / float64(c),
	}
}
