package fabric

import (
	"context"
	"fmt"
	"math"
	"testing"

	"netsim/topologies"
)

// slimfly4 is the Slim Fly over GF(4) with 2 hosts per switch: 32
// switches, 64 hosts, diameter 2.
var slimfly4 = topologies.Spec{Kind: "slimfly", Q: 4, HostsPerSwitch: 2}

// TestSlimFlyMinimal runs the Slim Fly's minimal routing under uniform
// traffic and bit complement at high load, then at full load with buffers
// of one packet in both switching modes: every flit is delivered exactly
// once, packets cross exactly the switches of a shortest path (checked
// against breadth-first distances: exactly under complement, on average
// under uniform traffic), and the watchdog never fires.
func TestSlimFlyMinimal(t *testing.T) {
	net, err := topologies.Build(slimfly4)
	if err != nil {
		t.Fatal(err)
	}
	dist := bfsSwitchDistances(net)
	n, c := len(net.Switches), net.HostsPerSwitch
	uniform := 0.0 // switches per packet, averaged over all (src, dst) pairs
	complement := 0.0
	for s := range n {
		for d := range n {
			uniform += float64(dist[s][d]+1) / float64(n*n)
		}
		complement += float64(dist[s][(len(net.Hosts)-1-s*c)/c]+1) / float64(n)
	}
	for _, tc := range []struct {
		pattern   string
		hops, tol float64
	}{{"uniform", uniform, 0.03}, {"complement", complement, 1e-9}} {
		cfg := testConfig(t, slimfly4, "minimal", tc.pattern, 2)
		cfg.Load = 0.9
		cfg.Warmup, cfg.Measure, cfg.Drain = 200, 1500, 500
		st, err := RunFlushed(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.pattern, err)
		}
		if st.InjectedFlits == 0 || st.InjectedFlits != st.EjectedFlits || st.MeasuredPackets == 0 || st.Delivered != st.MeasuredPackets {
			t.Errorf("%s: injected %d flits, ejected %d; %d of %d measured packets delivered",
				tc.pattern, st.InjectedFlits, st.EjectedFlits, st.Delivered, st.MeasuredPackets)
		}
		if math.Abs(st.HopsAvg-tc.hops) > tc.tol {
			t.Errorf("%s: %.4f switches per packet, want %.4f ± %g", tc.pattern, st.HopsAvg, tc.hops, tc.tol)
		}
	}
	for _, sw := range []string{"cut-through", "wormhole"} {
		name := fmt.Sprintf("full load %s", sw)
		cfg := testConfig(t, slimfly4, "minimal", "uniform", 2)
		cfg.Switching = mode(sw)
		cfg.PacketFlits, cfg.BufferFlits = 4, 4
		cfg.Load = 1
		cfg.Warmup, cfg.Measure, cfg.Drain = 300, 3000, 0
		cfg.DeadlockWindow = 500
		st, err := RunFlushed(context.Background(), cfg)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if st.Accepted < 0.2 {
			t.Errorf("%s: accepted %.3f flits/host/cycle", name, st.Accepted)
		}
	}
}

// bfsSwitchDistances returns the hop distances between all switches of net.
func bfsSwitchDistances(net *topologies.Network) [][]int {
	d := make([][]int, len(net.Switches))
	for s := range d {
		d[s] = make([]int, len(net.Switches))
		for i := range d[s] {
			d[s][i] = -1
		}
		d[s][s] = 0
		for queue := []int{s}; len(queue) > 0; queue = queue[1:] {
			u := queue[0]
			for _, p := range net.Switches[u].Ports {
				if p.Kind == topologies.SwitchPort && d[s][p.Peer] < 0 {
					d[s][p.Peer] = d[s][u] + 1
					queue = append(queue, int(p.Peer))
				}
			}
		}
	}
	return d
}
