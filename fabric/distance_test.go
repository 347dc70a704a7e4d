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

var ring6 = topologies.Spec{Kind: "ring", Switches: 6, HostsPerSwitch: 2}

// TestDistanceConservation runs the distance routings of seed 004 §3.7
// with enough VLs (diameter + E ≤ VLs) under uniform traffic, below and
// above saturation: every flit is delivered exactly once and no path is
// longer than diameter + E switch hops.
func TestDistanceConservation(t *testing.T) {
	tests := []struct {
		topo       topologies.Spec
		name       string
		algorithm  string
		vls, bound int // bound: diameter + E
	}{
		{flatfly4x4, "flatfly4x4", "distance", 2, 2},
		{flatfly4x4, "flatfly4x4", "distance+2", 4, 4},
		{flatfly4x4, "flatfly4x4", "deflection+2", 4, 4},
		{ring6, "ring6", "distance", 3, 3},
		{ring6, "ring6", "distance+2", 5, 5},
		{ring6, "ring6", "deflection+2", 5, 5},
	}
	for _, tc := range tests {
		for _, sw := range []string{"cut-through", "wormhole"} {
			for _, load := range []float64{0.3, 0.95} {
				name := fmt.Sprintf("%s/%s/vls=%d/%s/load=%.2f", tc.name, tc.algorithm, tc.vls, sw, load)
				cfg := testConfig(t, tc.topo, tc.algorithm, "uniform", tc.vls)
				cfg.Switching, cfg.Load = mode(sw), load
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
				// HopsAvg counts switches: switch hops + 1.
				if st.HopsAvg < 1 || st.HopsAvg > float64(tc.bound+1) {
					t.Errorf("%s: %.3f switches per packet, want within [1, %d]", name, st.HopsAvg, tc.bound+1)
				}
			}
		}
	}
}

// TestDistanceComplementHops: under bit complement on the 4×4 FlatFly every
// packet's switches differ in both coordinates (D = 2). Distance Based
// routing is minimal, so packets cross exactly 3 switches; distance+2 and
// deflection+2 take extra hops when the minimal ports are busy, but at most
// 2 more. A sideways hop (Medium priority) keeps the distance, a deflection
// (Low, Deflection only) adds one that a minimal hop must then undo, so
// every packet crosses 3 + sideways + 2·deflections switches, and so do
// the means (Stats.HopsMedium, HopsLow).
func TestDistanceComplementHops(t *testing.T) {
	for _, tc := range []struct {
		algorithm string
		lo, hi    float64
		medium    bool // sideways hops expected
		low       bool // deflections expected
	}{
		{"distance", 3, 3, false, false},
		{"distance+2", 3.05, 5, true, false},
		{"deflection+2", 3.05, 5, true, true},
	} {
		cfg := testConfig(t, flatfly4x4, tc.algorithm, "complement", 4)
		cfg.Load = 0.9
		cfg.Warmup, cfg.Measure, cfg.Drain = 500, 3000, 2000
		st, err := RunFlushed(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.algorithm, err)
		}
		if st.HopsAvg < tc.lo-1e-9 || st.HopsAvg > tc.hi+1e-9 {
			t.Errorf("%s: %.4f switches per packet, want within [%.2f, %.2f]", tc.algorithm, st.HopsAvg, tc.lo, tc.hi)
		}
		if want := 3 + st.HopsMedium + 2*st.HopsLow; math.Abs(st.HopsAvg-want) > 1e-9 {
			t.Errorf("%s: %.4f switches per packet, want 3 + %.4f sideways + 2 × %.4f deflections = %.4f",
				tc.algorithm, st.HopsAvg, st.HopsMedium, st.HopsLow, want)
		}
		if (st.HopsMedium > 0) != tc.medium || (st.HopsLow > 0) != tc.low {
			t.Errorf("%s: %.4f sideways and %.4f deflection hops per packet, want sideways %v, deflections %v",
				tc.algorithm, st.HopsMedium, st.HopsLow, tc.medium, tc.low)
		}
	}
}

// TestDistanceNoDeadlock: on a ring of 6 switches (diameter 3) with
// diameter + E ≤ VLs the VL falls by one on every switch hop, so the
// channel dependency graph is acyclic: under full load with small buffers
// no deadlock occurs and everything is delivered.
func TestDistanceNoDeadlock(t *testing.T) {
	for _, tc := range []struct {
		algorithm string
		vls       int
	}{
		{"distance", 3},
		{"distance+1", 4},
		{"deflection+2", 5},
	} {
		for _, sw := range []string{"cut-through", "wormhole"} {
			cfg := testConfig(t, ring6, tc.algorithm, "uniform", tc.vls)
			cfg.Switching = mode(sw)
			cfg.PacketFlits, cfg.BufferFlits = 4, 4
			cfg.Load = 1
			cfg.Warmup, cfg.Measure, cfg.Drain = 1000, 20000, 0
			cfg.DeadlockWindow = 500
			st, err := RunFlushed(context.Background(), cfg)
			if err != nil {
				t.Errorf("%s vls=%d %s: %v", tc.algorithm, tc.vls, sw, err)
				continue
			}
			if st.Accepted < 0.2 {
				t.Errorf("%s vls=%d %s: accepted %.3f flits/host/cycle at full load", tc.algorithm, tc.vls, sw, st.Accepted)
			}
		}
	}
}

// TestDistanceDeadlockWithTooFewVLs: with diameter + E > VLs the VL wraps
// from 0 to VLs−1 along some paths, the channel dependency graph has
// cycles, and the same ring under the same load deadlocks; the run ends
// with a deadlock error.
func TestDistanceDeadlockWithTooFewVLs(t *testing.T) {
	for _, tc := range []struct {
		algorithm string
		vls       int
	}{
		{"distance", 1},
		{"distance+2", 2},
	} {
		for _, sw := range []string{"cut-through", "wormhole"} {
			cfg := testConfig(t, ring6, tc.algorithm, "uniform", tc.vls)
			cfg.Switching = mode(sw)
			cfg.PacketFlits, cfg.BufferFlits = 4, 4
			cfg.Load = 1
			cfg.Warmup, cfg.Measure, cfg.Drain = 1000, 100000, 0
			cfg.DeadlockWindow = 500
			_, err := Run(context.Background(), cfg)
			var dl *kernel.DeadlockError
			if !errors.As(err, &dl) {
				t.Errorf("%s vls=%d %s: got %v, want a deadlock error", tc.algorithm, tc.vls, sw, err)
			}
		}
	}
}
