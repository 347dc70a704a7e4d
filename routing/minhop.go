package routing

import (
	"cmp"
	"math/bits"
	"slices"

	"netsim/keyerr"
	"netsim/topologies"
)

// newMinHop builds OpenSM's MinHop on any connected network: for every
// destination host, each switch takes a port to a neighbour one hop closer
// to the destination's switch; among those it takes the port that carries
// the fewest destinations so far (ties: the lowest port). This balances
// the routes locally per switch. Destinations come in index order, or,
// on a network imported from ibnetdiscover (net.IB), in OpenSM's order
// (OpenSMOrder), so that the tables are OpenSM's entry for entry. It uses
// one layer and is not deadlock-free in general (a ring or torus has
// cyclic channel dependencies).
func newMinHop(net *topologies.Network, vls int) (*Tables, error) {
	return newMinHopTables("minhop", net, vls, false)
}

// newPortOrderDOR builds OpenSM's dor engine, for a network without a
// dimension-order routing of its own (no coordinates, such as an
// ibnetdiscover import): each switch sends each destination toward the
// neighbour one hop closer that its lowest-numbered such port leads to,
// balancing over the parallel links to that neighbour as minhop does.
// OpenSM numbers a mesh's ports by dimension, so on a mesh or torus cabled
// that way this is dimension-order routing. It uses one layer and, on a
// torus, is not deadlock-free.
func newPortOrderDOR(net *topologies.Network, vls int) (*Tables, error) {
	return newMinHopTables("dor", net, vls, true)
}

// newMinHopTables builds minhop, or with first the port-order dor.
func newMinHopTables(name string, net *topologies.Network, vls int, first bool) (*Tables, error) {
	g := newGraph(net)
	t := newTables(name, net, vls)
	load := make([]int32, g.channels())
	dist := make([]int32, g.n)
	var queue []int32
	distSw := int32(-1)
	for _, d := range OpenSMOrder(net) {
		a := net.Hosts[d]
		if a.Switch != distSw {
			if !g.bfs(int(a.Switch), dist, queue) {
				return nil, keyerr.New("algorithm", "routing %s: network is disconnected (switch %d cannot reach switch %d)", name, unreached(dist), a.Switch)
			}
			distSw = a.Switch
		}
		for s := range g.n {
			if int32(s) == a.Switch {
				continue
			}
			best := int32(-1)
			for c := g.chStart[s]; c < g.chStart[s+1]; c++ {
				if dist[g.chTo[c]] != dist[s]-1 || first && best >= 0 && g.chTo[c] != g.chTo[best] {
					continue
				}
				if best < 0 || load[c] < load[best] {
					best = c
				}
			}
			load[best]++
			t.lft[s*t.hosts+int(d)] = uint16(g.chPort[best])
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

// OpenSMOrder returns the hosts of net in the order in which OpenSM's
// unicast manager routes end ports when no guid_routing_order_file is
// given: switches by the number of end ports attached, most first, ties
// by GUID as OpenSM's GUID tables sort them (the GUID's bytes in network
// order read as a little-endian number), and each switch's end ports by
// port number. On a network without InfiniBand identities (net.IB nil)
// it is the index order.
func OpenSMOrder(net *topologies.Network) []int32 {
	order := make([]int32, len(net.Hosts))
	for h := range order {
		order[h] = int32(h)
	}
	x := newIBIndex(net)
	if x == nil {
		return order
	}
	attached := make([]int, len(net.Switches))
	key := make([]uint64, len(net.Switches))
	for _, a := range net.Hosts {
		attached[a.Switch]++
	}
	for s, g := range x.swGUID {
		key[s] = bits.ReverseBytes64(g)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		ha, hb := net.Hosts[a], net.Hosts[b]
		sa, sb := ha.Switch, hb.Switch
		switch {
		case attached[sa] != attached[sb]:
			return cmp.Compare(attached[sb], attached[sa])
		case key[sa] != key[sb]:
			return cmp.Compare(key[sa], key[sb])
		case sa != sb:
			return cmp.Compare(sa, sb)
		}
		return cmp.Compare(ha.Port, hb.Port)
	})
	return order
}
