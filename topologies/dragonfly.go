package topologies

import "netsim/keyerr"

// Dragonfly returns a Dragonfly (seed 004 §1.4, after Kim et al.): groups
// of k switches joined as a complete graph by local links, g global links
// per switch, c hosts per switch, and the groups joined as a complete
// graph by exactly one global link per pair of groups.
//
// There are k·g + 1 groups, so that every global port is used; with
// omitOneGlobal there are k·g groups (seed 004's power-of-two variant,
// k²·g switches) and the last global port of the last switch of every
// group is left Unused.
//
// Switch numbering: switch = group·k + index (index within the group);
// Switch.Coord is [group, index]. Port layout of every switch:
//
//   - ports 0..c-1 are host ports; host = switch·c + port;
//   - ports c..c+k-2 are local links to the other switches of the group,
//     in increasing index order, with Dim = 0;
//   - ports c+k-1..c+k+g-2 are global links, with Dim = 1: port p of the
//     switch with index r is global port j = r·g + p of its group.
//
// With n groups in all, global port j (0 ≤ j < n−1) of group i reaches
// global port j' of group t, by arrangement:
//
//   - "absolute": t = j when j < i, else j + 1 (the groups in increasing
//     order, skipping i); j' = i when i < t, else i − 1;
//   - "relative": t = (i + j + 1) mod n; j' = n − 2 − j;
//   - "palmtree": t = (i − j − 1) mod n; j' = n − 2 − j. This is the
//     palm-tree arrangement of M. García's thesis used by Camarero,
//     Vallejo and Beivide (ACM TACO 11(4), 2014): with n = k·g + 1, the
//     switch with index r links its port p to port g−1−p of the switch
//     with index k−1−r.
//
// The absolute and relative rules are those of Hastings et al. (IEEE
// Cluster 2015), as in SST/Merlin's dragonfly. Network.Bisection is
// seed 004's min(k/(4c), g/(2c)) (a minimal path crosses one global and
// up to two local links) for k > 1, 0 for k = 1.
//
// Dragonfly validates its arguments like Build does for the keys
// group_size, global_per_switch, hosts_per_switch, arrangement ("" means
// "absolute") and omit_one_global.
func Dragonfly(k, g, c int, arrangement string, omitOneGlobal bool) (*Network, error) {
	return Build(Spec{Kind: "dragonfly", GroupSize: k, GlobalPerSwitch: g, HostsPerSwitch: c,
		Arrangement: arrangement, OmitOneGlobal: &omitOneGlobal})
}

// buildDragonfly validates s and builds the Dragonfly it describes.
func buildDragonfly(s Spec) (*Network, error) {
	if err := checkUsed(s); err != nil {
		return nil, err
	}
	k, g, c := s.GroupSize, s.GlobalPerSwitch, s.HostsPerSwitch
	if err := checkCount("group_size", k, 1, MaxSwitches); err != nil {
		return nil, err
	}
	if err := checkCount("global_per_switch", g, 1, MaxSwitches); err != nil {
		return nil, err
	}
	if err := checkCount("hosts_per_switch", c, 1, MaxHosts); err != nil {
		return nil, err
	}
	arrange, err := arrangementFor(s.Arrangement)
	if err != nil {
		return nil, err
	}
	omit := s.OmitOneGlobal != nil && *s.OmitOneGlobal
	groups := k*g + 1
	if omit {
		groups--
		if groups < 2 {
			return nil, keyerr.New("omit_one_global", "group_size·global_per_switch = %d gives a single group, need at least 2", k*g)
		}
	}
	if groups*k > MaxSwitches {
		return nil, keyerr.New("group_size/global_per_switch", "%d groups of %d switches exceed the limit of %d switches", groups, k, MaxSwitches)
	}
	radix := c + k - 1 + g
	if err := checkTotals(groups*k, radix, c, "hosts_per_switch", "group_size/global_per_switch"); err != nil {
		return nil, err
	}
	return dragonfly(k, g, c, groups, arrange), nil
}

// arrangementFor returns the global-link rule named by the key
// arrangement: for group i of groups and its global port j, the group t
// and global port j' at the other end.
func arrangementFor(name string) (func(groups, i, j int) (t, jj int), error) {
	switch name {
	case "", "absolute":
		return func(groups, i, j int) (int, int) {
			t := j
			if j >= i {
				t = j + 1
			}
			if i < t {
				return t, i
			}
			return t, i - 1
		}, nil
	case "relative":
		return func(groups, i, j int) (int, int) { return (i + j + 1) % groups, groups - 2 - j }, nil
	case "palmtree":
		return func(groups, i, j int) (int, int) { return ((i-j-1)%groups + groups) % groups, groups - 2 - j }, nil
	}
	return nil, keyerr.New("arrangement", "unknown value %q (expected absolute, relative or palmtree)", name)
}

// dragonfly builds a validated Dragonfly; see Dragonfly for the layout.
func dragonfly(k, g, c, groups int, arrange func(groups, i, j int) (int, int)) *Network {
	radix := c + k - 1 + g
	sw := newSwitches(groups*k, radix, 2)
	hosts := attachHosts(sw, c)
	global := c + k - 1 // first global port
	for s := range sw {
		i, r := s/k, s%k
		sw[s].Coord[0], sw[s].Coord[1] = int32(i), int32(r)
		ports := sw[s].Ports
		for v := range k {
			if v != r {
				ports[c+slot(v, r)] = Port{Kind: SwitchPort, Peer: int32(i*k + v), PeerPort: int32(c + slot(r, v)), Dim: 0}
			}
		}
		for p := range g {
			j := r*g + p
			if j >= groups-1 {
				ports[global+p] = Port{Dim: -1} // the omitted global link
				continue
			}
			t, jj := arrange(groups, i, j)
			ports[global+p] = Port{Kind: SwitchPort, Peer: int32(t*k + jj/g), PeerPort: int32(global + jj%g), Dim: 1}
		}
	}
	net := &Network{
		Kind:           "dragonfly",
		Switches:       sw,
		Hosts:          hosts,
		HostsPerSwitch: c,
	}
	if k > 1 { // with k = 1 there are no local links: the formula does not apply
		net.Bisection = min(float64(k)/(4*float64(c)), float64(g)/(2*float64(c)))
	}
	return net
}
