package routing

import (
	"bytes"
	"slices"
	"testing"

	"netsim/topologies"
)

// TestPortDestinationsRoundTrip exports DOR on a FlatFly as ORCS routing
// comments, reads them back and checks that every switch's table gives, for
// every destination, exactly DOR's candidate ports.
func TestPortDestinationsRoundTrip(t *testing.T) {
	net, err := topologies.FlatFly([]int{3, 3}, []int{1, 2}, 2)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(Spec{Algorithm: "dor", VLs: 2}, net)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := topologies.WriteDot(&b, net, PortDestinations(r, net)); err != nil {
		t.Fatal(err)
	}
	back, routes, err := topologies.ReadDot(&b, "dor.dot")
	if err != nil {
		t.Fatal(err)
	}
	if routes == nil || len(back.Hosts) != len(net.Hosts) {
		t.Fatalf("routes %v, %d hosts", routes, len(back.Hosts))
	}
	multi := 0
	for s := range net.Switches {
		table := routes.Table(s, len(net.Hosts))
		for h := range net.Hosts {
			var want []int32
			dlid, sl, vl := r.Source(h, h)
			for _, c := range r.Route(s, 0, vl, sl, dlid, nil) {
				want = append(want, c.Port)
			}
			slices.Sort(want)
			if !slices.Equal(table[h], want) {
				t.Fatalf("switch %d host %d: ports %v, want %v", s, h, table[h], want)
			}
			if len(want) > 1 {
				multi++
			}
		}
	}
	// DOR corrects dimension 0 first, so a switch uses the two parallel
	// ports of dimension 1 only for the hosts of the 2 switches that share
	// its dimension-0 coordinate: 2 switches × 2 hosts.
	if want := len(net.Switches) * 2 * 2; multi != want {
		t.Errorf("%d (switch, host) pairs with two ports, want %d", multi, want)
	}
}
