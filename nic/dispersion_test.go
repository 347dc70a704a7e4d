package nic

import (
	"strings"
	"testing"
	"unsafe"

	"netsim/flit"
)

func TestParseMode(t *testing.T) {
	for _, m := range []Mode{Static, Random, Adaptive, Probing} {
		got, err := ParseMode(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v", m.String(), got, err)
		}
	}
	if _, err := ParseMode("probe"); err == nil || !strings.Contains(err.Error(), "known: static, random, adaptive, probing") {
		t.Errorf("ParseMode(probe): %v", err)
	}
}

func TestDispersionValidate(t *testing.T) {
	cases := []struct {
		d    Dispersion
		want string
	}{
		{Dispersion{Mode: Adaptive, Threshold: 4, Probability: 0.5}, ""},
		{Dispersion{Threshold: -1}, "threshold:"},
		{Dispersion{Probability: 1.5}, "probability:"},
		{Dispersion{Mode: Probing, Probability: 1}, "max_probes:"},
		{Dispersion{Mode: Probing, Probability: 1, MaxProbes: 8}, ""},
		{Dispersion{Mode: Adaptive, Lag: -1}, "route_lag:"},
		{Dispersion{Mode: Adaptive, Lag: MaxLag + 1}, "route_lag:"},
		{Dispersion{Mode: Adaptive, Lag: MaxLag}, ""},
	}
	for _, tc := range cases {
		err := tc.d.Validate()
		if (err == nil) != (tc.want == "") || (err != nil && !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("%+v: %v, want %q", tc.d, err, tc.want)
		}
	}
}

// TestPacketSize keeps the packet record at 40 bytes: the route travels
// in the DLID, the sequence number in padding, and the wait at the source
// in the room 16-bit flit counts leave.
func TestPacketSize(t *testing.T) {
	if n := unsafe.Sizeof(flit.Packet{}); n != 40 {
		t.Errorf("flit.Packet is %d bytes, want 40", n)
	}
}
