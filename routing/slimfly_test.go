package routing

import (
	"fmt"
	"testing"

	"netsim/kernel"
	"netsim/topologies"
)

// TestSlimFlyMinimal checks the algebraic routing against breadth-first
// search on Slim Flies over prime fields (q = 3, 5, 7, δ = −1, 1, −1) and
// extension fields (q = 4, 8, 9), one with parallel links: for every pair
// of switches the candidates are the ports to exactly the neighbours one
// hop closer to the destination, all High (so every path is a shortest
// path, of at most 2 hops, and the routing is fully adaptive among them).
// It then explores every state: legal candidates, VL 0 on the first hop
// and VL 1 on the second, no loop, an acyclic channel dependency graph,
// paths of at most 2 hops; and random walks arrive in BFS distance hops.
func TestSlimFlyMinimal(t *testing.T) {
	for _, tc := range []struct{ q, width, c int }{
		{3, 1, 1}, {4, 2, 1}, {4, 1, 2}, {5, 1, 1}, {7, 1, 1}, {8, 1, 1}, {9, 1, 1},
	} {
		t.Run(fmt.Sprintf("q=%d width=%d c=%d", tc.q, tc.width, tc.c), func(t *testing.T) {
			net, err := topologies.SlimFly(tc.q, tc.width, tc.c)
			if err != nil {
				t.Fatal(err)
			}
			r, err := New(Spec{Algorithm: "minimal", VLs: 2}, net)
			if err != nil {
				t.Fatal(err)
			}
			if r.Name() != "minimal" || r.VLs() != 2 {
				t.Fatalf("Name %q VLs %d", r.Name(), r.VLs())
			}
			dist := bruteDistances(net)
			c := net.HostsPerSwitch
			paths := map[string]int{}
			var cands []Candidate
			for s := range net.Switches {
				for d := range net.Switches {
					if dist[s][d] > 2 {
						t.Fatalf("switches %d and %d are %d apart, want at most 2", s, d, dist[s][d])
					}
					if s == d {
						continue
					}
					cands = r.Route(s, 0, 0, 0, int32(d*c), cands[:0])
					got := map[int]int{} // neighbour → ports offered
					for _, cd := range cands {
						if cd.Priority != High {
							t.Fatalf("%d→%d: candidate %v is not High", s, d, cd)
						}
						got[int(net.Switches[s].Ports[cd.Port].Peer)]++
					}
					want := map[int]int{}
					for _, p := range net.Switches[s].Ports {
						if p.Kind == topologies.SwitchPort && dist[p.Peer][d] == dist[s][d]-1 {
							want[int(p.Peer)]++
						}
					}
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Fatalf("%d %v → %d %v: candidates lead to %v (neighbour: ports), want %v",
							s, net.Switches[s].Coord, d, net.Switches[d].Coord, got, want)
					}
					if ts, td := net.Switches[s].Coord[0], net.Switches[d].Coord[0]; ts != td && dist[s][d] == 2 {
						paths[fmt.Sprint(len(want))]++
					}
				}
			}
			t.Logf("pairs in different halves 2 hops apart, by number of shortest paths: %v", paths)
			g := newRouteGraph(net, 2)
			for dst := range net.Hosts {
				g.explore(t, r, dst, func(st routeState, cands []Candidate) {
					want := 1
					if net.Switches[st.sw].Ports[st.inPort].Kind == topologies.HostPort {
						want = 0
					}
					for _, cd := range cands {
						if net.Switches[st.sw].Ports[cd.Port].Kind != topologies.SwitchPort {
							continue
						}
						if v := r.OutVL(st.sw, st.inPort, st.inVL, st.sl, int(cd.Port)); v != want {
							t.Fatalf("%+v to host %d: VL %d on port %d, want %d", st, dst, v, cd.Port, want)
						}
					}
				})
			}
			if g.longest != 2 {
				t.Errorf("longest path %d hops, want 2", g.longest)
			}
			if ok, cycle := g.acyclic(); !ok {
				t.Errorf("channel dependency graph has a cycle: %v", cycle)
			}
			rng := kernel.NewRNG(2, uint64(tc.q))
			for src := range net.Hosts {
				for dst := range net.Hosts {
					steps, _ := randomWalk(t, net, r, 2, src, dst, 2, &rng)
					if want := dist[src/c][dst/c]; len(steps) != want {
						t.Fatalf("%d→%d: %d hops, want %d", src, dst, len(steps), want)
					}
				}
			}
		})
	}
}

// TestSlimFlyMinimalErrors: networks that are not Slim Flies are refused
// with the reason.
func TestSlimFlyMinimalErrors(t *testing.T) {
	sf := func() *topologies.Network {
		net, err := topologies.SlimFly(5, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		return net
	}
	swapped := sf() // coordinates of two switches of one column exchanged
	swapped.Switches[1].Coord, swapped.Switches[2].Coord = swapped.Switches[2].Coord, swapped.Switches[1].Coord
	relabelled := sf() // columns x = 1 and x = 2 of half 0 exchanged
	for y := range int32(5) {
		relabelled.Switches[5+y].Coord = []int32{0, 2, y}
		relabelled.Switches[10+y].Coord = []int32{0, 1, y}
	}
	short := sf()
	short.Switches = short.Switches[:49]
	for _, tc := range []struct {
		name string
		net  *topologies.Network
		want string
	}{
		{"swapped y", swapped, "routing minimal: network is not a Slim Fly: t-link from switch 1 [0 0 2] to 26 [1 0 1] breaks y0 = x0·x1 + y1"},
		{"relabelled x", relabelled, "routing minimal: network is not a Slim Fly: the t-links do not make coordinates 0 and 1 the zero and one of GF(5)"},
		{"not 2q² switches", short, "routing minimal: network is not a Slim Fly: 49 switches are not 2q² for any q ≥ 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := newSlimFlyMinimal(tc.net, 2)
			if err == nil {
				t.Fatalf("accepted, as %s", r.Name())
			}
			if err.Error() != tc.want {
				t.Fatalf("error\n got %q\nwant %q", err, tc.want)
			}
		})
	}
}

// BenchmarkSlimFlyRoute routes on the Slim Fly over GF(32) (2,048
// switches, the size seed 004 considers): one Route call per iteration.
func BenchmarkSlimFlyRoute(b *testing.B) {
	net, err := topologies.SlimFly(32, 1, 8)
	if err != nil {
		b.Fatal(err)
	}
	r, err := New(Spec{Algorithm: "minimal", VLs: 2}, net)
	if err != nil {
		b.Fatal(err)
	}
	out := make([]Candidate, 0, 64)
	nh, ns := len(net.Hosts), len(net.Switches)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		dlid, sl, vl := r.Source(0, i*7919%nh)
		out = r.Route(i*31%ns, 0, vl, sl, dlid, out[:0])
		i++
	}
}
