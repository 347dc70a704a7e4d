package fabric

import (
	"context"
	"fmt"
	"testing"

	"netsim/kernel"
	"netsim/topologies"
	"netsim/traffic"
)

// TestRandomConfigurationsConserve runs many small random configurations —
// sizes, VLs, buffers, STOP/GO marks at their limits, both switching
// modes, speedups, zero and non-zero delays, packets longer and shorter
// than the buffers, light and overloaded traffic — and checks that every
// flit is delivered exactly once and nothing deadlocks (DOR on a FlatFly
// cannot).
func TestRandomConfigurationsConserve(t *testing.T) {
	rng := kernel.NewRNG(2026)
	pick := func(lo, hi int) int { return lo + rng.IntN(hi-lo+1) }
	patterns := traffic.PatternNames()
	for i := 0; i < 40; i++ {
		dims := make([]int, pick(1, 3))
		widths := make([]int, len(dims))
		for d := range dims {
			dims[d], widths[d] = pick(2, 4), pick(1, 2)
		}
		c := 1 << pick(0, 2)
		vls := pick(1, 4)
		cfg := testConfig(t, topologies.Spec{Kind: "flatfly", Dims: dims, Widths: widths, HostsPerSwitch: c}, "dor", "uniform", vls)
		hosts := len(cfg.Net.Hosts)
		pat := patterns[rng.IntN(len(patterns))]
		if hosts&(hosts-1) != 0 {
			pat = "uniform"
		}
		p, err := traffic.NewPattern(pat, hosts, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		cfg.Pattern = p
		cfg.Switching = []string{"cut-through", "wormhole"}[rng.IntN(2)]
		cfg.FlowControl = []string{"credit", "stopgo"}[rng.IntN(2)]
		cfg.Speedup = pick(1, 3)
		cfg.LinkLatency, cfg.RoutingDelay, cfg.CrossbarDelay = pick(1, 3), pick(0, 3), pick(0, 3)
		cfg.PacketFlits = pick(1, 12)
		slack := cfg.CrossbarDelay + 2*cfg.LinkLatency - 1
		cfg.BufferFlits = pick(slack+2, 24)
		if cfg.Switching == "cut-through" {
			cfg.BufferFlits = max(cfg.BufferFlits, cfg.PacketFlits)
		}
		cfg.StopMark = cfg.BufferFlits - slack
		cfg.GoMark = pick(0, cfg.StopMark-1)
		cfg.Load = []float64{0.05, 0.3, 0.7, 1}[rng.IntN(4)]
		cfg.Warmup, cfg.Measure, cfg.Drain = 100, 600, 300
		cfg.Seed = uint64(i)
		name := fmt.Sprintf("#%d %v/w%v c%d vls%d %s %s speedup%d lat%d/%d/%d packet%d buffer%d marks%d/%d %s@%.2f",
			i, dims, widths, c, vls, cfg.FlowControl, cfg.Switching, cfg.Speedup,
			cfg.LinkLatency, cfg.RoutingDelay, cfg.CrossbarDelay, cfg.PacketFlits, cfg.BufferFlits,
			cfg.StopMark, cfg.GoMark, pat, cfg.Load)
		st, err := RunFlushed(context.Background(), cfg)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if st.InjectedFlits == 0 {
			t.Errorf("%s: nothing injected", name)
		}
	}
}
