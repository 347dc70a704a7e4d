package congestion

import (
	"context"
	"testing"

	"netsim/topologies"
)

// clos4096 returns the 4,096-host two-level Clos of 128-port crossbars
// (64 leaves, 32 spines) routed by d-mod-k over distance's candidates.
func clos4096(b *testing.B) *Paths {
	net, err := topologies.Clos(128, 4096, "")
	if err != nil {
		b.Fatal(err)
	}
	return extract(b, net, "distance", PolicyDest)
}

// BenchmarkExtract4096 measures path extraction of all 4096·4095 pairs.
func BenchmarkExtract4096(b *testing.B) {
	for b.Loop() {
		clos4096(b)
	}
}

// BenchmarkBisect4096 measures 1,000 random bisections of 4,096 hosts on 2
// workers (one op = 1,000 runs).
func BenchmarkBisect4096(b *testing.B) {
	p := clos4096(b)
	s := spec("bisect")
	s.Runs = 1000
	s.Metrics = []string{HistAccBand}
	for b.Loop() {
		if _, err := Run(context.Background(), p, s, "bisect", 2); err != nil {
			b.Fatal(err)
		}
	}
}
