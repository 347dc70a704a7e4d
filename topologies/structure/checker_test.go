package structure

import (
	"slices"
	"strings"
	"testing"

	"netsim/topologies"
)

// cloneFlatFly returns a deep copy of f.
func cloneFlatFly(f *FlatFly) *FlatFly {
	c := *f
	c.Dims, c.Widths, c.LinkDim = slices.Clone(f.Dims), slices.Clone(f.Widths), slices.Clone(f.LinkDim)
	c.Coord = make([][]int, len(f.Coord))
	for s, x := range f.Coord {
		c.Coord[s] = slices.Clone(x)
	}
	return &c
}

// TestFlatFlyCheckers makes sure checkFlatFly accepts exactly the
// symmetries of a FlatFly and that both it and FlatFly.Check catch wrong
// mappings.
func TestFlatFlyCheckers(t *testing.T) {
	net := build(t, topologies.Spec{Kind: "flatfly", Dims: []int{3, 3, 4}, Widths: []int{1, 2, 1}, HostsPerSwitch: 1})
	g := FromNetwork(net)
	f, err := MapFlatFly(g)
	if err != nil {
		t.Fatal(err)
	}
	id := identity(len(net.Switches))
	tests := []struct {
		name   string
		mutate func(f *FlatFly)
		ok     bool // still a correct mapping
		check  bool // FlatFly.Check still passes
	}{
		{"unchanged", func(*FlatFly) {}, true, true},
		{"values relabelled", func(f *FlatFly) {
			for _, c := range f.Coord {
				c[2] = (c[2] + 1) % 4
			}
		}, true, true},
		{"dimensions of equal size swapped", func(f *FlatFly) {
			for _, c := range f.Coord {
				c[0], c[1] = c[1], c[0]
			}
			f.Widths[0], f.Widths[1] = f.Widths[1], f.Widths[0]
			for i, d := range f.LinkDim {
				f.LinkDim[i] = [3]int{1, 0, 2}[d]
			}
		}, true, true},
		{"two switches swapped", func(f *FlatFly) { f.Coord[0], f.Coord[1] = f.Coord[1], f.Coord[0] }, false, false},
		{"link in the wrong dimension", func(f *FlatFly) { f.LinkDim[0] = (f.LinkDim[0] + 1) % 3 }, false, false},
		{"two values merged", func(f *FlatFly) {
			for _, c := range f.Coord {
				c[2] = min(c[2], 2)
			}
			f.Dims[2] = 3
		}, false, false},
		{"width wrong", func(f *FlatFly) { f.Widths[1] = 1 }, false, true},
		{"switch unmapped", func(f *FlatFly) { f.Coord[5] = nil }, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := cloneFlatFly(f)
			tc.mutate(m)
			if err := checkFlatFly(m, g, id, net); (err == nil) != tc.ok {
				t.Errorf("checkFlatFly: %v, want ok = %v", err, tc.ok)
			}
			if tc.name == "switch unmapped" {
				return // Check does not know the component
			}
			if err := m.Check(g); (err == nil) != tc.check {
				t.Errorf("Check: %v, want ok = %v", err, tc.check)
			}
		})
	}
}

// TestDragonflyChecker makes sure checkDragonfly accepts relabelled groups
// and catches wrong ones, and that Dragonfly.Check catches the wrong ones
// that break an invariant.
func TestDragonflyChecker(t *testing.T) {
	net, group := dragonfly(t, 4, 2, "relative", false)
	g := FromNetwork(net)
	d, err := MapDragonfly(g)
	if err != nil {
		t.Fatal(err)
	}
	id := identity(len(net.Switches))
	global := slices.Index(d.Local, false)
	// relocal recomputes the local flags from the groups.
	relocal := func(d *Dragonfly) {
		for i, l := range g.Links {
			d.Local[i] = d.Group[l.A] == d.Group[l.B]
		}
	}
	tests := []struct {
		name   string
		mutate func(d *Dragonfly)
		ok     bool // still exact
		check  string
	}{
		{"unchanged", func(*Dragonfly) {}, true, ""},
		{"groups relabelled", func(d *Dragonfly) {
			for s := range d.Group {
				d.Group[s] = d.Groups - 1 - d.Group[s]
			}
		}, true, ""},
		{"switch moved", func(d *Dragonfly) { d.Group[0] = d.Group[4]; relocal(d) }, false, "group 1 has 5 switches, more than K = 4"},
		{"switch split off", func(d *Dragonfly) { d.Group[0] = d.Groups; d.Groups++; relocal(d) }, false, "10 groups, more than the 9"},
		{"global link taken for local", func(d *Dragonfly) { d.Local[global] = true }, false, "local true, groups"},
		{"two groups merged", func(d *Dragonfly) {
			for s := range d.Group {
				if d.Group[s] == 1 {
					d.Group[s] = 0
				}
			}
			relocal(d)
		}, false, "group 0 has 8 switches, more than K = 4"},
		{"G too small", func(d *Dragonfly) { d.Model.GlobalPerSwitch = 1 }, true, "global links, more than G = 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := *d
			m.Group, m.Local = slices.Clone(d.Group), slices.Clone(d.Local)
			tc.mutate(&m)
			if err := checkDragonfly(&m, g, id, group); (err == nil) != tc.ok {
				t.Errorf("checkDragonfly: %v, want ok = %v", err, tc.ok)
			}
			err := m.Check(g)
			if tc.check == "" && err != nil || tc.check != "" && (err == nil || !strings.Contains(err.Error(), tc.check)) {
				t.Errorf("Check: %v, want %q", err, tc.check)
			}
		})
	}
}
