package topologies

import "netsim/kernel"

// Parameters of the bisection heuristic. The estimate is deterministic: it
// depends only on the graph.
const (
	bisectSeed    = 4  // seed of the heuristic's random streams
	bisectTrials  = 8  // independent multilevel runs; the best cut wins
	coarsestOrder = 64 // coarsening stops at this many vertices
	growTries     = 8  // greedy growings on the coarsest graph, per run
	maxPasses     = 10 // refinement passes per level, at most
)

// estimateBisection returns the number of links crossing the smallest
// balanced cut of g it finds, and each vertex's side (0 or 1). A cut is
// balanced when the sides' weights differ by at most the largest vertex
// weight; a balanced cut always exists, so the result is an upper bound on
// the true bisection width. g needs at least one vertex.
//
// The heuristic is multilevel, as in METIS: coarsen g by heavy-edge
// matching (random visiting order, merged weight capped) down to about
// coarsestOrder vertices; bisect the coarsest graph by greedy graph
// growing from several random seeds, each refined by Fiduccia–Mattheyses;
// then project the bisection back level by level, refining it by
// Fiduccia–Mattheyses passes on each. It runs bisectTrials times with
// independent random streams and keeps the best cut.
func estimateBisection(g *graph) (cut int, side []uint8) {
	total, tol := g.totalWeight()
	var best *partition
	for t := range bisectTrials {
		rng := kernel.NewRNG(bisectSeed, uint64(t))
		p := multilevel(g, &rng, total, tol)
		if best == nil || better(p.cut, p.imbalance(), best.cut, best.imbalance(), tol) {
			best = p
		}
	}
	return best.cut, best.side
}

// multilevel runs one multilevel bisection of g, whose vertex weights sum
// to total and are at most tol.
func multilevel(g *graph, rng *kernel.RNG, total, tol int) *partition {
	limit := max(tol, total*3/(2*coarsestOrder))
	levels := []*graph{g}
	var maps [][]int32 // maps[i][v]: the vertex of levels[i+1] containing v
	for cur := g; cur.order() > coarsestOrder; {
		c, cmap := cur.coarsen(rng, limit)
		if c.order()*10 > cur.order()*9 {
			break // matching no longer shrinks the graph much
		}
		levels = append(levels, c)
		maps = append(maps, cmap)
		cur = c
	}
	top := len(levels) - 1
	f := newRefiner(levels[top])
	p := f.grow(rng, total, max(tol, f.largest))
	for i := top - 1; i >= 0; i-- {
		side := make([]uint8, levels[i].order())
		for v, c := range maps[i] {
			side[v] = p.side[c]
		}
		p = newPartition(levels[i], side)
		f = newRefiner(levels[i])
		f.refine(p, max(tol, f.largest))
	}
	if p.imbalance() > tol {
		f.rebalance(p, tol)
		f.refine(p, tol)
	}
	return p
}

// partition is a bisection of a graph: each vertex's side, the sides'
// weights and the weight of the edges crossing.
type partition struct {
	side []uint8
	w    [2]int
	cut  int
}

// newPartition returns the partition of g given by side.
func newPartition(g *graph, side []uint8) *partition {
	p := &partition{side: side}
	for v := range g.order() {
		p.w[side[v]] += g.vw[v]
		for i := g.start[v]; i < g.start[v+1]; i++ {
			if side[g.adj[i]] != side[v] {
				p.cut += g.ew[i]
			}
		}
	}
	p.cut /= 2
	return p
}

// imbalance returns the difference between the sides' weights.
func (p *partition) imbalance() int {
	d := p.w[0] - p.w[1]
	if d < 0 {
		return -d
	}
	return d
}

// better reports whether a state with the given cut and imbalance is
// preferable to one with bcut and bimb under tolerance tol: a balanced
// state (imbalance ≤ tol) beats an unbalanced one; between balanced states
// the smaller cut wins, then the smaller imbalance; between unbalanced
// ones the smaller imbalance, then the smaller cut.
func better(cut, imb, bcut, bimb, tol int) bool {
	if ok, bok := imb <= tol, bimb <= tol; ok != bok {
		return ok
	} else if ok {
		return cut < bcut || (cut == bcut && imb < bimb)
	}
	return imb < bimb || (imb == bimb && cut < bcut)
}

// coarsen matches vertices of g in pairs along heavy edges, visiting them
// in random order, never merging more than limit weight, and returns the
// graph of the pairs (and unmatched vertices) with the map from g's
// vertices to it. Edge weights of the coarse graph sum the weights of the
// edges they replace; edges inside a pair disappear.
func (g *graph) coarsen(rng *kernel.RNG, limit int) (*graph, []int32) {
	n := g.order()
	match := make([]int32, n)
	for v := range match {
		match[v] = -1
	}
	for _, v := range permutation(rng, n) {
		if match[v] >= 0 {
			continue
		}
		match[v] = v
		lo, hi := int(g.start[v]), int(g.start[v+1])
		if hi == lo {
			continue
		}
		// Start the scan at a random neighbour, so ties break differently
		// from run to run.
		off, best, heaviest := rng.IntN(hi-lo), int32(-1), 0
		for k := range hi - lo {
			i := lo + (off+k)%(hi-lo)
			u := g.adj[i]
			if match[u] < 0 && g.ew[i] > heaviest && g.vw[u]+g.vw[v] <= limit {
				best, heaviest = u, g.ew[i]
			}
		}
		if best >= 0 {
			match[v], match[best] = best, v
		}
	}
	cmap := make([]int32, n)
	members := make([]int32, 0, n) // vertices of g grouped by coarse vertex
	nc := int32(0)
	for v := range int32(n) {
		if u := match[v]; u >= v {
			cmap[v], cmap[u] = nc, nc
			members = append(members, v)
			if u != v {
				members = append(members, u)
			}
			nc++
		}
	}
	c := &graph{start: make([]int32, nc+1), vw: make([]int, nc)}
	at := make([]int32, nc)
	seen := make([]int32, nc) // seen[x] == cv+1: at[x] is x's slot in cv's list
	cv := int32(0)
	for k := 0; k < len(members); cv++ {
		group := members[k : k+1]
		if match[members[k]] != members[k] {
			group = members[k : k+2]
		}
		k += len(group)
		for _, v := range group {
			c.vw[cv] += g.vw[v]
			for i := g.start[v]; i < g.start[v+1]; i++ {
				x := cmap[g.adj[i]]
				switch {
				case x == cv:
				case seen[x] == cv+1:
					c.ew[at[x]] += g.ew[i]
				default:
					seen[x] = cv + 1
					at[x] = int32(len(c.adj))
					c.adj = append(c.adj, x)
					c.ew = append(c.ew, g.ew[i])
				}
			}
		}
		c.start[cv+1] = int32(len(c.adj))
	}
	return c, cmap
}

// permutation returns a random permutation of 0..n-1.
func permutation(rng *kernel.RNG, n int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}
