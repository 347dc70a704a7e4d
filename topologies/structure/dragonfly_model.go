package structure

import (
	"fmt"
	"maps"
	"math"
	"slices"
)

// DragonflyShape holds what is known of a Dragonfly's parameters before
// mapping it; a zero field is inferred from the link list (see
// MapDragonflyShape).
type DragonflyShape struct {
	// GroupSize is K, the switches per group.
	GroupSize int
	// GlobalPerSwitch is G, the global links per switch.
	GlobalPerSwitch int
	// Groups is the number of groups: K·G+1, or K·G when one global link
	// per group is left out (the seed's power-of-two variant).
	Groups int
}

// validate checks that no field of s is negative.
func (s DragonflyShape) validate() error {
	for _, f := range []struct {
		key string
		v   int
	}{{"group_size", s.GroupSize}, {"global_per_switch", s.GlobalPerSwitch}, {"groups", s.Groups}} {
		if f.v < 0 {
			return fmt.Errorf("%s: must not be negative (got %d)", f.key, f.v)
		}
	}
	return nil
}

// DragonflyModel is what MapDragonflyShape assumed of the network: the
// shape, given or inferred, and the fault rates estimated from the link
// list, with which step 7 scores groupings.
type DragonflyModel struct {
	DragonflyShape
	// LinkSurvival is the estimated fraction of local links present
	// between two surviving switches of one group.
	LinkSurvival float64
	// SwitchSurvival is the estimated fraction of a group's switches
	// present in the mapped component.
	SwitchSurvival float64
}

// Score returns the log-likelihood, up to a constant, of the grouping
// group (the group of every switch, -1 outside the mapped component) of
// the link list g under m's fault model: switches survive independently
// with probability SwitchSurvival, so a group keeps a binomial number of
// its K switches; two surviving switches of one group are linked with
// probability LinkSurvival; two switches of different groups are linked
// with probability LinkSurvival/K² (their groups share one global link,
// whose ends are any of the K switches of each). Parallel links count
// once. A group of more than K switches scores -Inf; a group slice of the
// wrong length, NaN.
func (m *DragonflyModel) Score(g *Graph, group []int) float64 {
	if len(group) != g.Switches() {
		return math.NaN()
	}
	sg := newSimpleGraph(g)
	size := make(map[int]int)
	inside := make(map[int]int)
	for _, grp := range group {
		if grp >= 0 {
			size[grp]++
		}
	}
	for _, ends := range sg.ends {
		if a := group[ends[0]]; a >= 0 && a == group[ends[1]] {
			inside[a]++
		}
	}
	w := m.weights()
	total := 0.0
	for _, grp := range slices.Sorted(maps.Keys(size)) {
		total += w.group(size[grp], inside[grp])
	}
	return total
}

// scoreWeights are the terms of DragonflyModel.Score, relative to a
// grouping in which every switch is a group of its own and every link is
// global.
type scoreWeights struct {
	prior []float64 // log P(a group keeps n switches), n = 0..K; -Inf above K
	link  float64   // a link inside a group rather than between groups
	miss  float64   // two unlinked switches inside a group rather than between groups
}

// weights returns m's score terms.
func (m *DragonflyModel) weights() scoreWeights {
	k := max(m.GroupSize, 1)
	q, s := m.LinkSurvival, m.SwitchSurvival
	pg := q / float64(k*k)
	w := scoreWeights{
		prior: make([]float64, k+1),
		link:  math.Log(q) - math.Log(pg),
		miss:  math.Log1p(-q) - math.Log1p(-pg),
	}
	lk, _ := math.Lgamma(float64(k + 1))
	for n := range w.prior {
		ln, _ := math.Lgamma(float64(n + 1))
		lr, _ := math.Lgamma(float64(k - n + 1))
		w.prior[n] = lk - ln - lr + float64(n)*math.Log(s) + float64(k-n)*math.Log1p(-s)
	}
	return w
}

// group returns the score of a group of n switches with inside links
// between them (parallel links counted once); a single switch scores 0.
func (w *scoreWeights) group(n, inside int) float64 {
	if n >= len(w.prior) {
		return math.Inf(-1)
	}
	return w.prior[n] - float64(n)*w.prior[1] + float64(inside)*w.link + float64(n*(n-1)/2-inside)*w.miss
}

// estimate returns the model of the component of sg grouped as group
// (-1 outside the component, groups numbered 0..n-1), taking the fields
// of shape that are set and inferring the others from the links inside
// and between groups (loc and glob of them; N mapped switches, group
// sizes m_A):
//
//   - the link survival q is the fraction of pairs of switches inside
//     groups that are linked, counting one more linked and one more
//     unlinked pair so that it stays strictly between 0 and 1;
//   - K: two groups share one global link, whose ends are any of the K
//     switches of each, so groups A and B keep it with probability
//     q·m_A·m_B/K², and glob ≈ q·(N² − Σ m_A²)/(2K²); K is the root of
//     that, and at least the largest group;
//   - G: a switch has K−1 local and G global ports, and random faults
//     remove both kinds alike, so G ≈ (K−1)·glob/loc (the variant without
//     one global link per group has (K·G−1)/(K·G) of the global links,
//     less than 1 % fewer);
//   - the number of groups is K·G+1, the larger variant;
//   - the switch survival s is N/(K·groups).
//
// Inferred values shape the score and K caps the group size, but the
// number of groups and G force merges only when given (an inferred value
// a little too small would force wrong ones); Dragonfly.Check holds the
// mapping to all three, given or inferred.
func estimate(sg *simpleGraph, group []int, groups int, shape DragonflyShape) DragonflyModel {
	size := make([]int, groups)
	mapped := 0
	for _, grp := range group {
		if grp >= 0 {
			size[grp]++
			mapped++
		}
	}
	local, global := 0, 0
	for _, ends := range sg.ends {
		if group[ends[0]] == group[ends[1]] {
			local++
		} else {
			global++
		}
	}
	pairs, squares, largest := 0, 0, 1
	for _, n := range size {
		pairs += n * (n - 1) / 2
		squares += n * n
		largest = max(largest, n)
	}
	m := DragonflyModel{DragonflyShape: shape, LinkSurvival: float64(local+1) / float64(pairs+2)}
	if m.GroupSize <= 0 {
		m.GroupSize = largest
		if global > 0 {
			k2 := m.LinkSurvival * float64(mapped*mapped-squares) / float64(2*global)
			m.GroupSize = max(largest, int(math.Round(math.Sqrt(k2))))
		}
	}
	if m.GlobalPerSwitch <= 0 {
		m.GlobalPerSwitch = 1
		if local > 0 {
			m.GlobalPerSwitch = max(1, int(math.Round(float64((m.GroupSize-1)*global)/float64(local))))
		}
	}
	if m.Groups <= 0 {
		m.Groups = m.GroupSize*m.GlobalPerSwitch + 1
	}
	m.SwitchSurvival = min(max(float64(mapped)/float64(m.GroupSize*m.Groups), 1e-3), 1-1e-3)
	return m
}
