package fabric

import (
	"context"
	"testing"
	"time"

	"netsim/topologies"
)

func TestSmoke(t *testing.T) {
	for _, vls := range []int{1, 2, 8} {
		for _, load := range []float64{0.5, 0.6, 0.7, 0.8} {
			cfg := testConfig(t, topologies.Spec{Kind: "flatfly", Dims: []int{8, 8}, HostsPerSwitch: 8}, "dor", "uniform", vls)
			cfg.Load = load
			cfg.PacketFlits = 16
			cfg.BufferFlits = 64
			cfg.Warmup, cfg.Measure = 2000, 10000
			t0 := time.Now()
			st, err := Run(context.Background(), cfg)
			el := time.Since(t0)
			t.Logf("vls %d load %.2f: gen %.3f acc %.3f lat %.1f p99 %.0f hops %.2f q %d→%d events %d fh/s %.1fM err %v", vls, load, st.Generated, st.Accepted, st.LatencyAvg, st.LatencyP99, st.HopsAvg, st.QueueStart, st.QueueEnd, st.Events, float64(st.FlitHops)/el.Seconds()/1e6, err)
		}
	}
}
