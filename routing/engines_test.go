package routing

import (
	"strings"
	"testing"

	"netsim/topologies"
)

// engineNetworks are small networks of several families for the engines.
func engineNetworks() map[string]topologies.Spec {
	return map[string]topologies.Spec{
		"ring5":     {Kind: "ring", Switches: 5, HostsPerSwitch: 2},
		"torus4x3":  {Kind: "torus", Dims: []int{4, 3}, HostsPerSwitch: 2},
		"flatfly":   {Kind: "flatfly", Dims: []int{3, 4}, HostsPerSwitch: 2},
		"cube":      {Kind: "hypercube", Dimension: 3, HostsPerSwitch: 2},
		"fattree":   {Kind: "fattree", K: 4, N: 3},
		"xgft":      {Kind: "xgft", M: []int{3, 2}, W: []int{2, 2}, Hosts: 12},
		"clos":      {Kind: "clos", Ports: 8, Hosts: 32},
		"random":    {Kind: "random", Switches: 12, HostsPerSwitch: 2, Links: 20, Seed: 3},
		"dragonfly": {Kind: "dragonfly", GroupSize: 2, GlobalPerSwitch: 1, HostsPerSwitch: 1},
	}
}

func TestEnginesRouteEveryPair(t *testing.T) {
	// Engines that route every pair on a shortest switch path, and those
	// that must give an acyclic channel dependency graph.
	minimalEngines := map[string]bool{"minhop": true, "sssp": true, "p2sssp": true, "dfsssp": true, "lash": true, "ftree": true, "dmodk": true}
	deadlockFree := map[string]bool{"updn": true, "dfsssp": true, "lash": true, "ftree": true, "dmodk": true}
	for netName, spec := range engineNetworks() {
		net := mustBuild(t, spec)
		g := newGraph(net)
		dist := make([][]int32, g.n)
		for s := range g.n {
			dist[s] = make([]int32, g.n)
			g.bfs(s, dist[s], nil)
		}
		for _, alg := range []string{"minhop", "updn", "sssp", "p2sssp", "dfsssp", "lash", "ftree", "dmodk"} {
			r, err := New(Spec{Algorithm: alg, VLs: 8}, net)
			if alg == "ftree" || alg == "dmodk" {
				if !isTreeKind(net.Kind) {
					if err == nil || !strings.Contains(err.Error(), "tree families") {
						t.Errorf("%s on %s: error %v, want one saying it applies to tree families", alg, netName, err)
					}
					continue
				}
			}
			if err != nil {
				t.Errorf("%s on %s: %v", alg, netName, err)
				continue
			}
			tab := r.(*Tables)
			var path []int32
			for s := range g.n {
				for d, a := range net.Hosts {
					path, err = tab.Path(net, s, d, path[:0])
					if err != nil {
						t.Fatalf("%s on %s: %v", alg, netName, err)
					}
					if minimalEngines[alg] && len(path)-1 != int(dist[s][a.Switch]) {
						t.Errorf("%s on %s: path %v from switch %d to host %d is not minimal (%d hops)", alg, netName, path, s, d, dist[s][a.Switch])
					}
				}
			}
			if deadlockFree[alg] {
				if cyc := dependencyCycle(t, net, r, 8); cyc != nil {
					t.Errorf("%s on %s (%d layers): channel dependency cycle %v", alg, netName, tab.Layers(), cyc)
				}
				// Also on exactly as many VLs as layers (updn, ftree, dmodk: 1).
				tight, err := New(Spec{Algorithm: alg, VLs: tab.Layers()}, net)
				if err != nil {
					t.Fatalf("%s on %s with %d VLs: %v", alg, netName, tab.Layers(), err)
				}
				if (alg == "updn" || alg == "ftree" || alg == "dmodk") && tight.VLs() != 1 {
					t.Errorf("%s on %s needs %d VLs, want 1", alg, netName, tight.VLs())
				}
				if cyc := dependencyCycle(t, net, tight, tab.Layers()); cyc != nil {
					t.Errorf("%s on %s on %d VLs: channel dependency cycle %v", alg, netName, tab.Layers(), cyc)
				}
			}
		}
	}
}

// TestTablesRouteAllocs: Route is one lookup and does not allocate.
func TestTablesRouteAllocs(t *testing.T) {
	net := mustBuild(t, topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 2})
	r, err := New(Spec{Algorithm: "dfsssp", VLs: 4}, net)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]Candidate, 0, 8)
	allocs := testing.AllocsPerRun(100, func() {
		for d := range int32(len(net.Hosts)) {
			out = r.Route(3, 0, 0, 0, d, out[:0])
		}
	})
	if allocs != 0 || len(out) != 1 {
		t.Errorf("Route allocates %.0f times, returned %d candidates", allocs, len(out))
	}
}

// TestTreeUpPortBalance: on a 3-level 4-ary fat tree minhop, ftree and
// dmodk give each up port of a switch the same number of destinations
// (±1) among the destinations that leave the switch upwards.
func TestTreeUpPortBalance(t *testing.T) {
	net := mustBuild(t, topologies.Spec{Kind: "fattree", K: 4, N: 3})
	for _, alg := range []string{"minhop", "ftree", "dmodk"} {
		r, err := New(Spec{Algorithm: alg, VLs: 1}, net)
		if err != nil {
			t.Fatal(err)
		}
		tab := r.(*Tables)
		for s, sw := range net.Switches {
			count := map[int]int{}
			for p, port := range sw.Ports {
				if port.Kind == topologies.SwitchPort && net.Switches[port.Peer].Coord[0] > sw.Coord[0] {
					count[p] = 0
				}
			}
			if len(count) == 0 {
				continue
			}
			for d := range net.Hosts {
				if p := tab.Port(s, int32(d)); p >= 0 {
					if _, up := count[p]; up {
						count[p]++
					}
				}
			}
			lo, hi := len(net.Hosts), 0
			for _, c := range count {
				lo, hi = min(lo, c), max(hi, c)
			}
			if hi-lo > 1 || hi == 0 {
				t.Errorf("%s: switch %d up ports carry %v destinations", alg, s, count)
			}
		}
	}
}
