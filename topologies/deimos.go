package topologies

import "netsim/keyerr"

// Deimos returns a Deimos-like chain (seeds 000 and 002): len(boxHosts) ≥ 2
// fat-tree switches ("boxes") in a row, consecutive boxes joined by chain
// parallel links, box b carrying boxHosts[b] hosts. The Deimos cluster is
// Deimos(24, []int{258, 228, 258}, 30): three 288-port switches joined by
// 30 links each, with 258/228/258 hosts.
//
// A box is the 2-level fat tree of ports-port crossbars behind a
// ports²/2-port switch (ports even): ports leaf crossbars with ports/2
// external ports and ports/2 uplinks, one to each of ports/2 spine
// crossbars, whose ports ports go one to each leaf — for ports = 24, 24
// leaves with 12 external ports (24·12 = 288) and 12 spines of 24 ports.
// The external ports e = 0..ports²/2−1 of a box run leaf-major (e on leaf
// e/(ports/2), port e mod ports/2). Box b uses its first boxHosts[b]
// external ports for hosts, the next chain for the links to box b−1 (when
// b > 0), the next chain for the links to box b+1 (when b is not last);
// link r of a chain joins the r-th of those ports on each side. So on
// Deimos the end boxes are full (258 + 30 = 288) and so is the middle one
// (228 + 2·30 = 288).
//
// The numbering, port order and Dim of the tree links follow the tree
// layout documented on Clos, taken over all boxes: the leaves of every box
// first (box-major), then the spines; hosts leaf-major (box 0's first);
// Switch.Coord = [level, index within the level, box]. Chain links join
// two leaves (level 0) and have Dim = 1, a label no tree link of a box
// carries: on a leaf they are neither up nor down. Network.HostsPerSwitch
// is 0 (it varies).
func Deimos(ports int, boxHosts []int, chain int) (*Network, error) {
	return buildDeimos(Spec{Kind: "deimos", Ports: ports, BoxHosts: boxHosts, ChainLinks: chain})
}

// chainDim is the Dim label of the links between the boxes of a Deimos
// chain.
const chainDim = 1

// buildDeimos validates s and builds the Deimos-like chain it describes.
func buildDeimos(s Spec) (*Network, error) {
	if err := checkUsed(s); err != nil {
		return nil, err
	}
	if err := checkCount("ports", s.Ports, 2, 1<<12); err != nil {
		return nil, err
	}
	if s.Ports%2 != 0 {
		return nil, keyerr.New("ports", "%d is odd; a leaf crossbar gives half its ports to the outside and half to the spines", s.Ports)
	}
	boxes := len(s.BoxHosts)
	if boxes < 2 {
		return nil, keyerr.New("box_hosts", "need at least 2 boxes in the chain, got %v", s.BoxHosts)
	}
	if boxes > MaxSwitches {
		return nil, keyerr.New("box_hosts", "has %d boxes, more than the limit of %d", boxes, MaxSwitches)
	}
	if err := checkEntries("box_hosts", s.BoxHosts, 1, MaxHosts); err != nil {
		return nil, err
	}
	external := s.Ports * s.Ports / 2
	if err := checkCount("chain_links", s.ChainLinks, 1, external); err != nil {
		return nil, err
	}
	half := s.Ports / 2
	t := &tree{
		kind: "deimos", m: []int{s.Ports}, w: []int{half}, par: []int{1}, copies: boxes,
		leafDown: fill(boxes*s.Ports, half), leafHosts: make([]int, boxes*s.Ports), boxCoord: true,
	}
	nhosts := 0
	for b, hb := range s.BoxHosts {
		chains := 2
		if b == 0 || b == boxes-1 {
			chains = 1
		}
		if hb+chains*s.ChainLinks > external {
			return nil, keyerr.New("box_hosts", "element %d: %d hosts and %d chain links exceed the %d external ports of a box (ports²/2)",
				b+1, hb, chains*s.ChainLinks, external)
		}
		if nhosts += hb; nhosts > MaxHosts {
			return nil, keyerr.New("box_hosts", "more than the limit of %d hosts", MaxHosts)
		}
		for l := range s.Ports {
			t.leafHosts[b*s.Ports+l] = min(half, max(0, hb-l*half))
		}
	}
	sizes, err := t.sizes("box_hosts")
	if err != nil {
		return nil, err
	}
	if err := t.checkPorts("box_hosts", sizes); err != nil {
		return nil, err
	}
	net := t.build(sizes)
	// ext returns the switch and port of external port e of box b.
	ext := func(b, e int) (int, int) { return b*s.Ports + e/half, e % half }
	for b := range boxes - 1 {
		first := s.BoxHosts[b] // box b's ports to box b+1
		if b > 0 {
			first += s.ChainLinks
		}
		next := s.BoxHosts[b+1] // box b+1's ports to box b
		for r := range s.ChainLinks {
			x, p := ext(b, first+r)
			y, q := ext(b+1, next+r)
			net.Switches[x].Ports[p] = Port{Kind: SwitchPort, Peer: int32(y), PeerPort: int32(q), Dim: chainDim}
			net.Switches[y].Ports[q] = Port{Kind: SwitchPort, Peer: int32(x), PeerPort: int32(p), Dim: chainDim}
		}
	}
	return net, nil
}
