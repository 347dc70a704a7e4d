package structure

import (
	"cmp"
	"slices"
)

// epsilon computes the equivalence relation ε of seed 004 §2.1 on the
// edges of sg and returns it as a union-find over edge indices; without
// rect, rule 4 is left out (see MapDragonfly). The seed
// builds ε from four rules and takes their transitive closure with
// union-find:
//
//  1. The two unidirectional links forming one bidirectional link are
//     equivalent. A Link is already bidirectional, so this holds by
//     construction.
//  2. Parallel links joining the same two switches are equivalent. They
//     share one edge of the simple graph, so this holds by construction.
//  3. Three links forming a triangle are equivalent (the seed's text says
//     "three links forming a rectangle"; three links can only close a
//     triangle, and in a FlatFly a triangle lies inside one complete
//     graph K_n, so inside one dimension).
//  4. When four links form a rectangle (a cycle through four distinct
//     switches), opposite sides are equivalent: in a FlatFly a 4-cycle
//     either lies in one dimension or alternates between two.
//
// As in the seed, the work is about n·d² for n switches of degree d: for
// every switch u, every path u–v–x of two edges is visited once; x
// adjacent to u closes a triangle (rule 3), and two paths u–v–x and u–w–x
// with x > u close the rectangle u–v–x–w (rule 4).
func epsilon(sg *simpleGraph, rect bool) *unionFind {
	uf := newUnionFind(len(sg.ends))
	mark := make([]int32, sg.n) // edge u–v + 1 when v is adjacent to u
	var paths []twoPath
	for u := range sg.n {
		if !sg.inComp[u] {
			continue
		}
		for _, nb := range sg.adj[u] {
			mark[nb.s] = nb.edge + 1
		}
		paths = paths[:0]
		for _, v := range sg.adj[u] {
			for _, x := range sg.adj[v.s] {
				if int(x.s) == u {
					continue
				}
				if ux := mark[x.s]; ux > 0 { // rule 3: triangle u–v–x
					uf.union(int(v.edge), int(x.edge))
					uf.union(int(v.edge), int(ux-1))
				}
				if rect && int(x.s) > u {
					paths = append(paths, twoPath{x.s, v.edge, x.edge})
				}
			}
		}
		for _, nb := range sg.adj[u] {
			mark[nb.s] = 0
		}
		slices.SortFunc(paths, func(a, b twoPath) int { return cmp.Compare(a.x, b.x) })
		for i := 0; i < len(paths); {
			j := i + 1
			for j < len(paths) && paths[j].x == paths[i].x {
				j++
			}
			rectangles(uf, paths[i:j])
			i = j
		}
	}
	return uf
}

// twoPath is a path u–v–x of two edges from the switch u being visited.
type twoPath struct {
	x      int32 // the far end
	uv, vx int32 // its edges
}

// rectangles applies rule 4 to the paths u–v_i–x sharing both ends: every
// two of them close the rectangle u–v_i–x–v_j, whose opposite sides
// (u–v_i, v_j–x) and (v_i–x, u–v_j) are equivalent. With three paths or
// more these unions join all 2k sides into one class.
func rectangles(uf *unionFind, ps []twoPath) {
	switch k := len(ps); {
	case k == 2:
		uf.union(int(ps[0].uv), int(ps[1].vx))
		uf.union(int(ps[0].vx), int(ps[1].uv))
	case k > 2:
		first := int(ps[0].uv)
		for _, p := range ps {
			uf.union(first, int(p.uv))
			uf.union(first, int(p.vx))
		}
	}
}
