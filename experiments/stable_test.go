package experiments

import (
	"testing"

	"netsim/fabric"
	"netsim/results"
)

func TestStable(t *testing.T) {
	// 10 hosts, 1000 cycles, load 0.5, tol 0.02: the queues may grow by
	// 0.02·0.5·1000·10 = 100 flits, and accepted must reach 0.49.
	tests := []struct {
		name                 string
		generated, accepted  float64
		queueStart, queueEnd int64
		want                 bool
	}{
		{"exact", 0.5, 0.5, 0, 0, true},
		{"at accepted bound", 0.5, 0.49, 0, 0, true},
		{"below accepted bound", 0.5, 0.4899, 0, 0, false},
		// The hosts happened to offer less than the nominal load: accepted
		// is judged against what they offered.
		{"sampling below nominal", 0.45, 0.45, 0, 0, true},
		{"sampling above nominal", 0.55, 0.5, 0, 0, false},
		{"queues at growth bound", 0.5, 0.5, 50, 150, true},
		{"queues growing", 0.5, 0.5, 50, 151, false},
		{"queues shrinking", 0.5, 0.5, 500, 10, true},
		{"accepted above offered", 0.5, 0.6, 0, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := fabric.Stats{Offered: 0.5, Measures: results.Measures{Generated: tc.generated, Accepted: tc.accepted}, QueueStart: tc.queueStart, QueueEnd: tc.queueEnd}
			if got := Stable(s, 0.02, 1000, 10); got != tc.want {
				t.Errorf("Stable = %v, want %v", got, tc.want)
			}
		})
	}
}
