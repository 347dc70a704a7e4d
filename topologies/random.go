package topologies

import (
	"slices"

	"netsim/kernel"
	"netsim/keyerr"
)

// randomTries bounds the rejection-sampling draws per link of a random
// topology before the remaining candidate pairs are listed explicitly.
const randomTries = 64

// Random returns a connected random topology (as seed 002's: e.g. 64
// switches with 16 hosts each and 128 links): switches switches with c
// hosts each, joined by links links, no two between the same pair of
// switches and none from a switch to itself; with ports > 0 no switch has
// more than ports ports (hosts included), so at most ports − c links.
//
// Construction, deterministic for a seed (kernel.NewRNG(seed, 0)): a
// random spanning tree first (the switches in a random order, each linked
// to a uniformly chosen earlier one that has a free port), then the
// remaining links between uniformly chosen non-adjacent pairs of switches
// with free ports. When the switches with free ports are all adjacent
// (possible near the degree limit), a random link a–b elsewhere is
// replaced by links from them to a and b (see rewire). It fails, naming
// links, when even that finds no room.
//
// Ports: 0..c-1 are host ports (host = switch·c + port), then one port per
// neighbour in increasing switch order, with Dim = -1. Switch.Coord is nil
// and Network.Bisection 0 (no formula).
//
// Random validates its arguments like Build does for the keys switches,
// hosts_per_switch, links, ports (0: no limit) and seed.
func Random(switches, c, links, ports int, seed uint64) (*Network, error) {
	return Build(Spec{Kind: "random", Switches: switches, HostsPerSwitch: c, Links: links, Ports: ports, Seed: seed})
}

// buildRandom validates s and builds the random topology it describes.
func buildRandom(s Spec) (*Network, error) {
	if err := checkUsed(s); err != nil {
		return nil, err
	}
	n, c := s.Switches, s.HostsPerSwitch
	if err := checkCount("switches", n, 2, MaxSwitches); err != nil {
		return nil, err
	}
	if err := checkCount("hosts_per_switch", c, 1, MaxHosts); err != nil {
		return nil, err
	}
	limit := n - 1 // links per switch
	if s.Ports != 0 {
		if err := checkCount("ports", s.Ports, c+1, MaxPorts); err != nil {
			return nil, keyerr.Annotate(err, " (hosts_per_switch = %d, and every switch needs a link)", c)
		}
		limit = min(limit, s.Ports-c)
		if limit < 2 && n > 2 {
			return nil, keyerr.New("ports", "%d ports with %d hosts leave %d link per switch, too few to connect %d switches", s.Ports, c, limit, n)
		}
	}
	most := n * limit / 2
	if s.Links < n-1 {
		return nil, keyerr.New("links", "need at least switches − 1 = %d to connect %d switches, got %d", n-1, n, s.Links)
	}
	if s.Links > most {
		return nil, keyerr.New("links", "%d exceeds the %d that %d switches with at most %d links each can have", s.Links, most, n, limit)
	}
	if err := checkTotals(n, c, c, "hosts_per_switch", "hosts_per_switch"); err != nil {
		return nil, err
	}
	if p := n*c + 2*s.Links; p > MaxPorts {
		return nil, keyerr.New("links", "%d links and %d host ports need %d ports, more than the limit of %d", s.Links, n*c, p, MaxPorts)
	}
	adj, err := randomGraph(n, s.Links, limit, s.Seed)
	if err != nil {
		return nil, err
	}
	return fromAdjacency("random", adj, c, 0), nil
}

// randomGraph returns the sorted neighbour lists of a connected simple
// graph of n switches and m links, at most limit links per switch; see
// Random.
func randomGraph(n, m, limit int, seed uint64) ([][]int32, error) {
	rng := kernel.NewRNG(seed, 0)
	adj := make([][]int32, n)
	linked := make(map[[2]int32]bool, m)
	link := func(u, v int) {
		adj[u] = append(adj[u], int32(v))
		adj[v] = append(adj[v], int32(u))
		linked[[2]int32{int32(min(u, v)), int32(max(u, v))}] = true
	}
	// free lists the switches with a free port; pos[s] is s's place in it.
	free := make([]int32, 0, n)
	pos := make([]int, n)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	// use records one more link on s and drops s from free when full.
	use := func(s int) {
		if len(adj[s]) < limit {
			return
		}
		i := pos[s]
		last := free[len(free)-1]
		free[i], pos[last] = last, i
		free = free[:len(free)-1]
		pos[s] = -1
	}
	for k, s := range order {
		if k > 0 {
			peer := int(free[rng.IntN(len(free))]) // an earlier switch: free holds only those
			link(s, peer)
			use(peer)
		}
		pos[s] = len(free)
		free = append(free, int32(s))
		use(s)
	}
	for placed := n - 1; placed < m; placed++ {
		u, v, ok := -1, -1, false
		for range randomTries {
			if len(free) < 2 {
				break
			}
			u, v = int(free[rng.IntN(len(free))]), int(free[rng.IntN(len(free))])
			if ok = u != v && !linked[[2]int32{int32(min(u, v)), int32(max(u, v))}]; ok {
				break
			}
		}
		if !ok {
			var pairs [][2]int
			for i, a := range free {
				for _, b := range free[i+1:] {
					if !linked[[2]int32{min(a, b), max(a, b)}] {
						pairs = append(pairs, [2]int{int(a), int(b)})
					}
				}
			}
			if len(pairs) == 0 {
				if !rewire(&rng, adj, linked, free, limit) {
					return nil, keyerr.New("links", "only %d of %d links fit within the limit of %d links per switch", placed, m, limit)
				}
				for _, s := range slices.Clone(free) {
					use(int(s))
				}
				continue
			}
			p := pairs[rng.IntN(len(pairs))]
			u, v = p[0], p[1]
		}
		link(u, v)
		use(u)
		use(v)
	}
	for s := range adj {
		slices.Sort(adj[s])
	}
	return adj, nil
}

// rewire adds one link when the switches with free ports are all adjacent
// to each other: for free switches u and v (u = v when it has two free
// ports), it takes a random link a–b with a, b ∉ {u, v}, u not adjacent
// to a and v not adjacent to b, and replaces it with u–a and v–b. Degrees
// of a and b stay the same, and the graph stays connected (a and b each
// reach u or v, which are linked to one of them). It reports false when
// no such link exists.
func rewire(rng *kernel.RNG, adj [][]int32, linked map[[2]int32]bool, free []int32, limit int) bool {
	key := func(a, b int32) [2]int32 { return [2]int32{min(a, b), max(a, b)} }
	var u, v int32
	switch {
	case len(free) >= 2:
		u, v = free[0], free[1]
	case len(free) == 1 && len(adj[free[0]]) <= limit-2:
		u, v = free[0], free[0]
	default:
		return false
	}
	var cands [][2]int32
	for a := range adj {
		for _, b := range adj[a] {
			a := int32(a)
			if a == u || a == v || b == u || b == v {
				continue
			}
			for _, e := range [][2]int32{{a, b}, {b, a}} {
				if !linked[key(u, e[0])] && !linked[key(v, e[1])] {
					cands = append(cands, e)
				}
			}
		}
	}
	if len(cands) == 0 {
		return false
	}
	e := cands[rng.IntN(len(cands))]
	a, b := e[0], e[1]
	drop := func(x, y int32) {
		i := slices.Index(adj[x], y)
		adj[x] = slices.Delete(adj[x], i, i+1)
	}
	drop(a, b)
	drop(b, a)
	delete(linked, key(a, b))
	for _, l := range [][2]int32{{u, a}, {v, b}} {
		adj[l[0]] = append(adj[l[0]], l[1])
		adj[l[1]] = append(adj[l[1]], l[0])
		linked[key(l[0], l[1])] = true
	}
	return true
}
