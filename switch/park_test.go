package switching

import (
	"testing"

	"netsim/kernel"
	"netsim/routing"
)

// TestParkedHeadWaitsForItsOutputs: a head on VL 0 parked for want of
// credits on its one candidate port stays parked when another output VL
// reports room (another port, or another VL of its port); when its own
// output VL reports room with no credit on its way it stays parked too,
// and when credits are on their way it stays parked with its retry at the
// cycle they suffice; news naming no port ends the parking. On a switch of
// more than portBits ports, ports share the entries of portBits in turn,
// so news from a port sharing the head's entry ends its parking.
func TestParkedHeadWaitsForItsOutputs(t *testing.T) {
	type out struct{ port, vl int }
	for _, tc := range []struct {
		name       string
		ports      int
		cand       int
		other, own out  // news that must not, and may, end the parking
		ownEnds    bool // news from own ends the parking at once
	}{
		{name: "another port", ports: 3, cand: 1, other: out{2, 0}, own: out{1, 0}},
		{name: "another VL", ports: 3, cand: 1, other: out{1, 1}, own: out{1, 0}},
		{name: "shared entry", ports: 70, cand: 66, other: out{6, 0}, own: out{5, 1}, ownEnds: true}, // 66 ≡ 5 (mod 61)
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.ports, 2, 16, CutThrough, 1, routing.Candidate{Port: int32(tc.cand), Priority: routing.High})
			h.consume(tc.cand, 0, 16) // no credit left downstream on VL 0
			h.inject(0, 0, 16)
			h.run(5)
			pk := &h.sw.parks[0]
			if pk.bits&parkedBit == 0 || pk.bits&fcBlockedBit == 0 || pk.bits&noRetryBit == 0 {
				t.Fatalf("head not parked for flow control without a retry time: bits %#x", pk.bits)
			}
			const now = 6
			h.sw.Sender(tc.other.port).Unblock(tc.other.vl, now)
			if !h.sw.stillParked(0, pk, now) {
				t.Errorf("news from port %d VL %d ended the parking of a head that may take only port %d VL 0", tc.other.port, tc.other.vl, tc.cand)
			}
			if pk.gen != h.sw.gen {
				t.Errorf("parking generation %d not moved on to %d", pk.gen, h.sw.gen)
			}
			h.sw.Sender(tc.own.port).Unblock(tc.own.vl, now)
			if got := h.sw.stillParked(0, pk, now); got == tc.ownEnds {
				t.Errorf("news from port %d VL %d with no credit on its way: still parked %v, want %v", tc.own.port, tc.own.vl, got, !tc.ownEnds)
			}
			if !tc.ownEnds {
				// Credits freed downstream at now come back one per cycle
				// from now+1 (latency 1): all 16 by now+16.
				if at := h.out[tc.cand].Freed(now, 0, 16); at != now+1 {
					t.Fatalf("credits back from %d, want %d", at, now+1)
				}
				h.sw.Sender(tc.cand).Unblock(0, now+1)
				if !h.sw.stillParked(0, pk, now) {
					t.Error("credits on their way ended the parking before they are back")
				}
				if got, want := pk.retryAt(now), kernel.Time(now+16); got != want {
					t.Errorf("retry at %d, want %d (the 16th credit back)", got, want)
				}
			}
			pk.gen = h.sw.gen
			h.sw.Unblock(0, now)
			if h.sw.stillParked(0, pk, now) {
				t.Error("news naming no port left the head parked")
			}
			if len(h.got) != 0 {
				t.Fatalf("%d flits left without credits", len(h.got))
			}
		})
	}
}

// TestPortOf checks the multiplication that divides lane numbers by the
// lanes per port against the division, for every lane number a switch may
// have and lanes per port up to MaxLanes (exhaustively up to 300, then
// sampled).
func TestPortOf(t *testing.T) {
	for lpp := int32(1); lpp <= MaxLanes; lpp++ {
		if lpp > 300 && lpp%97 != 0 && lpp != MaxLanes {
			continue
		}
		s := &Switch{lpp: lpp, lanePorts: lanePorts(lpp), slots: 1}
		for li := int32(0); li <= MaxLanes; li++ {
			if got, want := s.portOf(li), li/lpp; got != want {
				t.Fatalf("lpp %d: portOf(%d) = %d, want %d", lpp, li, got, want)
			}
			if got, want := s.vlOf(li), li%lpp; got != want {
				t.Fatalf("lpp %d: vlOf(%d) = %d, want %d", lpp, li, got, want)
			}
		}
	}
}
