package fabric

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"testing"

	"netsim/flowctl"
	"netsim/kernel"
	"netsim/nic"
	switching "netsim/switch"
	"netsim/topologies"
	"netsim/traffic"
)

// TestRandomConfigurationsConserve runs many small random configurations —
// sizes, VLs, buffers, STOP/GO marks at their limits, both switching
// modes, speedups, zero and non-zero delays, packets longer and shorter
// than the buffers, light and overloaded traffic, runs capped or not, both
// selection functions (they differ where double links give DOR two
// ports) — and checks that every flit is delivered exactly once and
// nothing deadlocks (DOR on a FlatFly cannot).
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
		cfg.Switching = mode([]string{"cut-through", "wormhole"}[rng.IntN(2)])
		cfg.FlowControl = []flowctl.Kind{flowctl.KindCredit, flowctl.KindStopGo}[rng.IntN(2)]
		cfg.Speedup = pick(1, 3)
		cfg.LinkLatency, cfg.RoutingDelay, cfg.CrossbarDelay = pick(1, 3), pick(0, 3), pick(0, 3)
		cfg.PacketFlits = pick(1, 12)
		cfg.VLAllocDelay, cfg.SwAllocDelay = i%5/3, i%7/5 // not drawn
		slack := cfg.SwAllocDelay + cfg.CrossbarDelay + 2*cfg.LinkLatency - 1
		cfg.BufferFlits = pick(slack+2, 24)
		if cfg.Switching == switching.CutThrough {
			cfg.BufferFlits = max(cfg.BufferFlits, cfg.PacketFlits)
		}
		cfg.StopMark = cfg.BufferFlits - slack
		cfg.GoMark = pick(0, cfg.StopMark-1)
		cfg.Load = []float64{0.05, 0.3, 0.7, 1}[rng.IntN(4)]
		cfg.Warmup, cfg.Measure, cfg.Drain = 100, 600, 300
		cfg.Seed = uint64(i)
		cfg.maxRun = []int{0, 0, 1, 3}[rng.IntN(4)] // unlimited runs, flit by flit, or short runs
		cfg.Selection = switching.Selections()[i%2] // not drawn: the other draws stay as they were
		cfg.Allocator, cfg.AllocIterations = switching.Allocators()[i%3], 1+i%4
		cfg.Buffers = switching.BuffersKinds()[i/2%3]
		if cfg.Buffers == switching.BuffersShared {
			cfg.FlowControl, cfg.Speedup = flowctl.KindCredit, 1 // its credits are its memory, its outputs read it
		}
		if i%4 == 1 {
			dynamic(t, &cfg)
		}
		name := fmt.Sprintf("#%d %v/w%v c%d vls%d %s %s speedup%d lat%d/%d/%d/%d/%d packet%d buffer%d marks%d/%d %s@%.2f maxrun%d %s %s×%d %s %s",
			i, dims, widths, c, vls, cfg.FlowControl, cfg.Switching, cfg.Speedup,
			cfg.LinkLatency, cfg.RoutingDelay, cfg.VLAllocDelay, cfg.SwAllocDelay, cfg.CrossbarDelay, cfg.PacketFlits, cfg.BufferFlits,
			cfg.StopMark, cfg.GoMark, pat, cfg.Load, cfg.maxRun, cfg.Selection, cfg.Allocator, cfg.AllocIterations, cfg.Buffers, cfg.VLChoice)
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

// TestRunsMatchFlitByFlit compares the run model with runs capped at one
// flit (sending flit by flit, as a per-flit simulator would) on small
// networks: both conserve every flit, and their throughput and, below
// saturation, latency are close — not equal, as an input stays connected
// to an output for a whole run and random draws happen at other moments.
// STOP/GO sends flit by flit anyway, so there the cap changes nothing.
func TestRunsMatchFlitByFlit(t *testing.T) {
	for _, c := range []struct {
		name            string
		fc, sw          string
		speedup, packet int
		load            float64
		saturated       bool
	}{
		{"credit cut-through", "credit", "cut-through", 1, 8, 0.5, false},
		{"credit cut-through saturated", "credit", "cut-through", 1, 8, 0.95, true},
		{"credit wormhole", "credit", "wormhole", 1, 8, 0.4, false},
		{"credit wormhole saturated", "credit", "wormhole", 1, 8, 0.8, true},
		{"stopgo cut-through", "stopgo", "cut-through", 1, 8, 0.6, false},
		{"credit speedup 2", "credit", "cut-through", 2, 16, 0.5, false},
		{"credit speedup 2 saturated", "credit", "cut-through", 2, 16, 0.9, true},
	} {
		var st [2]Stats
		for i, maxRun := range []int{0, 1} {
			cfg := testConfig(t, flatfly4x4, "dor", "uniform", 2)
			cfg.FlowControl, cfg.Switching, cfg.Speedup = flowctl.Kind(c.fc), mode(c.sw), c.speedup
			cfg.PacketFlits, cfg.BufferFlits = c.packet, 16
			if c.sw == "wormhole" {
				cfg.BufferFlits = 6
			}
			cfg.Load = c.load
			cfg.Warmup, cfg.Measure, cfg.Drain = 500, 4000, 2000
			cfg.maxRun = maxRun
			var err error
			st[i], err = RunFlushed(context.Background(), cfg)
			if err != nil {
				t.Fatalf("%s, max run %d: %v", c.name, maxRun, err)
			}
		}
		runs, flits := st[0], st[1]
		if c.fc == "stopgo" {
			if !reflect.DeepEqual(runs, flits) {
				t.Errorf("%s: capping runs at one flit changed the results:\n%+v\n%+v", c.name, runs, flits)
			}
			continue
		}
		t.Logf("%s: accepted %.4f vs %.4f, latency %.1f vs %.1f", c.name, runs.Accepted, flits.Accepted, runs.LatencyAvg, flits.LatencyAvg)
		tolerance := 0.01 // below saturation both deliver what is offered
		if c.saturated {
			tolerance = 0.03
		}
		if d := math.Abs(runs.Accepted - flits.Accepted); d > tolerance*flits.Accepted {
			t.Errorf("%s: accepted %.4f with runs, %.4f flit by flit", c.name, runs.Accepted, flits.Accepted)
		}
		if d := math.Abs(runs.LatencyAvg - flits.LatencyAvg); !c.saturated && d > 0.1*flits.LatencyAvg {
			t.Errorf("%s: latency %.1f with runs, %.1f flit by flit", c.name, runs.LatencyAvg, flits.LatencyAvg)
		}
		if runs.Events >= flits.Events {
			t.Errorf("%s: %d events with runs, %d flit by flit: runs should save work", c.name, runs.Events, flits.Events)
		}
	}
}

// TestExtraWakeUpsChangeNothing wakes every switch and NIC in every cycle
// and checks that the results are exactly those of the event-driven run:
// a tick that finds nothing to do changes nothing, and the components' own
// wake-ups (run ends, arrivals, routing delays, credits) miss no cycle in
// which something could move. The adaptive cases, under the idle
// selection too, check the wake-ups of heads that wait for a busy port.
func TestExtraWakeUpsChangeNothing(t *testing.T) {
	for _, c := range []struct {
		fc, sw           string
		speedup          int
		load             float64
		routing, pattern string
		selection        string
		alloc            switching.Allocator
		buffers          switching.Buffers
		dynamic          bool
	}{
		{"credit", "cut-through", 1, 0.5, "dor", "uniform", "", 0, 0, false},
		{"credit", "cut-through", 1, 0.95, "dor", "uniform", "", 0, 0, false},
		{"credit", "wormhole", 1, 0.7, "dor", "uniform", "", 0, 0, false},
		{"credit", "cut-through", 2, 0.9, "dor", "uniform", "", 0, 0, false},
		{"stopgo", "cut-through", 1, 0.8, "dor", "uniform", "", 0, 0, false},
		{"stopgo", "wormhole", 2, 0.8, "dor", "uniform", "", 0, 0, false},
		{"credit", "cut-through", 1, 0.6, "deflection+2", "complement", "credits", 0, 0, false},
		{"credit", "cut-through", 1, 0.6, "deflection+2", "complement", "idle", 0, 0, false},
		{"credit", "wormhole", 1, 0.9, "distance+2", "uniform", "idle", 0, 0, false},
		{"stopgo", "cut-through", 2, 0.8, "deflection+2", "uniform", "idle", 0, 0, false},
		{"credit", "cut-through", 1, 0.95, "dor", "uniform", "", switching.AllocISLIP, 0, false},
		{"credit", "wormhole", 2, 0.9, "distance+2", "uniform", "idle", switching.AllocISLIP, 0, false},
		{"stopgo", "cut-through", 1, 0.8, "deflection+2", "complement", "credits", switching.AllocInputFirst, 0, false},
		{"credit", "cut-through", 2, 0.9, "dor", "uniform", "", switching.AllocInputFirst, 0, false},
		{"credit", "cut-through", 1, 0.95, "dor", "uniform", "", 0, switching.BuffersVOQ, false},
		{"credit", "wormhole", 2, 0.9, "distance+2", "uniform", "idle", switching.AllocISLIP, switching.BuffersVOQ, false},
		{"stopgo", "cut-through", 1, 0.8, "deflection+2", "complement", "credits", 0, switching.BuffersVOQ, false},
		{"stopgo", "wormhole", 2, 0.9, "dor", "uniform", "", switching.AllocInputFirst, switching.BuffersVOQ, false},
		{"credit", "cut-through", 1, 0.95, "dor", "uniform", "", 0, switching.BuffersShared, false},
		{"credit", "wormhole", 1, 0.9, "distance+2", "uniform", "idle", switching.AllocISLIP, switching.BuffersShared, false},
		{"credit", "cut-through", 1, 0.8, "deflection+2", "complement", "credits", switching.AllocInputFirst, switching.BuffersShared, false},
		{"credit", "cut-through", 1, 0.95, "dor", "uniform", "", 0, 0, true},
		{"stopgo", "wormhole", 2, 0.9, "distance+2", "uniform", "idle", 0, 0, true},
		{"credit", "wormhole", 1, 0.9, "distance+2", "complement", "credits", switching.AllocISLIP, switching.BuffersVOQ, true},
		{"credit", "cut-through", 1, 0.95, "dor", "uniform", "idle", 0, switching.BuffersShared, true},
		{"credit", "cut-through", 1, 0.8, "deflection+2", "uniform", "", switching.AllocInputFirst, switching.BuffersShared, true},
	} {
		var st [2]Stats
		for i, wake := range []bool{false, true} {
			vls := 8 // distance routings count hops on them
			if c.routing == "dor" {
				vls = 2
			}
			cfg := testConfig(t, flatfly4x4, c.routing, c.pattern, vls)
			cfg.Selection = selectionNamed(c.selection)
			cfg.Allocator, cfg.AllocIterations, cfg.Buffers = c.alloc, 3, c.buffers
			cfg.FlowControl, cfg.Switching, cfg.Speedup, cfg.Load = flowctl.Kind(c.fc), mode(c.sw), c.speedup, c.load
			cfg.PacketFlits, cfg.BufferFlits = 8, 16
			if c.sw == "wormhole" {
				cfg.BufferFlits = 6
			}
			cfg.StopMark, cfg.GoMark = cfg.BufferFlits-2, 2
			cfg.Warmup, cfg.Measure, cfg.Drain = 300, 2000, 1000
			cfg.wakeAll = wake
			if c.dynamic {
				dynamic(t, &cfg)
			}
			var err error
			if st[i], err = Run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
		}
		st[0].Events, st[1].Events = 0, 0 // the extra ticks are events
		if !reflect.DeepEqual(st[0], st[1]) {
			t.Errorf("%+v: waking every component every cycle changed the results:\n%+v\n%+v", c, st[0], st[1])
		}
	}
}

// variedConfig is one of the random small configurations of the property
// tests below.
type variedConfig struct {
	topo                            topologies.Spec
	topoName, sel, alg, pat, fc, sw string
	speedup, delay                  int
	alloc                           switching.Allocator // with 2 iterations but for oldest-first
	buffers                         switching.Buffers
	dynamic                         bool // dynamic VL choice
	load                            float64
	seed                            uint64
}

func (v variedConfig) String() string {
	vl := "static"
	if v.dynamic {
		vl = "dynamic"
	}
	return fmt.Sprintf("#%d %s %s %s %s %s %s speedup%d delay%d @%.1f %s %s %s", v.seed, v.topoName, v.sel, v.alg, v.pat, v.fc, v.sw, v.speedup, v.delay, v.load, v.alloc, v.buffers, vl)
}

// config returns v's configuration: 8-flit packets, buffers of two packets
// (6 flits under wormhole), 200 + 1,000 cycles and a 500-cycle drain.
func (v variedConfig) config(t testing.TB) Config {
	cfg := testConfig(t, v.topo, v.alg, v.pat, 8)
	cfg.Selection, cfg.FlowControl, cfg.Switching = selectionNamed(v.sel), flowctl.Kind(v.fc), mode(v.sw)
	cfg.Speedup, cfg.RoutingDelay, cfg.Load = v.speedup, v.delay, v.load
	cfg.Allocator, cfg.AllocIterations, cfg.Buffers = v.alloc, 2, v.buffers
	if v.buffers == switching.BuffersShared {
		cfg.FlowControl, cfg.Speedup = flowctl.KindCredit, 1 // its credits are its memory, its outputs read it
	}
	cfg.PacketFlits, cfg.BufferFlits = 8, 16
	if v.sw == "wormhole" {
		cfg.BufferFlits = 6
	}
	cfg.StopMark, cfg.GoMark = cfg.BufferFlits-2, 2
	cfg.Warmup, cfg.Measure, cfg.Drain = 200, 1000, 500
	cfg.Seed = v.seed
	if v.dynamic {
		dynamic(t, &cfg)
	}
	return cfg
}

// sameResults runs build(false) and build(true) and reports an error
// naming the change if their results, the number of events aside, differ.
func sameResults(t *testing.T, name, change string, build func(alt bool) Config) {
	t.Helper()
	var st [2]Stats
	for j, alt := range []bool{false, true} {
		var err error
		if st[j], err = Run(context.Background(), build(alt)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	st[0].Events, st[1].Events = 0, 0
	if !reflect.DeepEqual(st[0], st[1]) {
		t.Errorf("%s: %s changed the results:\n%+v\n%+v", name, change, st[0], st[1])
	}
}

// TestParkingChangesNothing runs random small configurations — both
// selection functions, single-path and adaptive routings, both flow
// controls and switching modes, speedups, routing delays, loads and
// patterns — with switches that pass over parked heads and with switches
// that select again for every waiting head in every tick, and checks that
// the results are the same: a parked head's wake-ups (an output VL set
// free, room downstream, credits on their way, a busy port's run ending)
// miss nothing, and its failed selections drew no random numbers.
func TestParkingChangesNothing(t *testing.T) {
	rng := kernel.NewRNG(2027)
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	for i := 0; i < 32; i++ {
		v := variedConfig{topo: flatfly4x4, topoName: "flatfly", sel: []string{"credits", "idle"}[i%2], seed: uint64(i), alloc: switching.Allocators()[i%3], buffers: switching.BuffersKinds()[i/3%3], dynamic: i%4 == 3}
		v.alg = pick("dor", "deflection+2", "distance+2")
		v.pat = pick("uniform", "complement")
		v.fc, v.sw = pick("credit", "stopgo"), pick("cut-through", "wormhole")
		v.speedup, v.delay = 1+rng.IntN(3), rng.IntN(3)
		v.load = []float64{0.5, 0.9}[rng.IntN(2)]
		sameResults(t, v.String(), "selecting again for parked heads", func(noPark bool) Config {
			cfg := v.config(t)
			cfg.noPark = noPark
			return cfg
		})
	}
	// Adaptive routings with many candidates on several output VLs, at
	// seed 004's packet and buffer sizes, past saturation: most
	// selections fail, and parked heads see their candidates change.
	yes := true
	df := topologies.Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 4, OmitOneGlobal: &yes}
	hc := topologies.Spec{Kind: "hypercube", Dimension: 5, Width: 2, HostsPerSwitch: 4}
	for i, c := range []struct {
		topo      topologies.Spec
		alg, pat  string
		selection string
		dynamic   bool
	}{
		{df, "G", "uniform", "credits", false}, {df, "GSID", "complement", "credits", false}, {df, "G", "shuffle", "idle", false},
		{df, "deflection+4", "uniform", "idle", false}, {hc, "negative-first", "uniform", "credits", false},
		{flatfly4x4, "twisted-mixed-ador", "uniform", "credits", false}, {flatfly4x4, "ador", "complement", "idle", false},
		{df, "G", "uniform", "credits", true}, {flatfly4x4, "twisted-mixed-ador", "uniform", "idle", true},
	} {
		sameResults(t, fmt.Sprint(c.alg, " ", c.pat, " ", c.selection, " dynamic ", c.dynamic), "selecting again for parked heads", func(noPark bool) Config {
			cfg := testConfig(t, c.topo, c.alg, c.pat, 8)
			if c.dynamic {
				dynamic(t, &cfg)
			}
			cfg.Selection = selectionNamed(c.selection)
			cfg.Load, cfg.PacketFlits, cfg.BufferFlits = 0.9, 16, 64
			cfg.Warmup, cfg.Measure, cfg.Drain = 500, 2000, 0
			cfg.Seed = uint64(i)
			cfg.noPark = noPark
			return cfg
		})
	}
}

// TestTickOrderChangesNothing runs random small configurations — flat
// flies and tori, single-path and adaptive routings, both selection
// functions, flow controls and switching modes, speedups, routing delays,
// loads, patterns, and source-routed NICs with dispersion — once with each
// cycle's ticks in the usual order (NICs, then switches, by index; NICs
// woken by a packet generated after the batch was scheduled after the
// switches) and once in a random order, NICs and switches mixed, after
// every other event of the cycle, and checks that the results are the
// same: what a component does in a cycle changes another's decisions
// only from the next cycle on.
func TestTickOrderChangesNothing(t *testing.T) {
	torus := topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 2}
	ring := topologies.Spec{Kind: "torus", Dims: []int{4}, HostsPerSwitch: 2}
	for _, v := range randomConfigs(2028, 40, torus, ring) {
		sameResults(t, v.String(), "shuffling the ticks of a cycle", func(shuffle bool) Config {
			cfg := v.config(t)
			cfg.shuffleTicks = shuffle
			return cfg
		})
	}
	// The Dragonfly's and the hypercube's adaptive routings at seed 004's
	// packet and buffer sizes.
	yes := true
	df := topologies.Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 4, OmitOneGlobal: &yes}
	hc := topologies.Spec{Kind: "hypercube", Dimension: 5, Width: 2, HostsPerSwitch: 4}
	for _, c := range []struct {
		topo    topologies.Spec
		alg     string
		dynamic bool
	}{{df, "G", false}, {df, "GSID", false}, {df, "deflection+4", false}, {hc, "negative-first", false}, {flatfly4x4, "twisted-mixed-ador", false}, {df, "GSID", true}} {
		sameResults(t, fmt.Sprint(c.alg, " dynamic ", c.dynamic), "shuffling the ticks of a cycle", func(shuffle bool) Config {
			cfg := testConfig(t, c.topo, c.alg, "uniform", 8)
			if c.dynamic {
				dynamic(t, &cfg)
			}
			cfg.Load, cfg.PacketFlits, cfg.BufferFlits = 0.8, 16, 64
			cfg.Warmup, cfg.Measure, cfg.Drain = 500, 3000, 0
			cfg.shuffleTicks = shuffle
			return cfg
		})
	}
	// Myrinet-like NICs choosing among source routes, adaptive and probing.
	for _, mode := range []nic.Mode{nic.Adaptive, nic.Probing} {
		sameResults(t, mode.String(), "shuffling the ticks of a cycle", func(shuffle bool) Config {
			cfg := seedConfig(t, 64, mode)
			cfg.Load = 0.8
			cfg.Warmup, cfg.Measure, cfg.Drain = 200, 2000, 500
			cfg.shuffleTicks = shuffle
			return cfg
		})
	}
}

// TestDeferredCallsChangeNothing: holding back the calls a switch makes
// on its neighbours (a run arriving, the credits of the room it frees,
// news of that room upstream) until the event that made them has been
// handled, and making them then in reverse order (Config.deferCalls),
// changes no result: within a cycle a switch acts only on what its
// neighbours did in earlier cycles, which is what a network partitioned
// among threads, exchanging the calls that cross partitions after each
// cycle's ticks, needs.
func TestDeferredCallsChangeNothing(t *testing.T) {
	torus := topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 2}
	for _, v := range randomConfigs(2029, 24, torus) {
		sameResults(t, v.String(), "deferring the calls between switches", func(deferCalls bool) Config {
			cfg := v.config(t)
			cfg.deferCalls = deferCalls
			return cfg
		})
	}
	yes := true
	df := topologies.Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 4, OmitOneGlobal: &yes}
	sameUnderDispersion(t, "deferring the calls between switches", func(cfg *Config, alt bool) { cfg.deferCalls = alt })
	for _, alg := range []string{"G", "GSID", "deflection+4"} {
		sameResults(t, alg, "deferring the calls between switches", func(deferCalls bool) Config {
			cfg := testConfig(t, df, alg, "uniform", 8)
			cfg.Load, cfg.PacketFlits, cfg.BufferFlits = 0.8, 16, 64
			cfg.deferCalls = deferCalls
			return cfg
		})
	}
}

// TestPacketIndicesChangeNothing: numbering the packets otherwise (the
// pool reusing the index released longest ago instead of the latest,
// Config.oldestFirst) changes no result: a packet's index names it and
// orders nothing, so pools kept apart per partition of a network, which
// number packets otherwise again, may be used.
func TestPacketIndicesChangeNothing(t *testing.T) {
	for _, v := range randomConfigs(2030, 12) {
		sameResults(t, v.String(), "numbering the packets otherwise", func(alt bool) Config {
			cfg := v.config(t)
			cfg.oldestFirst = alt
			return cfg
		})
	}
	sameUnderDispersion(t, "numbering the packets otherwise", func(cfg *Config, alt bool) { cfg.oldestFirst = alt })
}

// randomConfigs returns n random small configurations drawn from seed:
// the FlatFly 4×4 under DOR, ADOR and the Distance Based and Deflection
// +2 routings, and every len(grids)+2 configurations from the second on
// one on each of grids under DOR; every allocator, buffer organisation,
// static and dynamic VL choice, both selections, flow controls and
// switching modes, speedups 1–3, routing delays 0–2, uniform, complement
// and transpose at loads 0.4, 0.7 and 1.
func randomConfigs(seed uint64, n int, grids ...topologies.Spec) []variedConfig {
	rng := kernel.NewRNG(seed)
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	var vs []variedConfig
	for i := range n {
		v := variedConfig{topo: flatfly4x4, topoName: "flatfly", seed: uint64(i), alloc: switching.Allocators()[i%3], buffers: switching.BuffersKinds()[i/3%3], dynamic: i/4%2 == 1}
		v.alg = pick("dor", "ador", "deflection+2", "distance+2")
		if g := i % (len(grids) + 2); g >= 1 && g <= len(grids) {
			v.topo, v.topoName, v.alg = grids[g-1], grids[g-1].Kind, "dor"
			if len(grids[g-1].Dims) == 1 {
				v.topoName = "ring"
			}
		}
		v.sel = pick("credits", "idle")
		v.pat = pick("uniform", "complement", "transpose")
		v.fc, v.sw = pick("credit", "stopgo"), pick("cut-through", "wormhole")
		v.speedup, v.delay = 1+rng.IntN(3), rng.IntN(3)
		v.load = []float64{0.4, 0.7, 1}[rng.IntN(3)]
		vs = append(vs, v)
	}
	return vs
}

// sameUnderDispersion checks with sameResults that set, with alt true,
// changes no result of a Myrinet-like Clos under each NIC dispersion
// (static, random, adaptive, probing).
func sameUnderDispersion(t *testing.T, change string, set func(cfg *Config, alt bool)) {
	t.Helper()
	for _, mode := range nic.Modes() {
		sameResults(t, mode.String(), change, func(alt bool) Config {
			cfg := myrinetConfig(t, 8, 32, mode)
			cfg.Load, cfg.Dispersion.MaxProbes = 0.6, 8
			set(&cfg, alt)
			return cfg
		})
	}
}
