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
	return newMinHopTables("minhop", net, vls, false, 0)
}

// newMinHopLMC builds minhop with 2^lmc LIDs per host, as OpenSM's minhop
// run with -l lmc: LID offset 0 as newMinHop, each further one per switch
// by lmcChoice, the port loads counting every LID. A NIC chooses among
// the LIDs by its [nic] dispersion (Multipath).
func newMinHopLMC(net *topologies.Network, vls, lmc int) (*Tables, error) {
	return newMinHopTables("minhop", net, vls, false, lmc)
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
	return newMinHopTables("dor", net, vls, true, 0)
}

// newMinHopTables builds minhop, or with first the port-order dor, with
// 2^lmc LIDs per host (minhop only).
func newMinHopTables(name string, net *topologies.Network, vls int, first bool, lmc int) (*Tables, error) {
	if err := lmcFits(name, net, lmc); err != nil {
		return nil, err
	}
	g := newGraph(net)
	t := newTables(name, net, vls)
	t.setPaths(1 << lmc)
	load := make([]int32, g.channels())
	dist := make([]int32, g.n)
	var queue, cand, prev []int32
	order := OpenSMOrder(net)
	for k := range t.paths {
		ent := t.entries(k)
		distSw := int32(-1)
		for _, d := range order {
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
				cand = cand[:0]
				for c := g.chStart[s]; c < g.chStart[s+1]; c++ {
					// dor (first): only the links to the neighbour of the
					// lowest min-hop port.
					if dist[g.chTo[c]] == dist[s]-1 && !(first && len(cand) > 0 && g.chTo[c] != g.chTo[cand[0]]) {
						cand = append(cand, c)
					}
				}
				var best int32
				best, prev = t.pickPort(g, net, s, int(d), k, cand, load, prev)
				load[best]++
				ent[s*t.hosts+int(d)] = uint16(g.chPort[best])
			}
		}
	}
	return t, nil
}

// pickPort is OpenSM's choice (osm_switch_recommend_path) of the channel
// switch s sends LID offset k of host d on, among cand, the engine's
// least-hop channels of s in port order: for the base LID the least
// loaded, ties to the first; for a further LID (LMC > 0) lmcChoice, given
// the channels of d's earlier LIDs at s. It returns −1 when cand is empty,
// or when the base LID has no entry there (the further LIDs then have
// none either). prev is a buffer.
func (t *Tables) pickPort(g *graph, net *topologies.Network, s, d, k int, cand []int32, load []int32, prev []int32) (int32, []int32) {
	if len(cand) == 0 {
		return -1, prev
	}
	if k == 0 {
		best := cand[0]
		for _, c := range cand[1:] {
			if load[c] < load[best] {
				best = c
			}
		}
		return best, prev
	}
	prev = prev[:0]
	for j := range k {
		p := t.entries(j)[s*t.hosts+d]
		if p == noPort {
			return -1, prev
		}
		prev = append(prev, g.chOf[s][p])
	}
	return lmcChoice(g, net, s, cand, load, prev), prev
}

// lmcChoice is OpenSM's choice of the channel of switch s for a further
// LID of a destination whose earlier LIDs s sends on the channels prev
// (in LID order): among cand, scanned from the port after the previous
// LID's round the switch, the least loaded that leads to a switch none of
// the earlier LIDs went to; when every one leads to such a switch, the
// least loaded, ties to the one through whose switch fewer earlier LIDs
// went, then to the first scanned. Each switch is taken as its own
// system (InfiniBand's system image GUID), as on ibsim.
func lmcChoice(g *graph, net *topologies.Network, s int, cand []int32, load []int32, prev []int32) int32 {
	n := len(net.Switches[s].Ports) + 1 // InfiniBand ports 0..n−1
	forwarded := func(c int32) int {
		f := 0
		for _, pc := range prev {
			if g.chTo[pc] == g.chTo[c] {
				f++
			}
		}
		return f
	}
	start := int(g.chPort[prev[len(prev)-1]]) + 2 // the InfiniBand port after the previous LID's
	best, other := int32(-1), int32(-1)
	leastFwd := -1
	for i := start; i < start+n; i++ {
		ib := i % n
		if ib == 0 {
			continue
		}
		c := g.chOf[s][ib-1]
		if c < 0 || !slices.Contains(cand, c) {
			continue
		}
		fwd := forwarded(c)
		if fwd == 0 {
			if other < 0 || load[c] < load[other] {
				other = c
				leastFwd = 0
			}
		}
		switch {
		case best < 0 || load[c] < load[best]:
			best = c
			if fwd > 0 && (leastFwd < 0 || fwd < leastFwd) {
				leastFwd = fwd
			}
		case fwd > 0 && load[c] == load[best] && (leastFwd < 0 || fwd < leastFwd):
			leastFwd = fwd
			best = c
		}
	}
	if other >= 0 {
		return other
	}
	return best
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
