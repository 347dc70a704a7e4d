package topologies

import (
	"math/bits"
	"testing"

	"netsim/kernel"
)

// randomLinks returns a ring through n switches plus extra random links
// (parallel links and repeats allowed, no self-links) drawn from seed.
func randomLinks(n, extra int, seed uint64) [][2]int {
	rng := kernel.NewRNG(seed)
	var links [][2]int
	for i := range n {
		links = append(links, [2]int{i, (i + 1) % n})
	}
	for len(links) < n+extra {
		a, b := rng.IntN(n), rng.IntN(n)
		if a != b {
			links = append(links, [2]int{a, b})
		}
	}
	return links
}

// optimum returns the fewest links crossing a balanced cut of g (sides'
// weights differing by at most the largest vertex weight), by trying every
// cut; g has at most 22 vertices.
func optimum(t *testing.T, g *graph) int {
	t.Helper()
	n := g.order()
	if n > 22 {
		t.Fatalf("brute force on %d vertices", n)
	}
	total, tol := g.totalWeight()
	best := -1
	// Vertex n−1 stays on side 0: a cut and its mirror are the same.
	for mask := uint32(0); mask < 1<<(n-1); mask++ {
		w := 0
		for m := mask; m != 0; m &= m - 1 {
			w += g.vw[bits.TrailingZeros32(m)]
		}
		if d := 2*w - total; d > tol || -d > tol {
			continue
		}
		cut := 0
		for m := mask; m != 0; m &= m - 1 {
			v := bits.TrailingZeros32(m)
			for i := g.start[v]; i < g.start[v+1]; i++ {
				if mask&(1<<g.adj[i]) == 0 {
					cut += g.ew[i]
				}
			}
		}
		if best < 0 || cut < best {
			best = cut
		}
	}
	return best
}

func TestEstimateBisectionMatchesOptimum(t *testing.T) {
	// Two complete graphs of 5 joined by 2 parallel links.
	var barbell [][2]int
	for a := range 5 {
		for b := a + 1; b < 5; b++ {
			barbell = append(barbell, [2]int{a, b}, [2]int{a + 5, b + 5})
		}
	}
	barbell = append(barbell, [2]int{4, 5}, [2]int{4, 5})
	// Two-level fat tree: 6 leaves with 3 hosts, 3 hostless spines, each
	// leaf with one link to every spine.
	var tree [][2]int
	for l := range 6 {
		for s := 6; s < 9; s++ {
			tree = append(tree, [2]int{l, s})
		}
	}
	// Petersen graph: outer 5-cycle, inner pentagram, spokes.
	var petersen [][2]int
	for i := range 5 {
		petersen = append(petersen, [2]int{i, (i + 1) % 5}, [2]int{5 + i, 5 + (i+2)%5}, [2]int{i, 5 + i})
	}
	tests := []struct {
		name string
		net  *Network
		want int // links crossing the narrowest balanced cut, when known by hand
	}{
		{"ring 8 width 2", mustBuild(t, Spec{Kind: "ring", Switches: 8, Widths: []int{2}, HostsPerSwitch: 1}), 4},
		{"ring 9 width 3", mustBuild(t, Spec{Kind: "ring", Switches: 9, Widths: []int{3}, HostsPerSwitch: 2}), 6},
		{"torus 4x4", testTorus(t, []int{4, 4}, []int{1, 1}, 1), 8},
		{"torus 4x5 widths 1,2", testTorus(t, []int{4, 5}, []int{1, 2}, 2), 10},
		{"torus 4x4 widths 3,1", testTorus(t, []int{4, 4}, []int{3, 1}, 1), 8},
		{"flatfly 4x4", mustBuild(t, Spec{Kind: "flatfly", Dims: []int{4, 4}, HostsPerSwitch: 2}), 16},
		{"flatfly 3x6 widths 3,1", mustBuild(t, Spec{Kind: "flatfly", Dims: []int{3, 6}, Widths: []int{3, 1}, HostsPerSwitch: 1}), 27},
		{"flatfly 2x2x4 widths 1,1,2", mustBuild(t, Spec{Kind: "flatfly", Dims: []int{2, 2, 4}, Widths: []int{1, 1, 2}, HostsPerSwitch: 1}), 8},
		{"hypercube 2^4 width 2", mustBuild(t, Spec{Kind: "flatfly", Dims: uniform(4, 2), Widths: uniform(4, 2), HostsPerSwitch: 1}), 16},
		{"barbell", fromLinks(t, uniform(10, 1), barbell), 2},
		{"fat tree", fromLinks(t, append(uniform(6, 3), 0, 0, 0), tree), 9},
		{"petersen", fromLinks(t, uniform(10, 1), petersen), -1},
		{"random 20", fromLinks(t, uniform(20, 1), randomLinks(20, 25, 3)), -1},
		{"random 18 uneven hosts", fromLinks(t, []int{1, 4, 0, 2, 3, 1, 1, 0, 5, 2, 2, 1, 3, 0, 1, 2, 4, 1}, randomLinks(18, 20, 5)), -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := switchGraph(tc.net)
			opt := optimum(t, g)
			if tc.want >= 0 && opt != tc.want {
				t.Fatalf("brute force gives %d, hand count %d", opt, tc.want)
			}
			cut, side := estimateBisection(g)
			if cut != opt {
				t.Errorf("estimate %d links, optimum %d", cut, opt)
			}
			p := newPartition(g, side)
			_, tol := g.totalWeight()
			if p.cut != cut || p.imbalance() > tol {
				t.Errorf("returned sides cut %d links with imbalance %d (tolerance %d), reported %d", p.cut, p.imbalance(), tol, cut)
			}
		})
	}
}

func TestEstimateBisectionLarger(t *testing.T) {
	// Networks too large for brute force whose narrowest balanced cut is
	// known: the estimate is a real balanced cut, so it can only miss from
	// above.
	tests := []struct {
		name string
		net  *Network
		want int
	}{
		// 2·(rings across the narrowest dimension)·width: 2·48·1 for 6×10×12.
		{"torus 6x10x12", testTorus(t, []int{6, 10, 12}, []int{1, 1, 1}, 4), 120},
		{"ring 101 width 2", mustBuild(t, Spec{Kind: "ring", Switches: 101, Widths: []int{2}, HostsPerSwitch: 1}), 4},
		// Halving the 8-switch dimension cuts 4·4 links on each of its 16·16 lines.
		{"flatfly 16x16x8", mustBuild(t, Spec{Kind: "flatfly", Dims: []int{16, 16, 8}, HostsPerSwitch: 1}), 16 * 16 * 16},
		// 8 groups split 4|4: 16 global links.
		{"dragonfly K4 G2", mustBuild(t, Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 2, OmitOneGlobal: new(true)}), 16},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := switchGraph(tc.net)
			cut, side := estimateBisection(g)
			p := newPartition(g, side)
			_, tol := g.totalWeight()
			if p.cut != cut || p.imbalance() > tol {
				t.Fatalf("returned sides cut %d with imbalance %d, reported %d", p.cut, p.imbalance(), cut)
			}
			if cut != tc.want {
				t.Errorf("estimate %d links, optimum %d", cut, tc.want)
			}
		})
	}
}

func TestRefinerKeepsGainsAndCut(t *testing.T) {
	g := switchGraph(fromLinks(t, []int{2, 0, 1, 3, 1, 1, 0, 2, 2, 1, 1, 1}, randomLinks(12, 15, 11)))
	rng := kernel.NewRNG(1)
	side := make([]uint8, g.order())
	for v := range side {
		side[v] = uint8(rng.IntN(2))
	}
	p := newPartition(g, side)
	f := newRefiner(g)
	f.refine(p, 3)
	q := newPartition(g, append([]uint8(nil), p.side...))
	if p.cut != q.cut || p.w != q.w {
		t.Fatalf("refined partition says cut %d weights %v, recomputed %d %v", p.cut, p.w, q.cut, q.w)
	}
	// Moves update the neighbours' gains incrementally; they must agree
	// with gains computed from scratch.
	f.start(p)
	for v := range int32(g.order()) {
		if rng.IntN(3) == 0 {
			f.move(p, v)
		}
	}
	got := append([]int(nil), f.gain...)
	f.start(p)
	for v, x := range got {
		if f.gain[v] != x {
			t.Fatalf("gain of %d kept as %d, recomputed %d", v, x, f.gain[v])
		}
	}
	if q := newPartition(g, p.side); p.cut != q.cut || p.w != q.w {
		t.Fatalf("after moves: cut %d weights %v, recomputed %d %v", p.cut, p.w, q.cut, q.w)
	}
}
