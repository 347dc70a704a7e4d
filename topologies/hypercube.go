package topologies

import "netsim/keyerr"

// maxHypercubeDimension is the largest hypercube dimension within
// MaxSwitches.
const maxHypercubeDimension = 18

// Hypercube returns the n-dimensional hypercube with width parallel links
// between adjacent switches and c hosts per switch (seed 004 §1.3): the
// FlatFly 2 × … × 2, built by FlatFly with every K_n = 2 and every
// L_n = width, so that numbering, coordinates, Dims, Widths and the port
// layout are the FlatFly's (and FlatFly routings apply); only
// Network.Kind is "hypercube". Its diameter is n, its radix c + n·width
// and Network.Bisection width/c.
//
// Hypercube validates its arguments like Build does for the keys
// dimension, width (0 means 1) and hosts_per_switch.
func Hypercube(n, width, c int) (*Network, error) {
	return Build(Spec{Kind: "hypercube", Dimension: n, Width: width, HostsPerSwitch: c})
}

// buildHypercube validates s and builds the hypercube it describes.
func buildHypercube(s Spec) (*Network, error) {
	if err := checkUsed(s); err != nil {
		return nil, err
	}
	if err := checkCount("dimension", s.Dimension, 1, maxHypercubeDimension); err != nil {
		return nil, err
	}
	width, err := widthFor(s.Width)
	if err != nil {
		return nil, err
	}
	if err := checkCount("hosts_per_switch", s.HostsPerSwitch, 1, MaxHosts); err != nil {
		return nil, err
	}
	dims, widths := make([]int, s.Dimension), make([]int, s.Dimension)
	for i := range dims {
		dims[i], widths[i] = 2, width
	}
	switches := 1 << s.Dimension
	radix := s.HostsPerSwitch + s.Dimension*width
	if err := checkTotals(switches, radix, s.HostsPerSwitch, "hosts_per_switch", sizeKey("dimension", s.Width)); err != nil {
		return nil, err
	}
	net := flatFly(dims, widths, s.HostsPerSwitch, switches, radix)
	net.Kind = "hypercube"
	return net, nil
}

// widthFor returns the link width of the key width: 1 when not given (0),
// else w itself, which must be in [1, MaxPorts].
func widthFor(w int) (int, error) {
	if w == 0 {
		return 1, nil
	}
	if w < 0 {
		return 0, keyerr.New("width", "need at least 1, got %d", w)
	}
	if w > MaxPorts {
		return 0, keyerr.New("width", "%d exceeds the limit of %d", w, MaxPorts)
	}
	return w, nil
}
