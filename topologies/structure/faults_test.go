package structure

import (
	"testing"

	"netsim/topologies"
)

// The fault tests follow seed 004 §2: a fraction of the switches is
// removed at random (with their links), then a fraction of the remaining
// links (cables: each of L parallel links counts once). The recovered
// structure covers the largest connected component of what is left.

// seeds lists the fault draws every fault test runs.
var seeds = []uint64{1, 2, 3, 4, 5, 6}

func TestMapFlatFlyFaults(t *testing.T) {
	tests := []struct {
		name                 string
		spec                 topologies.Spec
		switchFrac, linkFrac float64
		wantSwitches         int // left after the faults
	}{
		{"FlatFly 4x8x8x8 (2,1,1,1), 20% switches, 15% links",
			topologies.Spec{Kind: "flatfly", Dims: []int{4, 8, 8, 8}, Widths: []int{2, 1, 1, 1}, HostsPerSwitch: 8},
			0.20, 0.15, 1638},
		{"hypercube 11-D width 2, 15% switches, 10% links",
			topologies.Spec{Kind: "hypercube", Dimension: 11, Width: 2, HostsPerSwitch: 8},
			0.15, 0.10, 1741},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net := build(t, tc.spec)
			full := FromNetwork(net)
			for _, seed := range seeds {
				g, orig := faulty(full, tc.switchFrac, tc.linkFrac, seed)
				if g.Switches() != tc.wantSwitches {
					t.Fatalf("seed %d: %d switches left, want %d", seed, g.Switches(), tc.wantSwitches)
				}
				f, err := MapFlatFly(g)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if err := checkFlatFly(f, g, orig, net); err != nil {
					t.Errorf("seed %d: %v", seed, err)
				}
				if err := f.Check(g); err != nil {
					t.Errorf("seed %d: Check: %v", seed, err)
				}
			}
		})
	}
}

// TestMapFlatFlyStrayLinks runs a fault draw in which the seed's rules
// alone leave a link in a class of its own (an extra "dimension" that
// would merge two coordinate values of its true dimension), and checks
// that the mapping still comes out right.
func TestMapFlatFlyStrayLinks(t *testing.T) {
	net := build(t, topologies.Spec{Kind: "hypercube", Dimension: 11, Width: 2, HostsPerSwitch: 8})
	g, orig := faulty(FromNetwork(net), 0.15, 0.10, 39)
	sg := newSimpleGraph(g)
	if _, classes := epsilon(sg, true).labels(nil); classes <= 11 {
		t.Fatalf("ε has %d classes: this draw no longer exercises stray links", classes)
	}
	f, err := MapFlatFly(g)
	if err != nil {
		t.Fatal(err)
	}
	if f.Stray == 0 {
		t.Error("Stray = 0, want the stray links counted")
	}
	if err := checkFlatFly(f, g, orig, net); err != nil {
		t.Error(err)
	}
}

func TestMapDragonflyFaults(t *testing.T) {
	// Seed 004's Dragonfly: K = 16, G = 8, 128 groups. With 40 % of the
	// switches gone a group keeps 9.6 switches on average but now and
	// then only 2–6, which can be indistinguishable from several groups
	// (see MapDragonfly); groups that kept at least 7 must come out
	// exactly, and no two groups may ever be merged.
	const minSize = 7
	for _, arr := range arrangements {
		net, group := dragonfly(t, 16, 8, arr, true)
		full := FromNetwork(net)
		exact := 0
		for _, seed := range seeds {
			g, orig := faulty(full, 0.40, 0.10, seed)
			if want := 2048 - 819; g.Switches() != want {
				t.Fatalf("seed %d: %d switches left, want %d", seed, g.Switches(), want)
			}
			d, err := MapDragonfly(g)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkDragonfly(d, g, orig, group, minSize); err != nil {
				t.Errorf("%s seed %d: %v", arr, seed, err)
			}
			if checkDragonfly(d, g, orig, group, 0) == nil {
				exact++
			}
		}
		t.Logf("%s: %d of %d fault draws mapped exactly (every group)", arr, exact, len(seeds))
	}
}

// TestDragonflyRectanglesMergeGroups shows why MapDragonfly leaves out
// rule 4: on a complete Dragonfly the seed's full ε puts global links into
// classes of more than one edge, which the seed's §2.2 would take for the
// local links of a group — and in the relative and palm-tree arrangements
// into the very classes of the local links — so the seed's rule, taken
// literally, joins all 128 groups into one.
func TestDragonflyRectanglesMergeGroups(t *testing.T) {
	for _, arr := range arrangements {
		net, group := dragonfly(t, 16, 8, arr, true)
		g := FromNetwork(net)
		sg := newSimpleGraph(g)
		class, classes := epsilon(sg, true).labels(nil)
		edges := make([]int, classes)
		for _, c := range class {
			edges[c]++
		}
		local, global := map[int]bool{}, map[int]bool{}
		for i, l := range g.Links {
			if c := class[sg.linkEdge[i]]; group[l.A] == group[l.B] {
				local[c] = true
			} else if edges[c] > 1 {
				global[c] = true
			}
		}
		mixed := 0
		for c := range local {
			if global[c] {
				mixed++
			}
		}
		if len(global) == 0 {
			t.Errorf("%s: the full ε leaves every global link in a class of its own", arr)
		}
		if arr != "absolute" && mixed == 0 {
			t.Errorf("%s: no class of the full ε mixes local and global links", arr)
		}
		groups := newUnionFind(sg.n)
		for e, ends := range sg.ends {
			if edges[class[e]] > 1 {
				groups.union(int(ends[0]), int(ends[1]))
			}
		}
		if _, n := groups.labels(nil); n != 1 {
			t.Errorf("%s: the seed's rule taken literally finds %d groups, want 1 (all merged)", arr, n)
		}
		t.Logf("%s: full ε has %d classes; %d of more than one edge hold global links, %d of them local links too", arr, classes, len(global), mixed)
	}
}
