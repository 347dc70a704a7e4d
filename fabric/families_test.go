package fabric

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"netsim/topologies"
)

// TestFamiliesUniform runs a uniform-load point through the core on a
// scaled-down member of every family the other tests of this package do
// not simulate (torus, each Dragonfly arrangement with and without
// omit_one_global, Slim Fly, a Slim Fly × FlatFly product, Kautz, random,
// and a network read from a dot file), with minimal distance routing on
// diameter + 1 VLs (deadlock-free, see routing.New) and credit flow
// control. After a flush every injected flit has been ejected and no
// packet is left; the measured packets cross, on average, 1 + the mean
// switch distance between source and destination, as minimal routing
// must.
//
// Uniform traffic draws every packet's destination uniformly among all
// hosts, the source included (0 switch hops), so the expected switch hops
// are the mean distance over all ordered host pairs, self pairs
// included: Describe's AvgDistance·(h−1)/h. Destinations are independent,
// and minimal routing makes each packet's hops its distance, so the
// measured mean is the mean of N independent draws of the distance: it
// lies within 4σ/√N of the expectation (σ the standard deviation of the
// distance, computed here from all pairs) except with probability below
// 10⁻⁴. A routing that took one extra hop on a few per cent of the packets
// would exceed that bound on every network below.
func TestFamiliesUniform(t *testing.T) {
	yes, no := true, false
	dragonfly := func(arr string, omit *bool) topologies.Spec {
		return topologies.Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 2, Arrangement: arr, OmitOneGlobal: omit}
	}
	tests := []struct {
		name     string
		topo     topologies.Spec
		switches int
		diameter int
	}{
		// Wrap-around: ⌊K/2⌋ per dimension, 2 + 1 + 1.
		{"torus 4x3x2", topologies.Spec{Kind: "torus", Dims: []int{4, 3, 2}, Widths: []int{1, 2, 1}, HostsPerSwitch: 2}, 24, 4},
		// Local, global, local: K·G + 1 = 9 groups of 4, or K·G = 8.
		{"dragonfly absolute", dragonfly("absolute", &no), 36, 3},
		{"dragonfly absolute omit", dragonfly("absolute", &yes), 32, 3},
		{"dragonfly relative", dragonfly("relative", &no), 36, 3},
		{"dragonfly relative omit", dragonfly("relative", &yes), 32, 3},
		{"dragonfly palmtree", dragonfly("palmtree", &no), 36, 3},
		{"dragonfly palmtree omit", dragonfly("palmtree", &yes), 32, 3},
		// MMS graphs: 2q² routers, diameter 2.
		{"slimfly q5", topologies.Spec{Kind: "slimfly", Q: 5, HostsPerSwitch: 2}, 50, 2},
		{"slimfly q4 w2", topologies.Spec{Kind: "slimfly", Q: 4, Width: 2, HostsPerSwitch: 2}, 32, 2},
		// Diameters add: 2 + 1.
		{"product slimfly q3 x flatfly 3", topologies.Spec{Kind: "product", HostsPerSwitch: 1, Factors: []topologies.Spec{
			{Kind: "slimfly", Q: 3, Width: 2}, {Kind: "flatfly", Dims: []int{3}}}}, 54, 3},
		// (b+1)·b^(n−1) switches; the Kautz digraph's diameter n bounds the
		// undirected graph's, and the words 010 and 202 are n apart.
		{"kautz b2 n3", topologies.Spec{Kind: "kautz", B: 2, N: 3, HostsPerSwitch: 2}, 12, 3},
		// A seeded random graph: its diameter (4 for this seed) is not
		// checked, only used for the VLs.
		{"random", topologies.Spec{Kind: "random", Switches: 16, HostsPerSwitch: 2, Links: 24, Seed: 3}, 16, 0},
		// A 3×3 FlatFly with double links in dimension 1, through dot.
		{"file", fileSpec(t, topologies.Spec{Kind: "flatfly", Dims: []int{3, 3}, Widths: []int{1, 2}, HostsPerSwitch: 3}), 9, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, err := topologies.Build(tc.topo)
			if err != nil {
				t.Fatal(err)
			}
			sum, err := topologies.Describe(net)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Switches != tc.switches || (tc.diameter > 0 && sum.Diameter != tc.diameter) {
				t.Fatalf("%d switches, diameter %d; want %d and %d", sum.Switches, sum.Diameter, tc.switches, tc.diameter)
			}
			cfg := testConfig(t, tc.topo, "distance", "uniform", sum.Diameter+1)
			cfg.Load = 0.2
			cfg.Warmup, cfg.Measure, cfg.Drain = 300, 3000, 3000
			st, err := RunFlushed(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if st.InjectedFlits == 0 || st.InjectedFlits != st.EjectedFlits || st.InFlight != 0 {
				t.Errorf("injected %d flits, ejected %d, %d in flight", st.InjectedFlits, st.EjectedFlits, st.InFlight)
			}
			if st.MeasuredPackets == 0 || st.Delivered != st.MeasuredPackets {
				t.Errorf("%d of %d measured packets delivered", st.Delivered, st.MeasuredPackets)
			}
			if math.Abs(st.Accepted-st.Generated) > 0.05*st.Generated {
				t.Errorf("accepted %.4f flits/host/cycle, generated %.4f", st.Accepted, st.Generated)
			}
			mean, sd := hostDistance(cfg.Net)
			h := float64(len(cfg.Net.Hosts))
			if want := sum.AvgDistance * (h - 1) / h; math.Abs(mean-want) > 1e-9 {
				t.Fatalf("mean distance %v over all host pairs, Describe gives %v", mean, want)
			}
			// HopsAvg counts switches: switch hops + 1.
			tol := 4 * sd / math.Sqrt(float64(st.Delivered))
			if got := st.HopsAvg - 1; math.Abs(got-mean) > tol {
				t.Errorf("%.4f switch hops per packet, want %.4f ± %.4f", got, mean, tol)
			}
		})
	}
}

// fileSpec writes the network of spec to a dot file in a temporary
// directory with WriteDot, checks that ReadDot reads back the same graph,
// and returns the spec of kind "file" that reads it.
func fileSpec(t *testing.T, spec topologies.Spec) topologies.Spec {
	t.Helper()
	net, err := topologies.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "net.dot")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	if err := topologies.WriteDot(w, net, nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	f, err = os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	back, _, err := topologies.ReadDot(f, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Switches) != len(net.Switches) || len(back.Hosts) != len(net.Hosts) || back.Links() != net.Links() || back.Radix() != net.Radix() {
		t.Fatalf("read back %d switches %d hosts %d links radix %d; wrote %d, %d, %d, %d",
			len(back.Switches), len(back.Hosts), back.Links(), back.Radix(),
			len(net.Switches), len(net.Hosts), net.Links(), net.Radix())
	}
	return topologies.Spec{Kind: "file", Path: path}
}

// hostDistance returns the mean and the standard deviation of the switch
// distance between the switches of a source and a destination host drawn
// uniformly and independently (so a host may be its own destination), by
// a breadth-first search from every switch.
func hostDistance(net *topologies.Network) (mean, sd float64) {
	n := len(net.Switches)
	hosts := make([]float64, n)
	for _, h := range net.Hosts {
		hosts[h.Switch]++
	}
	dist := make([]int, n)
	queue := make([]int, 0, n)
	var sum, sum2, pairs float64
	for s := range n {
		for i := range dist {
			dist[i] = -1
		}
		dist[s] = 0
		queue = append(queue[:0], s)
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, p := range net.Switches[u].Ports {
				if p.Kind == topologies.SwitchPort && dist[p.Peer] < 0 {
					dist[p.Peer] = dist[u] + 1
					queue = append(queue, int(p.Peer))
				}
			}
		}
		for d, w := range hosts {
			x := hosts[s] * w
			sum += x * float64(dist[d])
			sum2 += x * float64(dist[d]*dist[d])
			pairs += x
		}
	}
	mean = sum / pairs
	return mean, math.Sqrt(sum2/pairs - mean*mean)
}
