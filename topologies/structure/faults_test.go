package structure

import (
	"math"
	"slices"
	"strings"
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

// dragonflySeeds lists the fault draws of the Dragonfly fault tests.
var dragonflySeeds = []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}

// TestMapDragonflyFaults maps seed 004's Dragonfly (K = 16, G = 8, 128
// groups) with 40 % of the switches and 10 % of the links missing. With
// 40 % gone a group keeps 9.6 switches on average but now and then only
// 2–6, which steps 1–5 of MapDragonfly often leave split; every group must
// come out exactly, or the draw must be proven ambiguous (provenAmbiguous:
// the mapping and the truth both keep every invariant, and the truth is
// not more likely).
func TestMapDragonflyFaults(t *testing.T) {
	rejoined := 0
	for _, arr := range arrangements {
		net, group := dragonfly(t, 16, 8, arr, true)
		full := FromNetwork(net)
		for _, seed := range dragonflySeeds {
			g, orig := faulty(full, 0.40, 0.10, seed)
			if want := 2048 - 819; g.Switches() != want {
				t.Fatalf("seed %d: %d switches left, want %d", seed, g.Switches(), want)
			}
			d, err := MapDragonfly(g)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkDragonfly(d, g, orig, group); err != nil {
				if why := provenAmbiguous(d, g, orig, group); why != nil {
					t.Errorf("%s seed %d: %v, and not ambiguous: %v", arr, seed, err, why)
				} else {
					t.Logf("%s seed %d: ambiguous draw: %v", arr, seed, err)
				}
			}
			if err := d.Check(g); err != nil {
				t.Errorf("%s seed %d: Check: %v", arr, seed, err)
			}
			if m := d.Model; m.GroupSize != 16 || m.GlobalPerSwitch != 8 || m.Groups != 129 {
				t.Errorf("%s seed %d: inferred K = %d, G = %d, %d groups; want 16, 8, 129", arr, seed, m.GroupSize, m.GlobalPerSwitch, m.Groups)
			}
			if m := d.Model; math.Abs(m.SwitchSurvival-0.6) > 0.02 || math.Abs(m.LinkSurvival-0.9) > 0.02 {
				t.Errorf("%s seed %d: estimated %.3f of the switches and %.3f of the links present; want 0.6, 0.9", arr, seed, m.SwitchSurvival, m.LinkSurvival)
			}
			rejoined += d.Rejoined
		}
	}
	// Steps 1–5 alone leave groups split in about one draw of eight.
	if rejoined == 0 {
		t.Errorf("no switch rejoined in %d draws: the draws no longer exercise step 7", 3*len(dragonflySeeds))
	}
	t.Logf("%d switches rejoined their groups in %d draws", rejoined, 3*len(dragonflySeeds))
}

// TestMapDragonflyAmbiguousDraw runs a fault draw that no mapping can get
// right from the link list: a switch of a group of six kept one local
// link, to the other five, and one global link, to a group that also kept
// five switches; the two groupings keep every invariant and score the
// same. The test proves the ambiguity, and that provenAmbiguous rejects a
// grouping that keeps every invariant but is less likely than the truth.
func TestMapDragonflyAmbiguousDraw(t *testing.T) {
	net, group := dragonfly(t, 16, 8, "absolute", true)
	g, orig := faulty(FromNetwork(net), 0.40, 0.10, 951)
	d, err := MapDragonfly(g)
	if err != nil {
		t.Fatal(err)
	}
	if checkDragonfly(d, g, orig, group) == nil {
		t.Fatal("mapped exactly: the draw no longer shows an ambiguity")
	}
	if why := provenAmbiguous(d, g, orig, group); why != nil {
		t.Fatalf("not proven ambiguous: %v", why)
	}
	truth := truthDragonfly(d, g, orig, group)
	if sd, st := d.Model.Score(g, d.Group), d.Model.Score(g, truth.Group); math.Abs(sd-st) > 1e-9*math.Abs(st) {
		t.Errorf("scores %.6f (mapping) and %.6f (truth), want equal", sd, st)
	}
	// Splitting off the truth a switch with one local link and fewer than
	// G global ones keeps every invariant, but scores lower.
	wrong := truthDragonfly(d, g, orig, group)
	links := make([][2]int, g.Switches()) // local, global links
	for i, l := range g.Links {
		k := 1
		if wrong.Local[i] {
			k = 0
		}
		links[l.A][k]++
		links[l.B][k]++
	}
	s := slices.IndexFunc(links, func(c [2]int) bool { return c[0] == 1 && c[1] < 8 })
	if s < 0 {
		t.Fatal("no switch with one local link")
	}
	wrong.Group[s] = wrong.Groups
	wrong.Groups++
	for i, l := range g.Links {
		wrong.Local[i] = wrong.Group[l.A] >= 0 && wrong.Group[l.A] == wrong.Group[l.B]
	}
	if err := wrong.Check(g); err != nil {
		t.Fatalf("switch %s split off: %v", g.Names[s], err)
	}
	if why := provenAmbiguous(wrong, g, orig, group); why == nil || !strings.Contains(why.Error(), "higher than the mapping's") {
		t.Errorf("switch %s split off: %v, want the truth scoring higher", g.Names[s], why)
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
