package routing

import (
	"fmt"

	"netsim/keyerr"
	"netsim/topologies"
)

// updnRoot picks the root of Up*/Down* automatically: the switch of least
// eccentricity (the most central one, as OpenSM's root selection aims at),
// ties broken by the most switch links, then the lowest index. It fails
// when the network is disconnected.
func updnRoot(g *graph) (int, error) {
	dist := make([]int32, g.n)
	var queue []int32
	root, rootEcc, rootDeg := -1, int32(0), int32(0)
	for s := range g.n {
		if !g.bfs(s, dist, queue) {
			return 0, fmt.Errorf("network is disconnected (switch %d cannot reach switch %d)", unreached(dist), s)
		}
		ecc := int32(0)
		for _, d := range dist {
			ecc = max(ecc, d)
		}
		deg := g.chStart[s+1] - g.chStart[s]
		if root < 0 || ecc < rootEcc || ecc == rootEcc && deg > rootDeg {
			root, rootEcc, rootDeg = s, ecc, deg
		}
	}
	return root, nil
}

// newUpDown builds Up*/Down* routing: ranks are the BFS distances from the
// root (updnRoot); a channel u→v goes up when v's rank is lower, or equal
// and v's index lower. Every path is some up hops, then some down hops,
// never down then up, so the channel dependency graph is acyclic and one
// VL suffices.
//
// For each destination switch t, the switches that reach t going only down
// take a shortest all-down path; every other switch takes an up hop to a
// neighbour with the shortest remaining legal distance. The tables are
// destination-based and every path legal: a down hop leads to a switch
// that again goes only down. Among equal choices the port carrying the
// fewest destinations so far wins, as in minhop.
func newUpDown(net *topologies.Network, vls int) (*Tables, error) {
	return newUpDownLMC(net, vls, 0)
}

// newUpDownLMC is newUpDown with 2^lmc LIDs per host (as OpenSM's updn
// with -l): each further LID by lmcChoice among the up*/down* least-hop
// ports.
func newUpDownLMC(net *topologies.Network, vls, lmc int) (*Tables, error) {
	return newUpDownRoots(net, vls, nil, false, lmc)
}

// newUpDownRoots builds Up*/Down* with the given root switches (nil: the
// automatic root), as OpenSM's updn with a root GUID file: ranks are the
// BFS distances from the nearest root. With partial, a switch without an
// up*/down* path to a destination gets no entry (the pair is unreachable,
// as in OpenSM's tables) instead of an error. Between switches of equal rank the
// one with the lower id is up: the lower GUID on an ibnetdiscover import
// (as OpenSM decides), the lower index otherwise.
func newUpDownRoots(net *topologies.Network, vls int, roots []int, partial bool, lmc int) (*Tables, error) {
	if err := lmcFits("updn", net, lmc); err != nil {
		return nil, err
	}
	g := newGraph(net)
	if roots == nil {
		root, err := updnRoot(g)
		if err != nil {
			return nil, keyerr.New("algorithm", "routing updn: %w", err)
		}
		roots = []int{root}
	}
	rank := make([]int32, g.n)
	if !g.bfsFrom(roots, rank, nil) {
		return nil, keyerr.New("roots", "routing updn: switch %s is not connected to any root", net.SwitchLabel(unreached(rank)))
	}
	id := switchIDs(net)
	up := make([]bool, g.channels())
	for u := range g.n {
		for c := g.chStart[u]; c < g.chStart[u+1]; c++ {
			v := g.chTo[c]
			up[c] = rank[v] < rank[u] || rank[v] == rank[u] && id[v] < id[u]
		}
	}
	t := newTables("updn", net, vls)
	t.setPaths(1 << lmc)
	load := make([]int32, g.channels())
	down := make([]int32, g.n) // all-down distance to t, −1 if none
	any := make([]int32, g.n)  // legal distance to t
	var queue, cand, prev []int32
	var buckets [][]int32
	for k := range t.paths {
		ent := t.entries(k)
		for _, d := range OpenSMOrder(net) {
			a := net.Hosts[d]
			tsw := int(a.Switch)
			queue, buckets = updnDistances(g, up, tsw, down, any, queue, buckets)
			for s := range g.n {
				if s == tsw {
					continue
				}
				cand = cand[:0]
				for c := g.chStart[s]; c < g.chStart[s+1]; c++ {
					v := g.chTo[c]
					if down[s] >= 0 && !up[c] && down[v] == down[s]-1 || down[s] < 0 && up[c] && any[v] == any[s]-1 {
						cand = append(cand, c)
					}
				}
				var best int32
				best, prev = t.pickPort(g, net, s, int(d), k, cand, load, prev)
				if best < 0 && partial {
					continue // unreachable: no entry, as OpenSM leaves it
				}
				if best < 0 {
					return nil, keyerr.New("algorithm", "routing updn: switch %s has no up*/down* path to switch %s (with roots that leave pairs unreachable, unreachable = \"skip\" accepts the tables)", net.SwitchLabel(s), net.SwitchLabel(tsw))
				}
				load[best]++
				ent[s*t.hosts+int(d)] = uint16(g.chPort[best])
			}
		}
	}
	return t, nil
}

// switchIDs returns the id by which Up*/Down* orders switches of equal
// rank: the node GUID on an ibnetdiscover import, else the index.
func switchIDs(net *topologies.Network) []uint64 {
	id := make([]uint64, len(net.Switches))
	for s := range id {
		id[s] = uint64(s)
	}
	if x := newIBIndex(net); x != nil {
		for s, g := range x.swGUID {
			if g != 0 {
				id[s] = g
			}
		}
	}
	return id
}

// updnDistances fills down (shortest all-down distance to t, −1 if none)
// and any (distance when switches with an all-down path use it and the
// others go up first) for destination switch t. It returns its buffers
// queue and buckets for the next call.
func updnDistances(g *graph, up []bool, t int, down, any []int32, queue []int32, buckets [][]int32) ([]int32, [][]int32) {
	for i := range down {
		down[i], any[i] = -1, -1
	}
	down[t] = 0
	queue = append(queue[:0], int32(t))
	// A switch u reaches t all-down through a down channel u→v with v in the set.
	for head := 0; head < len(queue); head++ {
		v := queue[head]
		for c := g.chStart[v]; c < g.chStart[v+1]; c++ {
			u := g.chTo[c] // channel v→u; the reverse u→v is down when v→u is up
			if up[c] && down[u] < 0 {
				down[u] = down[v] + 1
				queue = append(queue, u)
			}
		}
	}
	// The others go up first: a BFS by distance (buckets, since the down
	// set starts at different distances) over reversed up channels.
	for i := range buckets {
		buckets[i] = buckets[i][:0]
	}
	for _, v := range queue {
		any[v] = down[v]
		for int(any[v]) >= len(buckets) {
			buckets = append(buckets, nil)
		}
		buckets[any[v]] = append(buckets[any[v]], v)
	}
	for dist := 0; dist < len(buckets); dist++ {
		for i := 0; i < len(buckets[dist]); i++ {
			v := buckets[dist][i]
			if any[v] != int32(dist) {
				continue
			}
			for c := g.chStart[v]; c < g.chStart[v+1]; c++ {
				u := g.chTo[c] // u→v is up when v→u is not
				if !up[c] && down[u] < 0 && (any[u] < 0 || any[u] > int32(dist)+1) {
					any[u] = int32(dist) + 1
					if dist+1 >= len(buckets) {
						buckets = append(buckets, nil)
					}
					buckets[dist+1] = append(buckets[dist+1], u)
				}
			}
		}
	}
	return queue, buckets
}
