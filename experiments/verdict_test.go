package experiments

import (
	"context"
	"errors"
	"testing"

	"netsim/fabric"
	"netsim/results"
)

// TestSearchReportsDoubt: the saturation line counts the loads a search
// tested that stayed undecided (taken as not stable), and checks the load
// two steps above the answer: stable there contradicts the unstable step
// between (Contrary), which the search reports without moving its answer.
func TestSearchReportsDoubt(t *testing.T) {
	e := mustParse(t, "doubt.toml", edit(t, `mode = "loads"`, "mode = \"saturation\"\nresolution = 32",
		"loads = [0.25, 0.5]", "loads = [0.125]", `patterns = ["uniform", "complement"]`, `patterns = ["uniform"]`))
	for _, tc := range []struct {
		name                string
		stable, undecided   map[int]bool // loads k/32 made stable or undecided, whatever the threshold
		sat                 float64
		nUndecided, nContra int
		tested              []int // loads past the answer the search tests, in steps
		failing             int   // a load k/32 whose simulation fails
	}{
		// Bisection at 1/32 up to 13/32: 16 unstable, 8, 12 stable, 14
		// unstable, 13 stable; then 15, untested, checks.
		{name: "monotone", sat: 13.0 / 32, tested: []int{15}},
		{name: "island above", stable: map[int]bool{15: true}, sat: 13.0 / 32, nContra: 1, tested: []int{15}},
		{name: "undecided above", undecided: map[int]bool{14: true}, sat: 13.0 / 32, nUndecided: 1, tested: []int{14, 15}},
		// Undecided below the threshold: not stable, so the answer is
		// below it (10, 11 stable), and the check two steps above the
		// answer finds 13 stable.
		{name: "undecided below", undecided: map[int]bool{12: true}, sat: 11.0 / 32, nUndecided: 1, nContra: 1, tested: []int{10, 11, 13}},
		// The check's point fails (a deadlock, say): its error line says
		// so, and the answer stands.
		{name: "check fails", failing: 15, sat: 13.0 / 32},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tested []int
			sim := func(_ context.Context, c fabric.Config) (fabric.Stats, error) {
				k := int(c.Load*32 + 0.5)
				tested = append(tested, k)
				if k == tc.failing {
					return fabric.Stats{}, errors.New("deadlock")
				}
				thr := 13.0 / 32
				if tc.stable[k] {
					thr = 1
				}
				s := fakeStats(c, thr)
				if tc.undecided[k] {
					// Acceptance swings by half the load from batch to
					// batch: no growth, an interval far wider than its limit.
					for j := range s.Bins {
						s.Bins[j].EjectedFlits = s.Bins[j].GeneratedFlits * int64(2+j%2*2-1) / 2
					}
				}
				return s, nil
			}
			var sat Record
			failed := 0
			var verdicts = map[int]string{}
			err := Runner{Jobs: 1, Simulate: sim}.Run(context.Background(), []*Experiment{e}, func(r Record) error {
				switch r.Kind {
				case KindSaturation:
					sat = r
				case KindPoint:
					verdicts[int(r.Offered*32+0.5)] = r.Verdict.Outcome
				case KindError:
					if int(r.Offered*32+0.5) != tc.failing || tc.failing == 0 {
						t.Errorf("failed point: %v", r.Err)
					}
					failed++
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if sat.Saturation != tc.sat || sat.Undecided != tc.nUndecided || sat.Contrary != tc.nContra {
				t.Errorf("saturation %v, %d undecided, %d contrary; want %v, %d, %d (verdicts %v)",
					sat.Saturation, sat.Undecided, sat.Contrary, tc.sat, tc.nUndecided, tc.nContra, verdicts)
			}
			if tc.failing != 0 && failed != 1 {
				t.Errorf("%d failed points, want the check's", failed)
			}
			for _, k := range tc.tested {
				if verdicts[k] == "" {
					t.Errorf("load %d/32 not tested (verdicts %v)", k, verdicts)
				}
			}
			for k := range tc.undecided {
				if verdicts[k] != results.VerdictUndecided {
					t.Errorf("load %d/32: verdict %q, want undecided", k, verdicts[k])
				}
			}
		})
	}
}

// TestDragonflyVerdictWindow is issue 38's Dragonfly: 512 hosts (K = 8
// switches per group, 4 global links per switch, 2 hosts per switch, one
// global link omitted), GSID on 6 VLs under complement, where the verdict
// of before (accepted within the tolerance and source queues not growing
// over the window) found 28.1 % with 5,000 measured cycles and 50 % with
// 20,000: the statistical verdict gives the same saturation at both
// within one step of the resolution (1/32). About 40 s of CPU.
func TestDragonflyVerdictWindow(t *testing.T) {
	if testing.Short() {
		t.Skip("two saturation searches at 512 hosts")
	}
	const file = `name = "df512"
[topology]
kind = "dragonfly"
group_size = 8
global_per_switch = 4
hosts_per_switch = 2
omit_one_global = true
[routing]
algorithm = "GSID"
[flow_control]
vls = 6
[traffic]
patterns = ["complement"]
[sim]
measure = 5000
[sweep]
resolution = 32
`
	sat := map[int64]float64{}
	for _, measure := range []int64{5000, 20000} {
		e := mustParse(t, "df512.toml", file)
		e.Sim.Measure, e.Sim.Drain, e.Sim.MaxMeasure = measure, measure, DefaultMaxMeasure*measure
		err := Runner{Jobs: 2}.Run(context.Background(), []*Experiment{e}, func(r Record) error {
			switch r.Kind {
			case KindSaturation:
				sat[measure] = r.Saturation
			case KindPoint:
				t.Logf("measure %d: load %v: %s (growth %v ± %v, limit %v; window %d)", measure, r.Offered,
					r.Verdict.Outcome, r.Verdict.Growth, r.Verdict.GrowthCI, r.Verdict.GrowthLimit, r.Stats.Window)
			case KindError:
				t.Errorf("measure %d: %v", measure, r.Err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if d := sat[5000] - sat[20000]; d < -1.0/32 || d > 1.0/32 || sat[5000] == 0 {
		t.Errorf("saturation %v with 5,000 measured cycles, %v with 20,000: want them within 1/32", sat[5000], sat[20000])
	}
}

// TestMaxMeasureKey: [sim] max_measure bounds how far a point's window
// grows from a file: with the default some point of the small crossbar
// runs on past its 1,000 cycles, undecided at first; with max_measure =
// measure none does, and those points stay undecided.
func TestMaxMeasureKey(t *testing.T) {
	for _, tc := range []struct {
		key  string
		grow bool
	}{{"", true}, {"\nmax_measure = 1000", false}} {
		e := mustParse(t, "m.toml", edit(t, "measure = 1000", "measure = 1000"+tc.key))
		grew, undecided := false, 0
		err := Runner{Jobs: 2}.Run(context.Background(), []*Experiment{e}, func(r Record) error {
			if r.Kind != KindPoint {
				return nil
			}
			if r.Stats.Window > 1000 {
				grew = true
			}
			if r.Stats.Window > e.Sim.MaxMeasure || r.Stats.Window%1000 != 0 {
				t.Errorf("max_measure %d: window of %d cycles", e.Sim.MaxMeasure, r.Stats.Window)
			}
			if r.Verdict.Outcome == results.VerdictUndecided {
				undecided++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if grew != tc.grow || !tc.grow && undecided == 0 {
			t.Errorf("max_measure %d: a window grew %v, %d undecided; want growth %v", e.Sim.MaxMeasure, grew, undecided, tc.grow)
		}
	}
}
