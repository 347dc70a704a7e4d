package routing

import (
	"fmt"
	"slices"
	"testing"

	"netsim/kernel"
	"netsim/topologies"
)

// cubeCases are the hypercubes the hypercube tests walk.
var cubeCases = []struct {
	name string
	spec topologies.Spec
}{
	{"4-D width 2 C2", topologies.Spec{Kind: "hypercube", Dimension: 4, Width: 2, HostsPerSwitch: 2}},
	{"5-D C1", topologies.Spec{Kind: "hypercube", Dimension: 5, HostsPerSwitch: 1}},
	{"3-D C4", topologies.Spec{Kind: "hypercube", Dimension: 3, HostsPerSwitch: 4}},
	{"2-D width 3 C2", topologies.Spec{Kind: "hypercube", Dimension: 2, Width: 3, HostsPerSwitch: 2}},
	{"1-D C2", topologies.Spec{Kind: "hypercube", Dimension: 1, HostsPerSwitch: 2}},
}

// allowedDims returns the dimensions a turn-model routing may correct at
// a switch with coordinates x bound for d, written out from seed 004 §3.4
// (the seed's dimension 1 is dimension 0).
func allowedDims(alg string, x, d []int32) []int {
	var neg, pos []int
	for n := range x {
		switch {
		case x[n] == 1 && d[n] == 0:
			neg = append(neg, n)
		case x[n] == 0 && d[n] == 1:
			pos = append(pos, n)
		}
	}
	var first, rest []int
	for _, n := range neg {
		switch {
		case alg == "negative-first", alg == "abo-positive-last":
			first = append(first, n)
		case n != 0: // abo-negative-first
			first = append(first, n)
		default:
			rest = append(rest, n)
		}
	}
	for _, n := range pos {
		if alg == "abo-positive-last" && n == 0 {
			first = append(first, n)
		} else {
			rest = append(rest, n)
		}
	}
	if len(first) > 0 {
		return first
	}
	return rest
}

// TestCubeTurnModelPaths walks every source to every destination of each
// hypercube with random choices and checks, for each turn-model routing,
// that the path is minimal, that every candidate set holds exactly all
// parallel ports of the dimensions the seed's rule allows at that switch,
// and that the VL is the destination's local index mod vls throughout.
func TestCubeTurnModelPaths(t *testing.T) {
	for _, alg := range []string{"negative-first", "abo-negative-first", "abo-positive-last"} {
		for _, tc := range cubeCases {
			net := mustBuild(t, tc.spec)
			for _, vls := range []int{1, 3} {
				t.Run(fmt.Sprintf("%s %s vls=%d", alg, tc.name, vls), func(t *testing.T) {
					r, err := New(Spec{Algorithm: alg, VLs: vls}, net)
					if err != nil {
						t.Fatal(err)
					}
					if r.Name() != alg || r.VLs() != 1 {
						t.Fatalf("Name %q VLs %d, want %s 1", r.Name(), r.VLs(), alg)
					}
					rng := kernel.NewRNG(9, uint64(vls))
					for src := range net.Hosts {
						for dst := range net.Hosts {
							for range 3 {
								hops, vl := walkRandom(t, net, r, vls, src, dst, &rng, len(net.Dims))
								if want := dst % net.HostsPerSwitch % vls; vl != want {
									t.Fatalf("%d→%d: VL %d, want %d", src, dst, vl, want)
								}
								checkCubeHops(t, net, src, dst, hops, vl, func(x, d []int32) []int { return allowedDims(alg, x, d) })
							}
						}
					}
				})
			}
		}
	}
}

// checkCubeHops checks a walked hypercube path: one hop per differing
// coordinate, each to the neighbour across its dimension, with the
// candidates exactly all parallel ports of the dimensions allowed(x, d)
// names, and the VL vl on every hop.
func checkCubeHops(t *testing.T, net *topologies.Network, src, dst int, hops []vlHop, vl int, allowed func(x, d []int32) []int) {
	t.Helper()
	d := net.Switches[net.Hosts[dst].Switch].Coord
	s := net.Switches[net.Hosts[src].Switch].Coord
	want := 0
	for n := range d {
		if s[n] != d[n] {
			want++
		}
	}
	if len(hops) != want {
		t.Fatalf("%d→%d: %d hops, want Hamming distance %d", src, dst, len(hops), want)
	}
	for _, h := range hops {
		x, y := net.Switches[h.from].Coord, net.Switches[h.to].Coord
		dims := allowed(x, d)
		if !slices.Contains(dims, h.dim) || x[h.dim] == d[h.dim] || y[h.dim] != d[h.dim] {
			t.Fatalf("%d→%d at %v: hop to %v in dimension %d, allowed %v", src, dst, x, y, h.dim, dims)
		}
		var ports []int32
		for p, port := range net.Switches[h.from].Ports {
			if port.Kind == topologies.SwitchPort && slices.Contains(dims, int(port.Dim)) {
				ports = append(ports, int32(p))
			}
		}
		var got []int32
		for _, c := range h.cands {
			got = append(got, c.Port)
		}
		slices.Sort(got)
		if !slices.Equal(got, ports) {
			t.Fatalf("%d→%d at %v: candidate ports %v, want %v (dimensions %v)", src, dst, x, got, ports, dims)
		}
		if h.vl != vl {
			t.Fatalf("%d→%d: VL %d on a hop, want %d throughout", src, dst, h.vl, vl)
		}
	}
}

// TestCubeMixedDORPaths: mixed-dor corrects the differing coordinates in
// the order dimOrders(N)[d mod k], k = min(N, 4), d the destination's local index,
// over all parallel ports of one dimension at a time, on VL order + k·copy.
func TestCubeMixedDORPaths(t *testing.T) {
	for _, tc := range cubeCases {
		net := mustBuild(t, tc.spec)
		orders := dimOrders(len(net.Dims))[:min(len(net.Dims), mixedOrders)]
		k := len(orders)
		for _, vls := range []int{k, 2*k + 1} {
			t.Run(fmt.Sprintf("%s vls=%d", tc.name, vls), func(t *testing.T) {
				r, err := New(Spec{Algorithm: "mixed-dor", VLs: vls}, net)
				if err != nil {
					t.Fatal(err)
				}
				if r.Name() != "mixed-dor" || r.VLs() != k {
					t.Fatalf("Name %q VLs %d, want mixed-dor %d", r.Name(), r.VLs(), k)
				}
				rng := kernel.NewRNG(10, uint64(vls))
				used := map[int]bool{}
				for src := range net.Hosts {
					for dst := range net.Hosts {
						local := dst % net.HostsPerSwitch
						order := orders[local%k]
						if want, _, _ := r.Source(src, dst); want != int32(dst) {
							t.Fatalf("Source(%d,%d) dlid %d", src, dst, want)
						}
						hops, vl := walkRandom(t, net, r, vls, src, dst, &rng, len(net.Dims))
						if want := local%k + k*(local/k%(vls/k)); vl != want {
							t.Fatalf("%d→%d: VL %d, want %d", src, dst, vl, want)
						}
						used[vl] = true
						checkCubeHops(t, net, src, dst, hops, vl, func(x, d []int32) []int {
							for _, n := range order {
								if x[n] != d[n] {
									return []int{n}
								}
							}
							return nil
						})
					}
				}
				if want := min(net.HostsPerSwitch, k*(vls/k)); len(used) != want {
					t.Errorf("%d VLs used, want %d", len(used), want)
				}
			})
		}
	}
}

func TestCubeErrors(t *testing.T) {
	cube4 := mustBuild(t, topologies.Spec{Kind: "hypercube", Dimension: 4, HostsPerSwitch: 4})
	ff := mustBuild(t, topologies.Spec{Kind: "flatfly", Dims: []int{2, 2}, HostsPerSwitch: 1})
	notCube := mustBuild(t, topologies.Spec{Kind: "flatfly", Dims: []int{2, 3}, HostsPerSwitch: 1})
	notCube.Kind = "hypercube"
	tests := []struct {
		name string
		alg  string
		vls  int
		net  *topologies.Network
		want string
	}{
		{"mixed-dor with 3 VLs", "mixed-dor", 3, cube4,
			"vls: routing mixed-dor on a 4-dimensional hypercube needs 4 virtual lanes (one per dimension order), got 3"},
		{"turn model on a flatfly", "negative-first", 1, ff,
			`algorithm: unknown routing "negative-first" for topology flatfly (known: dor, mixed-dor, twisted-dor, twisted-mixed-dor, ador, mixed-ador, twisted-ador, twisted-mixed-ador, distance, distance+E, deflection+E, minhop, updn, dnup, sssp, p2sssp, dfsssp, lash, nue, torus-2QoS, file)`},
		{"not 2 per dimension", "abo-positive-last", 1, notCube,
			"routing abo-positive-last: network is not a hypercube: dims [2 3], want 2 in every one of at most 32 dimensions"},
		{"unknown", "positive-first", 1, cube4,
			`algorithm: unknown routing "positive-first" for topology hypercube (known: dor, mixed-dor, negative-first, abo-negative-first, abo-positive-last, distance, distance+E, deflection+E, minhop, updn, dnup, sssp, p2sssp, dfsssp, lash, nue, torus-2QoS, file)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(Spec{Algorithm: tc.alg, VLs: tc.vls}, tc.net)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error\n got %v\nwant %s", err, tc.want)
			}
		})
	}
}

func BenchmarkCubeRouteSeed004(b *testing.B) {
	net := mustBuild(b, topologies.Spec{Preset: "hypercube"})
	for _, alg := range []string{"mixed-dor", "negative-first", "abo-positive-last"} {
		b.Run(alg, func(b *testing.B) {
			r, err := New(Spec{Algorithm: alg, VLs: 8}, net)
			if err != nil {
				b.Fatal(err)
			}
			benchmarkRoute(b, net, r)
		})
	}
}
