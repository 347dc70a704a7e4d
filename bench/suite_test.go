package bench

import (
	"context"
	"testing"
)

// TestSuite: the cases have distinct names, and each builds and runs as
// netsim bench runs it (shortened), on the hosts its description names.
func TestSuite(t *testing.T) {
	hosts := map[string]int{"torus-8x8-1flit": 64, "flatfly-8x8-c8-1flit": 512, "flatfly-16x16-c16": 4096,
		"seed004-flatfly": 16384, "seed004-dragonfly": 16384}
	seen := map[string]bool{}
	for _, c := range Suite() {
		if seen[c.Name] {
			t.Errorf("case %s twice", c.Name)
		}
		seen[c.Name] = true
		if got, ok := Lookup(c.Name); !ok || got.Name != c.Name {
			t.Errorf("Lookup(%s) = %v, %v", c.Name, got.Name, ok)
		}
		p, err := Run(context.Background(), c, 10/float64(c.Cycles), 1)
		if err != nil {
			t.Fatal(err)
		}
		if p.Hosts != hosts[c.Name] || p.Cycles != 10 || p.FlitHops <= 0 || !(p.CPU > 0) || p.Threads != 1 {
			t.Errorf("%s: %+v, want %d hosts over 10 cycles on 1 thread", c.Name, p, hosts[c.Name])
		}
		p2, err := Run(context.Background(), c, 10/float64(c.Cycles), 2)
		if err != nil {
			t.Fatal(err)
		}
		if p2.Threads != 2 || p2.FlitHops != p.FlitHops || p2.Cycles != p.Cycles {
			t.Errorf("%s on 2 threads: %+v, want the flit-hops and cycles of one, %+v", c.Name, p2, p)
		}
	}
	if len(seen) != len(hosts) {
		t.Errorf("%d cases, want %d", len(seen), len(hosts))
	}
}

// BenchmarkSuite runs each case at scale 1 (one point per iteration) and
// reports flit-hops per second and nanoseconds per flit-hop, for profiling
// a case with go test's -cpuprofile and -memprofile:
//
//	go test -run '^$' -bench 'Suite/flatfly-8x8-c8-1flit$' -benchtime 1x -cpuprofile cpu.out ./bench
func BenchmarkSuite(b *testing.B) {
	for _, c := range Suite() {
		b.Run(c.Name, func(b *testing.B) {
			var hops int64
			var wall float64 // of the simulations, their builds left out
			for b.Loop() {
				p, err := Run(context.Background(), c, 1, 1)
				if err != nil {
					b.Fatal(err)
				}
				hops += p.FlitHops
				wall += p.Wall
			}
			b.ReportMetric(float64(hops)/wall, "flit-hops/s")
			b.ReportMetric(wall*1e9/float64(hops), "ns/flit-hop")
		})
	}
}
