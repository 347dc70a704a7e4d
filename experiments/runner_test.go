package experiments

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"netsim/fabric"
	"netsim/kernel"
	"netsim/nic"
	"netsim/results"
)

// fakeSim is a Simulator whose network saturates at a per-pattern
// threshold: below it the point is stable, above it the accepted load stays
// at the threshold and the source queues grow. It sleeps a random time so
// points complete out of order, and records the seeds it was given.
type fakeSim struct {
	thresholds map[string]float64
	fail       func(fabric.Config) error
	mu         sync.Mutex
	rng        *rand.Rand
	seeds      map[string]uint64
	calls      map[string]int // simulations per "pattern load"
}

func newFakeSim(seed uint64, thresholds map[string]float64) *fakeSim {
	return &fakeSim{thresholds: thresholds, rng: rand.New(rand.NewPCG(seed, 1)), seeds: map[string]uint64{}, calls: map[string]int{}}
}

func (f *fakeSim) run(ctx context.Context, c fabric.Config) (fabric.Stats, error) {
	f.mu.Lock()
	sleep := time.Duration(f.rng.IntN(2000)) * time.Microsecond
	f.seeds[fmt.Sprintf("%s %v", c.Pattern.Name(), c.Load)] = c.Seed
	f.calls[fmt.Sprintf("%s %v", c.Pattern.Name(), c.Load)]++
	f.mu.Unlock()
	select {
	case <-time.After(sleep):
	case <-ctx.Done():
		return fabric.Stats{}, ctx.Err()
	}
	if f.fail != nil {
		if err := f.fail(c); err != nil {
			return fabric.Stats{}, err
		}
	}
	thr := f.thresholds[c.Pattern.Name()]
	s := fakeStats(c, thr)
	if c.Load > thr {
	}
	return s, nil
}

// fakeStats returns the statistics of a fake point of c that sustains
// loads up to thr: its window's bins generate the load, and accept it
// too if it is at most thr, nothing otherwise (its backlog grows at
// the load); accepted is min(load, thr).
func fakeStats(c fabric.Config, thr float64) fabric.Stats {
	s := fabric.Stats{Offered: c.Load, Measures: results.Measures{Generated: c.Load, Accepted: min(c.Load, thr), HopsAvg: 1,
		LatencyAvg: 10 + c.Load, MeasuredPackets: 1000, Delivered: 1000, Window: c.Measure}}
	n := int64(fabric.BinsPerMeasure)
	for j := range n {
		cycles := (j+1)*c.Measure/n - j*c.Measure/n
		flits := int64(math.Round(c.Load * float64(cycles) * float64(len(c.Net.Hosts))))
		b := fabric.Bin{Cycles: cycles, Bin: nic.Bin{GeneratedFlits: flits, Delivered: 1000 / n, LatencySum: 10 * 1000 / n}}
		if c.Load <= thr {
			b.EjectedFlits = flits
		}
		s.Bins = append(s.Bins, b)
	}
	return s
}

// mustParse parses text with base's defaults or fails the test.
func mustParse(t testing.TB, name, text string) *Experiment {
	t.Helper()
	e, err := Parse(name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// testExperiments returns a loads experiment and a saturation experiment.
func testExperiments(t testing.TB) []*Experiment {
	loads := mustParse(t, "loads.toml", edit(t, `name = "small"`, `name = "loads"`,
		"loads = [0.25, 0.5]", "loads = [0.75, 0.125, 0.5, 0.25]"))
	sat := mustParse(t, "sat.toml", edit(t, `name = "small"`, `name = "sat"`,
		`mode = "loads"`, "mode = \"saturation\"\nresolution = 128", "loads = [0.25, 0.5]", "loads = [0.1, 0.5]"))
	return []*Experiment{loads, sat}
}

// runJSON runs exps with sim and jobs and returns the JSON lines.
func runJSON(t *testing.T, exps []*Experiment, sim Simulator, jobs int) string {
	t.Helper()
	var b bytes.Buffer
	err := Runner{Jobs: jobs, Simulate: sim}.Run(context.Background(), exps, func(r Record) error {
		return WriteJSON(&b, r)
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRunnerOutputIndependentOfJobs(t *testing.T) {
	exps := testExperiments(t)
	thr := map[string]float64{"uniform": 0.3, "complement": 0.6}
	want := runJSON(t, exps, newFakeSim(1, thr).run, 1)
	for _, jobs := range []int{2, 4, 16} {
		got := runJSON(t, exps, newFakeSim(uint64(jobs), thr).run, jobs)
		if got != want {
			t.Errorf("-j %d output differs from -j 1:\n%s\nvs\n%s", jobs, got, want)
		}
	}
}

func TestRunnerOrderAndSaturation(t *testing.T) {
	exps := testExperiments(t)
	sim := newFakeSim(3, map[string]float64{"uniform": 0.3, "complement": 0.6})
	var got []string
	err := Runner{Jobs: 3, Simulate: sim.run}.Run(context.Background(), exps, func(r Record) error {
		switch r.Kind {
		case KindPoint:
			got = append(got, fmt.Sprintf("%s %s %v %v", r.Experiment.Name, r.Pattern, r.Offered, r.Stable))
		case KindSaturation:
			got = append(got, fmt.Sprintf("%s %s saturation %v", r.Experiment.Name, r.Pattern, r.Saturation))
		default:
			t.Errorf("unexpected record %+v", r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Saturation search at 1/128: uniform (threshold 0.3 → 38/128) tests
	// 64, 32, 48, 40, 36, 38, 39; complement (0.6 → 76/128) tests 64, 96,
	// 80, 72, 76, 78, 77. The listed loads 0.1 and 0.5 (= 64/128, tested
	// by both searches) appear once each.
	want := []string{
		"loads uniform 0.125 true", "loads uniform 0.25 true", "loads uniform 0.5 false", "loads uniform 0.75 false",
		"loads complement 0.125 true", "loads complement 0.25 true", "loads complement 0.5 true", "loads complement 0.75 false",
		"sat uniform 0.1 true", "sat uniform 0.25 true", "sat uniform 0.28125 true", "sat uniform 0.296875 true",
		"sat uniform 0.3046875 false", "sat uniform 0.3125 false", "sat uniform 0.375 false", "sat uniform 0.5 false",
		"sat uniform saturation 0.296875",
		"sat complement 0.1 true", "sat complement 0.5 true", "sat complement 0.5625 true", "sat complement 0.59375 true",
		"sat complement 0.6015625 false", "sat complement 0.609375 false", "sat complement 0.625 false", "sat complement 0.75 false",
		"sat complement saturation 0.59375",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("records:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for key, seed := range sim.seeds {
		var pattern string
		var load float64
		if _, err := fmt.Sscan(key, &pattern, &load); err != nil {
			t.Fatal(err)
		}
		if want := PointSeed(7, pattern, load); seed != want {
			t.Errorf("%s: seed %d, want PointSeed(7, …) = %d", key, seed, want)
		}
	}
}

func TestRunnerFailedPoints(t *testing.T) {
	exps := testExperiments(t)
	sim := newFakeSim(5, map[string]float64{"uniform": 0.3, "complement": 0.6})
	sim.fail = func(c fabric.Config) error {
		if c.Pattern.Name() == "uniform" && c.Load == 0.5 {
			return fmt.Errorf("point: %w", &kernel.DeadlockError{At: 900, LastProgress: 100, Window: 800})
		}
		if c.Pattern.Name() == "complement" && c.Load == 0.125 {
			return errors.New("model exploded")
		}
		return nil
	}
	var errs, sats []Record
	err := Runner{Jobs: 2, Simulate: sim.run}.Run(context.Background(), exps, func(r Record) error {
		switch r.Kind {
		case KindError:
			errs = append(errs, r)
		case KindSaturation:
			sats = append(sats, r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// loads: uniform 0.5 (deadlock) and complement 0.125; sat: uniform's
	// search fails at its first point (0.5), complement's never tests 0.125.
	var got []string
	for _, r := range errs {
		got = append(got, fmt.Sprintf("%s %s %v deadlock=%v: %v", r.Experiment.Name, r.Pattern, r.Offered, r.Deadlock(), r.Err))
	}
	want := []string{
		"loads uniform 0.5 deadlock=true: experiment loads, pattern uniform, load 0.5: point: deadlock: no progress for 800 cycles (last progress at cycle 100, detected at cycle 900) with flits in flight",
		"loads complement 0.125 deadlock=false: experiment loads, pattern complement, load 0.125: model exploded",
		"sat uniform 0.5 deadlock=true: experiment sat, pattern uniform, load 0.5: point: deadlock: no progress for 800 cycles (last progress at cycle 100, detected at cycle 900) with flits in flight",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(sats) != 1 || sats[0].Pattern != "complement" {
		t.Errorf("saturation records %+v, want only complement's", sats)
	}
}

func TestRunnerStopsOnCancelAndEmitError(t *testing.T) {
	exps := testExperiments(t)
	sim := newFakeSim(9, map[string]float64{"uniform": 0.3, "complement": 0.6})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := (Runner{Jobs: 2, Simulate: sim.run}).Run(ctx, exps, func(Record) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: got %v, want context.Canceled", err)
	}
	boom := errors.New("disk full")
	err := Runner{Jobs: 2, Simulate: sim.run}.Run(context.Background(), exps, func(Record) error { return boom })
	if !errors.Is(err, boom) {
		t.Errorf("emit error: got %v, want it wrapped", err)
	}
}

// TestRunnerSimulatesEachLoadOnce: a load both listed and tested by the
// saturation search (0.5 is the search's first point) is simulated once.
func TestRunnerSimulatesEachLoadOnce(t *testing.T) {
	exps := testExperiments(t)
	for _, jobs := range []int{1, 4} {
		sim := newFakeSim(3, map[string]float64{"uniform": 0.3, "complement": 0.6})
		runJSON(t, exps[1:], sim.run, jobs)
		for key, n := range sim.calls {
			if n != 1 {
				t.Errorf("-j %d: %s simulated %d times", jobs, key, n)
			}
		}
		if sim.calls["uniform 0.5"] == 0 {
			t.Errorf("-j %d: the shared load 0.5 was not simulated", jobs)
		}
	}
}
