package switching

import (
	"testing"

	"netsim/routing"
)

// TestParkedHeadWaitsForItsPorts: a head parked for want of credits on its
// one candidate port stays parked when another port reports room, and is
// selected again when its own port, or a report naming no port, does. On a
// switch of more than 61 ports, the ports from 60 on share one record, so
// news from any of them ends the parking of a head that may take one.
func TestParkedHeadWaitsForItsPorts(t *testing.T) {
	for _, tc := range []struct {
		name        string
		ports, cand int
		other, own  int // ports whose news must not, and must, end the parking
	}{
		{name: "few ports", ports: 3, cand: 1, other: 2, own: 1},
		{name: "shared record", ports: 70, cand: 66, other: 5, own: 64},
		{name: "shared record, low port", ports: 70, cand: 2, other: 68, own: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.ports, 1, 16, CutThrough, 1, routing.Candidate{Port: int32(tc.cand), Priority: routing.High})
			h.consume(tc.cand, 0, 16) // no credit left downstream
			h.inject(0, 0, 16)
			h.run(5)
			l := &h.sw.parks[0]
			if l.bits&parkedBit == 0 || l.bits&fcBlockedBit == 0 {
				t.Fatalf("head not parked for flow control: bits %#x", l.bits)
			}
			h.sw.Sender(tc.other).Unblock(6)
			if !h.sw.stillParked(l) {
				t.Errorf("news from port %d ended the parking of a head that may take only port %d", tc.other, tc.cand)
			}
			if l.gen != h.sw.gen {
				t.Errorf("parking generation %d not moved on to %d", l.gen, h.sw.gen)
			}
			h.sw.Sender(tc.own).Unblock(6)
			if h.sw.stillParked(l) {
				t.Errorf("news from port %d left parked a head that may take port %d", tc.own, tc.cand)
			}
			l.gen = h.sw.gen
			h.sw.Unblock(6)
			if h.sw.stillParked(l) {
				t.Error("news naming no port left the head parked")
			}
			if len(h.got) != 0 {
				t.Fatalf("%d flits left without credits", len(h.got))
			}
		})
	}
}
