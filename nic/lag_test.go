package nic

import (
	"testing"

	"netsim/flit"
	"netsim/flowctl"
	"netsim/kernel"
	"netsim/routing"
	"netsim/traffic"
)

// twoRoutes is a multipath routing with two routes between any two
// hosts, route r carrying DLID 100 + r, all on VL 0.
type twoRoutes struct{ vlByDst }

func (twoRoutes) VLs() int                                  { return 1 }
func (twoRoutes) Source(_, _ int) (int32, int, int)         { return 100, 0, 0 }
func (twoRoutes) Routes(_, _ int) int                       { return 2 }
func (twoRoutes) SourceRoute(_, _, r int) (int32, int, int) { return int32(100 + r), 0, 0 }

var _ routing.Multipath = twoRoutes{}

// routeWire records the DLID of each packet a NIC starts and, once free
// is set, returns the credits of every flit at once.
type routeWire struct {
	pool  *flit.Pool
	fc    flowctl.Control
	n     *NIC
	free  bool
	last  int32
	dlids []int32
}

func (w *routeWire) AcceptRun(now kernel.Time, _, vl int, pkt int32, _ kernel.Time, k int) {
	if pkt != w.last {
		w.last = pkt
		w.dlids = append(w.dlids, w.pool.Get(pkt).DLID)
	}
	if w.free {
		if t := w.fc.Freed(now, vl, k); t != kernel.Never {
			w.n.Unblock(vl, t)
		}
	}
}

// TestRouteLagDelaysDecision: an adaptive NIC (threshold 1, probability
// 1, so one stopped packet changes the route) is held back by flow
// control once, before packet 2 of its exchange; it changes route for
// the first packet it prepares after packet 2 ends: packet 3 without a
// lag, packet 3 + Lag when it prepares its packets Lag ahead, the ones
// prepared meanwhile keeping the old route.
func TestRouteLagDelaysDecision(t *testing.T) {
	for _, lag := range []int{0, 1, 3} {
		m := &model{}
		eng := kernel.NewEngine(m)
		var pool flit.Pool
		meter := &Meter{From: 0, To: kernel.Never}
		disp := Dispersion{Mode: Adaptive, Threshold: 1, Probability: 1, Lag: lag}
		n := New(Params{Host: 0, VLs: 1, PacketFlits: 4, LinkLatency: 1, TickKind: 0, GenKind: 1, Dispersion: disp, Hosts: 2},
			eng, &pool, meter, twoRoutes{}, toDst{1}, traffic.Bernoulli{}, kernel.NewRNG(1))
		fc, err := flowctl.New(flowctl.Params{Kind: flowctl.KindCredit, VLs: 1, Buffer: 8, Latency: 1, Delay: 1, Rate: 1})
		if err != nil {
			t.Fatal(err)
		}
		w := &routeWire{pool: &pool, fc: fc, n: n, last: -1}
		n.ConnectOut(fc, w, 0)
		m.n = n
		pk := make([]int32, 12)
		for i := range pk {
			pk[i] = 4
		}
		n.StartExchange(Exchange{Dst: 1, Messages: 1, Packets: pk}, 0)
		// 8 credits: packets 0 and 1 leave, packet 2 waits.
		if err := eng.Run(50); err != nil {
			t.Fatal(err)
		}
		if len(w.dlids) != 2 {
			t.Fatalf("lag %d: %d packets started before any credit came back, want 2", lag, len(w.dlids))
		}
		w.free = true
		if at := fc.Freed(50, 0, 8); at != kernel.Never {
			n.Unblock(0, at)
		}
		if err := eng.Run(1000); err != nil {
			t.Fatal(err)
		}
		if len(w.dlids) != 12 || n.RouteChanges() != 1 {
			t.Fatalf("lag %d: %d packets, %d route changes; want 12 and 1", lag, len(w.dlids), n.RouteChanges())
		}
		first := 0
		for first < len(w.dlids) && w.dlids[first] == w.dlids[0] {
			first++
		}
		if first != 3+lag {
			t.Errorf("lag %d: routes %v; the first packet on the new route is %d, want %d", lag, w.dlids, first, 3+lag)
		}
		for i := first; i < len(w.dlids); i++ {
			if w.dlids[i] != w.dlids[first] {
				t.Errorf("lag %d: routes %v change again at packet %d", lag, w.dlids, i)
			}
		}
	}
}
