package routing

import (
	"fmt"
	"testing"

	"netsim/kernel"
	"netsim/topologies"
)

// torusCases are the small tori the torus tests walk, each with the VL
// counts to try (at least 2 when a dimension has size ≥ 4).
var torusCases = []struct {
	name string
	spec topologies.Spec
	vls  []int
}{
	{"4x4 C2", topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 2}, []int{4, 8}},
	{"5x3x4 widths 2,1,3 C1", topologies.Spec{Kind: "torus", Dims: []int{5, 3, 4}, Widths: []int{2, 1, 3}, HostsPerSwitch: 1}, []int{4}},
	{"ring as 1-D torus 7 C3", topologies.Spec{Kind: "torus", Dims: []int{7}, HostsPerSwitch: 3}, []int{2, 5}},
	{"ring 6 width 2 C2", topologies.Spec{Kind: "ring", Switches: 6, Widths: []int{2}, HostsPerSwitch: 2}, []int{2}},
	{"2x6x3 widths 2,1,1 C2", topologies.Spec{Kind: "torus", Dims: []int{2, 6, 3}, Widths: []int{2, 1, 1}, HostsPerSwitch: 2}, []int{2, 3}},
	{"4x4x4 C3", topologies.Spec{Kind: "torus", Dims: []int{4, 4, 4}, HostsPerSwitch: 3}, []int{2, 8}},
	{"3x2x3 C2", topologies.Spec{Kind: "torus", Dims: []int{3, 2, 3}, HostsPerSwitch: 2}, []int{1, 3}},
}

// TestTorusDORPaths walks every source to every destination with random
// choices among the candidates and checks the path against an independent
// description of the routing: dimensions in increasing order, each the
// shorter way round (a tie +1 from an even coordinate, −1 from an odd
// one), all parallel ports of that direction offered, the SL equal to the
// mask of the datelines the path crosses plus 2^D times the copy, the
// destination's local index mod min(16/2^D, vls/W), and the VL of a hop
// in dimension n W·copy + bit n of the mask (W = 2, or 1 without dateline
// dimensions); the injection takes the first hop's VL.
func TestTorusDORPaths(t *testing.T) {
	for _, tc := range torusCases {
		net := mustBuild(t, tc.spec)
		for _, vls := range tc.vls {
			t.Run(fmt.Sprintf("%s vls=%d", tc.name, vls), func(t *testing.T) {
				r, err := New(Spec{Algorithm: "dor", VLs: vls}, net)
				if err != nil {
					t.Fatal(err)
				}
				tm := torusModel{bit: map[int]int{}, masks: 1, width: 1}
				for n, k := range net.Dims {
					if k >= 4 {
						tm.bit[n] = len(tm.bit)
						tm.masks, tm.width = 2*tm.masks, 2
					}
				}
				tm.copies = min(MaxSLs/tm.masks, vls/tm.width)
				if r.Name() != "dor" || r.VLs() != tm.width || r.SLs() != tm.masks*tm.copies {
					t.Fatalf("Name %q VLs %d SLs %d, want dor %d %d", r.Name(), r.VLs(), r.SLs(), tm.width, tm.masks*tm.copies)
				}
				rng := kernel.NewRNG(4, uint64(vls))
				for src := range net.Hosts {
					for dst := range net.Hosts {
						for range 2 {
							hops, vl := walkRandom(t, net, r, vls, src, dst, &rng, 64)
							_, sl, _ := r.Source(src, dst)
							checkTorusPath(t, net, src, dst, hops, sl, vl, tm)
						}
					}
				}
			})
		}
	}
}

// torusModel is the SL and VL layout torus dor should have: the mask bit
// of each dimension of size ≥ 4, 2^D masks, W VLs per copy, copies.
type torusModel struct {
	bit                  map[int]int
	masks, width, copies int
}

// checkTorusPath checks one walked path of torus dor, with SL sl and
// source VL vl; see TestTorusDORPaths.
func checkTorusPath(t *testing.T, net *topologies.Network, src, dst int, hops []vlHop, sl, vl int, tm torusModel) {
	t.Helper()
	s := net.Switches[net.Hosts[src].Switch].Coord
	d := net.Switches[net.Hosts[dst].Switch].Coord
	i, mask := 0, 0
	for n, k32 := range net.Dims {
		k := int32(k32)
		delta := ((d[n]-s[n])%k + k) % k
		up, steps := true, delta
		if 2*delta > k || 2*delta == k && s[n]%2 == 1 {
			up, steps = false, k-delta
		}
		for x := s[n]; x != d[n]; i++ {
			if i >= len(hops) {
				t.Fatalf("%d→%d: path %v ends before dimension %d is done", src, dst, hops, n)
			}
			h := hops[i]
			from, to := net.Switches[h.from].Coord, net.Switches[h.to].Coord
			next := (x + 1) % k
			if !up {
				next = (x + k - 1) % k
			}
			if h.dim != n || from[n] != x || to[n] != next {
				t.Fatalf("%d→%d: hop %d %v→%v (dimension %d), want %d→%d in dimension %d", src, dst, i, from, to, h.dim, x, next, n)
			}
			want := net.Widths[n]
			if k == 2 {
				want *= 2
			}
			if len(h.cands) != want {
				t.Fatalf("%d→%d at %v: %d candidates, want %d", src, dst, from, len(h.cands), want)
			}
			if p := candidatePeers(t, net, h.from, h.cands); p != h.to {
				t.Fatalf("%d→%d at %v: candidates lead to switch %d, want %d", src, dst, from, p, h.to)
			}
			if b, ok := tm.bit[n]; ok && (up && next == 0 || !up && x == 0) {
				mask |= 1 << b
			}
			x = next
			steps--
		}
		if steps != 0 {
			t.Fatalf("%d→%d: dimension %d took a non-minimal way", src, dst, n)
		}
	}
	if i != len(hops) {
		t.Fatalf("%d→%d: %d hops, want %d", src, dst, len(hops), i)
	}
	cp := dst % net.HostsPerSwitch % tm.copies
	if want := cp*tm.masks + mask; sl != want {
		t.Fatalf("%d→%d: SL %d, want %d (copy %d, dateline mask %b)", src, dst, sl, want, cp, mask)
	}
	for i, h := range hops {
		want := cp * tm.width
		if b, ok := tm.bit[h.dim]; ok {
			want += mask >> b & 1
		}
		if h.vl != want {
			t.Fatalf("%d→%d: VL %d on hop %d in dimension %d, want %d (SL %d)", src, dst, h.vl, i, h.dim, want, sl)
		}
	}
	want := cp * tm.width
	if len(hops) > 0 {
		want = hops[0].vl
	}
	if vl != want {
		t.Fatalf("%d→%d: source VL %d, want %d, the first hop's", src, dst, vl, want)
	}
}

func TestTorusDORErrors(t *testing.T) {
	tests := []struct {
		name string
		spec topologies.Spec
		vls  int
		want string
	}{
		{"4x4 with 1 VL", topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 1}, 1,
			"vls: routing dor on torus [4 4] needs 2 virtual lanes (dateline VLs), got 1"},
		{"ring with 1 VL", topologies.Spec{Kind: "ring", Switches: 5, HostsPerSwitch: 1}, 1,
			"vls: routing dor on torus [5] needs 2 virtual lanes (dateline VLs), got 1"},
		{"5-D", topologies.Spec{Kind: "torus", Dims: []int{4, 4, 4, 4, 4}, HostsPerSwitch: 1}, 16,
			"algorithm: routing dor on torus [4 4 4 4 4] needs one SL bit per dimension of size ≥ 4, 5 of them, but the InfiniBand SL has 4 bits (at most 4 such dimensions)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(Spec{Algorithm: "dor", VLs: tc.vls}, mustBuild(t, tc.spec))
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error\n got %v\nwant %s", err, tc.want)
			}
		})
	}
	// Dimensions of size 2 and 3 need no dateline: a 3×2×3 torus routes on
	// one VL and SL, and a 5-D torus with a dimension of size 3 has only 4
	// dateline bits: 2 VLs and 16 SLs.
	for _, tc := range []struct {
		dims          []int
		vls, sls, min int
	}{{[]int{3, 2, 3}, 1, 1, 1}, {[]int{4, 3, 4, 4, 4}, 2, 16, 2}} {
		net := mustBuild(t, topologies.Spec{Kind: "torus", Dims: tc.dims, HostsPerSwitch: 1})
		if _, err := New(Spec{Algorithm: "dor", VLs: tc.min - 1}, net); err == nil {
			t.Errorf("torus %v: %d VLs accepted", tc.dims, tc.min-1)
		}
		r, err := New(Spec{Algorithm: "dor", VLs: tc.min}, net)
		if err != nil || r.VLs() != tc.vls || r.SLs() != tc.sls {
			t.Fatalf("torus %v: New with %d VLs = %v, want a routing with %d VLs and %d SLs", tc.dims, tc.min, err, tc.vls, tc.sls)
		}
	}
}

func TestTorusDORRejectsBrokenNetworks(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*topologies.Network)
		want   string
	}{
		{"dims product", func(n *topologies.Network) { n.Dims = []int{2, 4} },
			"routing dor: network is not a torus: dims [2 4] give 8 switches, network has 16"},
		{"size 1", func(n *topologies.Network) {
			n.Dims = []int{1, 16}
			for s := range n.Switches {
				n.Switches[s].Coord = []int32{0, int32(s)}
			}
		}, "routing dor: network is not a torus: dimension 0 has 1 switches, want at least 2"},
		{"not a neighbour", func(n *topologies.Network) {
			n.Switches[0].Coord, n.Switches[2].Coord = n.Switches[2].Coord, n.Switches[0].Coord
		}, "routing dor: network is not a torus: switch 0 [2 0] port 3 (dimension 1) goes to switch 4 [0 1], not a neighbour in dimension 1"},
		{"width mismatch", func(n *topologies.Network) { n.Widths = []int{2, 1} },
			"routing dor: network is not a torus: switch 0 [0 0] has 1 links to its +1 and 1 to its -1 neighbour in dimension 0, want width 2 each"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net := mustBuild(t, topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 1})
			tc.mutate(net)
			_, err := New(Spec{Algorithm: "dor", VLs: 4}, net)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error\n got %v\nwant %s", err, tc.want)
			}
		})
	}
}

func BenchmarkTorusDORRouteSeed004(b *testing.B) {
	net := mustBuild(b, topologies.Spec{Preset: "torus4d"})
	r, err := New(Spec{Algorithm: "dor", VLs: 8}, net)
	if err != nil {
		b.Fatal(err)
	}
	benchmarkRoute(b, net, r)
}

// benchmarkRoute times Source plus one Route per packet at scattered
// switches and destinations.
func benchmarkRoute(b *testing.B, net *topologies.Network, r Routing) {
	out := make([]Candidate, 0, 32)
	nh, ns := len(net.Hosts), len(net.Switches)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		dlid, sl, vl := r.Source(i*131%nh, i*7919%nh)
		out = r.Route(i*31%ns, 0, vl, sl, dlid, out[:0])
		i++
	}
}
