package fabric

import (
	"context"
	"errors"
	"testing"

	"netsim/flowctl"
	"netsim/kernel"
	"netsim/routing"
	switching "netsim/switch"
	"netsim/topologies"
)

// dynamic makes cfg choose VLs dynamically: its routing is built again on
// the VLs it needs, its classes, and the configured VLs are split among
// them.
func dynamic(t testing.TB, cfg *Config) {
	t.Helper()
	r, err := routing.New(routing.Spec{Algorithm: cfg.Routing.Name(), VLs: cfg.VLs, Classes: true}, cfg.Net)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Routing, cfg.VLChoice = r, switching.VLDynamic
}

// TestDynamicOneVLPerClass: with as many VLs as the routing has classes,
// each class has one VL to choose from, and dynamic VL choice gives the
// static results bit for bit, under every buffer organisation and for
// routings that change VL hop by hop (distance, Dragonfly, torus dor).
func TestDynamicOneVLPerClass(t *testing.T) {
	yes := true
	df := topologies.Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 2, OmitOneGlobal: &yes}
	torus := topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 2}
	for i, c := range []struct {
		topo topologies.Spec
		alg  string
		vls  int
	}{
		{flatfly4x4, "dor", 1}, {flatfly4x4, "distance+2", 5}, {flatfly4x4, "twisted-mixed-ador", 4},
		{df, "GSID", 6}, {torus, "dor", 2},
	} {
		for _, b := range switching.BuffersKinds() {
			sameResults(t, c.alg+" "+b.String(), "dynamic VL choice with one VL per class", func(dyn bool) Config {
				cfg := testConfig(t, c.topo, c.alg, "uniform", c.vls)
				cfg.Buffers, cfg.Load, cfg.Seed = b, 0.8, uint64(i)
				if need := cfg.Routing.VLs(); need != c.vls {
					t.Fatalf("%s needs %d VLs, not %d", c.alg, need, c.vls)
				}
				if dyn {
					dynamic(t, &cfg)
				}
				return cfg
			})
		}
	}
}

// TestDynamicSpreadsOverVLs: on a FlatFly of FIFO switches, DOR on 8 VLs
// with dynamic choice delivers more than with its static VL map, which
// puts all packets to one host index on one VL (of only 4, as a switch
// has 4 hosts): every packet now takes the VL with the most room, so
// fewer wait behind a head bound elsewhere. Distance Based (4 classes
// over 8 VLs here) gains too: 0.770 → 0.854 and 0.706 → 0.823 over these
// 2,000 + 2,000 cycles. At 512 hosts (FlatFly 2×4×4×4 of
// TestAdaptiveAgainstDOR, 5 classes), uniform 0.95, 4,000 + 4,000
// cycles: fifo DOR 0.761 → 0.866, distance 0.731 → 0.755; on
// shared memories the choice costs DOR (0.899 → 0.728): spreading every
// destination's packets over every VL lets one congested output's
// packets take the credits of all of them (docs/model.md, "VL choice").
func TestDynamicSpreadsOverVLs(t *testing.T) {
	ff := topologies.Spec{Kind: "flatfly", Dims: []int{4, 4, 4}, HostsPerSwitch: 4}
	acc := map[bool]map[string]float64{}
	for _, dyn := range []bool{false, true} {
		acc[dyn] = map[string]float64{}
		for _, alg := range []string{"dor", "distance"} {
			cfg := testConfig(t, ff, alg, "uniform", 8)
			if dyn {
				dynamic(t, &cfg)
			}
			cfg.BufferFlits, cfg.PacketFlits, cfg.Load = 64, 16, 0.95
			cfg.Warmup, cfg.Measure, cfg.Drain = 2000, 2000, 0
			st, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			acc[dyn][alg] = st.Accepted
			t.Logf("dynamic %v %s (%d classes): accepted %.4f", dyn, alg, cfg.Routing.VLs(), st.Accepted)
		}
	}
	for _, alg := range []string{"dor", "distance"} {
		if acc[true][alg] < 1.03*acc[false][alg] {
			t.Errorf("%s: dynamic VL choice accepts %.4f, want at least 1.03 × static's %.4f", alg, acc[true][alg], acc[false][alg])
		}
	}
}

// TestDynamicDeadlock: dynamic VL choice keeps a routing's deadlock
// freedom when its graph over classes is acyclic (torus dor with its
// dateline classes, the Dragonfly's and Distance Based's VL ladders, on
// small buffers past saturation, wormhole and cut-through), as
// CheckDeadlock on the class routing says; and a routing whose class
// graph has a cycle deadlocks however many VLs its class has (a ring
// without dateline, one class over 4 VLs), as the check says it may.
func TestDynamicDeadlock(t *testing.T) {
	yes := true
	df := topologies.Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 2, OmitOneGlobal: &yes}
	ring := topologies.Spec{Kind: "ring", Switches: 6, HostsPerSwitch: 2}
	for _, c := range []struct {
		topo     topologies.Spec
		alg      string
		vls      int
		deadlock bool
	}{
		{topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 2}, "dor", 5, false},
		{df, "G", 8, false},
		{flatfly4x4, "distance+1", 8, false},
		{ring, "dor-nodateline", 4, true},
	} {
		for _, m := range switching.Modes() {
			cfg := testConfig(t, c.topo, c.alg, "uniform", c.vls)
			dynamic(t, &cfg)
			rep, err := routing.CheckDeadlock(context.Background(), cfg.Routing, cfg.Net, routing.CheckOptions{VLs: cfg.Routing.VLs()})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Acyclic() == c.deadlock {
				t.Errorf("%s: class graph acyclic %v, want %v", c.alg, rep.Acyclic(), !c.deadlock)
			}
			cfg.Switching, cfg.FlowControl = m, flowctl.KindCredit
			cfg.PacketFlits, cfg.BufferFlits, cfg.Load = 4, 4, 1
			cfg.Warmup, cfg.Measure, cfg.Drain, cfg.DeadlockWindow = 1000, 20000, 0, 1000
			_, err = Run(context.Background(), cfg)
			var dl *kernel.DeadlockError
			if got := errors.As(err, &dl); got != c.deadlock || (err != nil && !got) {
				t.Errorf("%s %s on %d VLs: got %v, want deadlock %v", c.alg, m, c.vls, err, c.deadlock)
			}
		}
	}
}
