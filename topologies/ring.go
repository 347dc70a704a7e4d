package topologies

import "netsim/keyerr"

// Ring returns a ring (cycle) of n ≥ 3 switches with width parallel links
// between neighbours and c hosts per switch: a one-dimensional torus.
// Switch i has Coord = [i]; Network.Dims = [n] and Widths = [width].
//
// Port layout of every switch: ports 0..c-1 are host ports (host =
// switch·c + port); ports c..c+width-1 go to the +1 neighbour (i+1 mod n)
// and ports c+width..c+2·width-1 to the −1 neighbour (i−1 mod n), all with
// Dim = 0. Parallel link j to the +1 neighbour is parallel link j to the −1
// neighbour on the other side.
//
// Ring validates its arguments like Build does for the keys switches,
// widths (width) and hosts_per_switch.
func Ring(n, width, c int) (*Network, error) {
	return Build(Spec{Kind: "ring", Switches: n, Widths: []int{width}, HostsPerSwitch: c})
}

// buildRing validates s and builds the ring it describes.
func buildRing(s Spec) (*Network, error) {
	if err := checkUsed(s); err != nil {
		return nil, err
	}
	if err := checkCount("switches", s.Switches, 3, MaxSwitches); err != nil {
		return nil, err
	}
	if s.Widths != nil && len(s.Widths) != 1 {
		return nil, keyerr.New("widths", "a ring has one dimension, so need 1 entry (widths = [L]) or none, got %v", s.Widths)
	}
	widths, err := widthsFor(s.Widths, 1)
	if err != nil {
		return nil, err
	}
	if err := checkCount("hosts_per_switch", s.HostsPerSwitch, 1, MaxHosts); err != nil {
		return nil, err
	}
	radix := s.HostsPerSwitch + 2*widths[0]
	if err := checkTotals(s.Switches, radix, s.HostsPerSwitch, "hosts_per_switch", "widths"); err != nil {
		return nil, err
	}
	return torus("ring", []int{s.Switches}, widths, s.HostsPerSwitch, s.Switches, radix), nil
}
