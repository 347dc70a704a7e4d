package congestion

import (
	"context"
	"testing"

	"netsim/routing"
	"netsim/topologies"
)

// TestEnginesBisectionDeimos: on the Deimos preset (seeds 000/002: three
// fat-tree boxes chained by 30 links), the effective bisection bandwidth Λ
// of sssp (global balancing) is at least that of minhop and updn (local
// balancing), as in seed 000 Fig. 4 and seed 002 Fig. 7.
func TestEnginesBisectionDeimos(t *testing.T) {
	if testing.Short() {
		t.Skip("744-host network")
	}
	net, err := topologies.Build(topologies.Spec{Preset: "deimos"})
	if err != nil {
		t.Fatal(err)
	}
	lambda := map[string]float64{}
	for _, alg := range []string{"minhop", "updn", "sssp", "dfsssp"} {
		r, err := routing.New(routing.Spec{Algorithm: alg, VLs: 8}, net)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Extract(r, net, PolicyFirst, 2)
		if err != nil {
			t.Fatal(err)
		}
		s := &Spec{Patterns: []string{"bisect"}, Runs: 300, Subset: SubsetLinearBFS, Level: -1, Policy: PolicyFirst, Seed: 1}
		st, err := Run(context.Background(), p, s, "bisect", 2)
		if err != nil {
			t.Fatal(err)
		}
		lambda[alg] = result(t, st, HistAccBand).Mean
	}
	t.Logf("Λ on Deimos: %v", lambda)
	if lambda["sssp"] < lambda["minhop"] || lambda["sssp"] < lambda["updn"] {
		t.Errorf("Λ: sssp %.3f below minhop %.3f or updn %.3f", lambda["sssp"], lambda["minhop"], lambda["updn"])
	}
	if lambda["dfsssp"] != lambda["sssp"] {
		t.Errorf("Λ: dfsssp %.3f differs from sssp %.3f (same tables, layers only)", lambda["dfsssp"], lambda["sssp"])
	}
}
