package routing

import (
	"fmt"
	"slices"

	"netsim/keyerr"
	"netsim/topologies"
)

// isTreeKind reports whether ftree and dmodk route topology kind: the tree
// families, whose Switch.Coord is [level, index] with the leaves at level 0.
func isTreeKind(kind string) bool {
	return kind == "clos" || kind == "fattree" || kind == "xgft"
}

// newTreeRouting builds dmodk or ftree on a tree family (clos, fattree,
// xgft). A packet for host d climbs until it reaches a switch above d's
// leaf (the nearest common ancestor level), then goes down. Up ports of a
// switch are its links to higher levels, in port order; down ports those
// to lower levels whose subtree holds d's leaf.
//
//   - dmodk: at level l the up port is number ⌊d / (u_0·…·u_{l−1})⌋ mod
//     u_l of the u_l up ports (u_j the up ports of the first switch of
//     level j; D-mod-k of Zahavi), and the down port number d mod k of the
//     k down ports toward d's leaf (k > 1 only with parallel links).
//   - ftree: like OpenSM's ftree, one down path per destination from the
//     top, chosen link by link by the fewest destinations so far, which
//     the other switches' up entries lead into (see ftreeRoutes).
//
// Paths go up then down only, so one VL suffices (no channel dependency
// cycle), and they are minimal.
func newTreeRouting(name string, net *topologies.Network, vls int) (*Tables, error) {
	return newTreeRoutingRoots(name, net, vls, nil)
}

// newTreeRoutingRoots is newTreeRouting with the top switches given (a
// root GUID file, as OpenSM's ftree takes with -a): a switch's level is
// the top level less its distance from the nearest root, so the roots are
// the top and every switch at the largest distance a leaf.
func newTreeRoutingRoots(name string, net *topologies.Network, vls int, roots []int) (*Tables, error) {
	return newTreeRoutingOpt(name, net, vls, roots, ftreeOptions{})
}

// newTreeRoutingOpt is newTreeRoutingRoots with ftree's compute and I/O
// node lists: with compute nodes given, only they must be on leaves.
func newTreeRoutingOpt(name string, net *topologies.Network, vls int, roots []int, opt ftreeOptions) (*Tables, error) {
	n := len(net.Switches)
	level := make([]int32, n)
	if roots != nil {
		if why := rootTreeLevels(net, roots, level, opt.cn); why != "" {
			return nil, keyerr.New("roots", "routing %s: the roots do not make the network a fat tree (%s)", name, why)
		}
	} else if isTreeKind(net.Kind) {
		for s, sw := range net.Switches {
			if len(sw.Coord) < 1 {
				return nil, keyerr.New("algorithm", "routing %s: switch %d has no level coordinate", name, s)
			}
			level[s] = sw.Coord[0]
		}
	} else if why := detectTreeLevels(net, level); why != "" {
		return nil, keyerr.New("algorithm", "routing %s applies to the tree families (clos, fattree, xgft) and to fat trees read from a file, not to topology %s (%s); use minhop, updn or sssp there", name, net.Kind, why)
	}
	top := int32(0)
	for _, l := range level {
		top = max(top, l)
	}
	// Leaves below each switch, as bitsets over switch indices of level 0.
	words := (n + 63) / 64
	below := make([]uint64, n*words)
	order := make([]int, n)
	for s := range order {
		order[s] = s
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(level[a] - level[b]) })
	for _, s := range order {
		if level[s] == 0 {
			below[s*words+s/64] |= 1 << (s % 64)
		}
		for _, p := range net.Switches[s].Ports {
			if p.Kind == topologies.SwitchPort && level[p.Peer] < level[s] {
				for w := range words {
					below[s*words+w] |= below[int(p.Peer)*words+w]
				}
			}
		}
	}
	// Divisors of dmodk: products of the up-port counts of lower levels.
	div := make([]int, top+2)
	div[0] = 1
	for l := int32(0); l <= top; l++ {
		u := 0
		for s := range n {
			if level[s] == l {
				for _, p := range net.Switches[s].Ports {
					if p.Kind == topologies.SwitchPort && level[p.Peer] > l {
						u++
					}
				}
				break
			}
		}
		div[l+1] = div[l] * max(u, 1)
	}
	t := newTables(name, net, vls)
	load := make([][]int32, n)
	for s, sw := range net.Switches {
		load[s] = make([]int32, len(sw.Ports))
	}
	for d, a := range net.Hosts {
		if level[a.Switch] != 0 && (opt.cn == nil || opt.cn[d]) {
			return nil, keyerr.New("algorithm", "routing %s: host %s is on switch %s, which is not a leaf (level 0)", name, net.HostLabel(d), net.SwitchLabel(int(a.Switch)))
		}
	}
	if name == "ftree" {
		if top >= ftreeTupleLen {
			return nil, keyerr.New("algorithm", "routing ftree handles fat trees of at most %d levels (OpenSM's switch indexes have %d bytes), this one has %d", ftreeTupleLen, ftreeTupleLen, top+1)
		}
		ftreeRoutes(t, net, level, opt)
		return t, nil
	}
	var cand []int32
	for d, a := range net.Hosts {
		leaf := int(a.Switch)
		for s, sw := range net.Switches {
			if s == leaf {
				continue
			}
			goDown := below[s*words+leaf/64]&(1<<(leaf%64)) != 0
			cand = cand[:0]
			for pi, p := range sw.Ports {
				if p.Kind != topologies.SwitchPort {
					continue
				}
				if goDown && level[p.Peer] < level[s] && below[int(p.Peer)*words+leaf/64]&(1<<(leaf%64)) != 0 ||
					!goDown && level[p.Peer] > level[s] {
					cand = append(cand, int32(pi))
				}
			}
			if len(cand) == 0 {
				return nil, keyerr.New("algorithm", "routing %s: switch %d has no path toward host %d", name, s, d)
			}
			var port int32
			switch {
			case goDown:
				port = cand[d%len(cand)]
			default:
				port = cand[(d/div[level[s]])%len(cand)]
			}
			load[s][port]++
			t.lft[s*t.hosts+d] = uint16(port)
		}
	}
	return t, nil
}

// detectTreeLevels finds the levels of a fat tree given as a plain graph
// (a topology file, an ibnetdiscover import): the switches with hosts are
// the leaves, level 0, and every other switch is at its distance from the
// nearest leaf. It fills level and returns "", or says why net is no fat
// tree: a switch with hosts above level 0, a link within a level, or a
// switch no leaf reaches.
func detectTreeLevels(net *topologies.Network, level []int32) string {
	if len(net.Hosts) == 0 {
		return "no hosts"
	}
	g := newGraph(net)
	var leaves []int
	hasHosts := make([]bool, len(net.Switches))
	for _, a := range net.Hosts {
		if !hasHosts[a.Switch] {
			hasHosts[a.Switch] = true
			leaves = append(leaves, int(a.Switch))
		}
	}
	if !g.bfsFrom(leaves, level, nil) {
		return fmt.Sprintf("switch %d is not connected to the others", unreached(level))
	}
	return sameLevelLink(net, level)
}

// sameLevelLink says which two switches of one level are linked, which a
// fat tree's levels never are, or returns "".
func sameLevelLink(net *topologies.Network, level []int32) string {
	for s, sw := range net.Switches {
		for _, p := range sw.Ports {
			if p.Kind == topologies.SwitchPort && level[p.Peer] == level[s] {
				return fmt.Sprintf("switches %s and %s are linked but on the same level %d", net.SwitchLabel(s), net.SwitchLabel(int(p.Peer)), level[s])
			}
		}
	}
	return ""
}

// rootTreeLevels fills level from the root switches: the top level, the
// largest distance from a root, less each switch's distance from the
// nearest root. It returns "", or says why that is no fat tree: a switch
// no root reaches, a link within a level, or a host above level 0.
func rootTreeLevels(net *topologies.Network, roots []int, level []int32, cn []bool) string {
	g := newGraph(net)
	if !g.bfsFrom(roots, level, nil) {
		return fmt.Sprintf("switch %s reaches no root", net.SwitchLabel(unreached(level)))
	}
	top := int32(0)
	for _, d := range level {
		top = max(top, d)
	}
	for s := range level {
		level[s] = top - level[s]
	}
	if why := sameLevelLink(net, level); why != "" {
		return why
	}
	for h, a := range net.Hosts {
		if level[a.Switch] != 0 && (cn == nil || cn[h]) {
			return fmt.Sprintf("switch %s has hosts but is %d levels above the leaves", net.SwitchLabel(int(a.Switch)), level[a.Switch])
		}
	}
	return ""
}
