package structure

// Dragonfly is the structure of a Dragonfly recovered by MapDragonfly.
// Groups are numbered in the order of their first switch.
type Dragonfly struct {
	// Group holds the group of every switch, -1 for switches outside the
	// mapped component.
	Group []int
	// Groups is the number of groups found.
	Groups int
	// Local says, for every link of the graph, whether it is a local link
	// (inside a group); false for global links and links outside the
	// mapped component.
	Local []bool
	// Mapped is the number of switches in the mapped component.
	Mapped int
}

// MapDragonfly recovers the groups of a Dragonfly from the link list g
// with the algorithm of seed 004 §2.2: it builds the same equivalence ε as
// MapFlatFly; every class of ε containing more than one edge (pair of
// adjacent switches; parallel links count once) is the set of local links
// of one group, and all other links are global. A group is then a set of
// switches joined by local links; a switch left without local links by
// faults forms a group of its own. Only the largest connected component is
// mapped.
func MapDragonfly(g *Graph) (*Dragonfly, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	sg := newSimpleGraph(g)
	class, classes := epsilon(sg).labels(nil)
	edges := make([]int, classes)
	for _, c := range class {
		edges[c]++
	}
	groups := newUnionFind(sg.n)
	for e, ends := range sg.ends {
		if edges[class[e]] > 1 {
			groups.union(int(ends[0]), int(ends[1]))
		}
	}
	d := &Dragonfly{Local: make([]bool, len(g.Links))}
	d.Group, d.Groups = groups.labels(sg.inComp)
	for _, in := range sg.inComp {
		if in {
			d.Mapped++
		}
	}
	for i, e := range sg.linkEdge {
		d.Local[i] = e >= 0 && edges[class[e]] > 1
	}
	return d, nil
}
