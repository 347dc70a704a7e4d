package experiments

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"netsim/congestion"
)

// TestEBBRanksLikeCongestionModel runs the table engines twice on a
// scaled Deimos and on an XGFT: through the congestion model (Λ of seed
// 000 §IV-A: hist_acc_band of bisect, streams one way, and of
// bisect_fb_sym, both ways as in an exchange) and as flit-level
// random-bisection exchanges. All three must rank sssp above minhop above
// updn, each at least 10 % above the next, and dfsssp with sssp; the
// simulator must reach 0.6..1 of the like-for-like model value
// (bisect_fb_sym), about the same fraction for every engine.
//
// Measured (seed 1), sssp = dfsssp / minhop / updn:
//
//	              Λ bisect             Λ bisect_fb_sym      EBB
//	Deimos 168    0.589 0.465 0.304    0.422 0.333 0.232    0.332 0.256 0.159
//	XGFT 216      0.407 0.236 0.191    0.275 0.152 0.120    0.237 0.134 0.105
func TestEBBRanksLikeCongestionModel(t *testing.T) {
	for _, file := range []string{"testdata/deimos-scaled-bisection.toml", "testdata/xgft-bisection.toml"} {
		t.Run(file, func(t *testing.T) { ebbRanksLikeModel(t, file) })
	}
}

// ebbRanksLikeModel is TestEBBRanksLikeCongestionModel on the experiment
// file, which sweeps minhop, updn, sssp and dfsssp.
func ebbRanksLikeModel(t *testing.T, file string) {
	exps, err := LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	model := map[string]map[string]float64{"bisect": {}, "bisect_fb_sym": {}} // pattern → routing → Λ
	for _, e := range exps {
		paths, err := congestion.Extract(e.RoutingFunc(), e.Network(), e.Congestion.Policy, 2)
		if err != nil {
			t.Fatalf("%s: %v", e.Routing, err)
		}
		for pattern, m := range model {
			st, err := congestion.Run(ctx, paths, e.Congestion, pattern, 2)
			if err != nil {
				t.Fatalf("%s, %s: %v", e.Routing, pattern, err)
			}
			for _, r := range st.Results {
				if r.Metric == congestion.HistAccBand {
					m[e.Routing] = r.Mean
				}
			}
		}
	}
	sim := map[string]float64{}
	err = Runner{Jobs: 2}.Run(ctx, exps, func(r Record) error {
		if r.Kind != KindEBB {
			return fmt.Errorf("%s: %s record, want ebb (%v)", r.Key(), r.Kind, r.Err)
		}
		sim[r.Experiment.Routing] = r.EBB.Avg
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("model Λ %v", model)
	t.Logf("flit-level EBB %v", sim)
	tests := []struct {
		name   string
		values map[string]float64
	}{
		{"model bisect", model["bisect"]},
		{"model bisect_fb_sym", model["bisect_fb_sym"]},
		{"simulator", sim},
	}
	rank := []string{"sssp", "minhop", "updn"}
	for _, tt := range tests {
		v := tt.values
		if len(v) != 4 {
			t.Fatalf("%s: %d values, want 4 (minhop, updn, sssp, dfsssp)", tt.name, len(v))
		}
		for i := 1; i < len(rank); i++ {
			hi, lo := rank[i-1], rank[i]
			if v[hi] < 1.1*v[lo] {
				t.Errorf("%s: %s %.4f not 10 %% above %s %.4f", tt.name, hi, v[hi], lo, v[lo])
			}
		}
		if math.Abs(v["dfsssp"]-v["sssp"]) > 0.02 {
			t.Errorf("%s: dfsssp %.4f differs from sssp %.4f (same paths)", tt.name, v["dfsssp"], v["sssp"])
		}
	}
	lo, hi := 1.0, 0.0
	for r, m := range model["bisect_fb_sym"] {
		q := sim[r] / m
		if q < 0.6 || q > 1 {
			t.Errorf("%s: simulator %.4f is %.2f of the model's %.4f, want 0.6..1", r, sim[r], q, m)
		}
		lo, hi = min(lo, q), max(hi, q)
	}
	if hi > 1.25*lo {
		t.Errorf("simulator/model fractions %.2f..%.2f differ by more than 25 %% between engines", lo, hi)
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
