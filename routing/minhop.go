package routing

import (
	"netsim/keyerr"
	"netsim/topologies"
)

// newMinHop builds OpenSM's MinHop on any connected network: for every
// destination host, each switch takes a port to a neighbour one hop closer
// to the destination's switch; among those it takes the port that carries
// the fewest destinations so far (ties: the lowest port), destinations in
// index order. This balances the routes locally per switch. It uses one
// layer and is not deadlock-free in general (a ring or torus has cyclic
// channel dependencies).
func newMinHop(net *topologies.Network, vls int) (*Tables, error) {
	g := newGraph(net)
	t := newTables("minhop", net, vls)
	load := make([]int32, g.channels())
	dist := make([]int32, g.n)
	var queue []int32
	distSw := int32(-1)
	for d, a := range net.Hosts {
		if a.Switch != distSw {
			if !g.bfs(int(a.Switch), dist, queue) {
				return nil, keyerr.New("algorithm", "routing minhop: network is disconnected (switch %d cannot reach switch %d)", unreached(dist), a.Switch)
			}
			distSw = a.Switch
		}
		for s := range g.n {
			if int32(s) == a.Switch {
				continue
			}
			best := int32(-1)
			for c := g.chStart[s]; c < g.chStart[s+1]; c++ {
				if dist[g.chTo[c]] == dist[s]-1 && (best < 0 || load[c] < load[best]) {
					best = c
				}
			}
			load[best]++
			t.lft[s*t.hosts+d] = uint16(g.chPort[best])
		}
	}
	return t, nil
}

// unreached returns the first switch of a BFS distance table not reached.
func unreached(dist []int32) int {
	for s, d := range dist {
		if d < 0 {
			return s
		}
	}
	return -1
}
