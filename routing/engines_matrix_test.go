package routing

import (
	"slices"
	"strings"
	"testing"

	"netsim/topologies"
)

// tableEngines lists the table engines of engine, in the order of docs/experiment-file.md.
var tableEngines = []string{"minhop", "updn", "ftree", "dmodk", "sssp", "p2sssp", "dfsssp", "lash", "nue"}

// familyNetworks are small instances of every topology family Build knows
// (the kinds of topologies.Build), for the engine × family matrix.
func familyNetworks() []struct {
	family string
	spec   topologies.Spec
} {
	return []struct {
		family string
		spec   topologies.Spec
	}{
		{"crossbar", topologies.Spec{Kind: "crossbar", Hosts: 6}},
		{"ring", topologies.Spec{Kind: "ring", Switches: 6, Widths: []int{2}, HostsPerSwitch: 2}},
		{"torus", topologies.Spec{Kind: "torus", Dims: []int{4, 3}, HostsPerSwitch: 2}},
		{"hypercube", topologies.Spec{Kind: "hypercube", Dimension: 3, Width: 2, HostsPerSwitch: 2}},
		{"flatfly", topologies.Spec{Kind: "flatfly", Dims: []int{3, 4}, HostsPerSwitch: 2}},
		{"hyperx", topologies.Spec{Kind: "hyperx", Dims: []int{2, 3}, Widths: []int{2, 1}, HostsPerSwitch: 2}},
		{"dragonfly", topologies.Spec{Kind: "dragonfly", GroupSize: 2, GlobalPerSwitch: 1, HostsPerSwitch: 1}},
		{"slimfly", topologies.Spec{Kind: "slimfly", Q: 3, HostsPerSwitch: 1}},
		{"product", topologies.Spec{Kind: "product", HostsPerSwitch: 1, Factors: []topologies.Spec{{Kind: "slimfly", Q: 3}, {Kind: "flatfly", Dims: []int{2}}}}},
		{"kautz", topologies.Spec{Kind: "kautz", B: 2, N: 2, HostsPerSwitch: 2}},
		{"random", topologies.Spec{Kind: "random", Switches: 12, HostsPerSwitch: 2, Links: 20, Seed: 3}},
		{"clos", topologies.Spec{Kind: "clos", Ports: 8, Hosts: 32}},
		{"fattree", topologies.Spec{Kind: "fattree", K: 4, N: 3}},
		{"xgft", topologies.Spec{Kind: "xgft", M: []int{3, 2}, W: []int{2, 2}, Hosts: 12}},
		{"deimos", topologies.Spec{Kind: "deimos", Ports: 8, BoxHosts: []int{28, 24, 28}, ChainLinks: 4}},
		{"file", topologies.Spec{Kind: "file", Path: "../topologies/testdata/fabric.ibnetdiscover", Format: "ibnetdiscover"}},
	}
}

// TestEngineFamilyMatrix routes every table engine on every topology
// family (docs/experiment-file.md, "Engines × topology families"):
// either every host pair is reachable by the tables, on a switch path of
// at most the shortest length for the minimal engines and with an
// acyclic channel dependency graph for the deadlock-free ones, or New
// returns an error that says why.
func TestEngineFamilyMatrix(t *testing.T) {
	// refused holds the engines a family does not accept and a part of the
	// error that must explain it.
	treeOnly := "applies to the tree families (clos, fattree, xgft)"
	refused := map[string]string{"ftree": treeOnly, "dmodk": treeOnly}
	// A crossbar is a fat tree of one level, which ftree and dmodk detect.
	treeKinds := []string{"clos", "fattree", "xgft", "crossbar"}
	minimal := map[string]bool{"minhop": true, "sssp": true, "p2sssp": true, "dfsssp": true, "lash": true, "ftree": true, "dmodk": true}
	deadlockFree := map[string]bool{"updn": true, "dfsssp": true, "lash": true, "ftree": true, "dmodk": true, "nue": true}
	const vls = 15
	families := familyNetworks()
	for _, f := range families {
		net := mustBuild(t, f.spec)
		g := newGraph(net)
		dist := make([][]int32, g.n)
		for s := range g.n {
			dist[s] = make([]int32, g.n)
			if !g.bfs(s, dist[s], nil) {
				t.Fatalf("%s: test network is disconnected", f.family)
			}
		}
		for _, alg := range tableEngines {
			r, err := New(Spec{Algorithm: alg, VLs: vls}, net)
			if want, ok := refused[alg]; ok && !slices.Contains(treeKinds, f.family) {
				if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "algorithm:") {
					t.Errorf("%s on %s: error %v, want one starting with algorithm: and saying %q", alg, f.family, err, want)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s on %s: %v", alg, f.family, err)
				continue
			}
			tab := r.(*Tables)
			var path []int32
			for src, sa := range net.Hosts {
				for dst, da := range net.Hosts {
					if src == dst {
						continue
					}
					path, err = tab.Path(net, int(sa.Switch), dst, path[:0])
					if err != nil {
						t.Fatalf("%s on %s: host %d to %d: %v", alg, f.family, src, dst, err)
					}
					if path[len(path)-1] != da.Switch {
						t.Fatalf("%s on %s: host %d to %d ends at switch %d, not %d", alg, f.family, src, dst, path[len(path)-1], da.Switch)
					}
					if minimal[alg] && len(path)-1 != int(dist[sa.Switch][da.Switch]) {
						t.Fatalf("%s on %s: host %d to %d takes %d hops, shortest %d", alg, f.family, src, dst, len(path)-1, dist[sa.Switch][da.Switch])
					}
				}
			}
			if deadlockFree[alg] {
				if cyc := dependencyCycle(t, net, r, vls); cyc != nil {
					t.Errorf("%s on %s (%d layers): channel dependency cycle %v", alg, f.family, tab.Layers(), cyc)
				}
			}
		}
	}
	// Every kind Build knows has an instance here.
	for _, kind := range []string{"flatfly", "hyperx", "crossbar", "ring", "torus", "hypercube", "dragonfly", "slimfly", "product", "kautz", "random", "clos", "fattree", "xgft", "deimos", "file"} {
		if !slices.ContainsFunc(families, func(f struct {
			family string
			spec   topologies.Spec
		}) bool {
			return f.spec.Kind == kind
		}) {
			t.Errorf("no %s network in the matrix", kind)
		}
	}
}

// TestErrLayers: too few VLs for dfsssp or lash is an error naming vls
// and the layers needed, with a hint that depends on whether a link has
// that many VLs.
func TestErrLayers(t *testing.T) {
	tests := []struct {
		need, vls int
		want      string
	}{
		{2, 1, "vls: routing dfsssp needs 2 virtual layers on this network (one per acyclic part of its channel dependency graph), 1 configured; configure vls = 2"},
		{24, 15, "vls: routing dfsssp needs 24 virtual layers on this network (one per acyclic part of its channel dependency graph), 15 configured; more than the 16 virtual lanes a link has; use a routing that needs fewer (updn, or dor on its topology)"},
		{0, 255, "vls: routing dfsssp needs more than 255 virtual layers on this network (one per acyclic part of its channel dependency graph), 255 configured; more than the 16 virtual lanes a link has; use a routing that needs fewer (updn, or dor on its topology)"},
	}
	for _, tc := range tests {
		if got := errLayers("dfsssp", tc.need, tc.vls).Error(); got != tc.want {
			t.Errorf("errLayers(%d, %d) = %q, want %q", tc.need, tc.vls, got, tc.want)
		}
	}
}
