package topologies

import "testing"

func TestPrimePower(t *testing.T) {
	tests := []struct{ q, p, k int }{{2, 2, 1}, {3, 3, 1}, {4, 2, 2}, {8, 2, 3}, {9, 3, 2}, {25, 5, 2}, {27, 3, 3}, {49, 7, 2}, {97, 97, 1}, {256, 2, 8}, {343, 7, 3}}
	for _, tc := range tests {
		if p, k, ok := primePower(tc.q); !ok || p != tc.p || k != tc.k {
			t.Errorf("primePower(%d) = %d, %d, %v; want %d, %d", tc.q, p, k, ok, tc.p, tc.k)
		}
	}
	for _, q := range []int{-4, 0, 1, 6, 12, 18, 100, 360} {
		if p, k, ok := primePower(q); ok {
			t.Errorf("primePower(%d) = %d^%d, want not a prime power", q, p, k)
		}
	}
}

// TestFieldAxioms checks that the tables form a field: addition and
// multiplication are associative and commutative with identities 0 and 1,
// multiplication distributes over addition, every element has a negative
// and every non-zero one an inverse, and ξ has order q − 1.
func TestFieldAxioms(t *testing.T) {
	for _, q := range []int{2, 3, 4, 5, 7, 8, 9, 16, 25, 27} {
		f, err := newField(q)
		if err != nil {
			t.Fatal(err)
		}
		seen := make(map[int]bool)
		for i := range q - 1 {
			seen[f.power(i)] = true
		}
		if len(seen) != q-1 || seen[0] {
			t.Fatalf("q=%d: powers of ξ give %d distinct non-zero elements, want %d", q, len(seen), q-1)
		}
		for a := range q {
			if f.plus(a, 0) != a || f.times(a, 1) != a || f.times(a, 0) != 0 || f.plus(a, int(f.neg[a])) != 0 {
				t.Fatalf("q=%d: identities fail for %d", q, a)
			}
			inv := false
			for b := range q {
				if f.plus(a, b) != f.plus(b, a) || f.times(a, b) != f.times(b, a) {
					t.Fatalf("q=%d: not commutative at %d, %d", q, a, b)
				}
				if f.minus(f.plus(a, b), b) != a {
					t.Fatalf("q=%d: (%d + %d) − %d ≠ %d", q, a, b, b, a)
				}
				inv = inv || f.times(a, b) == 1
				for c := range q {
					if f.plus(f.plus(a, b), c) != f.plus(a, f.plus(b, c)) ||
						f.times(f.times(a, b), c) != f.times(a, f.times(b, c)) ||
						f.times(a, f.plus(b, c)) != f.plus(f.times(a, b), f.times(a, c)) {
						t.Fatalf("q=%d: associativity or distributivity fails at %d, %d, %d", q, a, b, c)
					}
				}
			}
			if a != 0 && !inv {
				t.Fatalf("q=%d: %d has no inverse", q, a)
			}
		}
	}
	// A prime field is the integers mod p.
	f, err := newField(7)
	if err != nil {
		t.Fatal(err)
	}
	if f.plus(5, 4) != 2 || f.times(3, 5) != 1 || f.minus(2, 6) != 3 {
		t.Errorf("GF(7): 5+4 = %d, 3·5 = %d, 2−6 = %d; want 2, 1, 3", f.plus(5, 4), f.times(3, 5), f.minus(2, 6))
	}
	if _, err := newField(6); err == nil {
		t.Error("newField(6) succeeded")
	}
}
