package experiments

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"netsim/fabric"
	"netsim/nic"
	"netsim/results"
)

// cheaperFile is a FlatFly 4×4 with 2 hosts per switch under DOR (one
// path per flow: its channel load bounds the saturation) and ADOR (adaptive
// in the order of the dimensions: its load is only an estimate).
const cheaperFile = `name = "cheaper"
seed = 3
[topology]
kind = "flatfly"
dims = [4, 4]
hosts_per_switch = 2
[routing]
algorithm = ["dor", "ador"]
[flow_control]
kind = "credit"
vls = 8
buffer_flits = 32
[switch]
switching = "cut-through"
[traffic]
patterns = ["uniform", "complement", "transpose"]
packet_flits = 8
[sim]
warmup = 1000
measure = 2000
drain = 1000
[sweep]
mode = "saturation"
resolution = 32
guide = "accepted"
`

// TestCheaperSearches runs the same searches with and without [sim]
// stop_early and [sweep] bound: the saturation values are the same; the
// search the DOR channel-load bound caps carries it and tests no load
// above it, the others carry none; only unstable points end their window early; a
// point both runs tested whose window ran whole is the same line but for
// the configuration hash; and the cheaper run simulates fewer cycles.
func TestCheaperSearches(t *testing.T) {
	if testing.Short() {
		t.Skip("a dozen saturation searches at 32 hosts, twice")
	}
	type run struct {
		sat    map[string]Record
		lines  map[string]string // point lines by key, the hash blanked
		cycles int64
		points []Record
	}
	hash := regexp.MustCompile(`"config":"[0-9a-f]+"`)
	do := func(text string) run {
		exps, err := ParseFile("cheaper.toml", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		r := run{sat: map[string]Record{}, lines: map[string]string{}}
		err = Runner{Jobs: 2}.Run(context.Background(), exps, func(rec Record) error {
			key := rec.Experiment.Routing + "/" + rec.Pattern
			switch rec.Kind {
			case KindSaturation:
				r.sat[key] = rec
			case KindPoint:
				var b bytes.Buffer
				if err := WriteJSON(&b, rec); err != nil {
					return err
				}
				r.lines[rec.Key()] = hash.ReplaceAllString(b.String(), `"config":""`)
				r.cycles += rec.Stats.Cycles
				r.points = append(r.points, rec)
			case KindError:
				t.Errorf("%s: %v", key, rec.Err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	plain := do(cheaperFile)
	cheap := do(strings.Replace(cheaperFile, "drain = 1000\n", "drain = 1000\nstop_early = true\n", 1) + "bound = true\n")
	if len(plain.sat) != 6 || len(cheap.sat) != 6 {
		t.Fatalf("%d and %d saturation results, want 6", len(plain.sat), len(cheap.sat))
	}
	for key, p := range plain.sat {
		c := cheap.sat[key]
		if c.Saturation != p.Saturation {
			t.Errorf("%s: saturation %v with stop_early and bound, %v without", key, c.Saturation, p.Saturation)
		}
		if p.Bound != 0 {
			t.Errorf("%s: bound %v without [sweep] bound", key, p.Bound)
		}
		// DOR's bound caps complement (1/2); under uniform and transpose
		// it is 1, which caps nothing and is not recorded.
		if want := map[string]float64{"dor/complement": 0.5}[key]; c.Bound != want || c.Bound > 0 && c.Saturation > c.Bound {
			t.Errorf("%s: bound %v (want %v), saturation %v", key, c.Bound, want, c.Saturation)
		}
	}
	early := 0
	for _, rec := range cheap.points {
		b := cheap.sat[rec.Experiment.Routing+"/"+rec.Pattern].Bound
		if b > 0 && rec.Offered > b {
			t.Errorf("%s tested above the bound %v", rec.Key(), b)
		}
		if rec.Stats.Window < rec.Experiment.Sim.Measure {
			early++
			if rec.Verdict.Outcome != "unstable" || !rec.Stats.DrainSkipped {
				t.Errorf("%s: window %d cut short, verdict %s, drain skipped %v", rec.Key(), rec.Stats.Window, rec.Verdict.Outcome, rec.Stats.DrainSkipped)
			}
			continue
		}
		if want, ok := plain.lines[rec.Key()]; ok && cheap.lines[rec.Key()] != want {
			t.Errorf("%s differs from the run without stop_early:\n%s%s", rec.Key(), cheap.lines[rec.Key()], want)
		}
	}
	if early == 0 || cheap.cycles >= plain.cycles {
		t.Errorf("%d points ended early; %d cycles simulated, %d without stop_early and bound", early, cheap.cycles, plain.cycles)
	}
	t.Logf("%d cycles in %d points, against %d in %d (%d ended early)", cheap.cycles, len(cheap.points), plain.cycles, len(plain.points), early)
}

// TestChannelBound: the channel-load bound is a bound for DOR, whose flows
// take one path, not for an adaptive routing nor for NICs that choose
// among routes, and it is the bound netsim load prints (complement on a
// FlatFly 4×4 with 2 hosts per switch under DOR: every flow crosses both
// dimensions, 2 flows per link, 1/2).
func TestChannelBound(t *testing.T) {
	exps, err := ParseFile("cheaper.toml", []byte(cheaperFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range exps {
		for i, p := range e.Traffic.Patterns {
			b, ok, err := channelBound(context.Background(), e, i)
			name := fmt.Sprintf("%s %s", e.Routing, p)
			if err != nil || ok != (e.Routing == "dor") || !(b > 0 && b <= 1) {
				t.Errorf("%s: bound %v, %v, %v", name, b, ok, err)
			}
			if name == "dor complement" && b != 0.5 {
				t.Errorf("%s: bound %v, want 0.5", name, b)
			}
		}
	}
	e := exps[0]
	e.NIC.Dispersion = nic.Random
	if _, ok, err := channelBound(context.Background(), e, 1); ok || err != nil {
		t.Errorf("random dispersion: a bound (%v, %v)", ok, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e.NIC.Dispersion = nic.Static
	if _, _, err := channelBound(ctx, e, 0); err == nil {
		t.Error("cancelled: no error")
	}
}

// TestCheaperKeysHash: stop_early changes the points (their windows), so
// it is in the configuration hash; bound changes which loads a search
// tests, not what a point gives, so it is not.
func TestCheaperKeysHash(t *testing.T) {
	hashOf := func(text string) string {
		exps, err := ParseFile("cheaper.toml", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return configHash(exps[0])
	}
	plain := hashOf(cheaperFile)
	if h := hashOf(cheaperFile + "bound = true\n"); h != plain {
		t.Errorf("bound moved the hash: %s, %s", h, plain)
	}
	if h := hashOf(strings.Replace(cheaperFile, "drain = 1000\n", "drain = 1000\nstop_early = false\n", 1)); h != plain {
		t.Errorf("stop_early = false moved the hash: %s, %s", h, plain)
	}
	if h := hashOf(strings.Replace(cheaperFile, "drain = 1000\n", "drain = 1000\nstop_early = true\n", 1)); h == plain {
		t.Error("stop_early = true left the hash")
	}
}

// TestInterimMargin: at an interim look a backlog growing at twice the
// limit does not end the window (InterimMargin), at five times it does;
// the final verdict calls both unstable; and no look calls a point
// stable early.
func TestInterimMargin(t *testing.T) {
	const hosts, measure, load = 16, 1000, 0.5
	window := func(over float64, bins int) fabric.Stats {
		s := fabric.Stats{Measures: results.Measures{Generated: load, Delivered: 1000, Window: int64(bins) * measure / fabric.BinsPerMeasure}}
		per := int64(measure / fabric.BinsPerMeasure)
		for range bins {
			g := int64(load * hosts * float64(per))
			s.Bins = append(s.Bins, fabric.Bin{Cycles: per, Bin: nic.Bin{GeneratedFlits: g,
				EjectedFlits: g - int64(over*0.02*load*hosts*float64(per)), Delivered: 30, LatencySum: 300}})
		}
		return s
	}
	for _, tc := range []struct {
		over          float64 // growth, in limits
		interim, full string
	}{{2, "undecided", "unstable"}, {5, "unstable", "unstable"}, {0, "undecided", "stable"}} {
		got := "undecided"
		if clearlyUnstable(window(tc.over, 8), 0.02, hosts, measure) {
			got = "unstable"
		}
		if got != tc.interim {
			t.Errorf("growth %v× the limit, look after 8 bins: %s, want %s", tc.over, got, tc.interim)
		}
		if got := judge(window(tc.over, fabric.BinsPerMeasure), 0.02, hosts, measure).Outcome; got != tc.full {
			t.Errorf("growth %v× the limit, whole window: %s, want %s", tc.over, got, tc.full)
		}
	}
}

// TestBoundRoundTrip: a saturation line carries the bound that capped
// its search, and reading it back (as a resumed run does) gives the
// record its bound again; a search without one writes no field.
func TestBoundRoundTrip(t *testing.T) {
	e := mustParse(t, "small.toml", base)
	for _, bound := range []float64{0, 0.625} {
		rec := Record{Kind: KindSaturation, Experiment: e, Pattern: "uniform", Seed: 7, Saturation: 0.5, Bound: bound}
		var b bytes.Buffer
		if err := WriteJSON(&b, rec); err != nil {
			t.Fatal(err)
		}
		if has := strings.Contains(b.String(), `"bound":`); has != (bound > 0) {
			t.Errorf("bound %v: line %s", bound, b.String())
		}
		l, err := parseResultLine(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
		if err != nil {
			t.Fatal(err)
		}
		if got := l.record(e); got.Bound != bound || got.Saturation != 0.5 {
			t.Errorf("bound %v read back as %v (saturation %v)", bound, got.Bound, got.Saturation)
		}
	}
}
