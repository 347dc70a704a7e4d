package topologies

import "netsim/keyerr"

// FatTree returns the k-ary n-tree of Petrini and Vanneschi: k^n hosts and
// n levels of k^(n−1) switches with 2k ports (k down, k up), except that
// the top level has k down ports only (no unused up ports, so the radix of
// a top switch is k; Network.Radix is 2k for n ≥ 2). over is the
// oversubscription "D:U" of the leaves ("" for none; see Clos): with it a
// leaf keeps its 2k ports but gives d = 2k·D/(D+U) to hosts and u = 2k − d
// to k-ary upper levels of u·k^(n−2) switches each, so there are
// d·k^(n−1) hosts.
//
// Network.Bisection is u/d (1 without oversubscription) for an even k and
// n ≥ 2: the narrowest balanced cut splits every top switch's children in
// halves, k/2 links across each; it is left 0 (unknown) for an odd k.
//
// Wiring (Petrini & Vanneschi, with levels counted from the leaves): the
// switch at level l with index w, read as n−1 base-k digits w_0…w_{n−2}
// (w_0 least significant), is joined to the level-(l+1) switches whose
// digits equal its own except digit l; its up port k + j goes to the one
// whose digit l is j, arriving on that switch's down port w_l. So leaves
// 0..k−1 share their level-1 parents and host numbers group by subtree.
// With oversubscription the leaves' digit 0 ranges over the u parents
// (XGFT(n; d, k, …, k; 1, u, k, …, k) in Öhring's notation).
//
// The numbering, Coord, port order and Dim follow the tree layout
// documented on Clos: Coord = [level, w], leaves first, host = leaf·d +
// port.
func FatTree(k, n int, over string) (*Network, error) {
	return buildFatTree(Spec{Kind: "fattree", K: k, N: n, Oversubscription: over})
}

// buildFatTree validates s and builds the k-ary n-tree it describes.
func buildFatTree(s Spec) (*Network, error) {
	if err := checkUsed(s); err != nil {
		return nil, err
	}
	if err := checkCount("k", s.K, 2, MaxSwitches); err != nil {
		return nil, err
	}
	if err := checkCount("n", s.N, 1, MaxDims); err != nil {
		return nil, err
	}
	d, u := s.K, s.K
	if s.Oversubscription != "" {
		if s.N == 1 {
			return nil, keyerr.New("oversubscription", "a %d-ary 1-tree is one switch with no uplinks to oversubscribe", s.K)
		}
		var err error
		if d, u, err = leafSplit(s.Oversubscription, 2*s.K, "k"); err != nil {
			return nil, err
		}
	}
	h := s.N - 1
	t := &tree{kind: "fattree", m: fill(h, s.K), w: fill(h, s.K), par: fill(h, 1), copies: 1, hostsPer: d}
	if h > 0 {
		t.w[0] = u
	}
	sizes, err := t.sizes("k/n")
	if err != nil {
		return nil, err
	}
	if sizes[0]*d > MaxHosts {
		return nil, keyerr.New("k/n", "%d-ary %d-tree has %d hosts, more than the limit of %d", s.K, s.N, sizes[0]*d, MaxHosts)
	}
	t.leafDown, t.leafHosts = fill(sizes[0], d), fill(sizes[0], d)
	if err := t.checkPorts("k/n", sizes); err != nil {
		return nil, err
	}
	net := t.build(sizes)
	if s.N > 1 && s.K%2 == 0 {
		net.Bisection = float64(u) / float64(d)
	}
	return net, nil
}
