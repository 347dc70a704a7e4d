package fabric

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"netsim/kernel"
	"netsim/topologies"
)

var (
	torus4x4  = topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 2}
	torus534  = topologies.Spec{Kind: "torus", Dims: []int{5, 3, 4}, Widths: []int{2, 1, 3}, HostsPerSwitch: 1}
	torusRing = topologies.Spec{Kind: "torus", Dims: []int{6}, HostsPerSwitch: 2}
	cube4     = topologies.Spec{Kind: "hypercube", Dimension: 4, Width: 2, HostsPerSwitch: 2}
	cube5     = topologies.Spec{Kind: "hypercube", Dimension: 5, HostsPerSwitch: 1}
)

// torusCubeRoutings are the routings of seed 004 §3.2 and §3.4 on small
// instances, each with the VLs it needs (2^D for torus dor, 4 orders for
// mixed-dor on N ≥ 3 dimensions) or more.
var torusCubeRoutings = []struct {
	topo      topologies.Spec
	name, alg string
	vls       int
}{
	{torus4x4, "torus4x4", "dor", 4},
	{torus534, "torus5x3x4", "dor", 4},
	{torusRing, "ring6", "dor", 2},
	{cube4, "cube4", "mixed-dor", 4},
	{cube4, "cube4", "negative-first", 1},
	{cube4, "cube4", "abo-negative-first", 2},
	{cube4, "cube4", "abo-positive-last", 1},
	{cube5, "cube5", "mixed-dor", 8},
	{cube5, "cube5", "negative-first", 1},
	{cube5, "cube5", "abo-negative-first", 1},
	{cube5, "cube5", "abo-positive-last", 1},
}

// TestTorusCubeConservation runs every torus and hypercube routing under
// uniform traffic above saturation, cut-through and wormhole: after a
// flush every injected flit was ejected and every measured packet
// delivered, on minimal paths (at most diameter + 1 switches).
func TestTorusCubeConservation(t *testing.T) {
	for _, tc := range torusCubeRoutings {
		for _, sw := range []string{"cut-through", "wormhole"} {
			name := fmt.Sprintf("%s/%s/vls=%d/%s", tc.name, tc.alg, tc.vls, sw)
			cfg := testConfig(t, tc.topo, tc.alg, "uniform", tc.vls)
			cfg.Switching, cfg.Load = mode(sw), 0.95
			cfg.Warmup, cfg.Measure, cfg.Drain = 200, 1500, 500
			if sw == "wormhole" {
				cfg.PacketFlits, cfg.BufferFlits = 8, 6 // worms span switches
			}
			st, err := RunFlushed(context.Background(), cfg)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if st.InjectedFlits == 0 || st.InjectedFlits != st.EjectedFlits {
				t.Errorf("%s: injected %d, ejected %d", name, st.InjectedFlits, st.EjectedFlits)
			}
			if st.MeasuredPackets == 0 || st.Delivered != st.MeasuredPackets {
				t.Errorf("%s: %d of %d measured packets delivered", name, st.Delivered, st.MeasuredPackets)
			}
			sum, err := topologies.Describe(cfg.Net)
			if err != nil {
				t.Fatal(err)
			}
			if diam := sum.Diameter; st.HopsAvg < 1 || st.HopsAvg > float64(diam+1) {
				t.Errorf("%s: %.3f switches per packet, want within [1, %d]", name, st.HopsAvg, diam+1)
			}
		}
	}
}

// TestTorusCubeComplementHops: bit complement moves every packet between
// switches at a fixed distance (the complemented switch: 2 on the 4×4
// torus, where each coordinate x goes to 3−x, one hop either way; N on an
// N-cube), and the routings are minimal, so every packet crosses exactly
// distance + 1 switches, at any load.
func TestTorusCubeComplementHops(t *testing.T) {
	for _, tc := range torusCubeRoutings {
		var want float64
		switch tc.name {
		case "torus4x4":
			want = 3
		case "cube4":
			want = 5
		case "cube5":
			want = 6
		default:
			continue
		}
		cfg := testConfig(t, tc.topo, tc.alg, "complement", tc.vls)
		cfg.Load = 0.9
		cfg.Warmup, cfg.Measure, cfg.Drain = 200, 1500, 2000
		st, err := RunFlushed(context.Background(), cfg)
		if err != nil {
			t.Errorf("%s/%s: %v", tc.name, tc.alg, err)
			continue
		}
		if st.Delivered == 0 || math.Abs(st.HopsAvg-want) > 1e-9 {
			t.Errorf("%s/%s: %d packets over %.4f switches each, want %.0f", tc.name, tc.alg, st.Delivered, st.HopsAvg, want)
		}
	}
}

// TestTorusCubeNoDeadlock: at full load with buffers of one packet the
// deadlock watchdog must not fire for any of the routings, which are
// deadlock-free by construction; the control, minimal adaptive routing on
// one VL of the same networks (distance, whose dependency graph is
// cyclic), deadlocks under the same conditions.
func TestTorusCubeNoDeadlock(t *testing.T) {
	run := func(topo topologies.Spec, alg string, vls int, sw string) (Stats, error) {
		cfg := testConfig(t, topo, alg, "uniform", vls)
		cfg.Switching = mode(sw)
		cfg.PacketFlits, cfg.BufferFlits = 4, 4
		cfg.Load = 1
		cfg.Warmup, cfg.Measure, cfg.Drain = 500, 8000, 0
		cfg.DeadlockWindow = 500
		return Run(context.Background(), cfg)
	}
	for _, tc := range torusCubeRoutings {
		for _, sw := range []string{"cut-through", "wormhole"} {
			st, err := run(tc.topo, tc.alg, tc.vls, sw)
			if err != nil {
				t.Errorf("%s/%s vls=%d %s: %v", tc.name, tc.alg, tc.vls, sw, err)
				continue
			}
			t.Logf("%s/%s vls=%d %s: accepted %.3f at full load", tc.name, tc.alg, tc.vls, sw, st.Accepted)
			if st.Accepted < 0.1 {
				t.Errorf("%s/%s vls=%d %s: accepted %.3f flits/host/cycle at full load", tc.name, tc.alg, tc.vls, sw, st.Accepted)
			}
		}
	}
	for _, topo := range []topologies.Spec{torus4x4, cube5} {
		_, err := run(topo, "distance", 1, "wormhole")
		var dl *kernel.DeadlockError
		if !errors.As(err, &dl) {
			t.Errorf("control: distance on 1 VL of %+v: got %v, want a deadlock error", topo, err)
		}
	}
}
