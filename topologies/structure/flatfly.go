package structure

import (
	"fmt"

	"netsim/topologies"
)

// FlatFly is the structure of a FlatFly recovered by MapFlatFly.
// Dimensions are numbered in the order their first link appears in the
// link list, and the values of coordinate n in the order of the first
// switch having them, so a complete FlatFly listed switch by switch (as
// FromNetwork does for topologies.FlatFly) gets back its own coordinates.
type FlatFly struct {
	// Dims holds K_n: the number of distinct values of coordinate n among
	// the mapped switches.
	Dims []int
	// Widths holds L_n: the most parallel links found between two switches
	// adjacent in dimension n.
	Widths []int
	// LinkDim holds the dimension of every link of the graph, -1 for links
	// outside the mapped component.
	LinkDim []int
	// Coord holds the coordinates of every switch, nil for switches
	// outside the mapped component.
	Coord [][]int
	// Mapped is the number of switches in the mapped component.
	Mapped int
	// Stray counts the pairs of adjacent switches whose links ε left in a
	// class that is not a dimension (faults took all their triangles and
	// rectangles) and that were placed by their ends' coordinates instead;
	// see MapFlatFly. Their LinkDim is -1 when no single dimension fits.
	Stray int
}

// MapFlatFly recovers the dimensions and coordinates of a FlatFly from the
// link list g with the algorithm of seed 004 §2.1:
//
//   - every class D_i of the equivalence ε on links (see the package
//     documentation) is a
//     dimension i;
//   - for every dimension i an equivalence ε_i on switches is built by the
//     rule "if a link e joins v1 and v2 and e ∈ D_j, then v1 ε_i v2 for all
//     j ≠ i", closed transitively with union-find;
//   - every class of ε_i is one value of coordinate i, so K_i is the number
//     of classes.
//
// One step goes beyond the seed, for faults: a link that lost every
// triangle and rectangle of its dimension forms a class of ε of its own,
// which the rules above would take for a dimension (and, through ε_i,
// merge two values of its true dimension). A class D_i with a link whose
// two ends fall in one class of ε_i cannot be a dimension (a link of
// dimension i changes coordinate i); such classes are set aside, smallest
// first, until none is left, and each of their links is then placed in
// the one dimension in which its ends' coordinates differ (see
// FlatFly.Stray). On a complete FlatFly no class is set aside.
//
// Only the largest connected component is mapped. The error reports an
// invalid graph, or more classes of ε than topologies.MaxDims; it does not
// say the graph is a FlatFly: see Check.
func MapFlatFly(g *Graph) (*FlatFly, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	sg := newSimpleGraph(g)
	class, classes := epsilon(sg, true).labels(nil)
	if classes > topologies.MaxDims {
		return nil, fmt.Errorf("ε has %d link classes, more than the limit of %d dimensions: not a FlatFly", classes, topologies.MaxDims)
	}
	size := make([]int, classes)
	for _, c := range class {
		size[c]++
	}
	dim := make([]int, len(class)) // dimension of every edge, -1 when set aside
	var value [][]int              // value[i][s]: coordinate i of switch s
	var k []int
	for {
		dims := 0
		kept := make([]int, classes) // dimension of each class, -1 if set aside
		for c := range classes {
			kept[c] = -1
			if size[c] > 0 {
				kept[c] = dims
				dims++
			}
		}
		for e, c := range class {
			dim[e] = kept[c]
		}
		value, k = coordinates(sg, dim, dims)
		bad := -1 // smallest class that is not a dimension
		for e, ends := range sg.ends {
			d := dim[e]
			if d >= 0 && value[d][ends[0]] == value[d][ends[1]] {
				if c := class[e]; bad < 0 || size[c] < size[bad] || size[c] == size[bad] && c > bad {
					bad = c
				}
			}
		}
		if bad < 0 {
			break
		}
		size[bad] = 0
	}
	f := &FlatFly{
		Dims:    k,
		Widths:  make([]int, len(k)),
		LinkDim: make([]int, len(g.Links)),
		Coord:   make([][]int, sg.n),
	}
	coords := make([]int, sg.n*len(k))
	for s := range sg.n {
		if sg.inComp[s] {
			f.Mapped++
			c := coords[s*len(k) : (s+1)*len(k) : (s+1)*len(k)]
			for i := range k {
				c[i] = value[i][s]
			}
			f.Coord[s] = c
		}
	}
	for e, ends := range sg.ends {
		if dim[e] < 0 {
			dim[e] = differing(f.Coord[ends[0]], f.Coord[ends[1]])
			f.Stray++
		}
	}
	parallel := make([]int, len(sg.ends))
	for i, e := range sg.linkEdge {
		f.LinkDim[i] = -1
		if e >= 0 {
			f.LinkDim[i] = dim[e]
			parallel[e]++
		}
	}
	for e, p := range parallel {
		if d := dim[e]; d >= 0 {
			f.Widths[d] = max(f.Widths[d], p)
		}
	}
	return f, nil
}

// coordinates builds the relations ε_i for dims dimensions, given the
// dimension of every edge (-1 for edges set aside, which join no
// switches), and returns value[i][s], the class of switch s in ε_i (-1
// outside the component), and K_i, the number of classes of ε_i.
func coordinates(sg *simpleGraph, dim []int, dims int) (value [][]int, k []int) {
	value, k = make([][]int, dims), make([]int, dims)
	for i := range dims {
		eps := newUnionFind(sg.n) // ε_i
		for e, ends := range sg.ends {
			if d := dim[e]; d >= 0 && d != i {
				eps.union(int(ends[0]), int(ends[1]))
			}
		}
		value[i], k[i] = eps.labels(sg.inComp)
	}
	return value, k
}

// differing returns the one index at which a and b differ, or -1 when they
// are equal or differ at several.
func differing(a, b []int) int {
	d := -1
	for i := range a {
		if a[i] != b[i] {
			if d >= 0 {
				return -1
			}
			d = i
		}
	}
	return d
}

// Check reports the first way f fails to be a FlatFly mapping of g: a
// dimension with a single value, a link whose ends differ in another
// coordinate than its dimension's or not in it, or two switches with the
// same coordinates. Faults do not make a correct mapping fail Check.
func (f *FlatFly) Check(g *Graph) error {
	for i, k := range f.Dims {
		if k < 2 {
			return fmt.Errorf("dimension %d has a single coordinate value", i)
		}
	}
	for li, l := range g.Links {
		d := f.LinkDim[li]
		if f.Coord[l.A] == nil {
			continue
		}
		if d < 0 {
			return fmt.Errorf("link %s–%s fits no dimension", g.Names[l.A], g.Names[l.B])
		}
		a, b := f.Coord[l.A], f.Coord[l.B]
		for i := range f.Dims {
			if (a[i] != b[i]) != (i == d) {
				return fmt.Errorf("link %s–%s of dimension %d: coordinates %v and %v", g.Names[l.A], g.Names[l.B], d, a, b)
			}
		}
	}
	seen := make(map[string]int)
	for s, c := range f.Coord {
		if c == nil {
			continue
		}
		key := fmt.Sprint(c)
		if t, ok := seen[key]; ok {
			return fmt.Errorf("switches %s and %s both have coordinates %v", g.Names[t], g.Names[s], c)
		}
		seen[key] = s
	}
	return nil
}
