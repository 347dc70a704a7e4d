package traffic

import (
	"math"
	"testing"

	"netsim/kernel"
)

// TestRestrict checks uniform and a permutation restricted to the pairs a
// routing connects: 16 hosts in 4 classes of 4 (switches); class c reaches
// the hosts of classes c and c+1 mod 4 (half the hosts: drawn by
// rejection), class 3 only hosts 12, 13 and 0 (fewer than a quarter:
// drawn from a list).
func TestRestrict(t *testing.T) {
	class := make([]int32, 16)
	for h := range class {
		class[h] = int32(h / 4)
	}
	reach := func(c int32, d int) bool {
		dc := int32(d / 4)
		if c == 3 {
			return d == 12 || d == 13 || d == 0
		}
		return dc == c || dc == (c+1)%4
	}
	u, err := NewPattern("uniform", 16, 1)
	if err != nil {
		t.Fatal(err)
	}
	ru, active := Restrict(u, class, reach)
	if !Random(ru) || ru.Name() != "uniform" {
		t.Errorf("restricted uniform: Random %v, name %q", Random(ru), ru.Name())
	}
	if l := ru.(*reachableUniform).lists; l[3] == nil || l[0] != nil {
		t.Errorf("class 3 should draw from a list, class 0 by rejection: lists %v", l)
	}
	rng := kernel.NewRNG(7, 0, 0)
	for src := range 16 {
		if !active[src] {
			t.Errorf("uniform: source %d inactive", src)
		}
		count := make([]int, 16)
		const draws = 20000
		for range draws {
			d := ru.Dest(src, &rng)
			if !reach(class[src], d) {
				t.Fatalf("uniform: %d → %d is unreachable", src, d)
			}
			count[d]++
		}
		// Uniform over the reachable ones: 8 destinations (3 for class 3).
		n := 8.0
		if class[src] == 3 {
			n = 3
		}
		for d, c := range count {
			if !reach(class[src], d) {
				continue
			}
			want := draws / n
			if math.Abs(float64(c)-want) > 5*math.Sqrt(want) {
				t.Errorf("uniform from %d: %d draws of %d, want about %.0f", src, c, d, want)
			}
		}
	}
	// complement: s → 15 − s; class 0 (0..3) → 12..15 (class 3): unreachable.
	comp, err := NewPattern("complement", 16, 1)
	if err != nil {
		t.Fatal(err)
	}
	rc, active := Restrict(comp, class, reach)
	for src, a := range active {
		if want := reach(class[src], 15-src); a != want {
			t.Errorf("complement: source %d active %v, want %v", src, a, want)
		}
		if a && rc.Dest(src, nil) != 15-src {
			t.Errorf("complement: %d → %d", src, rc.Dest(src, nil))
		}
	}
	if active[0] || !active[15] || !active[4] || active[14] {
		t.Errorf("complement: 0 → 15 and 14 → 1 must sit out, 15 → 0 and 4 → 11 must send (active %v)", active)
	}
}
