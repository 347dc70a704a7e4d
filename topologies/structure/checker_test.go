package structure

import (
	"slices"
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
// and catches wrong ones.
func TestDragonflyChecker(t *testing.T) {
	net, group := dragonfly(t, 4, 2, "relative", false)
	g := FromNetwork(net)
	d, err := MapDragonfly(g)
	if err != nil {
		t.Fatal(err)
	}
	id := identity(len(net.Switches))
	global := slices.Index(d.Local, false)
	tests := []struct {
		name    string
		mutate  func(d *Dragonfly)
		minSize int
		ok      bool
	}{
		{"unchanged", func(*Dragonfly) {}, 0, true},
		{"groups relabelled", func(d *Dragonfly) {
			for s := range d.Group {
				d.Group[s] = d.Groups - 1 - d.Group[s]
			}
		}, 0, true},
		{"switch moved", func(d *Dragonfly) { d.Group[0] = d.Group[4] }, 0, false},
		{"switch split off", func(d *Dragonfly) { d.Group[0] = d.Groups; d.Groups++ }, 0, false},
		{"switch split off, small groups tolerated", func(d *Dragonfly) {
			d.Group[0] = d.Groups
			d.Groups++
			for i, l := range g.Links {
				if l.A == 0 || l.B == 0 {
					d.Local[i] = false
				}
			}
		}, 5, true},
		{"switch split off, group not small", func(d *Dragonfly) {
			d.Group[0] = d.Groups
			d.Groups++
			for i, l := range g.Links {
				if l.A == 0 || l.B == 0 {
					d.Local[i] = false
				}
			}
		}, 4, false},
		{"global link taken for local", func(d *Dragonfly) { d.Local[global] = true }, 0, false},
		{"two groups merged", func(d *Dragonfly) {
			for s := range d.Group {
				if d.Group[s] == 1 {
					d.Group[s] = 0
				}
			}
		}, 5, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := *d
			m.Group, m.Local = slices.Clone(d.Group), slices.Clone(d.Local)
			tc.mutate(&m)
			if err := checkDragonfly(&m, g, id, group, tc.minSize); (err == nil) != tc.ok {
				t.Errorf("checkDragonfly: %v, want ok = %v", err, tc.ok)
			}
		})
	}
}
