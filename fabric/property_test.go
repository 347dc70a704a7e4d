package fabric

import (
	"context"
	"fmt"
	"math"
	"testing"

	"netsim/kernel"
	"netsim/nic"
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
		cfg.maxRun = []int{0, 0, 1, 3}[rng.IntN(4)]      // unlimited runs, flit by flit, or short runs
		cfg.Selection = []string{"credits", "idle"}[i%2] // not drawn: the other draws stay as they were
		name := fmt.Sprintf("#%d %v/w%v c%d vls%d %s %s speedup%d lat%d/%d/%d packet%d buffer%d marks%d/%d %s@%.2f maxrun%d %s",
			i, dims, widths, c, vls, cfg.FlowControl, cfg.Switching, cfg.Speedup,
			cfg.LinkLatency, cfg.RoutingDelay, cfg.CrossbarDelay, cfg.PacketFlits, cfg.BufferFlits,
			cfg.StopMark, cfg.GoMark, pat, cfg.Load, cfg.maxRun, cfg.Selection)
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
			cfg.FlowControl, cfg.Switching, cfg.Speedup = c.fc, c.sw, c.speedup
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
			if runs != flits {
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
	}{
		{"credit", "cut-through", 1, 0.5, "dor", "uniform", ""},
		{"credit", "cut-through", 1, 0.95, "dor", "uniform", ""},
		{"credit", "wormhole", 1, 0.7, "dor", "uniform", ""},
		{"credit", "cut-through", 2, 0.9, "dor", "uniform", ""},
		{"stopgo", "cut-through", 1, 0.8, "dor", "uniform", ""},
		{"stopgo", "wormhole", 2, 0.8, "dor", "uniform", ""},
		{"credit", "cut-through", 1, 0.6, "deflection+2", "complement", "credits"},
		{"credit", "cut-through", 1, 0.6, "deflection+2", "complement", "idle"},
		{"credit", "wormhole", 1, 0.9, "distance+2", "uniform", "idle"},
		{"stopgo", "cut-through", 2, 0.8, "deflection+2", "uniform", "idle"},
	} {
		var st [2]Stats
		for i, wake := range []bool{false, true} {
			vls := 8 // distance routings count hops on them
			if c.routing == "dor" {
				vls = 2
			}
			cfg := testConfig(t, flatfly4x4, c.routing, c.pattern, vls)
			cfg.Selection = c.selection
			cfg.FlowControl, cfg.Switching, cfg.Speedup, cfg.Load = c.fc, c.sw, c.speedup, c.load
			cfg.PacketFlits, cfg.BufferFlits = 8, 16
			if c.sw == "wormhole" {
				cfg.BufferFlits = 6
			}
			cfg.StopMark, cfg.GoMark = cfg.BufferFlits-2, 2
			cfg.Warmup, cfg.Measure, cfg.Drain = 300, 2000, 1000
			cfg.wakeAll = wake
			var err error
			if st[i], err = Run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
		}
		st[0].Events, st[1].Events = 0, 0 // the extra ticks are events
		if st[0] != st[1] {
			t.Errorf("%+v: waking every component every cycle changed the results:\n%+v\n%+v", c, st[0], st[1])
		}
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
		sel := []string{"credits", "idle"}[i%2]
		alg := pick("dor", "deflection+2", "distance+2")
		pat := pick("uniform", "complement")
		fc, sw := pick("credit", "stopgo"), pick("cut-through", "wormhole")
		speedup, delay := 1+rng.IntN(3), rng.IntN(3)
		load := []float64{0.5, 0.9}[rng.IntN(2)]
		name := fmt.Sprintf("#%d %s %s %s %s %s speedup%d delay%d @%.1f", i, sel, alg, pat, fc, sw, speedup, delay, load)
		var st [2]Stats
		for j, noPark := range []bool{false, true} {
			cfg := testConfig(t, flatfly4x4, alg, pat, 8)
			cfg.Selection, cfg.FlowControl, cfg.Switching = sel, fc, sw
			cfg.Speedup, cfg.RoutingDelay, cfg.Load = speedup, delay, load
			cfg.PacketFlits, cfg.BufferFlits = 8, 16
			if sw == "wormhole" {
				cfg.BufferFlits = 6
			}
			cfg.StopMark, cfg.GoMark = cfg.BufferFlits-2, 2
			cfg.Warmup, cfg.Measure, cfg.Drain = 200, 1000, 500
			cfg.Seed = uint64(i)
			cfg.noPark = noPark
			var err error
			if st[j], err = Run(context.Background(), cfg); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		st[0].Events, st[1].Events = 0, 0
		if st[0] != st[1] {
			t.Errorf("%s: selecting again for parked heads changed the results:\n%+v\n%+v", name, st[0], st[1])
		}
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
	rng := kernel.NewRNG(2028)
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	torus := topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 2}
	ring := topologies.Spec{Kind: "torus", Dims: []int{4}, HostsPerSwitch: 2}
	for i := 0; i < 40; i++ {
		topo, topoName := flatfly4x4, "flatfly"
		alg := pick("dor", "ador", "deflection+2", "distance+2")
		switch i % 4 {
		case 1:
			topo, topoName, alg = torus, "torus", "dor"
		case 2:
			topo, topoName, alg = ring, "ring", "dor"
		}
		sel := []string{"credits", "idle"}[rng.IntN(2)]
		pat := pick("uniform", "complement", "transpose")
		fc, sw := pick("credit", "stopgo"), pick("cut-through", "wormhole")
		speedup, delay := 1+rng.IntN(3), rng.IntN(3)
		load := []float64{0.4, 0.7, 1}[rng.IntN(3)]
		name := fmt.Sprintf("#%d %s %s %s %s %s %s speedup%d delay%d @%.1f", i, topoName, sel, alg, pat, fc, sw, speedup, delay, load)
		var st [2]Stats
		for j, shuffle := range []bool{false, true} {
			cfg := testConfig(t, topo, alg, pat, 8)
			cfg.Selection, cfg.FlowControl, cfg.Switching = sel, fc, sw
			cfg.Speedup, cfg.RoutingDelay, cfg.Load = speedup, delay, load
			cfg.PacketFlits, cfg.BufferFlits = 8, 16
			if sw == "wormhole" {
				cfg.BufferFlits = 6
			}
			cfg.StopMark, cfg.GoMark = cfg.BufferFlits-2, 2
			cfg.Warmup, cfg.Measure, cfg.Drain = 200, 1000, 500
			cfg.Seed = uint64(i)
			cfg.shuffleTicks = shuffle
			var err error
			if st[j], err = Run(context.Background(), cfg); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		st[0].Events, st[1].Events = 0, 0
		if st[0] != st[1] {
			t.Errorf("%s: shuffling the ticks of a cycle changed the results:\n%+v\n%+v", name, st[0], st[1])
		}
	}
	// The Dragonfly's and the hypercube's adaptive routings at seed 004's
	// packet and buffer sizes.
	yes := true
	df := topologies.Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 4, OmitOneGlobal: &yes}
	hc := topologies.Spec{Kind: "hypercube", Dimension: 5, Width: 2, HostsPerSwitch: 4}
	for _, c := range []struct {
		topo topologies.Spec
		alg  string
	}{{df, "G"}, {df, "GSID"}, {df, "deflection+4"}, {hc, "negative-first"}, {flatfly4x4, "twisted-mixed-ador"}} {
		var st [2]Stats
		for j, shuffle := range []bool{false, true} {
			cfg := testConfig(t, c.topo, c.alg, "uniform", 8)
			cfg.Load, cfg.PacketFlits, cfg.BufferFlits = 0.8, 16, 64
			cfg.Warmup, cfg.Measure, cfg.Drain = 500, 3000, 0
			cfg.shuffleTicks = shuffle
			var err error
			if st[j], err = Run(context.Background(), cfg); err != nil {
				t.Fatalf("%s: %v", c.alg, err)
			}
		}
		st[0].Events, st[1].Events = 0, 0
		if st[0] != st[1] {
			t.Errorf("%s: shuffling the ticks of a cycle changed the results:\n%+v\n%+v", c.alg, st[0], st[1])
		}
	}
	// Myrinet-like NICs choosing among source routes, adaptive and probing.
	for _, mode := range []nic.Mode{nic.Adaptive, nic.Probing} {
		var st [2]Stats
		for j, shuffle := range []bool{false, true} {
			cfg := seedConfig(t, 64, mode)
			cfg.Load = 0.8
			cfg.Warmup, cfg.Measure, cfg.Drain = 200, 2000, 500
			cfg.shuffleTicks = shuffle
			var err error
			if st[j], err = Run(context.Background(), cfg); err != nil {
				t.Fatalf("%v: %v", mode, err)
			}
		}
		st[0].Events, st[1].Events = 0, 0
		if st[0] != st[1] {
			t.Errorf("%v: shuffling the ticks of a cycle changed the results:\n%+v\n%+v", mode, st[0], st[1])
		}
	}
}
