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
