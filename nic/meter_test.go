package nic

import (
	"testing"

	"netsim/flit"
)

func TestLatencyQuantile(t *testing.T) {
	m := &Meter{From: 0, To: 1000}
	// 150 measured packets with latencies 1..150.
	for lat := 1; lat <= 150; lat++ {
		p := &flit.Packet{Created: 0, Measured: true}
		m.delivered(p, int64(lat))
	}
	for _, c := range []struct {
		q    float64
		want float64
	}{{0.5, 75}, {0.99, 149}, {1, 150}, {0.001, 1}} {
		if got := m.LatencyQuantile(c.q); got != c.want {
			t.Errorf("quantile %v = %v, want %v (nearest rank)", c.q, got, c.want)
		}
	}
	if got := m.LatencyAvg(); got != 75.5 {
		t.Errorf("average %v, want 75.5", got)
	}
}

// TestEjectedSplitsRunsAtWindow: a run's flits count in the measurement
// window [100, 200) exactly when each arrives in it.
func TestEjectedSplitsRunsAtWindow(t *testing.T) {
	for _, c := range []struct {
		at       int64
		k        int
		inWindow int64
		whole    int64
	}{
		{80, 10, 0, 10},   // 80..89: before
		{95, 10, 5, 10},   // 95..104: the last 5
		{100, 16, 16, 16}, // inside
		{195, 10, 5, 10},  // 195..204: the first 5
		{90, 200, 100, 200},
		{200, 3, 0, 3}, // the window's end is excluded
		{99, 1, 0, 1},
	} {
		m := &Meter{From: 100, To: 200}
		m.ejected(c.at, c.k)
		if m.EjectedFlits != c.inWindow || m.Ejected != c.whole {
			t.Errorf("run of %d from %d: %d in the window of %d, want %d of %d", c.k, c.at, m.EjectedFlits, m.Ejected, c.inWindow, c.whole)
		}
	}
}
