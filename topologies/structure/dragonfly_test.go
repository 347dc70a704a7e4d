package structure

import (
	"slices"
	"strings"
	"testing"

	"netsim/topologies"
)

// dragonfly builds a Dragonfly and returns it with the group of every
// switch (its first coordinate).
func dragonfly(t *testing.T, k, g int, arrangement string, omit bool) (*topologies.Network, []int) {
	t.Helper()
	net := build(t, topologies.Spec{Kind: "dragonfly", GroupSize: k, GlobalPerSwitch: g, HostsPerSwitch: 2,
		Arrangement: arrangement, OmitOneGlobal: &omit})
	group := make([]int, len(net.Switches))
	for s := range group {
		group[s] = int(net.Switches[s].Coord[0])
	}
	return net, group
}

var arrangements = []string{"absolute", "relative", "palmtree"}

func TestMapDragonflyComplete(t *testing.T) {
	tests := []struct {
		k, g int
		omit bool
	}{
		{3, 1, false}, {4, 2, false}, {4, 2, true}, {6, 3, false}, {8, 4, true}, {16, 8, true},
	}
	for _, tc := range tests {
		for _, arr := range arrangements {
			net, group := dragonfly(t, tc.k, tc.g, arr, tc.omit)
			g := FromNetwork(net)
			d, err := MapDragonfly(g)
			if err != nil {
				t.Fatal(err)
			}
			groups := tc.k*tc.g + 1
			if tc.omit {
				groups--
			}
			if err := checkDragonfly(d, g, identity(len(net.Switches)), group); err != nil {
				t.Errorf("K=%d G=%d %s omit=%v: %v", tc.k, tc.g, arr, tc.omit, err)
			}
			if d.Groups != groups || d.GroupSize != tc.k || d.GlobalPerSwitch != tc.g || d.Rejoined != 0 {
				t.Errorf("K=%d G=%d %s omit=%v: %d groups, K = %d, G = %d, %d rejoined", tc.k, tc.g, arr, tc.omit, d.Groups, d.GroupSize, d.GlobalPerSwitch, d.Rejoined)
			}
			// Inferred: the larger variant's number of groups.
			if m := d.Model; m.GroupSize != tc.k || m.GlobalPerSwitch != tc.g || m.Groups != tc.k*tc.g+1 {
				t.Errorf("K=%d G=%d %s omit=%v: inferred K = %d, G = %d, %d groups", tc.k, tc.g, arr, tc.omit, m.GroupSize, m.GlobalPerSwitch, m.Groups)
			}
			if err := d.Check(g); err != nil {
				t.Errorf("K=%d G=%d %s omit=%v: Check: %v", tc.k, tc.g, arr, tc.omit, err)
			}
		}
	}
}

// cut returns g without the links between the pairs of switches listed
// and without every link of the switches in drop (which leaves them out
// of the mapped component, as if they were missing).
func cut(g *Graph, pairs [][2]int, drop []int) *Graph {
	out := &Graph{Names: g.Names, Hosts: g.Hosts}
	for _, l := range g.Links {
		if slices.Contains(drop, l.A) || slices.Contains(drop, l.B) ||
			slices.Contains(pairs, [2]int{l.A, l.B}) || slices.Contains(pairs, [2]int{l.B, l.A}) {
			continue
		}
		out.Links = append(out.Links, l)
	}
	return out
}

// TestMapDragonflyRejoins cuts links and switches out of group 0 of
// complete Dragonflies so that steps 1–5 of MapDragonfly leave it split,
// one case per way faults split groups, and checks that step 7 rejoins
// it.
func TestMapDragonflyRejoins(t *testing.T) {
	tests := []struct {
		name     string
		k, g     int
		cut      [][2]int
		drop     []int
		rejoined int
	}{
		{"one local link left", 6, 3, [][2]int{{0, 2}, {0, 3}, {0, 4}, {0, 5}}, nil, 1},
		{"ring without diagonals", 4, 2, [][2]int{{0, 2}, {1, 3}}, nil, 3},
		{"no local link left", 4, 2, [][2]int{{0, 1}, {0, 2}, {0, 3}}, nil, 1},
		{"two switches left, one link", 4, 2, nil, []int{2, 3}, 1},
		{"path of three", 5, 2, [][2]int{{0, 2}}, []int{3, 4}, 2},
	}
	for _, tc := range tests {
		for _, arr := range arrangements {
			net, group := dragonfly(t, tc.k, tc.g, arr, false)
			g := cut(FromNetwork(net), tc.cut, tc.drop)
			d, err := MapDragonfly(g)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkDragonfly(d, g, identity(g.Switches()), group); err != nil {
				t.Errorf("%s, K=%d G=%d %s: %v", tc.name, tc.k, tc.g, arr, err)
			}
			if d.Rejoined != tc.rejoined {
				t.Errorf("%s, K=%d G=%d %s: %d rejoined, want %d", tc.name, tc.k, tc.g, arr, d.Rejoined, tc.rejoined)
			}
		}
	}
}

// TestMapDragonflyShapeForcesMerges maps two triangles and a switch linked
// to one switch of each: the score alone keeps the switch apart (joining a
// triangle by one link of three costs more than a group of one), but a
// given G = 1 or a given number of groups, 2, forces it into a triangle;
// and two triangles joined by two links are one group when K = 6 is
// given.
func TestMapDragonflyShapeForcesMerges(t *testing.T) {
	tri := func(links ...[2]int) *Graph {
		g := &Graph{Names: []string{"a0", "a1", "a2", "b0", "b1", "b2", "x"}}
		for _, p := range append([][2]int{{0, 1}, {0, 2}, {1, 2}, {3, 4}, {3, 5}, {4, 5}}, links...) {
			g.Links = append(g.Links, Link{A: p[0], B: p[1], PortA: -1, PortB: -1})
		}
		return g
	}
	spoke := tri([2]int{6, 0}, [2]int{6, 3})
	tests := []struct {
		name   string
		g      *Graph
		shape  DragonflyShape
		groups []int
	}{
		{"nothing given", spoke, DragonflyShape{GroupSize: 4}, []int{0, 0, 0, 1, 1, 1, 2}},
		{"G given", spoke, DragonflyShape{GroupSize: 4, GlobalPerSwitch: 1}, []int{0, 0, 0, 1, 1, 1, 0}},
		{"groups given", spoke, DragonflyShape{GroupSize: 4, Groups: 2}, []int{0, 0, 0, 1, 1, 1, 0}},
		{"two links, K not given", tri([2]int{0, 3}, [2]int{1, 4}), DragonflyShape{}, []int{0, 0, 0, 1, 1, 1, -1}},
		{"two links, K given", tri([2]int{0, 3}, [2]int{1, 4}), DragonflyShape{GroupSize: 6}, []int{0, 0, 0, 0, 0, 0, -1}},
	}
	for _, tc := range tests {
		d, err := MapDragonflyShape(tc.g, tc.shape)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(d.Group, tc.groups) {
			t.Errorf("%s: groups %v, want %v", tc.name, d.Group, tc.groups)
		}
		if tc.shape.GroupSize > 0 && d.Model.GroupSize != tc.shape.GroupSize ||
			tc.shape.GlobalPerSwitch > 0 && d.Model.GlobalPerSwitch != tc.shape.GlobalPerSwitch ||
			tc.shape.Groups > 0 && d.Model.Groups != tc.shape.Groups {
			t.Errorf("%s: model %+v, given %+v", tc.name, d.Model, tc.shape)
		}
	}
	if _, err := MapDragonflyShape(spoke, DragonflyShape{Groups: -1}); err == nil || err.Error() != "groups: must not be negative (got -1)" {
		t.Errorf("negative groups: %v", err)
	}
}

// TestMapDragonflyOtherFamilies maps networks that are not Dragonflies.
// Check must say so: steps 1–5 find no groups in a torus or a hypercube
// (which have no triangles), so step 7 must not run either (it would
// merge their switches one by one), and the rows of a FlatFly come out as
// groups that share many links.
func TestMapDragonflyOtherFamilies(t *testing.T) {
	tests := []struct {
		name  string
		spec  topologies.Spec
		check string
	}{
		{"hypercube 11-D", topologies.Spec{Kind: "hypercube", Dimension: 11, Width: 2, HostsPerSwitch: 1}, "2048 groups, more than"},
		{"torus 8×16×16", topologies.Spec{Kind: "torus", Dims: []int{8, 16, 16}, Widths: []int{3, 5, 5}, HostsPerSwitch: 1}, "2048 groups, more than"},
		{"FlatFly 4×4×4", topologies.Spec{Kind: "flatfly", Dims: []int{4, 4, 4}, HostsPerSwitch: 1}, "share two links"},
	}
	for _, tc := range tests {
		g := FromNetwork(build(t, tc.spec))
		d, err := MapDragonfly(g)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Check(g); err == nil || !strings.Contains(err.Error(), tc.check) {
			t.Errorf("%s: Check: %v, want %q", tc.name, err, tc.check)
		}
		if d.Rejoined != 0 {
			t.Errorf("%s: %d switches rejoined, want 0", tc.name, d.Rejoined)
		}
	}
}
