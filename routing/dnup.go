package routing

import (
	"netsim/keyerr"
	"netsim/topologies"
)

// Directions of a step of OpenSM's DN/UP hop search.
const (
	dnupUp = iota
	dnupDown
	dnupEqual
)

// newDnUp builds OpenSM's dnup (Down/Up) routing: switches with an end
// port (a host) have rank 0 and the others their BFS distance from the
// nearest of those; a packet may climb away from the hosts' switches and
// then descend towards them, never descend and then climb, and moves
// between switches of equal rank are free. The hop counts come from
// OpenSM's own search (dnupHops), ports are chosen as minhop chooses them
// (fewest destinations so far, ties the lowest port, destinations in
// OpenSM's order), so the tables are OpenSM's entry for entry. Switches
// the rule leaves without a path to a destination get no entry: refused,
// or with partial accepted as unreachable pairs (Partial), as OpenSM
// writes them. One layer.
func newDnUp(net *topologies.Network, vls int, partial bool, lmc int) (*Tables, error) {
	if err := lmcFits("dnup", net, lmc); err != nil {
		return nil, err
	}
	g := newGraph(net)
	rank := make([]int32, g.n)
	var leaves []int
	for s, sw := range net.Switches {
		for _, p := range sw.Ports {
			if p.Kind == topologies.HostPort {
				leaves = append(leaves, s)
				break
			}
		}
	}
	if len(leaves) == 0 {
		return nil, keyerr.New("algorithm", "routing dnup: no switch has a host (dnup ranks switches from those that do)")
	}
	if !g.bfsFrom(leaves, rank, nil) {
		return nil, keyerr.New("algorithm", "routing dnup: network is disconnected (switch %s reaches no switch with hosts)", net.SwitchLabel(unreached(rank)))
	}
	t := newTables("dnup", net, vls)
	t.setPaths(1 << lmc)
	hops := make([]uint8, g.channels()) // hops[c]: hops to the destination switch by channel c
	search := newDnUpSearch(g, rank)
	load := make([]int32, g.channels())
	var cand, prev []int32
	for k := range t.paths {
		ent := t.entries(k)
		distSw := int32(-1)
		for _, d := range OpenSMOrder(net) {
			a := net.Hosts[d]
			if a.Switch != distSw {
				search.run(int(a.Switch), hops)
				distSw = a.Switch
			}
			for s := range g.n {
				if int32(s) == a.Switch {
					continue
				}
				least := uint8(noHops)
				for c := g.chStart[s]; c < g.chStart[s+1]; c++ {
					least = min(least, hops[c])
				}
				cand = cand[:0]
				for c := g.chStart[s]; c < g.chStart[s+1]; c++ {
					if least != noHops && hops[c] == least {
						cand = append(cand, c)
					}
				}
				var best int32
				best, prev = t.pickPort(g, net, s, int(d), k, cand, load, prev)
				if best < 0 && partial {
					continue
				}
				if best < 0 {
					return nil, keyerr.New("algorithm", "routing dnup: switch %s has no down/up path to switch %s (unreachable = \"skip\" accepts such tables)", net.SwitchLabel(s), net.SwitchLabel(int(a.Switch)))
				}
				load[best]++
				ent[s*t.hosts+int(d)] = uint16(g.chPort[best])
			}
		}
	}
	return t, nil
}

// noHops marks a channel without a legal path.
const noHops = 0xFF

// dnupSearch is OpenSM's per-destination search of DN/UP hop counts, kept
// with its buffers.
type dnupSearch struct {
	g       *graph
	rank    []int32
	dir     []uint8
	visited []bool
	queue   []int32
}

func newDnUpSearch(g *graph, rank []int32) *dnupSearch {
	return &dnupSearch{g: g, rank: rank, dir: make([]uint8, g.n), visited: make([]bool, g.n)}
}

// run fills hops[c], for every channel c, with the hops to switch t of a
// packet leaving by c, or noHops, as OpenSM's dnup search finds them: a
// breadth-first search from t that relaxes the hop count of the channel
// into the switch it reaches, in port order, following a step from u to
// a neighbour v (a packet's hop v→u) unless it reaches u going up — away
// from the hosts' switches, in the search's direction — and would go down
// next. A switch is queued again when its count improves after it left
// the queue; its direction is the one of the step that queued it.
func (d *dnupSearch) run(t int, hops []uint8) {
	g := d.g
	for i := range hops {
		hops[i] = noHops
	}
	least := func(u int32) uint8 {
		if int(u) == t {
			return 0
		}
		h := uint8(noHops)
		for c := g.chStart[u]; c < g.chStart[u+1]; c++ {
			h = min(h, hops[c])
		}
		return h
	}
	clear(d.visited)
	d.dir[t] = dnupDown
	d.queue = append(d.queue[:0], int32(t))
	for head := 0; head < len(d.queue); head++ {
		u := d.queue[head]
		d.visited[u] = false
		for c := g.chStart[u]; c < g.chStart[u+1]; c++ {
			v := g.chTo[c]
			next := dnupDir(d.rank[u], d.rank[v])
			if d.dir[u] == dnupUp && next == dnupDown {
				continue
			}
			h := least(u)
			back := g.chRev[c] // the channel v→u
			if h == noHops || h+1 >= hops[back] {
				continue
			}
			hops[back] = h + 1
			if !d.visited[v] {
				d.dir[v], d.visited[v] = next, true
				d.queue = append(d.queue, v)
			}
		}
	}
}

// dnupDir is the direction of a search step from a switch of rank cur to
// one of rank rem.
func dnupDir(cur, rem int32) uint8 {
	switch {
	case cur == rem:
		return dnupEqual
	case cur < rem:
		return dnupDown
	}
	return dnupUp
}
