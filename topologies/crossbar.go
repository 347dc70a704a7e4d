package topologies

// Crossbar returns a single switch with n ≥ 1 host ports: host i is on
// port i. Network.HostsPerSwitch is n; Dims, Widths and Coord are nil.
//
// Crossbar validates n like Build does for the key hosts.
func Crossbar(n int) (*Network, error) {
	return Build(Spec{Kind: "crossbar", Hosts: n})
}

// buildCrossbar validates s and builds the crossbar it describes.
func buildCrossbar(s Spec) (*Network, error) {
	if err := checkUsed(s); err != nil {
		return nil, err
	}
	if err := checkCount("hosts", s.Hosts, 1, MaxHosts); err != nil {
		return nil, err
	}
	sw := newSwitches(1, s.Hosts, 0)
	return &Network{
		Kind:           "crossbar",
		Switches:       sw,
		Hosts:          attachHosts(sw, s.Hosts),
		HostsPerSwitch: s.Hosts,
	}, nil
}
