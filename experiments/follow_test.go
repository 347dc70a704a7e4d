package experiments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"netsim/fabric"
	"netsim/internal/numfmt"
)

// followFile sweeps five buffer sizes whose saturation (variantSim)
// moves a few steps from one to the next.
const followFile = `name = "fw"
seed = 5
[topology]
kind = "flatfly"
dims = [2, 2]
hosts_per_switch = 2
[routing]
algorithm = "dor"
[flow_control]
vls = 4
buffer_flits = [16, 24, 32, 40, 48]
[traffic]
patterns = ["uniform", "complement", "transpose"]
packet_flits = 8
[sim]
warmup = 100
measure = 300
[sweep]
mode = "saturation"
search = "follow"
loads = [0.5]
`

// variantSim is a Simulator whose saturation depends on the pattern and
// on the buffer: uniform 0.3 + buffer/1000, complement 0.6 − buffer/500,
// transpose 1 (every load stable). It sleeps a random time, as fakeSim,
// and counts its simulations.
type variantSim struct {
	mu    sync.Mutex
	calls map[string]int // per "buffer pattern load"
	rng   *rand.Rand
	// island, if set, makes the points it is true for stable whatever
	// their load.
	island func(buffer int, pattern string, load float64) bool
	// accepted, if set, gives the accepted load of the unstable points
	// (else the threshold).
	accepted func(thr float64) float64
}

func newVariantSim(seed uint64) *variantSim {
	return &variantSim{calls: map[string]int{}, rng: rand.New(rand.NewPCG(seed, 2))}
}

func (v *variantSim) threshold(pattern string, buffer int) float64 {
	switch pattern {
	case "uniform":
		return 0.3 + float64(buffer)/1000
	case "complement":
		return 0.6 - float64(buffer)/500
	}
	return 1
}

func (v *variantSim) run(ctx context.Context, c fabric.Config) (fabric.Stats, error) {
	thr := v.threshold(c.Pattern.Name(), c.BufferFlits)
	if v.island != nil && v.island(c.BufferFlits, c.Pattern.Name(), c.Load) {
		thr = 1
	}
	v.mu.Lock()
	v.calls[fmt.Sprintf("%d %s %v", c.BufferFlits, c.Pattern.Name(), c.Load)]++
	sleep := time.Duration(v.rng.IntN(500)) * time.Microsecond
	v.mu.Unlock()
	select {
	case <-time.After(sleep):
	case <-ctx.Done():
		return fabric.Stats{}, ctx.Err()
	}
	s := fakeStats(c, thr)
	if c.Load > thr {
		if v.accepted != nil {
			s.Accepted = v.accepted(thr)
		}
	}
	return s, nil
}

// parseFollow returns the variants of followFile with the given search
// (searchKeys).
func parseFollow(t *testing.T, search string) []*Experiment {
	t.Helper()
	exps, err := ParseFile("fw.toml", []byte(strings.Replace(followFile, `search = "follow"`, searchKeys(search), 1)))
	if err != nil {
		t.Fatal(err)
	}
	return exps
}

// satLines returns the saturation records of the JSON lines in text, one
// per line as "variant pattern value".
func satLines(t *testing.T, text string) []string {
	t.Helper()
	lines, _, err := ReadResults(strings.NewReader(text), "run")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range lines {
		if l.Kind != KindSaturation {
			continue
		}
		var v struct{ Saturation float64 }
		if err := json.Unmarshal(l.Text, &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, l.Variant+" "+l.Pattern+" "+numfmt.Decimal(v.Saturation, -1))
	}
	return out
}

// TestFollowMatchesBisect: where stability is monotone, the follow search
// finds what bisection finds, in fewer points, with output independent of
// the number of jobs; the variants after the first start from the
// previous one's result.
func TestFollowMatchesBisect(t *testing.T) {
	bisectSim := newVariantSim(1)
	want, _, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: bisectSim.run}, parseFollow(t, "bisect"))
	if err != nil {
		t.Fatal(err)
	}
	followSim := newVariantSim(2)
	got, _, err := runLines(context.Background(), Runner{Jobs: 1, Simulate: followSim.run}, parseFollow(t, "follow"))
	if err != nil {
		t.Fatal(err)
	}
	if s, w := satLines(t, got), satLines(t, want); !slices.Equal(s, w) || len(s) != 15 {
		t.Errorf("follow saturations:\n%s\nbisect:\n%s", strings.Join(s, "\n"), strings.Join(w, "\n"))
	}
	// The saturations themselves are the thresholds, rounded down to 1/128.
	v := newVariantSim(0)
	for _, line := range satLines(t, got) {
		var variant, pattern string
		fmt.Sscan(line, &variant, &pattern)
		buffer := 0
		fmt.Sscanf(variant, "flow_control.buffer_flits=%d", &buffer)
		want := math.Floor(v.threshold(pattern, buffer)*128) / 128
		if !strings.HasSuffix(line, " "+numfmt.Decimal(want, -1)) {
			t.Errorf("%s: want saturation %v", line, want)
		}
	}
	if b, f := len(bisectSim.calls), len(followSim.calls); f >= b*2/3 {
		t.Errorf("follow simulated %d points, bisection %d: want at most two thirds", f, b)
	}
	// transpose: every variant after the first tests 128/128 only.
	for _, buffer := range []int{24, 32, 40, 48} {
		n := 0
		for key := range followSim.calls {
			if strings.HasPrefix(key, fmt.Sprintf("%d transpose ", buffer)) {
				n++
			}
		}
		if n != 2 { // the listed 0.5 and 1
			t.Errorf("buffer %d transpose: %d points, want 2", buffer, n)
		}
	}
	for _, jobs := range []int{2, 3, 16} {
		again, _, err := runLines(context.Background(), Runner{Jobs: jobs, Simulate: newVariantSim(uint64(jobs)).run}, parseFollow(t, "follow"))
		if err != nil {
			t.Fatal(err)
		}
		if again != got {
			t.Errorf("-j %d output differs from -j 1", jobs)
		}
	}
}

// searchKeys returns the [sweep] keys of search: "bisect" or "follow",
// guided by accepted loads if followed by "+guide" ("follow+guide").
func searchKeys(search string) string {
	if s, ok := strings.CutSuffix(search, "+guide"); ok {
		return fmt.Sprintf("search = %q\nguide = %q", s, GuideAccepted)
	}
	return fmt.Sprintf("search = %q", search)
}

// TestGuidedMatchesBisect: where stability is monotone, a search guided by
// accepted loads finds what bisection finds, from a hint or not, in fewer
// points than the same search unguided, with output independent of the
// number of jobs.
func TestGuidedMatchesBisect(t *testing.T) {
	want, _, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: newVariantSim(1).run}, parseFollow(t, "bisect"))
	if err != nil {
		t.Fatal(err)
	}
	for _, search := range []string{"bisect", "follow"} {
		t.Run(search, func(t *testing.T) {
			plain := newVariantSim(2)
			if _, _, err := runLines(context.Background(), Runner{Jobs: 1, Simulate: plain.run}, parseFollow(t, search)); err != nil {
				t.Fatal(err)
			}
			guidedSim := newVariantSim(3)
			got, _, err := runLines(context.Background(), Runner{Jobs: 1, Simulate: guidedSim.run}, parseFollow(t, search+"+guide"))
			if err != nil {
				t.Fatal(err)
			}
			if s, w := satLines(t, got), satLines(t, want); !slices.Equal(s, w) || len(s) != 15 {
				t.Errorf("guided saturations:\n%s\nbisect:\n%s", strings.Join(s, "\n"), strings.Join(w, "\n"))
			}
			if g, p := len(guidedSim.calls), len(plain.calls); g >= p {
				t.Errorf("guided simulated %d points, unguided %s %d: want fewer", g, search, p)
			}
			for _, jobs := range []int{2, 16} {
				again, _, err := runLines(context.Background(), Runner{Jobs: jobs, Simulate: newVariantSim(uint64(jobs)).run}, parseFollow(t, search+"+guide"))
				if err != nil {
					t.Fatal(err)
				}
				if again != got {
					t.Errorf("-j %d output differs from -j 1", jobs)
				}
			}
		})
	}
}

// TestFollowUnitsAndShards: a pattern's searches in every variant are one
// shard unit, so shards run whole chains and merge into the unsharded
// run's results.
func TestFollowUnitsAndShards(t *testing.T) {
	exps := parseFollow(t, "follow")
	units := map[string]map[int]bool{}
	for _, task := range Plan(exps) {
		if units[task.PatternName()] == nil {
			units[task.PatternName()] = map[int]bool{}
		}
		units[task.PatternName()][task.Unit] = true
	}
	if len(units) != 3 || len(units["uniform"]) != 1 || len(units["complement"]) != 1 || units["uniform"][1] || !units["complement"][1] {
		t.Errorf("units by pattern: %v, want one each, numbered 0, 1, 2", units)
	}
	want, _, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: newVariantSim(1).run}, exps)
	if err != nil {
		t.Fatal(err)
	}
	var all []ResultLine
	for i := range 2 {
		_, fin, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: newVariantSim(uint64(i)).run, Shard: Shard{i, 2}}, exps)
		if err != nil {
			t.Fatal(err)
		}
		lines, _, err := ReadResults(strings.NewReader(fin), "shard")
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, lines...)
	}
	merged, rep, err := Merge(all, exps)
	if err != nil || rep.Problems() {
		t.Fatal(err, rep)
	}
	if got := string(bytesJoinLines(merged)); got != want {
		t.Errorf("shards merged:\n%s\nwant\n%s", got, want)
	}
}

// bytesJoinLines joins lines with a newline after each.
func bytesJoinLines(lines [][]byte) []byte {
	var b []byte
	for _, l := range lines {
		b = append(append(b, l...), '\n')
	}
	return b
}

// TestFollowResume: an interrupted follow run resumed from its finished
// lines gives the uninterrupted run's output, simulating no point twice.
func TestFollowResume(t *testing.T) {
	for _, search := range []string{"follow", "follow+guide", "bisect+guide"} {
		t.Run(search, func(t *testing.T) { testResume(t, parseFollow(t, search), newVariantSim) })
	}
	// Accepted loads a hair below a step: unrounded they would guess the
	// step below, as results files hold them the step itself (quantize),
	// and the resumed search must take the steps the uninterrupted one
	// took.
	t.Run("guide/rounding", func(t *testing.T) {
		testResume(t, parseFollow(t, "follow+guide"), func(seed uint64) *variantSim {
			v := newVariantSim(seed)
			v.accepted = func(thr float64) float64 { return math.Floor(thr*128)/128 - 1e-8 }
			return v
		})
	})
}

// testResume checks that a run of exps on newSim's simulators interrupted
// after k simulations and resumed from its finished lines gives the
// uninterrupted run's output, simulating every point once.
func testResume(t *testing.T, exps []*Experiment, newSim func(seed uint64) *variantSim) {
	want, _, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: newSim(1).run}, exps)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{3, 20} {
		ctx, cancel := context.WithCancel(context.Background())
		first := newSim(uint64(k))
		done := 0
		var mu sync.Mutex
		stopAfterK := func(ctx context.Context, c fabric.Config) (fabric.Stats, error) {
			st, err := first.run(ctx, c)
			mu.Lock()
			if done++; done == k {
				cancel()
			}
			mu.Unlock()
			return st, err
		}
		_, fin1, err := runLines(ctx, Runner{Jobs: 2, Simulate: stopAfterK}, exps)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("k=%d: interrupted run: %v", k, err)
		}
		lines, _, err := ReadResults(strings.NewReader(fin1), "first")
		if err != nil {
			t.Fatal(err)
		}
		store, err := NewStore(exps, lines)
		if err != nil {
			t.Fatal(err)
		}
		second := newSim(uint64(k + 1))
		got, _, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: second.run, Resume: store}, exps)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("k=%d: resumed output differs", k)
		}
		// A simulation cut short by the interruption is not in the
		// finished lines and runs again; any other runs once.
		for key, n := range second.calls {
			if n != 1 || first.calls[key] > 1 {
				t.Errorf("k=%d: %s simulated %d + %d times", k, key, first.calls[key], n)
			}
		}
	}
}

func TestFollowSearchKey(t *testing.T) {
	for _, tc := range []struct{ text, msg string }{
		{"search = \"gallop\"", `[sweep] search: unknown value "gallop" (expected one of: bisect, follow)`},
		{"search = 1", "[sweep] search: expected a string"},
		{"guide = \"loads\"", `[sweep] guide: unknown value "loads" (expected one of: none, accepted)`},
	} {
		_, err := ParseFile("fw.toml", []byte(strings.Replace(followFile, `search = "follow"`, tc.text, 1)))
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: got %v, want %q", tc.text, err, tc.msg)
		}
	}
	loads := strings.Replace(followFile, `mode = "saturation"`, `mode = "loads"`, 1)
	if _, err := ParseFile("fw.toml", []byte(loads)); err == nil || !strings.Contains(err.Error(), `fw.toml:20: [sweep] search: only used with mode = "saturation"`) {
		t.Errorf("search with mode = loads: got %v", err)
	}
	loads = strings.Replace(loads, `search = "follow"`, `guide = "accepted"`, 1)
	if _, err := ParseFile("fw.toml", []byte(loads)); err == nil || !strings.Contains(err.Error(), `fw.toml:20: [sweep] guide: only used with mode = "saturation"`) {
		t.Errorf("guide with mode = loads: got %v", err)
	}
}

// TestResumedSearchesStand: a search whose result the resumed results
// hold is not run again, whatever search found it: bisection results
// resumed by a follow run give the bisection run's output without a
// simulation, even where the follow search would have found another
// value (stability not monotone); the first variant not in the results
// then starts from the last one resumed.
func TestResumedSearchesStand(t *testing.T) {
	sim := newVariantSim(1)
	// Buffer 24, uniform: stable up to 0.324 and at 0.5, which bisection
	// tests first (and then finds 0.5) and the follow search, from 0.316,
	// never tests (it finds 0.3203125).
	sim.island = func(buffer int, pattern string, load float64) bool {
		return buffer == 24 && pattern == "uniform" && load == 0.5
	}
	bisect := parseFollow(t, "bisect")
	want, fin, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: sim.run}, bisect)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(satLines(t, want), "flow_control.buffer_flits=24 uniform 0.5") {
		t.Fatalf("bisection did not find the island: %v", satLines(t, want))
	}
	lines, _, err := ReadResults(strings.NewReader(fin), "bisect")
	if err != nil {
		t.Fatal(err)
	}
	follow := parseFollow(t, "follow")
	store, err := NewStore(follow, lines)
	if err != nil {
		t.Fatal(err)
	}
	again := newVariantSim(2)
	var prog Progress
	got, _, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: again.run, Resume: store, Progress: func(p Progress) { prog = p }}, follow)
	if err != nil {
		t.Fatal(err)
	}
	if got != want || len(again.calls) != 0 {
		t.Errorf("%d simulations; output:\n%s\nwant\n%s", len(again.calls), got, want)
	}
	if prog.Done != prog.Total || prog.Resumed != prog.Done || prog.Done != len(lines)-15 {
		t.Errorf("final progress %+v, want all %d points resumed", prog, len(lines)-15)
	}
	if len(store.Unused()) != 0 {
		t.Errorf("%d lines unused", len(store.Unused()))
	}

	// Only the first two variants done: the third follows the second's
	// resumed results (uniform 0.5 at buffer 24, so it tests 0.5 first).
	var firstTwo []ResultLine
	for _, l := range lines {
		if strings.HasSuffix(l.Variant, "=16") || strings.HasSuffix(l.Variant, "=24") {
			firstTwo = append(firstTwo, l)
		}
	}
	store, err = NewStore(follow, firstTwo)
	if err != nil {
		t.Fatal(err)
	}
	part := newVariantSim(3)
	if _, _, err := runLines(context.Background(), Runner{Jobs: 2, Simulate: part.run, Resume: store}, follow); err != nil {
		t.Fatal(err)
	}
	for key := range part.calls {
		if strings.HasPrefix(key, "16 ") || strings.HasPrefix(key, "24 ") {
			t.Errorf("resumed variant simulated again: %s", key)
		}
	}
	// Buffer 32 uniform saturates at 0.332 (42/128): from 64/128 the search
	// tests 64, 63, 61, 57, 49, 33, then bisects (33, 48].
	if part.calls["32 uniform 0.5"] != 1 || part.calls["32 uniform 0.4921875"] != 1 {
		t.Errorf("buffer 32 uniform did not start from 0.5: %v", part.calls)
	}
}

// TestFollowEstimate: before any point ends, the progress total counts a
// bisection's loads for the first search of a chain and followLoads for
// each search that follows, at any resolution; bisect counts bisectLoads
// for every search.
func TestFollowEstimate(t *testing.T) {
	for _, tc := range []struct {
		search           string
		resolution, want int
	}{
		// 3 patterns × (5 listed loads + the searches of 5 variants).
		{"follow", 128, 3 * (5 + 8 + 4*5)},
		{"follow", 32, 3 * (5 + 6 + 4*3)},
		{"follow", 4, 3 * (5 + 3 + 4*2)},
		{"bisect", 128, 3 * (5 + 5*8)},
		// Guided: guidedLoads for every search, following or not.
		{"follow+guide", 128, 3 * (5 + 5*4)},
		{"bisect+guide", 32, 3 * (5 + 5*3)},
		{"follow+guide", 4, 3 * (5 + 5*2)},
	} {
		t.Run(fmt.Sprintf("%s/%d", tc.search, tc.resolution), func(t *testing.T) {
			text := strings.Replace(followFile, `search = "follow"`, fmt.Sprintf("%s\nresolution = %d", searchKeys(tc.search), tc.resolution), 1)
			exps, err := ParseFile("fw.toml", []byte(text))
			if err != nil {
				t.Fatal(err)
			}
			first := -1
			r := Runner{Jobs: 1, Simulate: newVariantSim(1).run, Progress: func(p Progress) {
				if first < 0 {
					first = p.Total
				}
			}}
			if _, _, err := runLines(context.Background(), r, exps); err != nil {
				t.Fatal(err)
			}
			if first != tc.want {
				t.Errorf("first progress total %d, want %d", first, tc.want)
			}
		})
	}
}
