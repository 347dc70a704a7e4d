package congestion

import (
	"fmt"
	"slices"
	"testing"

	"netsim/kernel"
)

// format writes levels as "0>1 2>3 | 1>0" for compact expectations.
func format(levels []Level) string {
	s := ""
	for i, lv := range levels {
		if i > 0 {
			s += " |"
		}
		for j, p := range lv {
			if i > 0 || j > 0 {
				s += " "
			}
			s += fmt.Sprintf("%d>%d", p.Src, p.Dst)
		}
	}
	return s
}

func TestGenerateExact(t *testing.T) {
	tests := []struct {
		name string
		n    int
		want string
	}{
		{"null", 4, ""},
		{"bisect", 5, "1>0 3>2"},
		{"bisect_fb_sym", 4, "1>0 3>2 0>1 2>3"},
		// Seed 003 Figure 6: [{(0,1)}, {(0,2),(1,3)}, {(0,4),(1,5),(2,6),(3,7)}].
		{"tree", 8, "0>1 | 0>2 1>3 | 0>4 1>5 2>6 3>7"},
		{"tree", 6, "0>1 | 0>2 1>3 | 0>4 1>5"},
		{"bruck", 4, "0>1 1>2 2>3 3>0 | 0>2 1>3 2>0 3>1"},
		{"gather", 4, "1>0 2>0 3>0"},
		{"scatter", 3, "0>1 0>2"},
		{"ring", 3, "0>1 | 1>2 | 2>0"},
		// Seed 003 Figure 2 (recursive doubling on 8): pairs at distance 1, 2, 4.
		{"recdbl", 8, "0>1 1>0 2>3 3>2 4>5 5>4 6>7 7>6 | 0>2 2>0 1>3 3>1 4>6 6>4 5>7 7>5 | 0>4 4>0 1>5 5>1 2>6 6>2 3>7 7>3"},
		{"recdbl", 5, "0>1 1>0 2>3 3>2 | 0>2 2>0 1>3 3>1 | 0>4 4>0"},
		// The greedy rule of the seed closes triangles: 0–1, 0–2, 1–2, then 3–4.
		{"2neighbor", 5, "0>1 1>0 0>2 2>0 1>2 2>1 3>4 4>3"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%d", tt.name, tt.n), func(t *testing.T) {
			got, err := Generate(tt.name, tt.n, nil)
			if err != nil {
				t.Fatal(err)
			}
			if s := format(got); s != tt.want {
				t.Errorf("got  %s\nwant %s", s, tt.want)
			}
		})
	}
}

func TestNeighborDegrees(t *testing.T) {
	for _, x := range []int{2, 4, 6} {
		lv := neighbors(64, x)
		deg := make([]int, 64)
		for _, p := range lv {
			deg[p.Src]++
		}
		full := 0
		for _, d := range deg {
			if d > x {
				t.Fatalf("%dneighbor: degree %d > %d", x, d, x)
			}
			if d == x {
				full++
			}
		}
		if full < 64-x {
			t.Errorf("%dneighbor: only %d of 64 ranks have %d neighbours", x, full, x)
		}
	}
}

func TestRandIsPermutation(t *testing.T) {
	rng := kernel.NewRNG(7)
	lv, err := Generate("rand", 100, &rng)
	if err != nil {
		t.Fatal(err)
	}
	var dsts []int32
	for i, p := range lv[0] {
		if int(p.Src) != i {
			t.Fatalf("stream %d from %d", i, p.Src)
		}
		dsts = append(dsts, p.Dst)
	}
	slices.Sort(dsts)
	for i, d := range dsts {
		if int(d) != i {
			t.Fatalf("destinations are not a permutation: %v", dsts)
		}
	}
}

func TestMerge(t *testing.T) {
	// Seed 003 §2.5: scatter on 4 and bisect on 4 give (0,1),(0,2),(0,3),(4,5),(6,7)
	// (our bisect sends 2i+1 → 2i).
	a, _ := Generate("scatter", 4, nil)
	b, _ := Generate("bisect", 4, nil)
	if got, want := format(Merge(a, b, 4)), "0>1 0>2 0>3 5>4 7>6"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	c, _ := Generate("ring", 2, nil)
	if got, want := format(Merge(c, b, 2)), "0>1 3>2 5>4 | 1>0"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestGenerateUnknown(t *testing.T) {
	if _, err := Generate("alltoall", 4, nil); err == nil {
		t.Error("unknown pattern accepted")
	}
}
