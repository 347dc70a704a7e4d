package experiments

import (
	"context"
	"math"
	"strings"
	"testing"

	"netsim/congestion"
)

// TestEBBRanksLikeCongestionModel runs the table engines on a scaled
// Deimos (testdata/deimos-scaled-bisection.toml) twice: through the
// congestion model (Λ of the bisect pattern, seed 000 §IV-A) and as
// flit-level random-bisection exchanges. Both must rank sssp above minhop
// above updn by a clear margin, dfsssp with sssp, and the simulator must
// stay within a factor 2.5 of the model (0.4 Λ ≤ EBB ≤ Λ) with about the
// same ratio for every engine. Measured: Λ sssp = dfsssp 0.589, minhop
// 0.465, updn 0.304; EBB sssp = dfsssp 0.327, minhop 0.252, updn 0.156.
func TestEBBRanksLikeCongestionModel(t *testing.T) {
	exps, err := LoadFile("testdata/deimos-scaled-bisection.toml")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	model, sim := map[string]float64{}, map[string]float64{}
	for _, e := range exps {
		paths, err := congestion.Extract(e.RoutingFunc(), e.Network(), e.Congestion.Policy, 2)
		if err != nil {
			t.Fatalf("%s: %v", e.Routing, err)
		}
		st, err := congestion.Run(ctx, paths, e.Congestion, "bisect", 2)
		if err != nil {
			t.Fatalf("%s: %v", e.Routing, err)
		}
		for _, r := range st.Results {
			if r.Metric == congestion.HistAccBand {
				model[e.Routing] = r.Mean
			}
		}
	}
	err = RunExchanges(ctx, exps, 2, func(r EBBResult) error {
		if r.Err != nil {
			return r.Err
		}
		sim[r.Experiment.Routing] = r.EBB.Avg
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("model Λ %v", model)
	t.Logf("flit-level EBB %v", sim)
	if len(model) != 4 || len(sim) != 4 {
		t.Fatalf("%d model and %d simulator values, want 4 each", len(model), len(sim))
	}
	rank := []string{"sssp", "minhop", "updn"}
	for i := 1; i < len(rank); i++ {
		hi, lo := rank[i-1], rank[i]
		if model[hi]-model[lo] < 0.05 {
			t.Errorf("model: %s %.4f not clearly above %s %.4f", hi, model[hi], lo, model[lo])
		}
		if sim[hi]-sim[lo] < 0.03 {
			t.Errorf("simulator: %s %.4f not clearly above %s %.4f", hi, sim[hi], lo, sim[lo])
		}
	}
	if model["dfsssp"] != model["sssp"] || math.Abs(sim["dfsssp"]-sim["sssp"]) > 0.02 {
		t.Errorf("dfsssp (model %.4f, simulator %.4f) differs from sssp (%.4f, %.4f): same paths",
			model["dfsssp"], sim["dfsssp"], model["sssp"], sim["sssp"])
	}
	lo, hi := 1.0, 0.0
	for r, m := range model {
		q := sim[r] / m
		if q < 0.4 || q > 1 {
			t.Errorf("%s: simulator %.4f is %.2f of the model's %.4f, want 0.4..1", r, sim[r], q, m)
		}
		lo, hi = min(lo, q), max(hi, q)
	}
	if hi > 1.25*lo {
		t.Errorf("simulator/model ratios %.2f..%.2f differ by more than 25 %% between engines", lo, hi)
	}
}

// TestExchangeChecksCongestion: an exchange file's [congestion] section is
// checked against the network, as a load file's.
func TestExchangeChecksCongestion(t *testing.T) {
	text := strings.Replace(exchangeFile, "bisections = 3\n",
		"bisections = 3\n[congestion]\npattern = \"bisect\"\ncommsize = 100\n", 1)
	_, err := ParseFile("ebb.toml", []byte(text))
	if err == nil || !strings.Contains(err.Error(), "commsize") {
		t.Errorf("commsize 100 on 64 hosts: error %v, want one naming commsize", err)
	}
}
