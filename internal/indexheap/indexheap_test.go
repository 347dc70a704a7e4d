package indexheap

import (
	"slices"
	"testing"

	"netsim/kernel"
)

// sorted returns the items of in by key, then index.
func sorted(key []int, in []int32) []int32 {
	out := slices.Clone(in)
	slices.SortFunc(out, func(a, b int32) int {
		if key[a] != key[b] {
			return key[a] - key[b]
		}
		return int(a - b)
	})
	return out
}

// TestHeap pushes items with random keys, raises and lowers some keys
// (Update, Fix), removes some, and checks that Pop returns the rest by
// (key, index), each once, and that pos follows every move.
func TestHeap(t *testing.T) {
	for _, n := range []int{1, 2, 7, 100, 1000} {
		rng := kernel.NewRNG(uint64(n), 0)
		key := make([]int, n)
		pos := slices.Repeat([]int32{-1}, n)
		h := New(key, pos, Ascending)
		in := map[int32]bool{}
		for range 2 * n {
			v := int32(rng.IntN(n))
			switch r := rng.IntN(4); {
			case !in[v]:
				key[v] = rng.IntN(20)
				h.Update(v)
				in[v] = true
			case r == 0:
				h.Remove(v)
				delete(in, v)
			default:
				key[v] += rng.IntN(11) - 5
				h.Fix(v)
			}
			for i, u := range h.Items() {
				if pos[u] != int32(i) {
					t.Fatalf("n=%d: pos[%d] = %d, at %d", n, u, pos[u], i)
				}
			}
		}
		var want []int32
		for v := range in {
			want = append(want, v)
		}
		want = sorted(key, want)
		if h.Len() != len(want) {
			t.Fatalf("n=%d: Len %d, want %d", n, h.Len(), len(want))
		}
		if len(want) > 0 && h.Top() != want[0] {
			t.Errorf("n=%d: Top %d, want %d", n, h.Top(), want[0])
		}
		var got []int32
		for h.Len() > 0 {
			got = append(got, h.Pop())
		}
		if !slices.Equal(got, want) {
			t.Errorf("n=%d: popped %v, want %v", n, got, want)
		}
		if h.Top() != -1 {
			t.Errorf("n=%d: Top of an empty heap = %d, want -1", n, h.Top())
		}
		for v, p := range pos {
			if p != -1 {
				t.Fatalf("n=%d: pos[%d] = %d after popping all", n, v, p)
			}
		}
	}
}

// TestSharedPos: two heaps share pos, as the two sides of a bisection do;
// Clear empties one and resets only its items' positions.
func TestSharedPos(t *testing.T) {
	key := []int{5, 3, 8, 1, 9, 3}
	pos := slices.Repeat([]int32{-1}, len(key))
	a, b := New(key, pos, Descending), New(key, pos, Descending)
	for v := range int32(len(key)) {
		if v%2 == 0 {
			a.Push(v)
		} else {
			b.Push(v)
		}
	}
	if a.Top() != 4 || b.Top() != 1 {
		t.Fatalf("tops %d, %d; want 4 (key 9), 1 (key 3)", a.Top(), b.Top())
	}
	a.Clear()
	for v, p := range pos {
		if in := p >= 0; in != (v%2 == 1) {
			t.Errorf("after clearing a: pos[%d] = %d", v, p)
		}
	}
	// Items 1 and 5 tie at 3: the lesser item comes first.
	if got := []int32{b.Pop(), b.Pop(), b.Pop()}; !slices.Equal(got, []int32{1, 5, 3}) {
		t.Errorf("b popped %v, want [1 5 3]", got)
	}
}
