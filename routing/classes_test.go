package routing

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"netsim/topologies"
)

// TestClasses checks how classes split the link VLs: contiguous ranges
// covering every VL, of sizes differing by at most one, and errors for
// impossible maps.
func TestClasses(t *testing.T) {
	for _, c := range []struct {
		classes, vls int
		ranges       string
	}{
		{1, 1, "[0,1)"},
		{1, 8, "[0,8)"},
		{5, 8, "[0,1) [1,3) [3,4) [4,6) [6,8)"},
		{3, 8, "[0,2) [2,5) [5,8)"},
		{6, 6, "[0,1) [1,2) [2,3) [3,4) [4,5) [5,6)"},
		{2, 16, "[0,8) [8,16)"},
	} {
		cl, err := NewClasses(c.classes, c.vls)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for k := range cl.Len() {
			lo, hi := cl.Range(k)
			got = append(got, fmt.Sprintf("[%d,%d)", lo, hi))
			if m := cl.Mask(k); m != uint16(1<<hi-1<<lo) {
				t.Errorf("%d over %d: class %d mask %b", c.classes, c.vls, k, m)
			}
			for v := lo; v < hi; v++ {
				if cl.Of(v) != k {
					t.Errorf("%d over %d: VL %d in class %d, Of says %d", c.classes, c.vls, v, k, cl.Of(v))
				}
			}
		}
		if s := fmt.Sprint(got); s != "["+c.ranges+"]" || cl.VLs() != c.vls {
			t.Errorf("%d classes over %d VLs: %s on %d VLs, want [%s]", c.classes, c.vls, s, cl.VLs(), c.ranges)
		}
	}
	for _, c := range [][2]int{{0, 4}, {5, 4}, {2, 17}} {
		if _, err := NewClasses(c[0], c[1]); err == nil {
			t.Errorf("NewClasses(%d, %d) accepted", c[0], c[1])
		}
	}
}

// TestClassRoutings builds routings of every kind for dynamic VL choice
// (Spec.Classes) on more VLs than they need: each is built on its own VLs
// (as many as the static one needs), every source VL is a class, and
// when its channel dependency graph over classes is acyclic so is the
// static routing's (copies of a VL layout add no cycle). The converse
// fails where copies, each for a share of the destinations, break the
// cycles of the layout they copy: minhop's one layer has a cycle, which
// dynamic VL choice keeps, while 12 copies by destination have none.
func TestClassRoutings(t *testing.T) {
	yes := true
	for _, c := range []struct {
		topo topologies.Spec
		alg  string
	}{
		{topologies.Spec{Kind: "flatfly", Dims: []int{3, 4}, HostsPerSwitch: 4}, "dor"},
		{topologies.Spec{Kind: "flatfly", Dims: []int{3, 4}, HostsPerSwitch: 4}, "twisted-mixed-ador"},
		{topologies.Spec{Kind: "flatfly", Dims: []int{3, 4}, HostsPerSwitch: 2}, "distance+2"},
		{topologies.Spec{Kind: "flatfly", Dims: []int{3, 4}, HostsPerSwitch: 2}, "deflection+2"},
		{topologies.Spec{Kind: "torus", Dims: []int{4, 3}, HostsPerSwitch: 2}, "dor"},
		{topologies.Spec{Kind: "hypercube", Dimension: 3, Width: 2, HostsPerSwitch: 2}, "negative-first"},
		{topologies.Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 2, OmitOneGlobal: &yes}, "GSID"},
		{topologies.Spec{Kind: "ring", Switches: 6, HostsPerSwitch: 2}, "dor-nodateline"},
		{topologies.Spec{Kind: "random", Switches: 12, HostsPerSwitch: 2, Links: 20, Seed: 3}, "dfsssp"},
		{topologies.Spec{Kind: "random", Switches: 12, HostsPerSwitch: 2, Links: 20, Seed: 3}, "minhop"},
		{topologies.Spec{Kind: "fattree", K: 4, N: 3}, "updn"},
	} {
		net := mustBuild(t, c.topo)
		const vls = 12
		static, err := New(Spec{Algorithm: c.alg, VLs: vls}, net)
		if err != nil {
			t.Fatal(err)
		}
		classed, err := New(Spec{Algorithm: c.alg, VLs: vls, Classes: true}, net)
		if err != nil {
			t.Fatal(err)
		}
		need := static.VLs()
		if classed.VLs() != need {
			t.Errorf("%s: class routing has %d classes, the static one needs %d VLs", c.alg, classed.VLs(), need)
		}
		var vlsSeen []int
		for src := range net.Hosts {
			for dst := range net.Hosts {
				_, _, vl := classed.Source(src, dst)
				if vl < 0 || vl >= need {
					t.Fatalf("%s: host %d to %d starts on class %d of %d", c.alg, src, dst, vl, need)
				}
				if !slices.Contains(vlsSeen, vl) {
					vlsSeen = append(vlsSeen, vl)
				}
			}
		}
		a, err := CheckDeadlock(context.Background(), static, net, CheckOptions{VLs: vls})
		if err != nil {
			t.Fatal(err)
		}
		b, err := CheckDeadlock(context.Background(), classed, net, CheckOptions{VLs: need})
		if err != nil {
			t.Fatal(err)
		}
		if b.Acyclic() && !a.Acyclic() || a.Acyclic() != b.Acyclic() && c.alg != "minhop" {
			t.Errorf("%s: static graph acyclic %v, class graph %v", c.alg, a.Acyclic(), b.Acyclic())
		}
		t.Logf("%s: %d classes (source classes %v), acyclic %v", c.alg, need, vlsSeen, b.Acyclic())
	}
}
