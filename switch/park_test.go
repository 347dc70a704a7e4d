package switching

import (
	"testing"

	"netsim/routing"
)

// TestParkedHeadWaitsForItsOutputs: a head on VL 0 parked for want of
// credits on its one candidate port stays parked when another output VL
// reports room (another port, or another VL of its port), and is selected
// again when its own output VL, or a report naming no port, does. Output
// VLs share the entries of portBits in turn, so on a large switch news
// from an output VL sharing the head's entry ends its parking too.
func TestParkedHeadWaitsForItsOutputs(t *testing.T) {
	type out struct{ port, vl int }
	for _, tc := range []struct {
		name       string
		ports      int
		cand       int
		other, own out // news that must not, and must, end the parking
	}{
		{name: "another port", ports: 3, cand: 1, other: out{2, 0}, own: out{1, 0}},
		{name: "another VL", ports: 3, cand: 1, other: out{1, 1}, own: out{1, 0}},
		{name: "shared entry", ports: 70, cand: 66, other: out{6, 0}, own: out{5, 0}}, // 66·2 ≡ 5·2 (mod 61)
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.ports, 2, 16, CutThrough, 1, routing.Candidate{Port: int32(tc.cand), Priority: routing.High})
			h.consume(tc.cand, 0, 16) // no credit left downstream on VL 0
			h.inject(0, 0, 16)
			h.run(5)
			pk := &h.sw.parks[0]
			if pk.bits&parkedBit == 0 || pk.bits&fcBlockedBit == 0 {
				t.Fatalf("head not parked for flow control: bits %#x", pk.bits)
			}
			h.sw.Sender(tc.other.port).Unblock(tc.other.vl, 6)
			if !h.sw.stillParked(pk) {
				t.Errorf("news from port %d VL %d ended the parking of a head that may take only port %d VL 0", tc.other.port, tc.other.vl, tc.cand)
			}
			if pk.gen != h.sw.gen {
				t.Errorf("parking generation %d not moved on to %d", pk.gen, h.sw.gen)
			}
			h.sw.Sender(tc.own.port).Unblock(tc.own.vl, 6)
			if h.sw.stillParked(pk) {
				t.Errorf("news from port %d VL %d left parked a head that may take port %d VL 0", tc.own.port, tc.own.vl, tc.cand)
			}
			pk.gen = h.sw.gen
			h.sw.Unblock(0, 6)
			if h.sw.stillParked(pk) {
				t.Error("news naming no port left the head parked")
			}
			if len(h.got) != 0 {
				t.Fatalf("%d flits left without credits", len(h.got))
			}
		})
	}
}
