package traffic

import (
	"testing"

	"netsim/kernel"
)

func TestRandomBisection(t *testing.T) {
	for _, hosts := range []int{2, 7, 64} {
		rng := kernel.NewRNG(5, uint64(hosts))
		p, err := RandomBisection(hosts, &rng)
		if err != nil {
			t.Fatal(err)
		}
		idle := 0
		for h, q := range p {
			if q < 0 {
				idle++
				continue
			}
			if q == h || p[q] != h {
				t.Fatalf("%d hosts: %d ↔ %d is not mutual: %v", hosts, h, q, p)
			}
		}
		if idle != hosts%2 {
			t.Errorf("%d hosts: %d idle, want %d", hosts, idle, hosts%2)
		}
	}
	// Patterns differ with the stream, and are reproducible.
	a, b, c := kernel.NewRNG(1), kernel.NewRNG(2), kernel.NewRNG(1)
	pa, _ := RandomBisection(64, &a)
	pb, _ := RandomBisection(64, &b)
	pc, _ := RandomBisection(64, &c)
	same, repeat := 0, true
	for i := range pa {
		if pa[i] == pb[i] {
			same++
		}
		repeat = repeat && pa[i] == pc[i]
	}
	if same > 8 || !repeat {
		t.Errorf("streams 1 and 2 share %d partners (want few); same stream repeats: %v", same, repeat)
	}
	if _, err := RandomBisection(1, &a); err == nil {
		t.Error("1 host: no error")
	}
}

func TestBridge(t *testing.T) {
	p, err := Bridge(40, 8)
	if err != nil {
		t.Fatal(err)
	}
	for h, q := range p {
		want := h + 8
		switch {
		case h >= 32:
			want = -1 // the fifth leaf has no partner leaf
		case h/8%2 == 1:
			want = h - 8
		}
		if q != want {
			t.Fatalf("partner of %d = %d, want %d", h, q, want)
		}
	}
	if _, err := Bridge(8, 8); err == nil {
		t.Error("one leaf: no error")
	}
}
