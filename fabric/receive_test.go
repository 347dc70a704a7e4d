package fabric

import (
	"context"
	"testing"

	"netsim/nic"
)

// TestReceiveRate checks that a NIC slower than its link throttles the
// sender through flow control, under STOP/GO and credits: one pair alone
// gets the receive rate's share of the link, 512 flits each way in
// 512 / rate cycles plus the path latency, and every flit arrives.
func TestReceiveRate(t *testing.T) {
	cases := []struct {
		fc   string
		rate float64
	}{
		{"stopgo", 0}, {"stopgo", 1}, {"stopgo", 0.91}, {"stopgo", 0.5},
		{"credit", 0}, {"credit", 0.91}, {"credit", 0.5},
	}
	for _, tc := range cases {
		cfg := myrinetConfig(t, 16, 64, nic.Static)
		if tc.fc == "credit" {
			cfg.FlowControl, cfg.StopMark, cfg.GoMark = "credit", 0, 0
		}
		cfg.ReceiveRate = tc.rate
		st, err := RunExchange(context.Background(), cfg, onePair())
		if err != nil {
			t.Fatalf("%s %v: %v", tc.fc, tc.rate, err)
		}
		if len(st.PairBandwidth) != 1 || st.Packets != 64 || st.OutOfOrder != 0 {
			t.Fatalf("%s %v: got %+v, want one pair, 64 packets in order", tc.fc, tc.rate, st)
		}
		r := tc.rate
		if r == 0 {
			r = 1
		}
		if b := st.PairBandwidth[0]; b < r*512/540 || b > r {
			t.Errorf("%s receive rate %v: pair bandwidth %.4f, want in [%.4f, %v]", tc.fc, tc.rate, b, r*512/540, r)
		}
	}
}
