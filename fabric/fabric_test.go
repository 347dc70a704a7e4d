package fabric

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"netsim/flowctl"
	"netsim/kernel"
	switching "netsim/switch"
	"netsim/topologies"
)

var (
	flatfly4x4 = topologies.Spec{Kind: "flatfly", Dims: []int{4, 4}, Widths: []int{1, 2}, HostsPerSwitch: 4}
	flatfly8x8 = topologies.Spec{Kind: "flatfly", Dims: []int{8, 8}, HostsPerSwitch: 8}
)

// TestConservation checks that after a flush every injected flit was
// ejected exactly once, for every flow control and switching mode, below
// and above saturation.
func TestConservation(t *testing.T) {
	for _, fc := range []string{"credit", "stopgo"} {
		for _, sw := range []string{"cut-through", "wormhole"} {
			for _, load := range []float64{0.2, 0.95} {
				for _, vls := range []int{1, 3} {
					cfg := testConfig(t, flatfly4x4, "dor", "uniform", vls)
					cfg.FlowControl, cfg.Switching, cfg.Load = flowctl.Kind(fc), mode(sw), load
					cfg.Warmup, cfg.Measure, cfg.Drain = 200, 1500, 500
					if sw == "wormhole" {
						cfg.PacketFlits = 8 // longer than the buffer: worms span switches
						cfg.BufferFlits = 6
						cfg.StopMark, cfg.GoMark = 2, 1
					}
					name := fmt.Sprintf("%s/%s/load=%.2f", fc, sw, load)
					st, err := RunFlushed(context.Background(), cfg)
					if err != nil {
						t.Errorf("%s vls=%d: %v", name, vls, err)
						continue
					}
					if st.InjectedFlits == 0 || st.InjectedFlits != st.EjectedFlits {
						t.Errorf("%s vls=%d: injected %d, ejected %d", name, vls, st.InjectedFlits, st.EjectedFlits)
					}
					if st.MeasuredPackets == 0 || st.Delivered != st.MeasuredPackets {
						t.Errorf("%s vls=%d: %d of %d measured packets delivered", name, vls, st.Delivered, st.MeasuredPackets)
					}
				}
			}
		}
	}
}

// TestHeadOfLineBlocking reproduces the input-queueing limit of a FIFO
// crossbar (2 − √2 ≈ 0.586 for large N, the figure seed 001 cites): a 32×32
// crossbar, 1 VL, 1-flit packets and uniform traffic delivers about 0.586
// flits/host/cycle when overloaded.
func TestHeadOfLineBlocking(t *testing.T) {
	cfg := testConfig(t, topologies.Spec{Kind: "crossbar", Hosts: 32}, "dor", "uniform", 1)
	cfg.PacketFlits, cfg.BufferFlits = 1, 16
	cfg.Load = 1
	cfg.Warmup, cfg.Measure, cfg.Drain = 2000, 20000, 0
	st, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := 2 - math.Sqrt2; math.Abs(st.Accepted-want) > 0.03 {
		t.Errorf("accepted %.4f flits/host/cycle at full load, want %.3f ± 0.03", st.Accepted, want)
	}
	// With one FIFO per destination class (8 VLs) head-of-line blocking
	// mostly disappears: the same crossbar must do clearly better.
	cfg8 := testConfig(t, topologies.Spec{Kind: "crossbar", Hosts: 32}, "dor", "uniform", 8)
	cfg8.PacketFlits, cfg8.BufferFlits, cfg8.Load = 1, 16, 1
	cfg8.Warmup, cfg8.Measure, cfg8.Drain = 2000, 20000, 0
	st8, err := Run(context.Background(), cfg8)
	if err != nil {
		t.Fatal(err)
	}
	if st8.Accepted < st.Accepted+0.15 {
		t.Errorf("8 VLs accepted %.3f, 1 VL %.3f: separate FIFOs should relieve head-of-line blocking", st8.Accepted, st.Accepted)
	}
}

// TestFlatFlyComplementBottleneck: under bit complement on an 8×8 FlatFly
// with C=8 and DOR, the 8 hosts of a switch all send to the 8 hosts of one
// other switch over a single first-dimension link, so each gets 1/8.
func TestFlatFlyComplementBottleneck(t *testing.T) {
	for _, load := range []struct {
		offered  float64
		accepted float64
	}{{0.1, 0.1}, {0.5, 0.125}} {
		cfg := testConfig(t, flatfly8x8, "dor", "complement", 2)
		cfg.PacketFlits, cfg.BufferFlits = 16, 64
		cfg.Load = load.offered
		cfg.Warmup, cfg.Measure, cfg.Drain = 2000, 8000, 0
		st, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(st.Accepted-load.accepted) > 1.0/64 {
			t.Errorf("offered %.2f: accepted %.4f, want %.4f ± 1/64", load.offered, st.Accepted, load.accepted)
		}
		if math.Abs(st.HopsAvg-3) > 1e-9 {
			t.Errorf("offered %.2f: %.3f switches per packet, complement on 8×8 always crosses 3", load.offered, st.HopsAvg)
		}
	}
}

// TestDeadlockDetected: minimal routing on a ring with one VL has a cyclic
// channel dependency; with small buffers and heavy load it deadlocks, and
// the run must end with a deadlock error instead of hanging, under every
// buffer organisation and allocator, and with the one class of its VLs
// spread over two VLs by dynamic VL choice.
func TestDeadlockDetected(t *testing.T) {
	for i := range 6 {
		mode, buffers, alloc := switching.Modes()[i%2], switching.BuffersKinds()[i/2%3], switching.Allocators()[i%3]
		sw := fmt.Sprintf("%s %s %s", mode, buffers, alloc)
		cfg := testConfig(t, topologies.Spec{Kind: "ring", Switches: 6, HostsPerSwitch: 2}, "dor-nodateline", "uniform", 1)
		cfg.Switching, cfg.Buffers, cfg.Allocator = mode, buffers, alloc
		cfg.PacketFlits, cfg.BufferFlits = 4, 4
		cfg.Load = 1
		cfg.Warmup, cfg.Measure, cfg.Drain = 1000, 100000, 0
		cfg.DeadlockWindow = 500
		if i >= 3 { // one class over 2 VLs: the cycle stays
			cfg.VLs = 2
			dynamic(t, &cfg)
			sw += " dynamic"
		}
		_, err := Run(context.Background(), cfg)
		var dl *kernel.DeadlockError
		if !errors.As(err, &dl) {
			t.Fatalf("%s: got %v, want a deadlock error", sw, err)
		}
		if !strings.Contains(err.Error(), "in flight") {
			t.Errorf("%s: error %q does not say what is stuck", sw, err)
		}
		checkRingCycle(t, sw, err, 6)
	}
}

// checkRingCycle checks that a deadlock error on a ring of n switches
// names a cycle of waiting that goes round the ring: a multiple of n
// input buffers, on every switch.
func checkRingCycle(t *testing.T, what string, err error, n int) {
	t.Helper()
	msg := err.Error()
	var k int
	i := strings.Index(msg, "cycle of waiting (")
	if i < 0 {
		t.Fatalf("%s: error %q names no cycle of waiting", what, msg)
	}
	if _, e := fmt.Sscanf(msg[i:], "cycle of waiting (%d input buffers", &k); e != nil || k == 0 || k%n != 0 {
		t.Errorf("%s: cycle of %d buffers on a ring of %d switches (%v): %s", what, k, n, e, msg)
	}
	for s := range n {
		if !strings.Contains(msg[i:], fmt.Sprintf("switch %d [%d] port", s, s)) {
			t.Errorf("%s: the cycle does not pass switch %d: %s", what, s, msg[i:])
		}
	}
	if strings.Count(msg[i:], " -> ") != k {
		t.Errorf("%s: the cycle of %d buffers has %d arrows: %s", what, k, strings.Count(msg[i:], " -> "), msg[i:])
	}
}

// TestDeadlockShortRun: a deadlock is found in a run shorter than
// deadlock_window (the window is then a quarter of the run, at least
// minDeadlockWindow), with its cycle of waiting; a run whose network is
// not deadlocked is not stopped by the shorter window, even with slow
// hosts and long pipelines.
func TestDeadlockShortRun(t *testing.T) {
	cfg := testConfig(t, topologies.Spec{Kind: "ring", Switches: 8, HostsPerSwitch: 1}, "dor-nodateline", "uniform", 1)
	cfg.Load = 0.5
	cfg.Warmup, cfg.Measure, cfg.Drain, cfg.DeadlockWindow = 1000, 3000, 0, 10000
	if w := cfg.deadlockWindow(); w != 1000 {
		t.Errorf("window %d for a run of 4,000 cycles, want 1000", w)
	}
	_, err := Run(context.Background(), cfg)
	var dl *kernel.DeadlockError
	if !errors.As(err, &dl) {
		t.Fatalf("got %v, want a deadlock error", err)
	}
	checkRingCycle(t, "ring of 8", err, 8)

	live := testConfig(t, topologies.Spec{Kind: "ring", Switches: 8, HostsPerSwitch: 1}, "dor", "uniform", 2)
	live.Load, live.ReceiveRate, live.LinkLatency, live.RoutingDelay = 0.9, 0.05, 20, 10
	live.PacketFlits = 16
	live.Warmup, live.Measure, live.Drain, live.DeadlockWindow = 1000, 3000, 20000, 10000
	if w := live.deadlockWindow(); w != 4000 {
		t.Errorf("window %d, want 4000: the run, shorter than %d stalls of %d cycles", w, stallFactor, live.stall())
	}
	if _, err := Run(context.Background(), live); err != nil {
		t.Errorf("a network that is not deadlocked: %v", err)
	}
}

// TestDeterminism: the same configuration and seed give identical
// statistics; another seed gives different ones; under every buffer
// organisation, with static and (on 8 VLs) dynamic VL choice.
func TestDeterminism(t *testing.T) {
	for i := range 2 * len(switching.BuffersKinds()) {
		buffers := switching.BuffersKinds()[i/2]
		run := func(seed uint64) Stats {
			cfg := testConfig(t, flatfly4x4, "distance+2", "uniform", 4)
			if i%2 == 1 {
				cfg = testConfig(t, flatfly4x4, "distance+1", "uniform", 8)
				dynamic(t, &cfg)
			}
			cfg.Seed, cfg.Load, cfg.Buffers = seed, 0.6, buffers
			st, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		a, b, c := run(3), run(3), run(4)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: same seed, different results:\n%+v\n%+v", buffers, a, b)
		}
		if reflect.DeepEqual(a, c) {
			t.Errorf("%s: different seeds gave identical results: %+v", buffers, a)
		}
	}
}

// TestCancel: a cancelled context stops the run promptly.
func TestCancel(t *testing.T) {
	cfg := testConfig(t, flatfly4x4, "dor", "uniform", 1)
	cfg.Measure = 1 << 30
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// TestValidate names the key at fault for bad configurations.
func TestValidate(t *testing.T) {
	copies := testConfig(t, flatfly4x4, "dor", "uniform", 4).Routing // packets to host index i on VL i: copies of its one VL
	for _, c := range []struct {
		mutate func(*Config)
		key    string
	}{
		{func(c *Config) { c.Load = 0 }, "load"},
		{func(c *Config) { c.Load = 1.5 }, "load"},
		{func(c *Config) { c.PacketFlits = 0 }, "packet_flits"},
		{func(c *Config) { c.BufferFlits = 2 }, "buffer_flits"},
		{func(c *Config) { c.VLs = 0 }, "vls"},
		{func(c *Config) { c.FlowControl = "xon" }, "kind"},
		{func(c *Config) { c.Switching = switching.Mode(7) }, "switching"},
		{func(c *Config) { c.Speedup = 0 }, "speedup"},
		{func(c *Config) { c.LinkLatency = 0 }, "link_latency"},
		{func(c *Config) { c.RoutingDelay = -1 }, "routing_delay"},
		{func(c *Config) { c.CrossbarDelay = -1 }, "crossbar_delay"},
		{func(c *Config) { c.Measure = 0 }, "measure"},
		{func(c *Config) { c.Warmup = -1 }, "warmup"},
		{func(c *Config) { c.Drain = -1 }, "drain"},
		{func(c *Config) { c.DeadlockWindow = 0 }, "deadlock_window"},
		{func(c *Config) { c.FlowControl, c.StopMark, c.GoMark = "stopgo", 15, 4 }, "stop_mark"},
		{func(c *Config) { c.FlowControl, c.StopMark, c.GoMark = "stopgo", 8, 8 }, "go_mark"},
		{func(c *Config) { c.FlowControl, c.Buffers = "stopgo", switching.BuffersShared }, "buffers"},
		{func(c *Config) { c.Buffers, c.SharedReserve = switching.BuffersShared, 3 }, "shared_reserve"},
		{func(c *Config) { c.Buffers, c.SharedReserve = switching.BuffersShared, 17 }, "shared_reserve"},
		{func(c *Config) { c.SharedReserve = 8 }, "shared_reserve"},
		{func(c *Config) { c.Buffers, c.SharedAlpha = switching.BuffersShared, math.NaN() }, "shared_alpha"},
		{func(c *Config) { c.SharedAlpha = 2 }, "shared_alpha"},
		{func(c *Config) { c.Buffers, c.SharedLimit = switching.BuffersShared, -1 }, "shared_limit"},
		{func(c *Config) { c.Buffers, c.Speedup = switching.BuffersShared, 2 }, "speedup"},
		{func(c *Config) { c.VLChoice = switching.VLChoice(5) }, "vl_choice"},
		{func(c *Config) { c.Routing, c.VLs, c.VLChoice = copies, 4, switching.VLDynamic }, "vl_choice"},
	} {
		cfg := testConfig(t, flatfly4x4, "dor", "uniform", 1)
		c.mutate(&cfg)
		err := cfg.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), c.key+":") {
			t.Errorf("want an error about %s, got %v", c.key, err)
		}
		if _, err := Run(context.Background(), cfg); err == nil {
			t.Errorf("Run accepted a configuration with a bad %s", c.key)
		}
	}
}

// TestSteadyStateAllocatesNothing: simulating ten times longer costs almost
// no extra allocations, under every buffer organisation — per-flit and
// per-packet work allocates nothing; what remains is the amortised growth
// of queues and histograms.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	for i := range len(switching.BuffersKinds()) + 1 {
		buffers := switching.BuffersKinds()[i%len(switching.BuffersKinds())]
		mallocs := func(measure int64) (uint64, int64) {
			cfg := testConfig(t, flatfly4x4, "dor", "uniform", 2)
			if i == len(switching.BuffersKinds()) {
				dynamic(t, &cfg) // fifo switches, dynamic VL choice
			}
			cfg.Load, cfg.Measure, cfg.Drain, cfg.Buffers = 0.5, measure, 0, buffers
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			st, err := Run(context.Background(), cfg)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			return after.Mallocs - before.Mallocs, st.FlitHops
		}
		short, hopsShort := mallocs(2000)
		long, hopsLong := mallocs(20000)
		extra := float64(long) - float64(short)
		perHop := extra / float64(hopsLong-hopsShort)
		t.Logf("%s: %d allocations for %d flit-hops, %d for %d", buffers, short, hopsShort, long, hopsLong)
		if perHop > 1e-4 {
			t.Errorf("%s: %v more allocations for %d more flit-hops (%.2g per flit-hop)", buffers, extra, hopsLong-hopsShort, perHop)
		}
	}
}
