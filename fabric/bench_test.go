package fabric

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	switching "netsim/switch"
	"netsim/topologies"
)

// benchPoint runs one point b.N times and reports simulator throughput:
// flit-hops (flits moved across links, host links included) per second,
// simulated cycles per second, kernel events per flit-hop, allocations per
// flit-hop and the heap in use at the end of a run.
func benchPoint(b *testing.B, topo topologies.Spec, vls int, load float64, cycles int64) {
	benchRouting(b, topo, "dor", "uniform", vls, load, cycles)
}

// benchRouting is benchPoint with the given routing and pattern; each of
// set then changes the configuration.
func benchRouting(b *testing.B, topo topologies.Spec, algorithm, pattern string, vls int, load float64, cycles int64, set ...func(*Config)) {
	cfg := testConfig(b, topo, algorithm, pattern, vls)
	cfg.Load = load
	cfg.PacketFlits, cfg.BufferFlits = 16, 64
	cfg.Warmup, cfg.Measure, cfg.Drain = cycles/5, cycles-cycles/5, 0
	for _, f := range set {
		f(&cfg)
	}
	var hops, events, simCycles int64
	var elapsed time.Duration
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		st, err := Run(context.Background(), cfg)
		elapsed += time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		hops += st.FlitHops
		events += st.Events
		simCycles += st.Cycles
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(hops)/elapsed.Seconds()/1e6, "Mflithops/s")
	b.ReportMetric(float64(simCycles)/elapsed.Seconds(), "cycles/s")
	b.ReportMetric(float64(events)/float64(hops), "events/flithop")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(hops), "allocs/flithop")
	b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(b.N)/(1<<20), "MiB-alloc/run")
}

// BenchmarkFlatFly4096 is the reference: FlatFly 8×8×8, C=8 (4,096
// hosts), DOR, uniform at load 0.5, credits, 8 VLs.
func BenchmarkFlatFly4096(b *testing.B) {
	benchPoint(b, topologies.Spec{Kind: "flatfly", Dims: []int{8, 8, 8}, HostsPerSwitch: 8}, 8, 0.5, 5000)
}

// BenchmarkFlatFly4096Observed is BenchmarkFlatFly4096 with every
// observation on: latency distribution, a timeline in windows of 100
// cycles, and the links' flits and stalls (issue 38: at most 20 % more
// CPU than without).
func BenchmarkFlatFly4096Observed(b *testing.B) {
	benchRouting(b, topologies.Spec{Kind: "flatfly", Dims: []int{8, 8, 8}, HostsPerSwitch: 8}, "dor", "uniform", 8, 0.5, 5000,
		func(c *Config) { c.LatencyDistribution, c.Timeline, c.LinkStats = true, 100, true })
}

// BenchmarkFlatFly4096Switch is BenchmarkFlatFly4096 under each buffer
// organisation and allocator, and with dynamic VL choice: their cost per
// flit-hop against fifo's.
func BenchmarkFlatFly4096Switch(b *testing.B) {
	for _, c := range []struct {
		buffers switching.Buffers
		alloc   switching.Allocator
		dynamic bool
	}{
		{switching.BuffersFIFO, switching.AllocOldestFirst, false},
		{switching.BuffersFIFO, switching.AllocISLIP, false},
		{switching.BuffersVOQ, switching.AllocOldestFirst, false},
		{switching.BuffersVOQ, switching.AllocISLIP, false},
		{switching.BuffersShared, switching.AllocOldestFirst, false},
		{switching.BuffersShared, switching.AllocISLIP, false},
		{switching.BuffersFIFO, switching.AllocOldestFirst, true},
		{switching.BuffersShared, switching.AllocOldestFirst, true},
	} {
		name := c.buffers.String() + "-" + c.alloc.String()
		if c.dynamic {
			name += "-dynamic"
		}
		b.Run(name, func(b *testing.B) {
			benchRouting(b, topologies.Spec{Kind: "flatfly", Dims: []int{8, 8, 8}, HostsPerSwitch: 8}, "dor", "uniform", 8, 0.5, 5000,
				func(c2 *Config) {
					c2.Buffers, c2.Allocator, c2.AllocIterations = c.buffers, c.alloc, 2
					if c.dynamic {
						dynamic(b, c2)
					}
				})
		})
	}
}

// BenchmarkFlatFly16384 is the 16,384-host FlatFly of seed 004 (4×8×8×8,
// widths 2,1,1,1, C=8) for one 10,000-cycle point at load 0.5.
func BenchmarkFlatFly16384(b *testing.B) {
	benchPoint(b, topologies.Spec{Kind: "flatfly", Dims: []int{4, 8, 8, 8}, Widths: []int{2, 1, 1, 1}, HostsPerSwitch: 8}, 8, 0.5, 10000)
}

// BenchmarkThreads is the 4,096-host FlatFly of BenchmarkFlatFly4096 and
// the 16,384-host one of BenchmarkFlatFly16384 (5,000 cycles) on 1, 2
// and 4 threads (Config.Threads): compare the runs' wall time (ns/op)
// across thread counts, and against the machine's free cores.
func BenchmarkThreads(b *testing.B) {
	for _, c := range []struct {
		name   string
		topo   topologies.Spec
		cycles int64
	}{
		{"flatfly4096", topologies.Spec{Kind: "flatfly", Dims: []int{8, 8, 8}, HostsPerSwitch: 8}, 5000},
		{"flatfly16384", topologies.Spec{Kind: "flatfly", Dims: []int{4, 8, 8, 8}, Widths: []int{2, 1, 1, 1}, HostsPerSwitch: 8}, 5000},
	} {
		for _, threads := range []int{1, 2, 4} {
			b.Run(fmt.Sprintf("%s/threads=%d", c.name, threads), func(b *testing.B) {
				benchRouting(b, c.topo, "dor", "uniform", 8, 0.5, c.cycles, func(cfg *Config) { cfg.Threads = threads })
			})
		}
	}
}

// preset returns the topology preset name.
func preset(b *testing.B, name string) topologies.Spec {
	for _, p := range topologies.Presets() {
		if p.Name == name {
			return p.Spec
		}
	}
	b.Fatalf("no preset %q", name)
	return topologies.Spec{}
}

// BenchmarkSeed004 runs full-scale points of seed 004's table at high
// load (hardware of studies/seed004/common/hw.toml, 10,000 cycles).
func BenchmarkSeed004(b *testing.B) {
	for _, bc := range []struct {
		preset, algorithm, pattern string
		load                       float64
	}{
		{"flatfly", "dor", "uniform", 0.75},
		{"flatfly", "distance+4", "uniform", 0.5},
		{"dragonfly", "static", "uniform", 0.5},
		{"dragonfly", "distance+3", "uniform", 0.5},
		{"dragonfly", "static", "reverse", 0.47},
		{"dragonfly", "G", "uniform", 0.5},
		{"dragonfly", "GSID", "uniform", 0.5},
		{"hypercube", "dor", "uniform", 0.5},
		{"torus3d", "dor", "uniform", 0.25},
		{"sfxff1", "dor", "uniform", 0.5},
		{"sfxff1", "distance+4", "uniform", 0.5},
		{"sfxff2", "dor", "uniform", 0.5},
		{"sfxff2", "distance+4", "uniform", 0.5},
	} {
		b.Run(fmt.Sprintf("%s/%s/%s/%v", bc.preset, bc.algorithm, bc.pattern, bc.load), func(b *testing.B) {
			benchRouting(b, preset(b, bc.preset), bc.algorithm, bc.pattern, 8, bc.load, 10000)
		})
	}
}
