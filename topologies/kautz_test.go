package topologies

import "testing"

func TestKautzStructure(t *testing.T) {
	for _, tc := range []struct{ b, n, c int }{{2, 1, 1}, {3, 1, 2}, {2, 2, 1}, {2, 3, 2}, {3, 3, 1}, {4, 2, 3}, {2, 6, 1}} {
		net, err := Kautz(tc.b, tc.n, tc.c)
		if err != nil {
			t.Fatal(err)
		}
		if err := net.Validate(); err != nil {
			t.Fatal(err)
		}
		b, n := tc.b, tc.n
		switches := b + 1
		for range n - 1 {
			switches *= b
		}
		if net.Kind != "kautz" || len(net.Switches) != switches {
			t.Fatalf("K(%d,%d): kind %q, %d switches, want %d", b, n, net.Kind, len(net.Switches), switches)
		}
		checkHosts(t, net, tc.c)
		// The words, all distinct and Kautz words.
		index := make(map[string]int)
		for s, sw := range net.Switches {
			w := sw.Coord
			if len(w) != n {
				t.Fatalf("K(%d,%d): switch %d word %v", b, n, s, w)
			}
			for i, x := range w {
				if x < 0 || int(x) > b || i > 0 && w[i-1] == x {
					t.Fatalf("K(%d,%d): switch %d word %v is not a Kautz word", b, n, s, w)
				}
			}
			index[string(rune(s))] = s
			key := ""
			for _, x := range w {
				key += string(rune('a' + x))
			}
			if _, dup := index[key]; dup {
				t.Fatalf("K(%d,%d): word %v twice", b, n, w)
			}
			index[key] = s
		}
		// Every arc is a link, and the links are exactly the arcs' pairs.
		arcs := make(map[[2]int]bool)
		for s, sw := range net.Switches {
			for x := range b + 1 {
				if int32(x) == sw.Coord[n-1] {
					continue
				}
				key := ""
				for _, y := range sw.Coord[1:] {
					key += string(rune('a' + y))
				}
				key += string(rune('a' + x))
				v := index[key]
				arcs[[2]int{min(s, v), max(s, v)}] = true
			}
		}
		if got := net.Links(); got != len(arcs) {
			t.Errorf("K(%d,%d): %d links, want %d (one per adjacent pair)", b, n, got, len(arcs))
		}
		deficient := 0
		for s, sw := range net.Switches {
			peers := make(map[int32]bool)
			for _, p := range sw.Ports[tc.c:] {
				if p.Kind != SwitchPort || int(p.Peer) == s || peers[p.Peer] || !arcs[[2]int{min(s, int(p.Peer)), max(s, int(p.Peer))}] {
					t.Fatalf("K(%d,%d): switch %d port %+v is a self-loop, a duplicate or not an arc", b, n, s, p)
				}
				peers[p.Peer] = true
			}
			switch d := len(peers); {
			case n == 1 && d == b, n > 1 && d == 2*b:
			case n > 1 && d == 2*b-1:
				deficient++
			default:
				t.Fatalf("K(%d,%d): switch %d has %d links", b, n, s, d)
			}
		}
		if n > 1 && deficient != (b+1)*b {
			t.Errorf("K(%d,%d): %d switches with 2b−1 links, want the %d alternating words", b, n, deficient, (b+1)*b)
		}
		if d := diameter(t, net); d < 1 || d > n {
			t.Errorf("K(%d,%d): diameter %d, want 1..%d", b, n, d, n)
		}
	}
}
