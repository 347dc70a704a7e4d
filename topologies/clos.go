package topologies

import "netsim/keyerr"

// Clos returns the folded 3-stage Clos network of crossbars with ports
// ports each and hosts hosts — two levels when folded: leaf crossbars and
// spine crossbars (seed 001 §2.2). over is the oversubscription "D:U"
// (see the key oversubscription; "" means "1:1"): every leaf gives
// d = ports·D/(D+U) ports to hosts and u = ports − d to spines, so hosts
// must be a multiple of d and there are L = hosts/d ≥ 2 leaves.
//
// Uplinks are spread over the spines evenly: every leaf has p parallel
// links to every spine, p the largest divisor of u with L·p ≤ ports, so
// there are S = u/p spines (the fewest possible with equal links from
// every leaf to every spine). With L = ports, as in the 512-host Myrinet
// network of seed 001 (ports = 32: 32 leaves with 16 hosts and 16 uplinks,
// one to each of 16 spines), p = 1; with fewer leaves the spines are fewer
// and the links parallel (128 hosts: 8 leaves, 4 links to each of 4
// spines). At most ports leaves fit, so hosts ≤ ports·d.
//
// Network.Bisection is u·⌊L/2⌋/(hosts/2), u/d for an even L: the
// narrowest balanced cut splits the leaves in halves.
//
// Layout, shared by the tree families (clos, fattree, xgft, deimos):
//
//   - switches are numbered level by level, leaves first (level 0), then
//     the level-1 switches, and so on; Switch.Coord = [level, index within
//     the level];
//   - hosts are numbered leaf-major on ports 0..d−1 of each leaf, so host
//     = leaf·d + port and Network.HostsPerSwitch = d;
//   - each switch has its down ports (hosts on a leaf) first, then its up
//     ports; parallel links to one peer are on consecutive ports;
//   - a link between levels l and l+1 has Dim = l on both ends, so a port
//     of a level-l switch is up iff its Dim = l, down iff its Dim = l − 1
//     or it is a host port (Dim = −1);
//   - top-level switches have down ports only (no unused up ports).
//
// Here leaf i's up port d + j·p + r (r < p) goes to spine j, whose down
// port i·p + r comes back.
func Clos(ports, hosts int, over string) (*Network, error) {
	return buildClos(Spec{Kind: "clos", Ports: ports, Hosts: hosts, Oversubscription: over})
}

// buildClos validates s and builds the Clos network it describes.
func buildClos(s Spec) (*Network, error) {
	if err := checkUsed(s); err != nil {
		return nil, err
	}
	if err := checkCount("ports", s.Ports, 2, MaxPorts); err != nil {
		return nil, err
	}
	d, u, err := leafSplit(s.Oversubscription, s.Ports, "ports")
	if err != nil {
		return nil, err
	}
	if err := checkCount("hosts", s.Hosts, 1, MaxHosts); err != nil {
		return nil, err
	}
	if s.Hosts%d != 0 {
		return nil, keyerr.New("hosts", "%d is not a multiple of %d, the host ports of a leaf crossbar", s.Hosts, d)
	}
	leaves := s.Hosts / d
	if leaves < 2 {
		return nil, keyerr.New("hosts", "%d fit on one leaf crossbar (%d host ports); a Clos needs at least 2 leaves (a single switch is kind = \"crossbar\")", s.Hosts, d)
	}
	if leaves > s.Ports {
		return nil, keyerr.New("hosts", "%d need %d leaf crossbars, but a spine crossbar of %d ports reaches at most %d leaves (%d hosts)",
			s.Hosts, leaves, s.Ports, s.Ports, s.Ports*d)
	}
	p := u
	for leaves*p > s.Ports || u%p != 0 {
		p--
	}
	t := &tree{
		kind: "clos", m: []int{leaves}, w: []int{u / p}, par: []int{p}, copies: 1,
		leafDown: fill(leaves, d), leafHosts: fill(leaves, d), hostsPer: d,
	}
	sizes, err := t.sizes("hosts")
	if err != nil {
		return nil, err
	}
	if err := t.checkPorts("hosts", sizes); err != nil {
		return nil, err
	}
	net := t.build(sizes)
	// A balanced cut puts ⌊L/2⌋ or more leaves on either side (all leaves
	// carry d hosts); a spine then has p·⌊L/2⌋ links or more across, and
	// exactly that with the spines on the larger side.
	net.Bisection = float64(u*(leaves/2)) / (float64(s.Hosts) / 2)
	return net, nil
}

// fill returns n copies of v.
func fill(n, v int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}
