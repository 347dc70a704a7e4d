package structure

import (
	"fmt"
	"math"

	"netsim/topologies"
)

// component returns the switches of g's largest connected component (the
// first in switch order on a tie), found by breadth-first search
// independently of the union-find in the package.
func component(g *Graph) []bool {
	n := g.Switches()
	adj := make([][]int, n)
	for _, l := range g.Links {
		adj[l.A] = append(adj[l.A], l.B)
		adj[l.B] = append(adj[l.B], l.A)
	}
	seen := make([]int, n)
	for i := range seen {
		seen[i] = -1
	}
	best, bestSize := -1, 0
	for s := range n {
		if seen[s] >= 0 {
			continue
		}
		queue, size := []int{s}, 0
		seen[s] = s
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			size++
			for _, w := range adj[v] {
				if seen[w] < 0 {
					seen[w] = s
					queue = append(queue, w)
				}
			}
		}
		if size > bestSize {
			best, bestSize = s, size
		}
	}
	in := make([]bool, n)
	for s := range n {
		in[s] = seen[s] == best
	}
	return in
}

// bijection records a one-to-one correspondence between recovered and true
// labels, failing on the first pair that breaks it.
type bijection struct {
	fwd, back map[int]int
}

func newBijection() *bijection { return &bijection{map[int]int{}, map[int]int{}} }

// add records rec ↔ truth and reports whether it agrees with every earlier
// pair.
func (b *bijection) add(rec, truth int) bool {
	if t, ok := b.fwd[rec]; ok && t != truth {
		return false
	}
	if r, ok := b.back[truth]; ok && r != rec {
		return false
	}
	b.fwd[rec], b.back[truth] = truth, rec
	return true
}

// checkFlatFly verifies that f maps g correctly: g is net with faults,
// orig[s] the switch of net that switch s of g is. Correct means equal to
// the truth up to the symmetries of a FlatFly: the mapped switches are
// exactly g's largest component; recovered dimensions correspond one to
// one to the true dimensions with K_n > 1 (links of one recovered
// dimension all lie in one true dimension and vice versa); within every
// matched pair of dimensions two mapped switches share the recovered
// coordinate iff they share the true one; and the recovered K_n and L_n
// are those of the true network seen through the faults.
func checkFlatFly(f *FlatFly, g *Graph, orig []int, net *topologies.Network) error {
	in := component(g)
	mapped := 0
	for s, c := range f.Coord {
		if (c != nil) != in[s] {
			return fmt.Errorf("switch %s: mapped %v, in the largest component %v", g.Names[s], c != nil, in[s])
		}
		if c != nil {
			mapped++
		}
	}
	if mapped != f.Mapped {
		return fmt.Errorf("Mapped = %d, want %d", f.Mapped, mapped)
	}
	// Dimensions: match recovered to true through the links.
	dims := newBijection()
	pairs := make(map[[3]int]int) // (true dim, orig a, orig b) → parallel links
	for i, l := range g.Links {
		d := f.LinkDim[i]
		if (d >= 0) != in[l.A] {
			return fmt.Errorf("link %d: dimension %d, in the component %v", i, d, in[l.A])
		}
		if d < 0 {
			continue
		}
		t := trueDim(net, orig[l.A], orig[l.B])
		if !dims.add(d, t) {
			return fmt.Errorf("link %s–%s: recovered dimension %d, true dimension %d, but the dimensions were matched %v", g.Names[l.A], g.Names[l.B], d, t, dims.fwd)
		}
		a, b := min(orig[l.A], orig[l.B]), max(orig[l.A], orig[l.B])
		pairs[[3]int{t, a, b}]++
	}
	wantDims := 0
	for _, k := range net.Dims {
		if k > 1 {
			wantDims++
		}
	}
	if len(f.Dims) != wantDims || len(dims.fwd) != wantDims {
		return fmt.Errorf("recovered %d dimensions (%d matched), want %d", len(f.Dims), len(dims.fwd), wantDims)
	}
	widths := make(map[int]int)
	for p, c := range pairs {
		widths[p[0]] = max(widths[p[0]], c)
	}
	for r, t := range dims.fwd {
		if f.Widths[r] != widths[t] {
			return fmt.Errorf("dimension %d (true %d): width %d, want %d", r, t, f.Widths[r], widths[t])
		}
	}
	// Coordinates: one bijection of values per matched dimension.
	for r, t := range dims.fwd {
		values := newBijection()
		for s, c := range f.Coord {
			if c == nil {
				continue
			}
			tv := int(net.Switches[orig[s]].Coord[t])
			if !values.add(c[r], tv) {
				return fmt.Errorf("switch %s: coordinate %d (dimension %d) = %d, true coordinate %d (dimension %d) = %d, inconsistent with other switches", g.Names[s], r, r, c[r], t, t, tv)
			}
		}
		if f.Dims[r] != len(values.fwd) {
			return fmt.Errorf("dimension %d: K = %d, but %d values in use", r, f.Dims[r], len(values.fwd))
		}
	}
	return nil
}

// trueDim returns the dimension of the link between switches a and b of
// net: the one coordinate in which they differ.
func trueDim(net *topologies.Network, a, b int) int {
	d := -1
	for n, x := range net.Switches[a].Coord {
		if x != net.Switches[b].Coord[n] {
			if d >= 0 {
				return -2 // not a FlatFly link: matches no recovered dimension
			}
			d = n
		}
	}
	return d
}

// checkDragonfly verifies that d maps g exactly: orig[s] is the original
// index of switch s of g and group[o] the true group of original switch o.
// The mapped switches must be exactly g's largest component; every
// recovered group must be exactly the switches of one true group in the
// component (groups are relabelled freely); and a link must be local iff
// its ends are in one true group.
func checkDragonfly(d *Dragonfly, g *Graph, orig []int, group []int) error {
	in := component(g)
	groups := newBijection() // recovered group ↔ true group
	for s, r := range d.Group {
		if (r >= 0) != in[s] {
			return fmt.Errorf("switch %s: group %d, in the largest component %v", g.Names[s], r, in[s])
		}
		if r < 0 {
			continue
		}
		if tg := group[orig[s]]; !groups.add(r, tg) {
			if o, ok := groups.fwd[r]; ok && o != tg {
				return fmt.Errorf("recovered group %d holds switches of true groups %d and %d", r, o, tg)
			}
			return fmt.Errorf("true group %d split into recovered groups %d and %d", tg, groups.back[tg], r)
		}
	}
	for i, l := range g.Links {
		if !in[l.A] {
			continue
		}
		if same := group[orig[l.A]] == group[orig[l.B]]; d.Local[i] != same {
			return fmt.Errorf("link %s–%s: local %v, its ends in one true group %v", g.Names[l.A], g.Names[l.B], d.Local[i], same)
		}
	}
	mapped := 0
	for _, in := range in {
		if in {
			mapped++
		}
	}
	if d.Mapped != mapped || d.Groups != len(groups.fwd) {
		return fmt.Errorf("Mapped = %d, Groups = %d; want %d, %d", d.Mapped, d.Groups, mapped, len(groups.fwd))
	}
	return nil
}

// truthDragonfly returns the true grouping of g's largest component as a
// Dragonfly mapping with d's model: orig and group as for checkDragonfly.
func truthDragonfly(d *Dragonfly, g *Graph, orig []int, group []int) *Dragonfly {
	in := component(g)
	t := &Dragonfly{Group: make([]int, g.Switches()), Local: make([]bool, len(g.Links)), Model: d.Model}
	label := make(map[int]int)
	for s := range t.Group {
		t.Group[s] = -1
		if !in[s] {
			continue
		}
		l, ok := label[group[orig[s]]]
		if !ok {
			l = len(label)
			label[group[orig[s]]] = l
		}
		t.Group[s] = l
		t.Mapped++
	}
	t.Groups = len(label)
	for i, l := range g.Links {
		t.Local[i] = in[l.A] && t.Group[l.A] == t.Group[l.B]
	}
	return t
}

// provenAmbiguous returns nil when the link list g cannot tell d's
// grouping from the truth, so that a mapping other than the truth is as
// good as any: both keep every invariant of a Dragonfly of the shape d
// assumed (Dragonfly.Check), and the truth is not more likely than d under
// d's fault model (DragonflyModel.Score). Otherwise it says why not.
func provenAmbiguous(d *Dragonfly, g *Graph, orig []int, group []int) error {
	truth := truthDragonfly(d, g, orig, group)
	if err := truth.Check(g); err != nil {
		return fmt.Errorf("the truth breaks an invariant of the shape assumed: %v", err)
	}
	if err := d.Check(g); err != nil {
		return fmt.Errorf("the mapping breaks an invariant: %v", err)
	}
	sd, st := d.Model.Score(g, d.Group), d.Model.Score(g, truth.Group)
	if sd < st-1e-9*math.Abs(st) {
		return fmt.Errorf("the truth scores %.4f, higher than the mapping's %.4f", st, sd)
	}
	return nil
}
