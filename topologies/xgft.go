package topologies

import "netsim/keyerr"

// XGFT returns the extended generalized fat tree XGFT(h; m_1…m_h;
// w_1…w_h) of Öhring et al., h = len(m) = len(w): levels 0..h with
// N_i = m_{i+1}·…·m_h · w_1·…·w_i nodes each, where a level-i node has m_i
// children and w_{i+1} parents. Nodes at levels i and i+1 are joined iff
// their labels agree everywhere but in digit i+1.
//
// With hosts = 0 the level-0 nodes are the hosts, as in Öhring's
// definition: there are m_1·…·m_h hosts, the switches are levels 1..h
// (leaves have m_1 hosts), and w_1 must be 1 because a host has one port.
// So XGFT(n; k,…,k; 1,k,…,k) is the k-ary n-tree and XGFT(2; 16,32; 1,16)
// the 512-host Clos of seed 001.
//
// With hosts > 0 every level is switches, as in the switch topologies of
// seed 002 (Table I: XGFT(2; 6,6; 3,3) with 512 endpoints has 36 + 18 + 9
// = 63 switches): the hosts are spread over the N_0 = m_1·…·m_h leaves as
// evenly as possible, the first hosts mod N_0 leaves taking one more, and
// Network.HostsPerSwitch is hosts/N_0 when that is whole, else 0.
//
// The numbering, Coord, port order and Dim follow the tree layout
// documented on Clos, with switch level 0 the leaves in both readings.
// Digit i+1 of a label is the digit i of the switch index described on the
// tree type, so the first m_1 (or m_2) leaves share their parents.
func XGFT(m, w []int, hosts int) (*Network, error) {
	return buildXGFT(Spec{Kind: "xgft", M: m, W: w, Hosts: hosts})
}

// buildXGFT validates s and builds the XGFT it describes.
func buildXGFT(s Spec) (*Network, error) {
	if err := checkUsed(s); err != nil {
		return nil, err
	}
	if len(s.M) == 0 {
		return nil, keyerr.New("m", "need at least one level, got %v", s.M)
	}
	if len(s.M) > MaxDims {
		return nil, keyerr.New("m", "has %d levels, more than the limit of %d", len(s.M), MaxDims)
	}
	if len(s.W) != len(s.M) {
		return nil, keyerr.New("w", "has %d entries but m has %d", len(s.W), len(s.M))
	}
	if err := checkEntries("m", s.M, 1, MaxSwitches); err != nil {
		return nil, err
	}
	if err := checkEntries("w", s.W, 1, MaxSwitches); err != nil {
		return nil, err
	}
	if s.Hosts < 0 || s.Hosts > MaxHosts {
		return nil, checkCount("hosts", s.Hosts, 1, MaxHosts)
	}
	h := len(s.M)
	t := &tree{kind: "xgft", copies: 1}
	if s.Hosts == 0 {
		if s.W[0] != 1 {
			return nil, keyerr.New("w", "w_1 = %d, but a host (a level-0 node) has one port, so w_1 must be 1; set hosts to make level 0 switches with hosts spread over them (seed 002 Table I)", s.W[0])
		}
		t.m, t.w, t.par, t.hostsPer = s.M[1:], s.W[1:], fill(h-1, 1), s.M[0]
	} else {
		t.m, t.w, t.par = s.M, s.W, fill(h, 1)
	}
	sizes, err := t.sizes("m/w")
	if err != nil {
		return nil, err
	}
	leaves := sizes[0]
	if s.Hosts == 0 {
		if leaves*t.hostsPer > MaxHosts {
			return nil, keyerr.New("m", "gives %d hosts, more than the limit of %d", leaves*t.hostsPer, MaxHosts)
		}
		t.leafHosts = fill(leaves, t.hostsPer)
	} else {
		if s.Hosts < leaves {
			return nil, keyerr.New("hosts", "%d is fewer than the %d leaf switches (m_1·…·m_h)", s.Hosts, leaves)
		}
		t.leafHosts = fill(leaves, s.Hosts/leaves)
		for l := range s.Hosts % leaves {
			t.leafHosts[l]++
		}
		if s.Hosts%leaves == 0 {
			t.hostsPer = s.Hosts / leaves
		}
	}
	t.leafDown = t.leafHosts
	if err := t.checkPorts("m/w", sizes); err != nil {
		return nil, err
	}
	return t.build(sizes), nil
}
