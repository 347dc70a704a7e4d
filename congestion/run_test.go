package congestion

import (
	"bytes"
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"netsim/routing"
	"netsim/topologies"
)

// twoLeaves returns two switches with c hosts each joined by links
// parallel links (on ports c, c+1, … of each leaf); with one link it is the
// 2-leaf tree with one uplink per leaf.
func twoLeaves(c, links int) *topologies.Network {
	net := &topologies.Network{Kind: "random", HostsPerSwitch: c}
	for s := range 2 {
		var sw topologies.Switch
		for i := range c {
			sw.Ports = append(sw.Ports, topologies.Port{Kind: topologies.HostPort, Peer: int32(s*c + i), Dim: -1})
			net.Hosts = append(net.Hosts, topologies.Host{Switch: int32(s), Port: int32(i)})
		}
		for l := range links {
			sw.Ports = append(sw.Ports, topologies.Port{Kind: topologies.SwitchPort, Peer: int32(1 - s), PeerPort: int32(c + l), Dim: -1})
		}
		net.Switches = append(net.Switches, sw)
	}
	return net
}

func extract(t testing.TB, net *topologies.Network, alg string, policy string) *Paths {
	t.Helper()
	r, err := routing.New(routing.Spec{Algorithm: alg, VLs: 1}, net)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Extract(r, net, policy, 2)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func spec(patterns ...string) *Spec {
	return &Spec{Patterns: patterns, Runs: 200, Subset: SubsetLinearBFS, Level: -1, Policy: PolicyFirst, Seed: 3}
}

func result(t *testing.T, st *Study, metric string) Result {
	t.Helper()
	for _, r := range st.Results {
		if r.Metric == metric {
			return r
		}
	}
	t.Fatalf("no %s result", metric)
	return Result{}
}

func TestPathsTwoLeaves(t *testing.T) {
	p := extract(t, twoLeaves(4, 1), "distance", PolicyFirst)
	// Channels: hosts 0..7, switch 0 ports 8..12, switch 1 ports 13..17.
	if got, want := p.Path(nil, 1, 6), []int32{1, 12, 13 + 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("path 1→6 = %v, want %v", got, want)
	}
	if got, want := p.Path(nil, 2, 3), []int32{2, 8 + 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("path 2→3 = %v, want %v", got, want)
	}
	// π: each direction of the inter-leaf link carries 4·4 routes.
	if p.ForwardingIndex() != 16 || p.Load(12) != 16 || p.Load(17) != 16 {
		t.Errorf("π = %d, loads %d %d, want 16", p.ForwardingIndex(), p.Load(12), p.Load(17))
	}
	if p.Load(3) != 7 || p.Layers() != 1 {
		t.Errorf("injection load %d (want 7), layers %d (want 1)", p.Load(3), p.Layers())
	}
}

// TestLevelCongestion checks the metrics of one run with a given mapping.
func TestLevelCongestion(t *testing.T) {
	p := extract(t, twoLeaves(4, 1), "distance", PolicyFirst)
	bisect, _ := Generate("bisect", 8, nil)
	sym, _ := Generate("bisect_fb_sym", 8, nil)
	tests := []struct {
		name    string
		levels  []Level
		hosts   []int32
		sumMax  int64
		accBand float64
	}{
		{"local", bisect, []int32{0, 1, 2, 3, 4, 5, 6, 7}, 1, 1},
		// Every sender on leaf 1, every receiver on leaf 0: 4 streams share the link.
		{"crossing", bisect, []int32{0, 4, 1, 5, 2, 6, 3, 7}, 4, 0.25},
		{"crossing-sym", sym, []int32{0, 4, 1, 5, 2, 6, 3, 7}, 4, 0.25},
		// Two streams share the link 1→0, two stay local: (2·1/2 + 2·1)/4.
		{"half", bisect, []int32{0, 4, 1, 5, 2, 3, 6, 7}, 2, 0.75},
		// One stream each way: no congestion.
		{"one-each-way", bisect, []int32{0, 4, 5, 1, 2, 3, 6, 7}, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newState(p, 8)
			copy(st.hosts, tt.hosts)
			out := st.run(tt.levels, 8)
			if out.sumMax != tt.sumMax || math.Abs(out.accBand-tt.accBand) > 1e-12 {
				t.Errorf("sum_max_cong %d, hist_acc_band %v; want %d, %v", out.sumMax, out.accBand, tt.sumMax, tt.accBand)
			}
			for c, v := range st.tau {
				if v != 0 {
					t.Fatalf("τ of channel %d not reset: %d", c, v)
				}
			}
		})
	}
}

func TestCrossbarFullBandwidth(t *testing.T) {
	net, err := topologies.Crossbar(16)
	if err != nil {
		t.Fatal(err)
	}
	p := extract(t, net, "dor", PolicyFirst)
	for _, pat := range []string{"bisect", "bisect_fb_sym", "rand", "bruck", "recdbl", "tree"} {
		st, err := Run(context.Background(), p, spec(pat), pat, 2)
		if err != nil {
			t.Fatal(err)
		}
		r := result(t, st, HistAccBand)
		if r.Mean != 1 || r.Min != 1 || r.Max != 1 {
			t.Errorf("%s: Λ mean %v min %v max %v, want 1", pat, r.Mean, r.Min, r.Max)
		}
	}
	// gather: the root's ejection link carries n−1 streams.
	st, err := Run(context.Background(), p, spec("gather"), "gather", 2)
	if err != nil {
		t.Fatal(err)
	}
	if r := result(t, st, SumMaxCong); r.Mean != 15 || r.Min != 15 {
		t.Errorf("gather sum_max_cong %v, want 15", r.Mean)
	}
	if r := result(t, st, HistMaxCong); r.Mean != 15 || len(r.Histogram) != 1 || r.Histogram[0].Count != 15*200 {
		t.Errorf("gather hist_max_cong %+v", r)
	}
	if r := result(t, st, DepMaxDelay); r.Mean != 15 {
		t.Errorf("gather dep_max_delay %v, want 15", r.Mean)
	}
	if p.ForwardingIndex() != 0 {
		t.Errorf("crossbar π = %d, want 0", p.ForwardingIndex())
	}
}

// TestTwoLeavesBisection checks Λ of random bisections on the two leaves
// against its exact expectation: with k of the 4 pairs crossing leaf 1→0
// (sender on leaf 1), Λ = ((4−k) + k·(1/k))/4 for k ≥ 1 (uni-directional
// bisect: the two directions are different channels, so k counts
// crossings each way separately).
func TestTwoLeavesBisection(t *testing.T) {
	p := extract(t, twoLeaves(4, 1), "distance", PolicyFirst)
	s := spec("bisect")
	s.Runs = 20000
	st, err := Run(context.Background(), p, s, "bisect", 2)
	if err != nil {
		t.Fatal(err)
	}
	r := result(t, st, HistAccBand)
	want := exactTwoLeaves()
	if math.Abs(r.Mean-want) > 0.01 {
		t.Errorf("Λ = %.4f, want %.4f", r.Mean, want)
	}
	if r.Min < 0.25-1e-12 || r.Max != 1 {
		t.Errorf("Λ range [%v, %v], want within [0.25, 1] reaching 1", r.Min, r.Max)
	}
}

// exactTwoLeaves enumerates all 8! mappings of bisect onto the two leaves.
func exactTwoLeaves() float64 {
	perm := []int{0, 1, 2, 3, 4, 5, 6, 7}
	var sum float64
	var count int
	var rec func(int)
	rec = func(i int) {
		if i == len(perm) {
			up, down := 0, 0 // streams leaf 0→1 and 1→0
			for k := range 4 {
				s, d := perm[2*k+1]/4, perm[2*k]/4
				if s == 0 && d == 1 {
					up++
				} else if s == 1 && d == 0 {
					down++
				}
			}
			local := 4 - up - down
			bw := float64(local)
			if up > 0 {
				bw++
			}
			if down > 0 {
				bw++
			}
			sum += bw / 4
			count++
			return
		}
		for j := i; j < len(perm); j++ {
			perm[i], perm[j] = perm[j], perm[i]
			rec(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
	}
	rec(0)
	return sum / float64(count)
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	net, err := topologies.Clos(8, 32, "")
	if err != nil {
		t.Fatal(err)
	}
	p := extract(t, net, "distance", PolicyDest)
	s := spec("rand", "bisect")
	s.Commsize = 24
	s.Subset = SubsetRand
	var first []*Study
	for _, j := range []int{1, 2, 5} {
		var got []*Study
		for _, pat := range s.Patterns {
			st, err := Run(context.Background(), p, s, pat, j)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, st)
		}
		if first == nil {
			first = got
		} else if !reflect.DeepEqual(first, got) {
			t.Fatalf("-j %d differs from -j 1", j)
		}
	}
}

func TestPtrnVsPtrnDelay(t *testing.T) {
	net, err := topologies.Crossbar(12)
	if err != nil {
		t.Fatal(err)
	}
	p := extract(t, net, "dor", PolicyFirst)
	s := spec("ptrnvsptrn")
	s.First, s.Second, s.PartCommsize = "tree", "bisect", 8
	st, err := Run(context.Background(), p, s, "ptrnvsptrn", 2)
	if err != nil {
		t.Fatal(err)
	}
	// On a crossbar every stream has congestion 1: the tree's 3 levels.
	if r := result(t, st, DepMaxDelay); r.Mean != 3 || r.Max != 3 {
		t.Errorf("dep_max_delay %v, want 3", r.Mean)
	}
	if st.Results[0].Pattern != "ptrnvsptrn(tree:8,bisect)" {
		t.Errorf("label %q", st.Results[0].Pattern)
	}
}

func TestSpecErrors(t *testing.T) {
	tests := []struct {
		mod  func(*Spec)
		want string
	}{
		{func(s *Spec) { s.Patterns = []string{"alltoall"} }, "patterns: unknown pattern"},
		{func(s *Spec) { s.Runs = 0 }, "runs:"},
		{func(s *Spec) { s.Commsize = 99 }, "commsize:"},
		{func(s *Spec) { s.Subset = "x" }, "subset:"},
		{func(s *Spec) { s.Metrics = []string{"x"} }, "metrics:"},
		{func(s *Spec) { s.Patterns = []string{"ptrnvsptrn"} }, "first: missing"},
		{func(s *Spec) { s.Patterns, s.First, s.Second = []string{"ptrnvsptrn"}, "tree", "null" }, "part_commsize:"},
		{func(s *Spec) { s.First = "tree" }, "first: first, second and part_commsize are only used"},
	}
	for _, tt := range tests {
		s := spec("bisect")
		tt.mod(s)
		err := s.Check(16)
		if err == nil || len(err.Error()) < len(tt.want) || err.Error()[:len(tt.want)] != tt.want {
			t.Errorf("error %v, want prefix %q", err, tt.want)
		}
	}
	s := spec("tree")
	s.Level = 9
	p := extract(t, twoLeaves(4, 1), "distance", PolicyFirst)
	if _, err := Run(context.Background(), p, s, "tree", 1); err == nil {
		t.Error("level beyond the pattern accepted")
	}
}

func TestCableDot(t *testing.T) {
	p := extract(t, twoLeaves(2, 1), "distance", PolicyFirst)
	st := newState(p, 4)
	copy(st.hosts, []int32{0, 2, 1, 3}) // bisect: 2→0 and 3→1 share the link S2→S1
	bisect, _ := Generate("bisect", 4, nil)
	st.run(bisect, 4)
	var b strings.Builder
	if err := WriteCableDot(&b, p, st.cable); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"S2" -> "S1" [ srcport = 3, dstport = 3, congestion = 1.0000, streams = 2, color = "#ff0000" ];`,
		`"S1" -> "S2" [ srcport = 3, dstport = 3, congestion = 0.0000, streams = 0, color = "#00ff00" ];`,
		`"H3" -> "S2" [ dstport = 1, congestion = 0.5000, streams = 1, color = "#ffff00" ];`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %s in\n%s", want, b.String())
		}
	}
}

func TestDepMaxDelay(t *testing.T) {
	p := extract(t, twoLeaves(4, 1), "distance", PolicyFirst)
	tree, _ := Generate("tree", 8, nil)
	ring, _ := Generate("ring", 8, nil)
	tests := []struct {
		name          string
		levels        []Level
		first         int
		delay, sumMax int64
	}{
		// Levels 0 and 1 stay on leaf 0; level 2's four streams share the link: 1 + 1 + 4.
		{"tree", tree, 8, 6, 6},
		// The ring is a chain of 8 single streams; 7→0 crosses alone.
		{"ring", ring, 8, 8, 8},
		// Only rank 0's streams count: 0→1, 0→2, 0→4 (crossing with three others).
		{"tree-first-1", tree, 1, 6, 6},
		// Ranks 0..3 as the first pattern of a ring on 8: the chain 0→1→2→3→4 ends at 4.
		{"ring-first-4", ring, 4, 4, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newState(p, 8)
			copy(st.hosts, []int32{0, 1, 2, 3, 4, 5, 6, 7})
			out := st.run(tt.levels, tt.first)
			if out.delay != tt.delay || out.sumMax != tt.sumMax {
				t.Errorf("dep_max_delay %d, sum_max_cong %d; want %d, %d", out.delay, out.sumMax, tt.delay, tt.sumMax)
			}
		})
	}
}

// TestFatTree16 is seed 003's Figure 3 setting: bisect_fb_sym on a 16-host
// fat tree with full bisection bandwidth (4 leaves of 4 hosts, 2 spines,
// 2 links from every leaf to every spine).
// Full bandwidth is reached by a few mappings only.
func TestFatTree16(t *testing.T) {
	net, err := topologies.Clos(8, 16, "")
	if err != nil {
		t.Fatal(err)
	}
	p := extract(t, net, "distance", PolicyDest)
	s := spec("bisect_fb_sym")
	s.Runs = 2000
	st, err := Run(context.Background(), p, s, "bisect_fb_sym", 2)
	if err != nil {
		t.Fatal(err)
	}
	r := result(t, st, HistAccBand)
	if r.Max != 1 || !(r.Mean > 0.5 && r.Mean < 0.9) {
		t.Errorf("Λ mean %.3f max %v, want full bandwidth reachable but a mean well below", r.Mean, r.Max)
	}
	if h := r.Histogram[len(r.Histogram)-1]; h.Value != 1 || h.Count > int64(s.Runs)/10 {
		t.Errorf("runs at full bandwidth: %+v, want a few", h)
	}
	t.Logf("Λ = %.4f (min %.4f), %d of %d runs at full bandwidth", r.Mean, r.Min, r.Histogram[len(r.Histogram)-1].Count, s.Runs)
}

// TestSubsets: 4 of the 8 hosts of two leaves; linear_bfs fills leaf 0
// (no link shared), rand spreads them over both leaves.
func TestSubsets(t *testing.T) {
	p := extract(t, twoLeaves(4, 1), "distance", PolicyFirst)
	if got, want := bfsHosts(p.net), []int32{0, 1, 2, 3, 4, 5, 6, 7}; !reflect.DeepEqual(got, want) {
		t.Errorf("BFS order %v, want %v", got, want)
	}
	for _, tt := range []struct {
		subset string
		full   bool
	}{{SubsetLinearBFS, true}, {SubsetRand, false}} {
		s := spec("bisect_fb_sym")
		s.Commsize, s.Subset = 4, tt.subset
		st, err := Run(context.Background(), p, s, "bisect_fb_sym", 2)
		if err != nil {
			t.Fatal(err)
		}
		r := result(t, st, HistAccBand)
		if (r.Min == 1) != tt.full || r.Max != 1 {
			t.Errorf("%s: Λ in [%v, %v]", tt.subset, r.Min, r.Max)
		}
		if r.Commsize != 4 {
			t.Errorf("commsize %d", r.Commsize)
		}
	}
}

// TestLayersAndVLsUsed checks that layers counts the layers a routing
// needs and vls_used the VLs its paths spread over: minhop's tables on
// one layer spread over 4 VLs, and the same tables read back from their
// dump stay on VL 0, as on a fabric whose paths all have SL 0.
func TestLayersAndVLsUsed(t *testing.T) {
	net, err := topologies.Build(topologies.Spec{Kind: "ring", Switches: 4, HostsPerSwitch: 2})
	if err != nil {
		t.Fatal(err)
	}
	r, err := routing.New(routing.Spec{Algorithm: "minhop", VLs: 4}, net)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Extract(r, net, PolicyFirst, 1)
	if err != nil {
		t.Fatal(err)
	}
	if p.Layers() != 1 || p.VLsUsed() != 4 {
		t.Errorf("minhop on 4 VLs: layers %d, VLs used %d, want 1 and 4", p.Layers(), p.VLsUsed())
	}
	var buf bytes.Buffer
	if err := routing.WriteLFT(&buf, r.(*routing.Tables), net); err != nil {
		t.Fatal(err)
	}
	dumped, err := routing.ReadLFT(&buf, "t.lft", net, 4)
	if err != nil {
		t.Fatal(err)
	}
	if p, err = Extract(dumped, net, PolicyFirst, 1); err != nil {
		t.Fatal(err)
	}
	if p.Layers() != 1 || p.VLsUsed() != 1 {
		t.Errorf("minhop's dump on 4 VLs: layers %d, VLs used %d, want 1 and 1", p.Layers(), p.VLsUsed())
	}
}
