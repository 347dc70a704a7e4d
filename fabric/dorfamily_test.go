package fabric

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"netsim/topologies"
)

// dorFamilyCases lists the DOR family of seed 004 §3.3 with the VLs each
// needs on the networks below and its longest path in switch hops there.
func dorFamilyCases() []dorFamilyCase {
	// On sf4xff2 a path takes at most 2 hops in the Slim Fly and 1 in the
	// FlatFly dimension of 2 switches, plus the twist; on sf3 at most 2
	// plus the twist, which is in the Slim Fly (with a VL of its own).
	return []dorFamilyCase{
		{"dor", 1, 2, 2, 3, 3, 2},
		{"mixed-dor", 3, 4, 4, 3, 3, 2},
		{"twisted-dor", 2, 2, 3, 4, 4, 3},
		{"twisted-mixed-dor", 6, 4, 6, 4, 4, 3},
		{"ador", 2, 2, 2, 5, 3, 2},
		{"mixed-ador", 6, 4, 4, 5, 3, 2},
		{"twisted-ador", 2, 2, 3, 5, 4, 3},
		{"twisted-mixed-ador", 6, 4, 6, 5, 4, 3},
	}
}

// dorFamilyCase is a DOR-family routing with the VLs it needs on
// flatfly4x4x2, sf4xff2 and sf3 and its longest paths there.
type dorFamilyCase struct {
	algorithm             string
	vlsFF, vlsSF, vlsS    int
	hopsFF, hopsSF, hopsS int
}

var (
	// flatfly4x4x2: a 3-D FlatFly, 64 hosts.
	flatfly4x4x2 = topologies.Spec{Kind: "flatfly", Dims: []int{4, 4, 2}, Widths: []int{2, 1, 1}, HostsPerSwitch: 2}
	// sf4xff2: Slim Fly q = 4 × FlatFly 2, 128 hosts (seed 004's SF×FF
	// with the FlatFly part shrunk).
	sf4xff2 = topologies.Spec{Kind: "product", HostsPerSwitch: 2, Factors: []topologies.Spec{
		{Kind: "slimfly", Q: 4, Width: 2}, {Kind: "flatfly", Dims: []int{2}},
	}}
	// sf3: Slim Fly q = 3 as a product with a FlatFly of one switch, 54
	// hosts. A twisted routing whose twist hop in the Slim Fly shared VL 1
	// with the Slim Fly's second hops deadlocks here under uniform traffic
	// within a few thousand cycles (wormhole, 2-flit buffers).
	sf3 = topologies.Spec{Kind: "product", HostsPerSwitch: 3, Factors: []topologies.Spec{
		{Kind: "slimfly", Q: 3}, {Kind: "flatfly", Dims: []int{1}},
	}}
)

// TestDORFamilyConservation runs every DOR-family routing at full load
// with buffers of one packet (cut-through) or smaller than a packet
// (wormhole): uniform traffic on the three networks, complement on the
// FlatFly. Every flit is delivered exactly once, the deadlock watchdog
// never fires, and no packet crosses more switches than the routing
// allows.
func TestDORFamilyConservation(t *testing.T) {
	type run struct {
		topo      topologies.Spec
		net       string
		algorithm string
		vls, hops int
		sw, pat   string
		measure   int64
	}
	var runs []run
	for _, c := range dorFamilyCases() {
		if c.algorithm != "dor" { // flatfly dor is tested with the core
			runs = append(runs,
				run{flatfly4x4x2, "flatfly4x4x2", c.algorithm, c.vlsFF, c.hopsFF, "cut-through", "uniform", 1000},
				run{flatfly4x4x2, "flatfly4x4x2", c.algorithm, c.vlsFF, c.hopsFF, "wormhole", "complement", 1000})
		}
		runs = append(runs,
			run{sf4xff2, "sf4xff2", c.algorithm, c.vlsSF, c.hopsSF, "cut-through", "uniform", 1000},
			run{sf3, "sf3", c.algorithm, c.vlsS, c.hopsS, "wormhole", "uniform", measure(c.algorithm)})
	}
	for _, tc := range runs {
		name := fmt.Sprintf("%s/%s/%s/%s", tc.net, tc.algorithm, tc.sw, tc.pat)
		if testing.Short() && tc.sw == "wormhole" {
			continue
		}
		cfg := testConfig(t, tc.topo, tc.algorithm, tc.pat, tc.vls)
		cfg.Switching, cfg.Load = mode(tc.sw), 1
		cfg.Warmup, cfg.Measure, cfg.Drain = 200, tc.measure, 500
		cfg.BufferFlits = cfg.PacketFlits
		if tc.sw == "wormhole" {
			cfg.PacketFlits, cfg.BufferFlits = 8, 2 // worms span switches
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
		if st.HopsAvg < 1 || st.HopsAvg > float64(tc.hops+1) {
			t.Errorf("%s: %.3f switches per packet, want within [1, %d]", name, st.HopsAvg, tc.hops+1)
		}
	}
}

// measure returns the measurement window for a run on sf3: long enough
// for the twisted routings to have deadlocked had their twist VL been
// shared.
func measure(algorithm string) int64 {
	if strings.HasPrefix(algorithm, "twisted") {
		return 4000
	}
	return 1000
}
