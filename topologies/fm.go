package topologies

import (
	"netsim/internal/indexheap"
	"netsim/kernel"
)

// refiner improves bisections of one graph by Fiduccia–Mattheyses passes.
// The gain of a vertex is by how much moving it to the other side would
// reduce the cut: the weight of its edges to the other side minus that of
// its edges to its own side.
type refiner struct {
	g       *graph
	largest int // the largest vertex weight of g
	gain    []int
	pos     []int32                // position in heaps[side], −1 when in no heap
	heaps   [2]indexheap.Heap[int] // the unlocked vertices of each side, largest gain first
	moves   []int32                // the vertices moved in the current pass
}

// newRefiner returns a refiner for g.
func newRefiner(g *graph) *refiner {
	n := g.order()
	f := &refiner{g: g, gain: make([]int, n), pos: make([]int32, n)}
	_, f.largest = g.totalWeight()
	for s := range f.heaps {
		f.heaps[s] = indexheap.New(f.gain, f.pos, indexheap.Descending)
	}
	return f
}

// start computes every gain for p and empties the heaps.
func (f *refiner) start(p *partition) {
	g := f.g
	for v := range g.order() {
		gain := 0
		for i := g.start[v]; i < g.start[v+1]; i++ {
			if p.side[g.adj[i]] != p.side[v] {
				gain += g.ew[i]
			} else {
				gain -= g.ew[i]
			}
		}
		f.gain[v] = gain
		f.pos[v] = -1
	}
	f.heaps[0].Clear()
	f.heaps[1].Clear()
}

// move moves v to the other side, updating p and the gains of v's
// neighbours (and their places in the heaps). v must be in no heap.
func (f *refiner) move(p *partition, v int32) {
	g := f.g
	s := p.side[v]
	p.w[s] -= g.vw[v]
	p.w[1-s] += g.vw[v]
	p.cut -= f.gain[v]
	p.side[v] = 1 - s
	f.gain[v] = -f.gain[v]
	for i := g.start[v]; i < g.start[v+1]; i++ {
		u := g.adj[i]
		if p.side[u] == s {
			f.gain[u] += 2 * g.ew[i]
		} else {
			f.gain[u] -= 2 * g.ew[i]
		}
		if f.pos[u] >= 0 {
			f.heaps[p.side[u]].Fix(u)
		}
	}
}

// refine runs passes on p until one brings no improvement (see better),
// at most maxPasses.
func (f *refiner) refine(p *partition, tol int) {
	for range maxPasses {
		if !f.pass(p, tol) {
			return
		}
	}
}

// pass runs one Fiduccia–Mattheyses pass on p: it moves every vertex at
// most once, each time the move of largest gain among the two sides' best
// candidates whose result keeps the imbalance within tol plus two vertex
// weights (or reduces it), and then rolls back to the best state seen. It
// reports whether that state is better than the one it started from.
func (f *refiner) pass(p *partition, tol int) bool {
	f.start(p)
	for v := range int32(f.g.order()) {
		f.heaps[p.side[v]].Push(v)
	}
	f.moves = f.moves[:0]
	startCut, startImb := p.cut, p.imbalance()
	bestCut, bestImb, bestLen := startCut, startImb, 0
	bound := tol + 2*f.largest
	for {
		v := f.pick(p, bound)
		if v < 0 {
			break
		}
		f.heaps[p.side[v]].Remove(v)
		f.move(p, v)
		f.moves = append(f.moves, v)
		if imb := p.imbalance(); better(p.cut, imb, bestCut, bestImb, tol) {
			bestCut, bestImb, bestLen = p.cut, imb, len(f.moves)
		}
	}
	for s := range f.heaps {
		f.heaps[s].Clear()
	}
	for i := len(f.moves) - 1; i >= bestLen; i-- {
		f.move(p, f.moves[i])
	}
	return better(bestCut, bestImb, startCut, startImb, tol)
}

// pick returns the next vertex to move, or −1 when neither side's best
// candidate may move: a move is allowed when the imbalance after it is at
// most bound or smaller than before.
func (f *refiner) pick(p *partition, bound int) int32 {
	imb := p.imbalance()
	best, bestImb := int32(-1), 0
	for s := range 2 {
		v := f.heaps[s].Top()
		if v < 0 {
			continue
		}
		d := p.w[s] - p.w[1-s] - 2*f.g.vw[v]
		d = max(d, -d)
		if d > bound && d >= imb {
			continue
		}
		if best < 0 || f.gain[v] > f.gain[best] || (f.gain[v] == f.gain[best] && d < bestImb) {
			best, bestImb = v, d
		}
	}
	return best
}

// grow bisects the graph by greedy graph growing: from a random vertex,
// side 0 takes the vertex of largest gain until it holds half the total
// weight; each of growTries growings is refined, and the best is returned.
func (f *refiner) grow(rng *kernel.RNG, total, tol int) *partition {
	n := f.g.order()
	var best *partition
	for range growTries {
		p := newPartition(f.g, make([]uint8, n))
		for v := range p.side {
			p.side[v] = 1
		}
		p.w = [2]int{0, total}
		f.start(p)
		for v := range int32(n) {
			f.heaps[1].Push(v)
		}
		for v := int32(rng.IntN(n)); v >= 0 && 2*p.w[0] < total; v = f.heaps[1].Top() {
			f.heaps[1].Remove(v)
			f.move(p, v)
		}
		f.heaps[1].Clear()
		f.refine(p, tol)
		if best == nil || better(p.cut, p.imbalance(), best.cut, best.imbalance(), tol) {
			best = p
		}
	}
	return best
}

// rebalance moves vertices from the heavier side of p, each time the one
// of largest gain among those whose move reduces the imbalance, until the
// imbalance is at most tol. With tol at least the largest vertex weight
// such a vertex always exists, so the result is balanced.
func (f *refiner) rebalance(p *partition, tol int) {
	f.start(p)
	g := f.g
	for p.imbalance() > tol {
		heavy := uint8(0)
		if p.w[1] > p.w[0] {
			heavy = 1
		}
		diff, best := p.imbalance(), int32(-1)
		for v := range int32(g.order()) {
			if p.side[v] == heavy && g.vw[v] > 0 && g.vw[v] < diff && (best < 0 || f.gain[v] > f.gain[best]) {
				best = v
			}
		}
		if best < 0 {
			return
		}
		f.move(p, best)
	}
}
