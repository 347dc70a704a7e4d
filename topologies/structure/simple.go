package structure

import "slices"

// neighbour is one entry of a switch's adjacency list.
type neighbour struct {
	s    int32 // the neighbour switch
	edge int32 // the simple edge joining them
}

// simpleGraph is the simple graph under a link list: one edge per pair of
// adjacent switches, whatever the number of parallel links, restricted to
// the largest connected component.
type simpleGraph struct {
	n        int
	ends     [][2]int32    // switches of each edge, smaller first
	linkEdge []int         // edge of each link, -1 outside the component
	adj      [][]neighbour // adjacency lists sorted by neighbour
	inComp   []bool        // switch is in the largest component
}

// newSimpleGraph builds the simple graph of g's largest connected
// component (the first in switch order on a tie). g must be valid.
func newSimpleGraph(g *Graph) *simpleGraph {
	n := g.Switches()
	cc := newUnionFind(n)
	for _, l := range g.Links {
		cc.union(l.A, l.B)
	}
	best := -1
	for s := range n {
		r := cc.find(s)
		if best < 0 || cc.size[r] > cc.size[best] {
			best = r
		}
	}
	sg := &simpleGraph{n: n, inComp: make([]bool, n), linkEdge: make([]int, len(g.Links)), adj: make([][]neighbour, n)}
	for s := range n {
		sg.inComp[s] = cc.find(s) == best
	}
	index := make(map[[2]int32]int32)
	for i, l := range g.Links {
		sg.linkEdge[i] = -1
		if !sg.inComp[l.A] {
			continue
		}
		key := [2]int32{int32(min(l.A, l.B)), int32(max(l.A, l.B))}
		e, ok := index[key]
		if !ok {
			e = int32(len(sg.ends))
			index[key] = e
			sg.ends = append(sg.ends, key)
			sg.adj[l.A] = append(sg.adj[l.A], neighbour{int32(l.B), e})
			sg.adj[l.B] = append(sg.adj[l.B], neighbour{int32(l.A), e})
		}
		sg.linkEdge[i] = int(e)
	}
	for s := range sg.adj {
		slices.SortFunc(sg.adj[s], func(a, b neighbour) int { return int(a.s - b.s) })
	}
	return sg
}
