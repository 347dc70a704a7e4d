package fabric

import (
	"context"
	"fmt"
	"testing"

	"netsim/topologies"
)

// dragonfly842 is a Dragonfly with K = 4, G = 2, C = 2 and
// omit_one_global: 8 groups, 32 switches, 64 hosts. Under bit complement
// group g sends only to group 7 − g, over the one global link between
// them.
var dragonfly842 = topologies.Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 2,
	Arrangement: "palmtree", OmitOneGlobal: new(true)}

// dragonflyRoutings lists the Dragonfly routings with their VLs and the
// most switch hops their paths take.
var dragonflyRoutings = []struct {
	algorithm string
	vls, hops int
}{
	{"static", 2, 3}, {"S", 6, 4}, {"D", 6, 4}, {"SD", 6, 5}, {"G", 6, 5}, {"GS", 6, 6},
	{"GI", 6, 6}, {"GD", 6, 6}, {"GSI", 6, 7}, {"GID", 6, 7}, {"GSD", 6, 7}, {"GSID", 6, 8},
}

// TestDragonflyConservation runs every Dragonfly routing under uniform
// traffic and bit complement at high load: every flit is delivered exactly
// once, and packets cross no more switches than the routing allows.
func TestDragonflyConservation(t *testing.T) {
	for _, rt := range dragonflyRoutings {
		for _, pattern := range []string{"uniform", "complement"} {
			name := fmt.Sprintf("%s/%s", rt.algorithm, pattern)
			cfg := testConfig(t, dragonfly842, rt.algorithm, pattern, rt.vls)
			cfg.Load = 0.9
			cfg.Warmup, cfg.Measure, cfg.Drain = 200, 800, 500
			st, err := RunFlushed(context.Background(), cfg)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if st.InjectedFlits == 0 || st.InjectedFlits != st.EjectedFlits {
				t.Errorf("%s: injected %d flits, ejected %d", name, st.InjectedFlits, st.EjectedFlits)
			}
			if st.MeasuredPackets == 0 || st.Delivered != st.MeasuredPackets {
				t.Errorf("%s: %d of %d measured packets delivered", name, st.Delivered, st.MeasuredPackets)
			}
			// HopsAvg counts switches: switch hops + 1.
			if st.HopsAvg < 1 || st.HopsAvg > float64(rt.hops+1) {
				t.Errorf("%s: %.3f switches per packet, want within [1, %d]", name, st.HopsAvg, rt.hops+1)
			}
		}
	}
}

// TestDragonflyNoDeadlock: at full load under bit complement (every packet
// of a group on one global link, so the adaptive routings take every
// non-minimal path they have) with buffers of one packet, in both
// switching modes, the watchdog never fires and traffic keeps flowing.
// With -short only static and GSID run.
func TestDragonflyNoDeadlock(t *testing.T) {
	for _, rt := range dragonflyRoutings {
		if testing.Short() && rt.algorithm != "static" && rt.algorithm != "GSID" {
			continue
		}
		for _, sw := range []string{"cut-through", "wormhole"} {
			cfg := testConfig(t, dragonfly842, rt.algorithm, "complement", rt.vls)
			cfg.Switching = mode(sw)
			cfg.PacketFlits, cfg.BufferFlits = 4, 4
			cfg.Load = 1
			cfg.Warmup, cfg.Measure, cfg.Drain = 300, 1500, 0
			cfg.DeadlockWindow = 500
			st, err := RunFlushed(context.Background(), cfg)
			if err != nil {
				t.Errorf("%s %s: %v", rt.algorithm, sw, err)
				continue
			}
			if st.Accepted < 0.05 {
				t.Errorf("%s %s: accepted %.3f flits/host/cycle at full load", rt.algorithm, sw, st.Accepted)
			}
		}
	}
}

// TestDragonflyGlobalDetour: under bit complement the minimal route of a
// whole group crosses one global link shared by K·C = 8 hosts, so Static
// and the routings without G accept at most 1/8 flit per host and cycle;
// with G, packets spread over intermediate groups and accept far more.
func TestDragonflyGlobalDetour(t *testing.T) {
	accepted := map[string]float64{}
	for _, alg := range []string{"static", "SD", "G", "GSID"} {
		vls := 6
		if alg == "static" {
			vls = 2
		}
		cfg := testConfig(t, dragonfly842, alg, "complement", vls)
		cfg.Load = 0.5
		cfg.Warmup, cfg.Measure, cfg.Drain = 500, 1500, 0
		st, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", alg, err)
		}
		accepted[alg] = st.Accepted
	}
	t.Logf("accepted at load 0.5 under complement: %v", accepted)
	for _, alg := range []string{"static", "SD"} {
		if accepted[alg] > 0.13 {
			t.Errorf("%s: accepted %.3f, above the 1/8 a single global link allows", alg, accepted[alg])
		}
	}
	for _, alg := range []string{"G", "GSID"} {
		if accepted[alg] < 2*accepted["static"] {
			t.Errorf("%s: accepted %.3f, want at least twice static's %.3f", alg, accepted[alg], accepted["static"])
		}
	}
}
