package structure

import (
	"cmp"
	"slices"
)

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
	// GroupSize is K found: the most switches in one group.
	GroupSize int
	// GlobalPerSwitch is G found: the most global links on one switch.
	GlobalPerSwitch int
	// Rejoined counts the mapped switches step 7 added to a group found
	// by steps 1–5: those of every group but its largest part from steps
	// 1–5. On a complete Dragonfly it is 0.
	Rejoined int
	// Model is what the mapping assumed: K, G and the number of groups,
	// given or inferred, and the fault rates it estimated.
	Model DragonflyModel
}

// MapDragonfly recovers the groups of a Dragonfly from the link list g.
// The seed's algorithm (004 §2.2) builds the equivalence ε of MapFlatFly;
// every class containing more than one edge is the set of local links of
// one group, and all other links are global. Taken literally this merges
// groups: in every standard arrangement of global links (absolute,
// relative, palm-tree) rule 4 puts global links into classes of more than
// one edge — rectangles of global links, and in the relative and
// palm-tree arrangements rectangles of three global links and one local
// link, which join a group's local links to global ones — so a complete
// Dragonfly with K = 16, G = 8 comes out as a single group. So the mapping
// is:
//
//  1. ε is built from rules 1–3 of the seed only (links, parallel links,
//     triangles; see the package documentation). A group is a complete
//     graph, so its local links are joined by its triangles (groups need
//     K ≥ 3), while a global link lies in a triangle only when global
//     links close one.
//  2. As in the seed, every class of more than one edge (pair of adjacent
//     switches; parallel links count once) is a candidate set of local
//     links.
//  3. A switch lies in one group, so candidates sharing a switch compete:
//     while some candidate has fewer than half of its switches to itself
//     (touching no other candidate), the one with the smallest such share
//     is set aside (its links are global). This removes the complete
//     graphs that global links form in the absolute arrangement (switch r
//     of groups r·G … r·G+G), every switch of which also lies in its own
//     group's class.
//  4. A group is a set of switches joined by local links; a switch with
//     none is a group of its own.
//  5. For faults: the Dragonfly joins two groups by at most one global
//     link, so two groups found joined by two or more edges are one group
//     cut apart by missing switches or links, and are merged, repeatedly,
//     as long as the merged group is no larger than the largest group
//     found (which keeps one wrong merge from cascading).
//
// Steps 1–5 are exact on a complete Dragonfly, but faults leave groups
// they cannot rejoin: a switch with one local link left (in no triangle),
// a small group whose links form a ring without diagonals, a switch with
// no local link at all. With 40 % of the switches and 10 % of the links
// missing, 12–16 % of the fault draws on the seed's network leave such a
// group split. Two more steps rejoin them, using only the link list and
// the invariants of the family:
//
//  6. The shape — K, G and the number of groups — is taken from
//     MapDragonflyShape's argument where given and otherwise inferred
//     from the groups of step 5, and the fault rates are estimated (see
//     DragonflyModel; Dragonfly.Model records what was used). In a small
//     network the local links of the groups steps 1–5 left split weigh
//     enough to skew the inferred shape, so once step 7 has run, the
//     shape is inferred again from its groups, and if it changed, step 7
//     is run again from the groups of step 5 (three rounds at most).
//  7. Groups are merged and switches moved between groups to raise the
//     likelihood of the grouping under random faults
//     (DragonflyModel.Score), every step kept within the invariants: a
//     group holds at most K switches, two groups share at most one link,
//     a switch has at most G global links (K−1 local ones follow from the
//     group size). First the invariants force merges, even at a loss:
//     groups sharing two or more links; when G is given, a switch with
//     more than G links to other groups is merged with one of its
//     neighbours' groups; when the number of groups is given, groups are
//     merged down to it. Then, greedily, the pair of groups whose merge
//     raises the score most is merged, as long as one does: pairs joined
//     by a link, and a single switch with a group it has no link to (a
//     switch that kept no local link has no other way back). A merge
//     that would leave the merged group sharing two links with a third
//     group takes that group in too (so a ring of single switches is
//     found whole), and is made only if it still raises the score. Then
//     every switch moves to the group where it raises the score most,
//     which undoes a merge of two switches of different groups made
//     before either found its own. Merging and moving repeat until
//     neither raises the score. The score mostly weighs group sizes — a
//     group keeps a binomial number of its K switches, so groups of one
//     or two switches are very unlikely — and then links: a link is K²
//     times likelier inside a group than between two groups, and an
//     unlinked pair inside a group costs the odds of a missing local
//     link. Step 7 is skipped when steps 1–5 leave more than half of the
//     switches alone: there are no groups to repair (a torus or a
//     hypercube mapped as a Dragonfly), and merging switches one by one
//     would take time quadratic in their number.
//  8. A link between two switches of one group is local (a group is a
//     complete graph); every other link is global.
//
// On the seed's network with 40 % of the switches and 10 % of the links
// missing, 2,992 of 3,000 fault draws (1,000 per arrangement) are mapped
// exactly, against 2,566 by steps 1–5 alone. The other 8 are ambiguous
// from the link list: another grouping keeps every invariant and is at
// least as likely as the truth — say a switch that kept one local link,
// to a group of five, and one global link, to another group of five; or
// a switch that kept no local link, which fits any group with room that
// shares no neighbour group with it. Only the largest connected
// component is mapped; the error reports an invalid graph or shape.
// Check tells whether the mapping keeps every invariant.
func MapDragonfly(g *Graph) (*Dragonfly, error) {
	return MapDragonflyShape(g, DragonflyShape{})
}

// MapDragonflyShape is MapDragonfly knowing the fields of shape that are
// set (non-zero): the group size K and the global links per switch G
// bound every group and switch, and the number of groups bounds the
// groups found (step 7 merges down to it). Unset fields are inferred, and
// only shape the score.
func MapDragonflyShape(g *Graph, shape DragonflyShape) (*Dragonfly, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if err := shape.validate(); err != nil {
		return nil, err
	}
	sg := newSimpleGraph(g)
	seeded, n := seedGroups(sg)
	model := estimate(sg, seeded, n, shape)
	var r *regrouping
	for round := 1; ; round++ {
		r = newRegrouping(sg, slices.Clone(seeded), n, model, shape)
		if r.repairable() {
			r.run()
		}
		next := estimate(sg, r.group, n, shape)
		if next.DragonflyShape == model.DragonflyShape || round == maxShapeRounds {
			break
		}
		model = next
	}
	group := r.group

	d := &Dragonfly{Local: make([]bool, len(g.Links)), Model: model}
	d.Group, d.Groups = group, r.labels()
	d.Rejoined = rejoined(group, seeded)
	sizes := make([]int, d.Groups)
	for _, grp := range d.Group {
		if grp >= 0 {
			d.Mapped++
			sizes[grp]++
		}
	}
	d.GroupSize = slices.Max(append(sizes, 0))
	for i, l := range g.Links {
		d.Local[i] = d.Group[l.A] >= 0 && d.Group[l.A] == d.Group[l.B]
	}
	for s, nbs := range sg.adj {
		global := 0
		for _, nb := range nbs {
			if d.Group[nb.s] != d.Group[s] {
				global++
			}
		}
		d.GlobalPerSwitch = max(d.GlobalPerSwitch, global)
	}
	return d, nil
}

// maxShapeRounds bounds the rounds of steps 6 and 7 of MapDragonfly.
const maxShapeRounds = 3

// seedGroups returns the groups of steps 1–5 of MapDragonfly: the group
// of every switch of sg (-1 outside the component), numbered in the order
// of their first switch, and their number.
func seedGroups(sg *simpleGraph) ([]int, int) {
	class, classes := epsilon(sg, false).labels(nil)
	local := localClasses(sg, class, classes)
	groups := newUnionFind(sg.n)
	for e, ends := range sg.ends {
		if local[class[e]] {
			groups.union(int(ends[0]), int(ends[1]))
		}
	}
	mergeJoined(sg, groups)
	return groups.labels(sg.inComp)
}

// localClasses returns, for every class of ε, whether it is taken as the
// local links of a group (steps 2 and 3 of MapDragonfly).
func localClasses(sg *simpleGraph, class []int, classes int) []bool {
	edges := make([]int, classes)
	for _, c := range class {
		edges[c]++
	}
	local := make([]bool, classes) // the candidates still in the running
	for c := range local {
		local[c] = edges[c] > 1
	}
	touched := make([]int, classes) // switches touching the candidate
	alone := make([]int, classes)   // … and no other candidate
	var seen []int                  // candidates at the current switch
	for {
		clear(touched)
		clear(alone)
		for s := range sg.n {
			seen = seen[:0]
			for _, nb := range sg.adj[s] {
				if c := class[nb.edge]; local[c] && !slices.Contains(seen, c) {
					seen = append(seen, c)
				}
			}
			for _, c := range seen {
				touched[c]++
				if len(seen) == 1 {
					alone[c]++
				}
			}
		}
		worst := -1 // the candidate with the smallest share of its own switches
		for c, ok := range local {
			if !ok {
				continue
			}
			if worst < 0 || alone[c]*touched[worst] < alone[worst]*touched[c] ||
				alone[c]*touched[worst] == alone[worst]*touched[c] && edges[c] < edges[worst] {
				worst = c
			}
		}
		if worst < 0 || 2*alone[worst] >= touched[worst] {
			return local
		}
		local[worst] = false
	}
}

// mergeJoined merges groups joined by two or more edges while the merged
// group is no larger than the largest group before merging (step 5 of
// MapDragonfly). Pairs are merged in a fixed order, so the result does not
// depend on map iteration.
func mergeJoined(sg *simpleGraph, groups *unionFind) {
	limit := int32(0)
	for s := range sg.n {
		if sg.inComp[s] {
			limit = max(limit, groups.size[groups.find(s)])
		}
	}
	joins := make(map[[2]int]int)
	var pairs [][2]int
	for {
		clear(joins)
		pairs = pairs[:0]
		for _, ends := range sg.ends {
			a, b := groups.find(int(ends[0])), groups.find(int(ends[1]))
			if a == b {
				continue
			}
			p := [2]int{min(a, b), max(a, b)}
			if joins[p]++; joins[p] == 2 {
				pairs = append(pairs, p)
			}
		}
		slices.SortFunc(pairs, func(x, y [2]int) int {
			return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1]))
		})
		merged := false
		for _, p := range pairs {
			a, b := groups.find(p[0]), groups.find(p[1])
			if a != b && groups.size[a]+groups.size[b] <= limit {
				groups.union(a, b)
				merged = true
			}
		}
		if !merged {
			return
		}
	}
}

// rejoined returns the number of switches outside the largest part of
// their group (group) that steps 1–5 found (seeded).
func rejoined(group, seeded []int) int {
	parts := make(map[[2]int]int) // (group, seeded group) → switches
	total := 0
	for s, grp := range group {
		if grp >= 0 {
			parts[[2]int{grp, seeded[s]}]++
			total++
		}
	}
	largest := make(map[int]int)
	for p, n := range parts {
		largest[p[0]] = max(largest[p[0]], n)
	}
	for _, n := range largest {
		total -= n
	}
	return total
}
