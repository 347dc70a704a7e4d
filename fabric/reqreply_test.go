package fabric

import (
	"context"
	"math"
	"testing"

	"netsim/topologies"
)

// TestRequestReplyConserves: request–reply traffic delivers every request
// and every reply, and measures round trips no shorter than two trips
// across the network.
func TestRequestReplyConserves(t *testing.T) {
	cfg := testConfig(t, topologies.Spec{Kind: "fattree", K: 4, N: 2}, "dmodk", "uniform", 1)
	cfg.Outstanding, cfg.ReplyFlits = 4, 1
	cfg.Load = 0.2
	st, err := RunFlushed(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if math.IsNaN(st.RTTAvg) || st.RTTAvg < 2*float64(cfg.PacketFlits) {
		t.Errorf("average round trip %.1f cycles, want at least %d", st.RTTAvg, 2*cfg.PacketFlits)
	}
	// Requests of 4 flits and replies of 1: accepted is 5/4 of offered.
	if got := st.Accepted / st.Generated; math.Abs(got-1) > 0.05 {
		t.Errorf("accepted %.4f against generated %.4f", st.Accepted, st.Generated)
	}
	if r := st.Generated / cfg.Load; math.Abs(r-1.25) > 0.08 {
		t.Errorf("generated %.4f at offered %.2f: ratio %.3f, want about 1.25 (requests and their replies)", st.Generated, cfg.Load, r)
	}
	t.Logf("round trip %.1f cycles, generated %.4f, accepted %.4f", st.RTTAvg, st.Generated, st.Accepted)
}

// TestRequestReplyLittle: offered more requests than the loop sustains,
// a host keeps its outstanding requests in flight all the time, so by
// Little's law it completes outstanding / round trip requests a cycle;
// the rest wait in its source queue, which grows.
func TestRequestReplyLittle(t *testing.T) {
	for _, out := range []int{1, 2, 4} {
		cfg := testConfig(t, topologies.Spec{Kind: "fattree", K: 4, N: 2}, "dmodk", "uniform", 1)
		cfg.Outstanding, cfg.ReplyFlits = out, 2
		cfg.Load = 0.9
		cfg.Drain = 0
		st, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		perReq := float64(cfg.PacketFlits + cfg.ReplyFlits)
		rate := st.Accepted / perReq // requests answered per host per cycle
		inFlight := rate * st.RTTAvg
		t.Logf("outstanding %d: round trip %.1f, %.4f requests/host/cycle, in flight %.2f, queue %d → %d flits",
			out, st.RTTAvg, rate, inFlight, st.QueueStart, st.QueueEnd)
		if math.Abs(inFlight-float64(out))/float64(out) > 0.1 {
			t.Errorf("outstanding %d: %.2f requests in flight by Little's law", out, inFlight)
		}
		if st.QueueEnd <= st.QueueStart {
			t.Errorf("outstanding %d: source queues did not grow (%d → %d flits)", out, st.QueueStart, st.QueueEnd)
		}
	}
}
