package congestion

import (
	"context"
	"math"
	"testing"

	"netsim/routing"
	"netsim/topologies"
)

// TestEnginesBisectionSeed002 computes Λ (1,000 random bisections, seed
// 2, as studies/seed002/*.toml) on instances of seed 002's Table I
// and the Deimos preset, checks the figures of studies/seed002/README.md and seed 002's
// ordering: sssp at least minhop and updn, dfsssp the same tables as
// sssp, and on XGFT(2; 10,10; 5,5) sssp about twice minhop ("approx.
// twice as high", seed 002 §V).
func TestEnginesBisectionSeed002(t *testing.T) {
	xgft := func(m, w []int, hosts int) topologies.Spec {
		return topologies.Spec{Kind: "xgft", M: m, W: w, Hosts: hosts}
	}
	tests := []struct {
		name string
		spec topologies.Spec
		want map[string]float64 // Λ per routing (studies/seed002/README.md's table)
		// ratio is the least Λ(sssp)/Λ(minhop).
		ratio float64
	}{
		{"XGFT(1;6;3) 64 hosts", xgft([]int{6}, []int{3}, 64),
			map[string]float64{"minhop": 0.5058, "updn": 0.3035, "sssp": 0.5124, "ftree": 0.5120, "dmodk": 0.5126}, 1},
		{"XGFT(2;6,6;3,3) 512 hosts", xgft([]int{6, 6}, []int{3, 3}, 512),
			map[string]float64{"minhop": 0.1517, "updn": 0.1039, "sssp": 0.2249, "ftree": 0.2260, "dmodk": 0.2260}, 1.4},
		{"XGFT(2;10,10;5,5) 1024 hosts", xgft([]int{10, 10}, []int{5, 5}, 1024),
			map[string]float64{"minhop": 0.1596, "updn": 0.1061, "sssp": 0.3475, "ftree": 0.3597, "dmodk": 0.3597}, 2},
		{"6-ary 3-tree", topologies.Spec{Kind: "fattree", K: 6, N: 3},
			map[string]float64{"minhop": 0.3750, "updn": 0.2515, "sssp": 0.7488, "ftree": 0.7488, "dmodk": 0.7488}, 1.9},
		{"deimos", topologies.Spec{Preset: "deimos"},
			map[string]float64{"minhop": 0.3909, "updn": 0.3067, "sssp": 0.4607}, 1.15},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, err := topologies.Build(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			lambda := map[string]float64{}
			for _, alg := range []string{"minhop", "updn", "sssp", "dfsssp", "ftree", "dmodk"} {
				if _, ok := tc.want[alg]; !ok && alg != "dfsssp" {
					continue
				}
				r, err := routing.New(routing.Spec{Algorithm: alg, VLs: 15}, net)
				if err != nil {
					t.Fatal(err)
				}
				p, err := Extract(r, net, PolicyFirst, 2)
				if err != nil {
					t.Fatal(err)
				}
				s := &Spec{Patterns: []string{"bisect"}, Runs: 1000, Subset: SubsetLinearBFS, Level: -1, Policy: PolicyFirst, Seed: 2}
				st, err := Run(context.Background(), p, s, "bisect", 2)
				if err != nil {
					t.Fatal(err)
				}
				lambda[alg] = result(t, st, HistAccBand).Mean
				if want, ok := tc.want[alg]; ok && math.Abs(lambda[alg]-want) > 5e-4 {
					t.Errorf("Λ(%s) = %.4f, studies/seed002/README.md has %.4f", alg, lambda[alg], want)
				}
			}
			if lambda["sssp"] < lambda["minhop"] || lambda["sssp"] < lambda["updn"] {
				t.Errorf("Λ: sssp %.4f below minhop %.4f or updn %.4f", lambda["sssp"], lambda["minhop"], lambda["updn"])
			}
			if lambda["sssp"] < tc.ratio*lambda["minhop"] {
				t.Errorf("Λ: sssp %.4f less than %.2f × minhop %.4f", lambda["sssp"], tc.ratio, lambda["minhop"])
			}
			if lambda["dfsssp"] != lambda["sssp"] {
				t.Errorf("Λ: dfsssp %.4f differs from sssp %.4f (same tables, layers only)", lambda["dfsssp"], lambda["sssp"])
			}
		})
	}
}
