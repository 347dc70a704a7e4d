package routing

import (
	"context"
	"strings"
	"testing"

	"netsim/topologies"
)

// extraHops returns the hops t's paths take beyond the shortest, and the
// shortest, summed over every (switch, host) pair.
func extraHops(net *topologies.Network, t *Tables) (extra, shortest int) {
	g := newGraph(net)
	dist := make([]int32, g.n)
	var path []int32
	for d, a := range net.Hosts {
		g.bfs(int(a.Switch), dist, nil)
		for s := range g.n {
			path, _ = t.Path(net, s, d, path[:0])
			extra += len(path) - 1 - int(dist[s])
			shortest += int(dist[s])
		}
	}
	return extra, shortest
}

// TestNue routes Nue on rings, tori, a hypercube, random networks, a
// Dragonfly, a Slim Fly and a Kautz graph with 1, 2, 4 and 8 VLs and
// checks that its channel dependency graph over the VLs is acyclic, that
// it uses one layer per VL, that no destination needed the escape-path
// fallback, and that its paths stay near the shortest: Nue trades path
// length for deadlock freedom within the VLs (on one VL a ring's paths
// must detour), less so the more VLs it has.
func TestNue(t *testing.T) {
	cases := []struct {
		name string
		spec topologies.Spec
		// extra bounds the hops beyond the shortest, in % of the
		// shortest, on 1 VL and on 8.
		extra1, extra8 float64
	}{
		{"ring", topologies.Spec{Kind: "ring", Switches: 8, HostsPerSwitch: 2}, 15, 5},
		{"torus 4x4", topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 2}, 3, 1},
		{"torus 6x6x6", topologies.Spec{Kind: "torus", Dims: []int{6, 6, 6}, HostsPerSwitch: 1}, 14, 5},
		{"torus 8x8", topologies.Spec{Kind: "torus", Dims: []int{8, 8}, HostsPerSwitch: 2}, 18, 9},
		{"hypercube", topologies.Spec{Kind: "hypercube", Dimension: 6, HostsPerSwitch: 2}, 2, 1},
		{"random 64", topologies.Spec{Kind: "random", Switches: 64, HostsPerSwitch: 4, Links: 160, Seed: 3}, 10, 8},
		{"random 200", topologies.Spec{Kind: "random", Switches: 200, HostsPerSwitch: 2, Links: 600, Seed: 5}, 15, 12},
		{"dragonfly", topologies.Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 2}, 16, 3},
		{"slimfly", topologies.Spec{Kind: "slimfly", Q: 5, HostsPerSwitch: 2}, 18, 2},
		{"kautz", topologies.Spec{Kind: "kautz", B: 3, N: 3, HostsPerSwitch: 2}, 10, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			net := mustBuild(t, c.spec)
			for _, vls := range []int{1, 2, 4, 8} {
				tab, x, err := nueTables(net, vls)
				if err != nil {
					t.Fatal(err)
				}
				if err := tab.check(net); err != nil {
					t.Fatal(err)
				}
				rep, err := CheckDeadlock(context.Background(), tab, net, CheckOptions{VLs: vls})
				if err != nil {
					t.Fatal(err)
				}
				if !rep.Acyclic() {
					t.Errorf("%d VLs: cyclic: %v", vls, rep.Cycle)
				}
				if tab.Layers() != vls {
					t.Errorf("%d VLs: %d layers", vls, tab.Layers())
				}
				if x.fallbacks > 0 {
					t.Errorf("%d VLs: %d of %d destinations took their escape paths", vls, x.fallbacks, len(net.Hosts))
				}
				e, s := extraHops(net, tab)
				pct := 100 * float64(e) / float64(s)
				t.Logf("%d VLs: %.1f %% extra hops", vls, pct)
				if bound := map[int]float64{1: c.extra1, 8: c.extra8}[vls]; bound > 0 && pct > bound {
					t.Errorf("%d VLs: paths take %.1f %% more hops than the shortest, more than %.0f %%", vls, pct, bound)
				}
			}
		})
	}
}

// TestNueEscape routes every destination of a torus on its escape paths
// (Nue's fallback) and checks that these alone are deadlock-free on one
// VL and reach every host.
func TestNueEscape(t *testing.T) {
	net := mustBuild(t, topologies.Spec{Kind: "torus", Dims: []int{5, 4}, HostsPerSwitch: 2})
	g := newGraph(net)
	x := newNueState(g, net)
	tab := newTables("nue", net, 1)
	all := make([]int32, len(net.Hosts))
	for i := range all {
		all[i] = int32(i)
	}
	x.startLayer(net, all)
	for d, a := range net.Hosts {
		x.escape(a.Switch)
		for s := range g.n {
			if c := x.out[s]; c >= 0 {
				tab.lft[s*tab.hosts+d] = uint16(g.chPort[c])
			}
		}
	}
	if err := tab.check(net); err != nil {
		t.Fatal(err)
	}
	rep, err := CheckDeadlock(context.Background(), tab, net, CheckOptions{VLs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Acyclic() {
		t.Errorf("escape paths are cyclic: %v", rep.Cycle)
	}
	// Every escape dependency is one the layer marked used.
	for d := range net.Hosts {
		for s := range g.n {
			x.out[s] = -1
			if s != int(net.Hosts[d].Switch) {
				x.out[s] = g.chOf[s][tab.lft[s*tab.hosts+d]]
			}
		}
		for s := range g.n {
			if c := x.out[s]; c >= 0 {
				if f := x.out[g.chTo[c]]; f >= 0 && x.used[x.dep(c, f)] == 0 {
					t.Fatalf("host %d: the escape path from switch %d turns on a dependency the layer does not use", d, s)
				}
			}
		}
	}
}

// TestNueDisconnected checks that a disconnected network is an error.
func TestNueDisconnected(t *testing.T) {
	net := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 4, HostsPerSwitch: 1})
	// Cut both links of switch 0.
	for p, port := range net.Switches[0].Ports {
		if port.Kind == topologies.SwitchPort {
			peer := &net.Switches[port.Peer].Ports[port.PeerPort]
			*peer = topologies.Port{}
			net.Switches[0].Ports[p] = topologies.Port{}
		}
	}
	if _, err := newNue(net, 1); err == nil || !strings.Contains(err.Error(), "network is disconnected") {
		t.Fatalf("error %v, want the network named disconnected", err)
	}
}
