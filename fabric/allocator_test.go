package fabric

import (
	"context"
	"fmt"
	"testing"

	switching "netsim/switch"
	"netsim/topologies"
)

// TestAllocatorsOnACrossbar offers a 32-port crossbar uniform traffic of
// 1-flit packets at full load and checks the throughput each allocator
// delivers. On one VL every allocator is bound by head-of-line blocking,
// 2 − √2 ≈ 0.586 of the link bandwidth for large switches; on 8 VLs, which
// DOR fills by destination (8 queues per input), iSLIP with 4 rounds
// matches at least as well as the oldest-first greedy matching, while one
// round of iSLIP or of input-first leaves outputs idle.
func TestAllocatorsOnACrossbar(t *testing.T) {
	for _, c := range []struct {
		vls        int
		alloc      switching.Allocator
		iterations int
		lo, hi     float64
	}{
		{1, switching.AllocOldestFirst, 0, 0.556, 0.616},
		{1, switching.AllocISLIP, 4, 0.556, 0.616},
		{1, switching.AllocInputFirst, 1, 0.556, 0.616},
		{8, switching.AllocOldestFirst, 0, 0.87, 0.93},
		{8, switching.AllocISLIP, 4, 0.89, 0.95},
		{8, switching.AllocISLIP, 1, 0.6, 0.72},
		{8, switching.AllocInputFirst, 1, 0.58, 0.7},
		{8, switching.AllocInputFirst, 4, 0.87, 0.93},
	} {
		name := fmt.Sprintf("%d VLs, %s×%d", c.vls, c.alloc, c.iterations)
		cfg := testConfig(t, topologies.Spec{Kind: "crossbar", Hosts: 32}, "dor", "uniform", c.vls)
		cfg.PacketFlits, cfg.Load = 1, 1
		cfg.Allocator, cfg.AllocIterations = c.alloc, c.iterations
		cfg.Warmup, cfg.Measure, cfg.Drain = 2000, 10000, 0
		st, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s: accepted %.4f", name, st.Accepted)
		if st.Accepted < c.lo || st.Accepted > c.hi {
			t.Errorf("%s: accepted %.4f, want %.3f..%.3f", name, st.Accepted, c.lo, c.hi)
		}
	}
}
