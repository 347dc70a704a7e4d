package topologies

import "netsim/keyerr"

// tree is the shape of a multi-level tree of switches in the form of an
// extended generalized fat tree (XGFT, Öhring et al. 1995) whose level-0
// nodes are the leaf switches; hosts hang below the leaves. With h =
// len(m) there are switch levels 0..h, and per copy level i has
//
//	N_i = m[i]·…·m[h−1] · w[0]·…·w[i−1]
//
// switches. A level-i switch (i < h) has w[i] parents at level i+1, joined
// to each by par[i] parallel links; a level-(i+1) switch has m[i] children.
//
// A level-i switch's index a within its copy is a mixed-radix number with
// digit 0 least significant, digit j < i in [0, w[j]) and digit j ≥ i in
// [0, m[j]). Switches a (level i) and b (level i+1) are joined iff their
// digits agree everywhere except digit i, where a's digit (in [0, m[i]))
// is a's position among b's children and b's digit (in [0, w[i])) is b's
// position among a's parents.
//
// Global numbering is level-major, then copy-major: the switch at level i,
// copy c, local index a is Σ_{j<i} copies·N_j + c·N_i + a, and its Coord is
// [i, c·N_i + a] (plus [c] when boxCoord is set).
//
// Port layout of a switch: its down ports first, then its up ports. A
// leaf's down ports are leafDown[leaf] external ports, the first
// leafHosts[leaf] of them hosts (host numbers leaf-major); the others stay
// Unused for the caller to wire. A level-(i+1) switch's down ports are
// par[i] ports for each child in child-position order. Up ports are par[i]
// ports for each parent in parent-position order. Links between levels i
// and i+1 have Dim = i; host ports Dim = −1.
type tree struct {
	kind      string
	m, w, par []int
	copies    int   // independent copies (the boxes of a Deimos chain)
	leafDown  []int // external ports of each leaf, over all copies
	leafHosts []int // hosts on each leaf (≤ leafDown)
	hostsPer  int   // Network.HostsPerSwitch: hosts per leaf, 0 if it varies
	boxCoord  bool  // append the copy index to Coord
}

// sizes returns N_i per copy for i = 0..h, or an error naming key when a
// level or the switch total exceeds MaxSwitches. m and w entries must be
// in [1, MaxSwitches] and copies in [1, MaxSwitches].
func (t *tree) sizes(key string) ([]int, error) {
	h := len(t.m)
	sizes := make([]int, h+1)
	total := 0
	for i := range sizes {
		n := t.copies
		for j := range h {
			if j < i {
				n *= t.w[j]
			} else {
				n *= t.m[j]
			}
			if n > MaxSwitches {
				return nil, keyerr.New(key, "level %d has more than the limit of %d switches", i, MaxSwitches)
			}
		}
		sizes[i] = n / t.copies
		if total += n; total > MaxSwitches {
			return nil, keyerr.New(key, "more than the limit of %d switches", MaxSwitches)
		}
	}
	return sizes, nil
}

// checkPorts reports, naming key, whether the total number of ports stays
// within MaxPorts; par entries must be in [1, MaxPorts] and leafDown
// entries in [0, MaxPorts].
func (t *tree) checkPorts(key string, sizes []int) error {
	ports := 0
	for _, d := range t.leafDown {
		if ports += d; ports > MaxPorts {
			return keyerr.New(key, "more than the limit of %d ports", MaxPorts)
		}
	}
	for i, n := range sizes {
		if ports += t.copies * n * t.radix(i, 0); ports > MaxPorts {
			return keyerr.New(key, "more than the limit of %d ports", MaxPorts)
		}
	}
	return nil
}

// radix returns the number of ports of a level-i switch; for a leaf (i = 0)
// that is leafDown, its external ports, plus its up ports.
func (t *tree) radix(i, leafDown int) int {
	r := leafDown
	if i > 0 {
		r = t.m[i-1] * t.par[i-1]
	}
	if i < len(t.m) {
		r += t.w[i] * t.par[i]
	}
	return r
}

// build builds the tree; sizes and checkPorts must have succeeded.
func (t *tree) build(sizes []int) *Network {
	h := len(t.m)
	offset := make([]int, h+2) // first global switch of each level
	for i, n := range sizes {
		offset[i+1] = offset[i] + t.copies*n
	}
	total := offset[h+1]
	nports, nhosts := 0, 0
	for i := range h + 1 {
		nports += t.copies * sizes[i] * t.radix(i, 0)
	}
	for l := range t.leafDown {
		nports += t.leafDown[l]
		nhosts += t.leafHosts[l]
	}
	ncoord := 2
	if t.boxCoord {
		ncoord = 3
	}
	sw := make([]Switch, total)
	ports := make([]Port, nports)
	coords := make([]int32, total*ncoord)
	next := 0
	for i := range h + 1 {
		for g := range t.copies * sizes[i] {
			s := offset[i] + g
			r := t.radix(i, 0)
			if i == 0 {
				r = t.radix(0, t.leafDown[g])
			}
			sw[s].Ports = ports[next : next+r : next+r]
			next += r
			c := coords[s*ncoord : (s+1)*ncoord : (s+1)*ncoord]
			c[0], c[1] = int32(i), int32(g)
			if t.boxCoord {
				c[2] = int32(g / sizes[i])
			}
			sw[s].Coord = c
		}
	}
	hosts := make([]Host, 0, nhosts)
	for l, n := range t.leafHosts {
		for p := range n {
			sw[l].Ports[p] = Port{Kind: HostPort, Peer: int32(len(hosts)), Dim: -1}
			hosts = append(hosts, Host{Switch: int32(l), Port: int32(p)})
		}
	}
	below := 1 // ∏_{j<i} w[j]: the place value of digit i at levels i and i+1
	for i := range h {
		m, w, par := t.m[i], t.w[i], t.par[i]
		for g := range t.copies * sizes[i] {
			c, a := g/sizes[i], g%sizes[i]
			lo, y, hi := a%below, (a/below)%m, a/(below*m)
			child := offset[i] + g
			up := t.radix(i, 0) - w*par // first up port
			if i == 0 {
				up = t.leafDown[g]
			}
			for x := range w {
				parent := offset[i+1] + c*sizes[i+1] + lo + below*(x+w*hi)
				for r := range par {
					p, q := up+x*par+r, y*par+r
					sw[child].Ports[p] = Port{Kind: SwitchPort, Peer: int32(parent), PeerPort: int32(q), Dim: int16(i)}
					sw[parent].Ports[q] = Port{Kind: SwitchPort, Peer: int32(child), PeerPort: int32(p), Dim: int16(i)}
				}
			}
		}
		below *= w
	}
	return &Network{Kind: t.kind, Switches: sw, Hosts: hosts, HostsPerSwitch: t.hostsPer}
}
