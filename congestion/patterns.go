package congestion

import (
	"fmt"
	"slices"

	"netsim/kernel"
	"netsim/keyerr"
)

// Pair is one stream of a pattern, between ranks of the communicator.
type Pair struct{ Src, Dst int32 }

// Level is the set of streams of one level: they run at the same time; the
// levels of a pattern run one after another.
type Level []Pair

// PatternNames lists the patterns of seed 003 §2.4.
func PatternNames() []string {
	return []string{"rand", "null", "bisect", "bisect_fb_sym", "tree", "bruck", "gather", "scatter",
		"ring", "recdbl", "2neighbor", "4neighbor", "6neighbor", "ptrnvsptrn"}
}

// ceilLog2 returns ⌈log₂ n⌉ (0 for n ≤ 1).
func ceilLog2(n int) int {
	l := 0
	for 1<<l < n {
		l++
	}
	return l
}

// Generate returns the levels of pattern name on n ranks (seed 003 §2.4).
// rng draws the permutation of rand (the only random pattern). ptrnvsptrn
// is built by Merge, not here.
//
//	rand           one level, i → σ(i) for a random permutation σ
//	null           one empty level
//	bisect         one level, 2i+1 → 2i for i < ⌊n/2⌋
//	bisect_fb_sym  bisect and its reverse, in one level
//	tree           level l < ⌈log₂n⌉: i → i+2^l for i < 2^l, i+2^l < n (binomial tree)
//	bruck          level l < ⌈log₂n⌉: i → (i+2^l) mod n for every i
//	gather         one level, i → 0 for i ≥ 1;  scatter: 0 → i
//	ring           level j < n: j → (j+1) mod n
//	recdbl         level l < ⌈log₂n⌉: k ↔ k+2^l when ⌊k/2^l⌋ is even and k+2^l < n
//	               (the seed writes ⌈k/2^l⌉; the floor matches its Figure 2)
//	Xneighbor      one level; greedily, rank i links to the next ranks with
//	               fewer than X neighbours until it has X; each link carries a
//	               stream each way (X = 2, 4, 6)
func Generate(name string, n int, rng *kernel.RNG) ([]Level, error) {
	if n < 0 {
		return nil, fmt.Errorf("pattern %s: negative communicator size %d", name, n)
	}
	var levels []Level
	switch name {
	case "rand":
		perm := make([]int32, n)
		for i := range perm {
			perm[i] = int32(i)
		}
		for i := n - 1; i > 0; i-- {
			j := rng.IntN(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
		var lv Level
		for i, d := range perm {
			lv = append(lv, Pair{int32(i), d})
		}
		levels = append(levels, lv)
	case "null":
		levels = append(levels, Level{})
	case "bisect", "bisect_fb_sym":
		var lv Level
		for i := range n / 2 {
			lv = append(lv, Pair{int32(2*i + 1), int32(2 * i)})
		}
		if name == "bisect_fb_sym" {
			for i := range n / 2 {
				lv = append(lv, Pair{int32(2 * i), int32(2*i + 1)})
			}
		}
		levels = append(levels, lv)
	case "tree":
		for l := range ceilLog2(n) {
			var lv Level
			for i := 0; i < 1<<l && i+1<<l < n; i++ {
				lv = append(lv, Pair{int32(i), int32(i + 1<<l)})
			}
			levels = append(levels, lv)
		}
	case "bruck":
		for l := range ceilLog2(n) {
			lv := make(Level, n)
			for i := range n {
				lv[i] = Pair{int32(i), int32((i + 1<<l) % n)}
			}
			levels = append(levels, lv)
		}
	case "gather", "scatter":
		var lv Level
		for i := 1; i < n; i++ {
			if name == "gather" {
				lv = append(lv, Pair{int32(i), 0})
			} else {
				lv = append(lv, Pair{0, int32(i)})
			}
		}
		levels = append(levels, lv)
	case "ring":
		for j := range n {
			levels = append(levels, Level{{int32(j), int32((j + 1) % n)}})
		}
	case "recdbl":
		for l := range ceilLog2(n) {
			var lv Level
			d := 1 << l
			for k := 0; k+d < n; k++ {
				if (k/d)%2 == 0 {
					lv = append(lv, Pair{int32(k), int32(k + d)}, Pair{int32(k + d), int32(k)})
				}
			}
			levels = append(levels, lv)
		}
	case "2neighbor", "4neighbor", "6neighbor":
		levels = append(levels, neighbors(n, int(name[0]-'0')))
	default:
		return nil, keyerr.New("pattern", "unknown %q (expected one of %v)", name, PatternNames())
	}
	return levels, nil
}

// neighbors returns the greedy X-neighbour level of seed 003 on n ranks.
func neighbors(n, x int) Level {
	deg := make([]int, n)
	var lv Level
	for i := range n {
		for j := i + 1; j < n && deg[i] < x; j++ {
			if deg[j] < x {
				deg[i]++
				deg[j]++
				lv = append(lv, Pair{int32(i), int32(j)}, Pair{int32(j), int32(i)})
			}
		}
	}
	return lv
}

// Merge returns ptrnvsptrn: the levels of first (on ranks 0..offset−1)
// merged level by level with those of second shifted by offset, so level k
// holds the k-th level of both. A stream belongs to the first pattern iff
// its source rank is below offset.
func Merge(first, second []Level, offset int) []Level {
	out := make([]Level, max(len(first), len(second)))
	for k := range out {
		if k < len(first) {
			out[k] = slices.Clone(first[k])
		}
		if k < len(second) {
			for _, p := range second[k] {
				out[k] = append(out[k], Pair{p.Src + int32(offset), p.Dst + int32(offset)})
			}
		}
	}
	return out
}

// MinRanks returns the smallest communicator a pattern is defined on.
func MinRanks(name string) int {
	switch name {
	case "null":
		return 0
	case "rand":
		return 1
	default:
		return 2
	}
}
