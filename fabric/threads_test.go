package fabric

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"netsim/flit"
	"netsim/kernel"
	"netsim/nic"
	"netsim/topologies"
	"netsim/traffic"
)

// sameOnThreads checks that cfg gives the same statistics, and the same
// error, on one thread and on threads threads (the number of events
// aside: each part has its own batch events).
func sameOnThreads(t *testing.T, name string, cfg Config, threads int, run func(Config) (Stats, error)) {
	t.Helper()
	cfg.Threads = 1
	want, werr := run(cfg)
	cfg.Threads = threads
	got, gerr := run(cfg)
	if fmt.Sprint(werr) != fmt.Sprint(gerr) {
		t.Fatalf("%s: on %d threads the run ended with %v, on one with %v", name, threads, gerr, werr)
	}
	want.Events, got.Events = 0, 0
	if !reflect.DeepEqual(want, got) {
		t.Errorf("%s: %d threads changed the results:\n%+v\n%+v", name, threads, want, got)
	}
}

func runPlain(cfg Config) (Stats, error) { return Run(context.Background(), cfg) }

func runFlushed(cfg Config) (Stats, error) { return RunFlushed(context.Background(), cfg) }

// TestThreadsChangeNothing runs random small configurations (those of
// the other properties, on a FlatFly, a torus and a ring: every
// allocator, buffer organisation, VL choice, selection, flow control and
// switching mode), the Dragonfly under its adaptive routings, a
// Myrinet-like Clos under every NIC dispersion, and runs with every
// measurement on, on one thread and on 2 to 5, and checks the results
// are the same; flushed runs conserve every flit.
func TestThreadsChangeNothing(t *testing.T) {
	torus := topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 2}
	ring := topologies.Spec{Kind: "torus", Dims: []int{8}, HostsPerSwitch: 2}
	for i, v := range randomConfigs(2031, 24, torus, ring) {
		r := runPlain
		if i%4 == 3 {
			r = runFlushed
		}
		sameOnThreads(t, v.String(), v.config(t), 2+i%4, r)
	}
	yes := true
	df := topologies.Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 4, OmitOneGlobal: &yes}
	for i, alg := range []string{"G", "GSID", "deflection+4"} {
		cfg := testConfig(t, df, alg, "uniform", 8)
		cfg.Load, cfg.PacketFlits, cfg.BufferFlits = 0.8, 16, 64
		sameOnThreads(t, alg, cfg, 2+i, runPlain)
	}
	for i, mode := range nic.Modes() {
		cfg := myrinetConfig(t, 8, 32, mode)
		cfg.Load, cfg.Dispersion.MaxProbes = 0.6, 8
		sameOnThreads(t, mode.String(), cfg, 2+i%2, runFlushed)
	}
	cfg := testConfig(t, flatfly4x4, "ador", "uniform", 2)
	cfg.Load, cfg.PacketFlits = 0.9, 8
	cfg.LinkStats, cfg.LatencyDistribution, cfg.Timeline = true, true, 100
	cfg.Measure, cfg.MaxMeasure = 640, 2560
	cfg.Extend = func(st Stats) bool { return st.Accepted < 0.95*st.Generated }
	cfg.Decided = func(st Stats) bool { return st.QueueEnd > 4*st.QueueStart+1000 }
	cfg.SkipDrain = func(st Stats) bool { return st.QueueEnd > st.QueueStart }
	sameOnThreads(t, "every measurement", cfg, 3, runPlain)
}

// TestThreadsDeadlock: a deadlock is found, and reported, at the same
// cycle with the same flits in flight on any number of threads.
func TestThreadsDeadlock(t *testing.T) {
	for _, sw := range []string{"cut-through", "wormhole"} {
		cfg := testConfig(t, ring6, "distance", "uniform", 1)
		cfg.Switching = mode(sw)
		cfg.PacketFlits, cfg.BufferFlits, cfg.Load = 4, 4, 1
		cfg.Warmup, cfg.Measure, cfg.Drain = 1000, 100000, 0
		cfg.DeadlockWindow = 500
		for _, threads := range []int{2, 3, 6} {
			sameOnThreads(t, sw, cfg, threads, runPlain)
			cfg.Threads = threads
			_, err := runPlain(cfg)
			var dl *kernel.DeadlockError
			if !errors.As(err, &dl) {
				t.Fatalf("%s on %d threads: got %v, want a deadlock error", sw, threads, err)
			}
		}
	}
}

// TestThreadsExchange: a closed exchange (seed 001's workload) gives the
// same pair bandwidths on several threads.
func TestThreadsExchange(t *testing.T) {
	rng := kernel.NewRNG(5)
	partner, err := traffic.RandomBisection(64, &rng)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range nic.Modes() {
		cfg := myrinetConfig(t, 16, 64, m)
		cfg.Dispersion.MaxProbes = 32
		x := smallExchange()
		x.Partner = partner
		want, err := RunExchange(context.Background(), cfg, x)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Threads = 3
		got, err := RunExchange(context.Background(), cfg, x)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s: 3 threads changed the exchange:\n%+v\n%+v", m, want, got)
		}
	}
}

// TestPartition: the parts are contiguous, none is empty, and they
// split the work (ports, a host's counting twice) about evenly.
func TestPartition(t *testing.T) {
	for _, spec := range []topologies.Spec{
		flatfly4x4,
		{Kind: "clos", Ports: 8, Hosts: 32},
		{Kind: "torus", Dims: []int{3}, HostsPerSwitch: 1},
	} {
		net, err := topologies.Build(spec)
		if err != nil {
			t.Fatal(err)
		}
		for n := 1; n <= len(net.Switches); n++ {
			of := partition(net, n)
			parts := make([]int, n)
			for s, q := range of {
				if s > 0 && q != of[s-1] && q != of[s-1]+1 {
					t.Fatalf("%s in %d parts: switch %d in part %d after part %d", spec.Kind, n, s, q, of[s-1])
				}
				parts[q] += work(net.Switches[s])
			}
			if of[0] != 0 || int(of[len(of)-1]) != n-1 {
				t.Fatalf("%s in %d parts: parts %d to %d", spec.Kind, n, of[0], of[len(of)-1])
			}
			most := 0
			for _, s := range net.Switches {
				most = max(most, work(s))
			}
			total := 0
			for _, w := range parts {
				total += w
			}
			for q, w := range parts {
				if w == 0 || w > total/n+2*most {
					t.Errorf("%s in %d parts: part %d has work %d of %d", spec.Kind, n, q, w, total)
				}
			}
		}
	}
}

// TestBarrier: no goroutine leaves a round before all have entered it.
func TestBarrier(t *testing.T) {
	const n, rounds = 4, 2000
	b := newBarrier(n)
	var mu sync.Mutex
	entered := make([]int, rounds)
	var wg sync.WaitGroup
	for g := 0; g < n; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				mu.Lock()
				entered[r]++
				mu.Unlock()
				b.wait()
				mu.Lock()
				if entered[r] != n {
					t.Errorf("round %d left with %d of %d in", r, entered[r], n)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// TestThreadsPanic: a panic in one part ends the run with that panic on
// the caller's goroutine; the other parts do not wait for it forever.
func TestThreadsPanic(t *testing.T) {
	for _, in := range []int{0, 1, 2} {
		cfg := testConfig(t, flatfly4x4, "dor", "uniform", 1)
		cfg.Threads = 3
		p := started(t, &cfg)
		p.parts[in].eng.Schedule(50, kernel.Event{Kind: kindNICGenerate, Target: 1 << 30})
		func() {
			defer func() {
				v := recover()
				if s, ok := v.(string); !ok || !strings.Contains(s, fmt.Sprintf("[part %d]", in)) {
					t.Errorf("panic in part %d: recovered %v", in, v)
				}
			}()
			err := p.runTo(context.Background(), 1000, nil)
			t.Errorf("panic in part %d: the run returned %v", in, err)
		}()
	}
}

// TestThreadsRace is a short TestThreadsChangeNothing for the race
// detector (.ci/run): configurations whose parts cross every kind of
// call — runs and credits under both flow controls, shared memories,
// route probes — on 2 and 3 threads.
func TestThreadsRace(t *testing.T) {
	for i, v := range randomConfigs(2032, 9) {
		cfg := v.config(t)
		cfg.Warmup, cfg.Measure, cfg.Drain = 100, 300, 200
		sameOnThreads(t, v.String(), cfg, 2+i%2, runFlushed)
	}
	cfg := myrinetConfig(t, 8, 32, nic.Probing)
	cfg.Load, cfg.Dispersion.MaxProbes = 0.6, 8
	cfg.Warmup, cfg.Measure, cfg.Drain = 100, 300, 200
	sameOnThreads(t, "probing", cfg, 3, runFlushed)
}

// hotspot sends every packet to one of the first k hosts.
type hotspot struct{ k int }

func (h hotspot) Name() string                      { return "hotspot" }
func (h hotspot) Dest(src int, rng *kernel.RNG) int { return rng.IntN(h.k) }

// TestThreadsHotspot: when one part delivers the packets every other
// part creates, the free packet indices it gathers go back to the others
// (flit.Rebalance): the pools take no more chunks than one thread's pool,
// and the results are those of one thread.
func TestThreadsHotspot(t *testing.T) {
	cfg := testConfig(t, flatfly4x4, "dor", "uniform", 2)
	cfg.Pattern = hotspot{k: 4}
	cfg.Load, cfg.PacketFlits = 0.05, 4
	cfg.Warmup, cfg.Measure, cfg.Drain = 1000, 12*flit.ChunkPackets, 1000
	sameOnThreads(t, "hotspot", cfg, 4, runPlain)
	cfg.Threads = 4
	p := started(t, &cfg)
	if err := p.runTo(context.Background(), kernel.Time(cfg.Warmup+cfg.Measure), nil); err != nil {
		t.Fatal(err)
	}
	if live := p.live(); live > flit.ChunkPackets/4 {
		t.Fatalf("%d packets live: the test needs far fewer than a chunk", live)
	}
	created := p.meter.Injected / int64(cfg.PacketFlits)
	if created < 2*int64(len(p.parts))*flit.ChunkPackets {
		t.Fatalf("%d packets created: the test needs two chunks' worth per part", created)
	}
	// Each part may hold one chunk it draws fresh indices from.
	if used := p.parts[0].pool.Chunks(); used > len(p.parts) {
		t.Errorf("the pools took %d chunks for %d packets created, at most %d live", used, created, flit.ChunkPackets/4)
	}
}

// TestThreadsFamilies: the other families and their routings — the
// hypercube under mixed DOR, SF×FF under twisted ADOR, a fat tree and an
// XGFT (host-less switches in their parts) under ftree and dmodk, a
// random network under LASH — give one thread's results on 2 and 3.
func TestThreadsFamilies(t *testing.T) {
	for i, c := range []struct {
		name string
		spec topologies.Spec
		alg  string
	}{
		{"hypercube", topologies.Spec{Kind: "hypercube", Dimension: 4, Width: 2, HostsPerSwitch: 2}, "mixed-dor"},
		{"sfxff", sf4xff2, "twisted-ador"},
		{"fattree", topologies.Spec{Kind: "fattree", K: 4, N: 2}, "ftree"},
		{"xgft", topologies.Spec{Kind: "xgft", M: []int{3, 2}, W: []int{2, 2}, Hosts: 12}, "dmodk"},
		{"random", topologies.Spec{Kind: "random", Switches: 10, HostsPerSwitch: 2, Links: 16, Seed: 2}, "lash"},
	} {
		cfg := testConfig(t, c.spec, c.alg, "uniform", 4)
		cfg.Load = 0.7
		sameOnThreads(t, c.name, cfg, 2+i%2, runFlushed)
	}
}

// started assembles cfg's point and starts its NICs, as Run does before
// the first cycle.
func started(t *testing.T, cfg *Config) *point {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	p, err := assemble(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range p.nics {
		n.Start(0)
	}
	return p
}
