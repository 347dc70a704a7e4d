package traffic

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"netsim/kernel"
)

// bitPatterns are the canonical names of the bit-permutation patterns.
var bitPatterns = []string{"complement", "reverse", "rotation", "shuffle", "transpose"}

func TestBitPatternTables(t *testing.T) {
	tests := []struct {
		name  string
		hosts int
		want  []int // want[src] is the destination of src
	}{
		{"complement", 2, []int{1, 0}},
		{"reverse", 2, []int{0, 1}},
		{"rotation", 2, []int{0, 1}},
		{"shuffle", 2, []int{0, 1}},
		{"transpose", 2, []int{0, 1}},

		{"complement", 8, []int{7, 6, 5, 4, 3, 2, 1, 0}},
		{"reverse", 8, []int{0, 4, 2, 6, 1, 5, 3, 7}},
		{"rotation", 8, []int{0, 4, 1, 5, 2, 6, 3, 7}},
		{"shuffle", 8, []int{0, 2, 4, 6, 1, 3, 5, 7}},
		{"transpose", 8, []int{0, 2, 4, 6, 1, 3, 5, 7}},

		{"complement", 16, []int{15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
		{"reverse", 16, []int{0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15}},
		{"rotation", 16, []int{0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15}},
		{"shuffle", 16, []int{0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15}},
		{"transpose", 16, []int{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%d", tt.name, tt.hosts), func(t *testing.T) {
			p, err := NewPattern(tt.name, tt.hosts, 1)
			if err != nil {
				t.Fatalf("NewPattern: %v", err)
			}
			if got := p.Name(); got != tt.name {
				t.Errorf("Name() = %q, want %q", got, tt.name)
			}
			got := make([]int, tt.hosts)
			for src := range got {
				got[src] = p.Dest(src, nil)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("destinations = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBitPatternSpotChecks(t *testing.T) {
	tests := []struct {
		name     string
		hosts    int
		src, dst int
	}{
		{"transpose", 16, 0b0001, 0b0100},
		{"transpose", 16, 0b0110, 0b1001},
		// Odd n = 5: rotate left by 2.
		{"transpose", 32, 0b00001, 0b00100},
		{"transpose", 32, 0b10000, 0b00010},
		{"transpose", 32, 0b00111, 0b11100},
		{"transpose", 32, 0b11000, 0b00011},
		// Even n = 10: swap the 5-bit halves.
		{"transpose", 1024, 0b00000_11111, 0b11111_00000},
		{"transpose", 1024, 0b10100_00011, 0b00011_10100},
		{"complement", 1024, 0, 1023},
		{"complement", 1024, 0b1010101010, 0b0101010101},
		{"reverse", 1024, 0b1100000000, 0b0000000011},
		{"reverse", 1024, 0b1011001110, 0b0111001101},
		{"rotation", 1024, 0b0000000001, 0b1000000000},
		{"rotation", 1024, 0b1000000110, 0b0100000011},
		{"shuffle", 1024, 0b1000000000, 0b0000000001},
		{"shuffle", 1024, 0b1000000110, 0b0000001101},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%d/%d", tt.name, tt.hosts, tt.src), func(t *testing.T) {
			p, err := NewPattern(tt.name, tt.hosts, 0)
			if err != nil {
				t.Fatalf("NewPattern: %v", err)
			}
			if got := p.Dest(tt.src, nil); got != tt.dst {
				t.Errorf("Dest(%#b) = %#b, want %#b", tt.src, got, tt.dst)
			}
		})
	}
}

// powersOfTwo returns 2, 4, …, max.
func powersOfTwo(max int) []int {
	var hs []int
	for h := 2; h <= max; h *= 2 {
		hs = append(hs, h)
	}
	return hs
}

// checkPermutation reports an error unless p maps [0, hosts) onto itself
// bijectively.
func checkPermutation(t *testing.T, p Pattern, hosts int) {
	t.Helper()
	seen := make([]bool, hosts)
	for src := range hosts {
		dst := p.Dest(src, nil)
		if dst < 0 || dst >= hosts {
			t.Fatalf("Dest(%d) = %d, outside [0, %d)", src, dst, hosts)
		}
		if seen[dst] {
			t.Fatalf("destination %d reached twice", dst)
		}
		seen[dst] = true
	}
}

func TestDeterministicPatternsAreBijections(t *testing.T) {
	names := append(slices.Clone(bitPatterns), "randperm")
	for _, name := range names {
		for _, hosts := range powersOfTwo(1024) {
			t.Run(fmt.Sprintf("%s/%d", name, hosts), func(t *testing.T) {
				p, err := NewPattern(name, hosts, 42)
				if err != nil {
					t.Fatalf("NewPattern: %v", err)
				}
				checkPermutation(t, p, hosts)
			})
		}
	}
}

func TestBitPatternIdentities(t *testing.T) {
	// Each row composes two patterns; the composition must be the identity
	// for every host count in hosts.
	tests := []struct {
		first, second string
		hosts         []int
	}{
		{"complement", "complement", powersOfTwo(1024)},
		{"reverse", "reverse", powersOfTwo(1024)},
		{"rotation", "shuffle", powersOfTwo(1024)},
		{"shuffle", "rotation", powersOfTwo(1024)},
		// Half swap is an involution when n is even.
		{"transpose", "transpose", []int{4, 16, 64, 256, 1024}},
	}
	for _, tt := range tests {
		for _, hosts := range tt.hosts {
			t.Run(fmt.Sprintf("%s∘%s/%d", tt.second, tt.first, hosts), func(t *testing.T) {
				a, err := NewPattern(tt.first, hosts, 0)
				if err != nil {
					t.Fatal(err)
				}
				b, err := NewPattern(tt.second, hosts, 0)
				if err != nil {
					t.Fatal(err)
				}
				for src := range hosts {
					if got := b.Dest(a.Dest(src, nil), nil); got != src {
						t.Fatalf("%s(%s(%d)) = %d, want %d", tt.second, tt.first, src, got, src)
					}
				}
			})
		}
	}
}

func TestRandPerm(t *testing.T) {
	tests := []struct {
		alias string
		hosts int
	}{
		{"randperm", 1},
		{"randperm", 2},
		{"randperm", 12},
		{"random_permutation", 64},
		{"permutation", 1000},
		{"randperm", 4096},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%d", tt.alias, tt.hosts), func(t *testing.T) {
			p, err := NewPattern(tt.alias, tt.hosts, 7)
			if err != nil {
				t.Fatalf("NewPattern: %v", err)
			}
			if got := p.Name(); got != "randperm" {
				t.Errorf("Name() = %q, want %q", got, "randperm")
			}
			checkPermutation(t, p, tt.hosts)

			same, err := NewPattern("randperm", tt.hosts, 7)
			if err != nil {
				t.Fatal(err)
			}
			other, err := NewPattern("randperm", tt.hosts, 8)
			if err != nil {
				t.Fatal(err)
			}
			differs, fixed := false, 0
			for src := range tt.hosts {
				d := p.Dest(src, nil)
				if s := same.Dest(src, nil); s != d {
					t.Fatalf("seed 7 twice: Dest(%d) = %d then %d", src, d, s)
				}
				if other.Dest(src, nil) != d {
					differs = true
				}
				if d == src {
					fixed++
				}
			}
			// For 12 or more hosts two seeds agree with probability at
			// most 1/12!.
			if tt.hosts >= 12 && !differs {
				t.Errorf("seeds 7 and 8 gave the same permutation")
			}
			// A random permutation has Poisson(1) fixed points; 10 or
			// more has probability about 1e-7, and would mean the shuffle
			// barely moved anything.
			if fixed >= 10 {
				t.Errorf("%d fixed points, want a well-mixed permutation", fixed)
			}
		})
	}
}

func TestRandPermFixedPoints(t *testing.T) {
	// The number of fixed points of a uniform random permutation has mean
	// 1 for any size; a shuffle that never leaves an element in place
	// (Sattolo's variant, an off-by-one in Fisher–Yates) averages 0.
	tests := []struct {
		hosts, seeds int
	}{
		{8, 2000},
		{64, 1000},
		{1000, 400},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.hosts), func(t *testing.T) {
			total := 0
			for seed := range tt.seeds {
				p, err := NewPattern("randperm", tt.hosts, uint64(seed))
				if err != nil {
					t.Fatal(err)
				}
				for src := range tt.hosts {
					if p.Dest(src, nil) == src {
						total++
					}
				}
			}
			// The count has variance about 1, so the mean over the seeds
			// has standard deviation 1/√seeds; allow six of them.
			mean := float64(total) / float64(tt.seeds)
			if tol := 6 / math.Sqrt(float64(tt.seeds)); math.Abs(mean-1) > tol {
				t.Errorf("mean fixed points = %.3f over %d seeds, want 1 ± %.3f", mean, tt.seeds, tol)
			}
		})
	}
}

func TestUniform(t *testing.T) {
	tests := []struct {
		hosts, draws int
	}{
		{1, 100},
		{12, 120000},
		{16, 160000},
		{100, 500000},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.hosts), func(t *testing.T) {
			p, err := NewPattern("uniform", tt.hosts, 0)
			if err != nil {
				t.Fatalf("NewPattern: %v", err)
			}
			if got := p.Name(); got != "uniform" {
				t.Errorf("Name() = %q, want %q", got, "uniform")
			}
			rng := kernel.NewRNG(3, 1)
			counts := make([]int, tt.hosts)
			for i := range tt.draws {
				dst := p.Dest(i%tt.hosts, &rng)
				if dst < 0 || dst >= tt.hosts {
					t.Fatalf("Dest = %d, outside [0, %d)", dst, tt.hosts)
				}
				counts[dst]++
			}
			if tt.hosts == 1 {
				return
			}
			// Chi-square goodness of fit with hosts−1 degrees of freedom
			// (mean k, standard deviation √(2k)); the bound k + 10√(2k)
			// fails a correct generator with negligible probability.
			want := float64(tt.draws) / float64(tt.hosts)
			chi2 := 0.0
			for dst, c := range counts {
				if c == 0 {
					t.Fatalf("destination %d never drawn", dst)
				}
				d := float64(c) - want
				chi2 += d * d / want
			}
			k := float64(tt.hosts - 1)
			if bound := k + 10*math.Sqrt(2*k); chi2 > bound {
				t.Errorf("chi-square = %.1f over %d destinations, want ≤ %.1f", chi2, tt.hosts, bound)
			}
		})
	}
}

func TestUniformIncludesSource(t *testing.T) {
	p, err := NewPattern("uniform", 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	rng := kernel.NewRNG(5)
	for src := range 4 {
		self := false
		for range 1000 {
			if p.Dest(src, &rng) == src {
				self = true
				break
			}
		}
		if !self {
			t.Errorf("source %d never drew itself in 1000 draws over 4 hosts", src)
		}
	}
}

func TestUniformDeterministicPerSeed(t *testing.T) {
	p, err := NewPattern("uniform", 1000, 0)
	if err != nil {
		t.Fatal(err)
	}
	seq := func(seed uint64) []int {
		rng := kernel.NewRNG(seed, 9)
		out := make([]int, 200)
		for i := range out {
			out[i] = p.Dest(i%1000, &rng)
		}
		return out
	}
	if a, b := seq(1), seq(1); !slices.Equal(a, b) {
		t.Errorf("same seed gave different sequences:\n%v\n%v", a, b)
	}
	if a, b := seq(1), seq(2); slices.Equal(a, b) {
		t.Errorf("seeds 1 and 2 gave the same sequence %v", a)
	}
}

func TestNewPatternErrors(t *testing.T) {
	tests := []struct {
		name  string
		hosts int
		want  []string // substrings of the error message
	}{
		{"complement", 12, []string{`pattern "complement" needs a power-of-two host count, got 12 hosts`}},
		{"reverse", 12, []string{`"reverse"`, "power-of-two", "12 hosts"}},
		{"rotation", 12, []string{`"rotation"`, "power-of-two", "12 hosts"}},
		{"shuffle", 12, []string{`"shuffle"`, "power-of-two", "12 hosts"}},
		{"transpose", 12, []string{`"transpose"`, "power-of-two", "12 hosts"}},
		{"transpose", 1, []string{`"transpose"`, "at least 2", "got 1"}},
		{"complement", 0, []string{`"complement"`, "at least 1 host", "got 0"}},
		{"uniform", 0, []string{`"uniform"`, "at least 1 host", "got 0"}},
		{"uniform", -3, []string{`"uniform"`, "at least 1 host", "got -3"}},
		{"randperm", 0, []string{`"randperm"`, "at least 1 host"}},
		{"permutation", -1, []string{`"randperm"`, "at least 1 host"}},
		{"randperm", MaxHosts + 1, []string{`"randperm"`, "at most"}},
		{"complement", 2 * MaxHosts, []string{`"complement"`, "at most"}},
		{"tornado", 16, append([]string{`unknown pattern "tornado"`, "random_permutation"}, PatternNames()...)},
		{"Uniform", 16, []string{`unknown pattern "Uniform"`}},
		{"", 16, []string{`unknown pattern ""`}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%d", tt.name, tt.hosts), func(t *testing.T) {
			p, err := NewPattern(tt.name, tt.hosts, 0)
			if err == nil {
				t.Fatalf("NewPattern(%q, %d) = %v, want an error", tt.name, tt.hosts, p.Name())
			}
			if p != nil {
				t.Errorf("NewPattern returned a pattern %q alongside its error", p.Name())
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestPatternNames(t *testing.T) {
	names := PatternNames()
	want := []string{"uniform", "complement", "reverse", "rotation", "shuffle", "transpose", "randperm"}
	if !slices.Equal(names, want) {
		t.Fatalf("PatternNames() = %v, want %v", names, want)
	}
	for _, name := range names {
		p, err := NewPattern(name, 64, 0)
		if err != nil {
			t.Errorf("NewPattern(%q): %v", name, err)
			continue
		}
		if p.Name() != name {
			t.Errorf("NewPattern(%q).Name() = %q", name, p.Name())
		}
	}
	names[0] = "changed"
	if got := PatternNames()[0]; got != "uniform" {
		t.Errorf("PatternNames()[0] = %q after the caller modified a previous result", got)
	}
}

func TestDestDoesNotAllocate(t *testing.T) {
	for _, name := range PatternNames() {
		t.Run(name, func(t *testing.T) {
			p, err := NewPattern(name, 1024, 1)
			if err != nil {
				t.Fatal(err)
			}
			rng := kernel.NewRNG(1)
			src := 0
			allocs := testing.AllocsPerRun(1000, func() {
				src = p.Dest(src, &rng)
			})
			if allocs != 0 {
				t.Errorf("Dest allocates %v times per call, want 0", allocs)
			}
		})
	}
}

func BenchmarkDest(b *testing.B) {
	for _, name := range PatternNames() {
		b.Run(name, func(b *testing.B) {
			p, err := NewPattern(name, 1<<16, 1)
			if err != nil {
				b.Fatal(err)
			}
			rng := kernel.NewRNG(1)
			sum := 0
			for i := 0; b.Loop(); i++ {
				sum += p.Dest(i&(1<<16-1), &rng)
			}
			if sum < 0 {
				b.Fatal("negative destination")
			}
		})
	}
}

// TestRandom checks that only uniform draws its destinations at random.
func TestRandom(t *testing.T) {
	for _, name := range PatternNames() {
		p, err := NewPattern(name, 16, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := Random(p), name == "uniform"; got != want {
			t.Errorf("Random(%s) = %v, want %v", name, got, want)
		}
	}
}
