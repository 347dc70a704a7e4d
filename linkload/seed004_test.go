package linkload

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"netsim/routing"
	"netsim/topologies"
	"netsim/traffic"
)

// TestSeed004ChannelLoadBounds computes channel loads of seed 004's
// routings on its 16,384-host presets, in the simulator's host numbering:
// the most flows of a bit permutation on one link, and, where neither
// symmetry nor the bisection fixes it (the Dragonfly, the twisted
// routings, the SF×FF products), the largest link load of uniform traffic
// at offered load 1 (every host sending 1/N to every host, itself
// included, as the simulator's uniform pattern does); with an even split
// over the parallel links of a hop, and over the two-hop paths in a Slim
// Fly (the package documentation). For the single-path routings (all but
// the DOR family on SF×FF, adaptive within the Slim Fly) the inverse is
// an upper bound on the saturation. The hypercube's turn models are left out: under
// complement, negative-first takes every flow through switch 0, (N − C)/22
// ≈ 744 flows on each of its links. studies/seed004/README.md compares
// the full table with these numbers ("The full table against the seed's
// prose").
func TestSeed004ChannelLoadBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("walks every flow of up to six patterns on 16,384-host networks")
	}
	tests := []struct {
		preset, routing string
		want            map[string]float64 // pattern → most flows on one link
	}{
		{"torus3d", "dor", map[string]float64{"complement": 6.4, "reverse": 19.2, "rotation": 12.8, "shuffle": 5.6, "transpose": 32}},
		{"torus4d", "dor", map[string]float64{"complement": 4, "reverse": 16, "rotation": 8, "shuffle": 3, "transpose": 32}},
		{"hypercube", "dor", map[string]float64{"complement": 4, "reverse": 32, "rotation": 8, "shuffle": 2, "transpose": 32}},
		{"hypercube", "mixed-dor", map[string]float64{"complement": 4, "reverse": 40, "rotation": 8, "shuffle": 7, "transpose": 45}},
		{"dragonfly", "static", map[string]float64{"uniform": 1.004, "complement": 128, "reverse": 2, "rotation": 64, "shuffle": 64, "transpose": 1}},
		{"flatfly", "dor", map[string]float64{"complement": 8, "reverse": 32, "rotation": 16, "shuffle": 4, "transpose": 16}},
		{"flatfly", "mixed-dor", map[string]float64{"complement": 8, "reverse": 42, "rotation": 9, "shuffle": 12, "transpose": 18}},
		{"flatfly", "twisted-dor", map[string]float64{"uniform": 1.999, "complement": 8, "reverse": 32, "rotation": 16, "shuffle": 4, "transpose": 16}},
		{"flatfly", "twisted-mixed-dor", map[string]float64{"uniform": 4.999, "complement": 25, "reverse": 65, "rotation": 30, "shuffle": 33, "transpose": 25}},
		{"sfxff1", "dor", map[string]float64{"uniform": 1.25, "complement": 8, "reverse": 12, "rotation": 16, "shuffle": 5, "transpose": 16}},
		{"sfxff1", "mixed-dor", map[string]float64{"complement": 8, "reverse": 16.25, "rotation": 12, "shuffle": 7.25, "transpose": 19.75}},
		{"sfxff1", "twisted-dor", map[string]float64{"complement": 8, "reverse": 12, "rotation": 12, "shuffle": 5, "transpose": 13}},
		{"sfxff1", "twisted-mixed-dor", map[string]float64{"complement": 19, "reverse": 16, "rotation": 18.75, "shuffle": 12.25, "transpose": 56}},
		{"sfxff2", "dor", map[string]float64{"uniform": 1.375, "complement": 16, "reverse": 16, "rotation": 24, "shuffle": 12, "transpose": 15.5}},
		{"sfxff2", "mixed-dor", map[string]float64{"complement": 16, "reverse": 24, "rotation": 18, "shuffle": 24, "transpose": 14.5}},
		{"sfxff2", "twisted-dor", map[string]float64{"complement": 32, "reverse": 16, "rotation": 32, "shuffle": 24, "transpose": 15}},
		{"sfxff2", "twisted-mixed-dor", map[string]float64{"complement": 40, "reverse": 24, "rotation": 38, "shuffle": 30, "transpose": 127}},
	}
	nets := map[string]*topologies.Network{}
	for _, tc := range tests {
		if nets[tc.preset] == nil {
			net, err := topologies.Build(topologies.Spec{Preset: tc.preset})
			if err != nil {
				t.Fatal(err)
			}
			nets[tc.preset] = net
		}
	}
	for _, tc := range tests {
		t.Run(tc.preset+"/"+tc.routing, func(t *testing.T) {
			t.Parallel()
			net := nets[tc.preset]
			r, err := routing.New(routing.Spec{Algorithm: tc.routing, VLs: 8}, net)
			if err != nil {
				t.Fatal(err)
			}
			// The DOR family is adaptive within a Slim Fly; the others
			// have one path per flow.
			onePath := !strings.HasPrefix(tc.preset, "sfxff")
			line, checked := "", 0
			for _, name := range []string{"uniform", "complement", "reverse", "rotation", "shuffle", "transpose"} {
				want, ok := tc.want[name]
				if !ok {
					continue
				}
				checked++
				p, err := traffic.NewPattern(name, len(net.Hosts), 0)
				if err != nil {
					t.Fatal(err)
				}
				l := New(net, r, 8)
				if err := l.AddPattern(context.Background(), p, 2); err != nil {
					t.Fatal(err)
				}
				if onePath && (l.Spread() || l.Detours()) {
					t.Fatalf("%s: a flow has candidates leading to different switches (%v) or of lower priority (%v)", name, l.Spread(), l.Detours())
				}
				got := l.Max()
				line += fmt.Sprintf(" %s %.4g (%.1f %%)", name, got, 100/got)
				if math.Abs(got-want) > 1e-3 {
					t.Errorf("%s: %.6g flows per link, want %.6g", name, got, want)
				}
			}
			if checked != len(tc.want) {
				t.Errorf("want names %d patterns, %d of them known", len(tc.want), checked)
			}
			t.Logf("%s %s:%s", tc.preset, tc.routing, line)
		})
	}
}

// TestSeed004SharedBusiestQueues explains why dor saturates near its
// channel-load bound (TestSeed004ChannelLoadBounds) on most bit
// permutations of seed 004's hypercube, FlatFly and tori but well below
// it on a few (transpose on the hypercube and the FlatFly, shuffle on the
// tori): only there do some flows crossing a busiest link wait, at the
// switch before it, in an input queue (port and VL) that also holds flows
// bound for another busiest link, so a head waiting for one busy link
// blocks the packets behind it bound for the other (head-of-line
// blocking). Elsewhere each queue feeding a busiest link feeds no other
// one (torus4d rotation: almost none). studies/seed004/README.md
// compares the shares with the full table.
func TestSeed004SharedBusiestQueues(t *testing.T) {
	tests := []struct {
		preset string
		want   map[string]float64 // pattern → share of busiest-link flows in shared queues
	}{
		{"hypercube", map[string]float64{"complement": 0, "reverse": 0, "rotation": 0, "shuffle": 0, "transpose": 0.6781}},
		{"torus3d", map[string]float64{"complement": 0, "reverse": 0, "rotation": 0, "shuffle": 0.119, "transpose": 0}},
		{"torus4d", map[string]float64{"complement": 0, "reverse": 0, "rotation": 0.0375, "shuffle": 0.3148, "transpose": 0}},
		{"flatfly", map[string]float64{"complement": 0, "reverse": 0, "rotation": 0, "shuffle": 0, "transpose": 0.8616}},
	}
	for _, tc := range tests {
		t.Run(tc.preset, func(t *testing.T) {
			t.Parallel()
			net, err := topologies.Build(topologies.Spec{Preset: tc.preset})
			if err != nil {
				t.Fatal(err)
			}
			r, err := routing.New(routing.Spec{Algorithm: "dor", VLs: 8}, net)
			if err != nil {
				t.Fatal(err)
			}
			line := ""
			for _, name := range []string{"complement", "reverse", "rotation", "shuffle", "transpose"} {
				p, err := traffic.NewPattern(name, len(net.Hosts), 0)
				if err != nil {
					t.Fatal(err)
				}
				l := New(net, r, 8)
				l.w.queues = map[queueHop]float64{}
				if err := l.AddPattern(context.Background(), p, 1); err != nil {
					t.Fatal(err)
				}
				got := sharedBusiestQueues(l)
				line += fmt.Sprintf(" %s %.4g", name, got)
				if want := tc.want[name]; math.Abs(got-want) > 1e-3 {
					t.Errorf("%s: %.6g of the busiest links' flows wait in shared queues, want %.6g", name, got, want)
				}
			}
			t.Logf("%s dor:%s", tc.preset, line)
		})
	}
}
