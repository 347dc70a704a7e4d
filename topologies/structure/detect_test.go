package structure

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"netsim/kernel"
	"netsim/topologies"
)

// linkListGraph returns the network s describes as netsim topo recover
// reads it from its link list, without the fraction switchFrac of its
// switches and then linkFrac of the remaining links (drawn with seed, as
// the CLI tests of netsim topo recover draw them), and the number of
// switches left.
func linkListGraph(t *testing.T, s topologies.Spec, switchFrac, linkFrac float64, seed uint64) (*Graph, int) {
	t.Helper()
	g := FromNetwork(build(t, s))
	rng := kernel.NewRNG(seed, 7)
	alive := len(g.Damage(switchFrac, linkFrac, &rng))
	var buf bytes.Buffer
	if err := WriteLinkList(&buf, g); err != nil {
		t.Fatal(err)
	}
	read, err := ReadLinkList(&buf, "net.links")
	if err != nil {
		t.Fatal(err)
	}
	return read, alive
}

// readTestdata reads the link list testdata/name.
func readTestdata(t *testing.T, name string) *Graph {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := ReadLinkList(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestDetect(t *testing.T) {
	yes := true
	tests := []struct {
		name                 string
		spec                 topologies.Spec
		switchFrac, linkFrac float64
		family               string
		dims, widths         []int // sorted by K, then L
		groups, k, g         int
	}{
		{"FlatFly, 20 % switches and 15 % links missing",
			topologies.Spec{Kind: "flatfly", Dims: []int{4, 8, 8, 8}, Widths: []int{2, 1, 1, 1}, HostsPerSwitch: 8},
			0.2, 0.15, FamilyFlatFly, []int{4, 8, 8, 8}, []int{2, 1, 1, 1}, 0, 0, 0},
		{"hypercube 6-D",
			topologies.Spec{Kind: "hypercube", Dimension: 6, Width: 2, HostsPerSwitch: 1},
			0, 0, FamilyFlatFly, []int{2, 2, 2, 2, 2, 2}, []int{2, 2, 2, 2, 2, 2}, 0, 0, 0},
		{"Dragonfly K=16 G=8",
			topologies.Spec{Kind: "dragonfly", GroupSize: 16, GlobalPerSwitch: 8, HostsPerSwitch: 8, OmitOneGlobal: &yes},
			0, 0, FamilyDragonfly, nil, nil, 128, 16, 8},
		{"Dragonfly K=6 G=3 relative",
			topologies.Spec{Kind: "dragonfly", GroupSize: 6, GlobalPerSwitch: 3, HostsPerSwitch: 2, Arrangement: "relative"},
			0, 0, FamilyDragonfly, nil, nil, 19, 6, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, alive := linkListGraph(t, tc.spec, tc.switchFrac, tc.linkFrac, 1)
			if g.Switches() != alive {
				t.Fatalf("%d switches read back, want %d", g.Switches(), alive)
			}
			d, err := Detect(g, DragonflyShape{})
			if err != nil {
				t.Fatal(err)
			}
			if d.Family != tc.family || (d.FlatFly != nil) != (tc.family == FamilyFlatFly) || (d.Dragonfly != nil) != (tc.family == FamilyDragonfly) {
				t.Fatalf("family %q, FlatFly %v, Dragonfly %v; want %q and its mapping only", d.Family, d.FlatFly != nil, d.Dragonfly != nil, tc.family)
			}
			if f := d.FlatFly; f != nil {
				type kl struct{ k, l int }
				got := make([]kl, len(f.Dims))
				for i := range f.Dims {
					got[i] = kl{f.Dims[i], f.Widths[i]}
				}
				slices.SortFunc(got, func(a, b kl) int { return a.k*100 + b.l - b.k*100 - a.l })
				for i := range got {
					if i >= len(tc.dims) || got[i] != (kl{tc.dims[i], tc.widths[i]}) {
						t.Fatalf("K = %v, L = %v; want %v, %v", f.Dims, f.Widths, tc.dims, tc.widths)
					}
				}
				if f.Fill() < minFill || f.NeighbourFill(g) < minFill || (tc.switchFrac == 0 && (f.Fill() != 1 || f.NeighbourFill(g) != 1)) {
					t.Errorf("fill %v, neighbour fill %v", f.Fill(), f.NeighbourFill(g))
				}
				for i, l := range g.Links {
					if f.LinkDim[i] < 0 && f.Mapped == g.Switches() {
						t.Errorf("link %s–%s has no dimension", g.Names[l.A], g.Names[l.B])
					}
				}
				return
			}
			df := d.Dragonfly
			if df.Groups != tc.groups || df.GroupSize != tc.k || df.GlobalPerSwitch != tc.g || df.Mapped != g.Switches() {
				t.Errorf("%d groups, K = %d, G = %d, %d mapped; want %d, %d, %d, %d", df.Groups, df.GroupSize, df.GlobalPerSwitch, df.Mapped, tc.groups, tc.k, tc.g, g.Switches())
			}
			for s, grp := range df.Group {
				if grp < 0 || grp >= df.Groups {
					t.Fatalf("switch %s: group %d", g.Names[s], grp)
				}
			}
			if want := tc.groups * tc.k * (tc.k - 1) / 2; df.LocalLinks() != want {
				t.Errorf("%d local links, want %d", df.LocalLinks(), want)
			}
		})
	}
}

// TestDetectExamples detects docs/cli.md's examples of netsim topo
// recover: a 3 × 2 FlatFly and a faulty Dragonfly of 8 groups.
func TestDetectExamples(t *testing.T) {
	g := readTestdata(t, "ff3x2.links")
	d, err := Detect(g, DragonflyShape{})
	if err != nil || d.Family != FamilyFlatFly || !slices.Equal(d.FlatFly.Dims, []int{3, 2}) || d.FlatFly.Fill() != 1 || d.FlatFly.NeighbourFill(g) != 1 {
		t.Errorf("ff3x2.links: %+v, %v", d, err)
	}
	g = readTestdata(t, "df4x2-faults.links")
	d, err = Detect(g, DragonflyShape{})
	if err != nil || d.Family != FamilyDragonfly || d.Dragonfly.Groups != 8 || d.Dragonfly.LocalLinks() != 41 || d.Dragonfly.Rejoined != 4 {
		t.Errorf("df4x2-faults.links: %+v, %v", d, err)
	}
}

// TestDetectNeither: a network of neither family, or too sparse a
// FlatFly, is not recognised, and the error says why.
func TestDetectNeither(t *testing.T) {
	tests := []struct {
		name, links, want string
	}{
		{"ring", "a b\nb c\nc d\nd e\ne f\nf g\ng a\n",
			"not recognised: not a FlatFly (link g–a fits no dimension), and not a Dragonfly (7 groups, more than the 2 of a Dragonfly with K = 1, G = 1)"},
		// Four links without a triangle or a rectangle: four dimensions of
		// size 2, 5 of their 16 switches.
		{"star", "c l1\nc l2\nc l3\nc l4\n",
			"not recognised: not a FlatFly (the mapping covers 31 % of the switches of the complete FlatFly 2 × 2 × 2 × 2 and 40 % of their neighbours (need 50 %)), and not a Dragonfly (5 groups, more than the 2 of a Dragonfly with K = 1, G = 1)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadLinkList(strings.NewReader(tc.links), tc.name)
			if err != nil {
				t.Fatal(err)
			}
			d, err := Detect(g, DragonflyShape{})
			if d != nil || err == nil || err.Error() != tc.want {
				t.Errorf("Detect: %+v, %v; want nil and\n%s", d, err, tc.want)
			}
		})
	}
}
