package linkload

import (
	"testing"

	"netsim/routing"
	"netsim/topologies"
	"netsim/traffic"
)

// addrField is one digit of a host address, least significant first in an
// addressing: the host's index on its switch (local) or the coordinate of
// its switch in dimension dim of the built network.
type addrField struct {
	local bool
	dim   int
}

// fieldsOf returns the addressing given as a string, least significant digit
// first: 'L' the local index, '0'…'9' a dimension of the built network.
func fieldsOf(s string) []addrField {
	f := make([]addrField, len(s))
	for i, c := range s {
		if c == 'L' {
			f[i] = addrField{local: true}
		} else {
			f[i] = addrField{dim: int(c - '0')}
		}
	}
	return f
}

// hostOf returns the host of net (numbered switch-major, dimension 0 the
// least significant digit of the switch index) whose address under the
// addressing fields is a: the relabelling between another numbering
// convention and this simulator's.
func hostOf(net *topologies.Network, fields []addrField, a int) int {
	local := 0
	coord := make([]int, len(net.Dims))
	for _, f := range fields {
		k := net.HostsPerSwitch
		if !f.local {
			k = net.Dims[f.dim]
		}
		v := a % k
		a /= k
		if f.local {
			local = v
		} else {
			coord[f.dim] = v
		}
	}
	sw := 0
	for n := len(net.Dims) - 1; n >= 0; n-- {
		sw = sw*net.Dims[n] + coord[n]
	}
	return sw*net.HostsPerSwitch + local
}

// sharedBusiestQueues returns the share of the flows crossing a busiest
// link that wait, at the switch before it, in an input queue which also
// holds flows bound for another busiest link: there a head waiting for one
// of them blocks the packets behind it bound for the other. A link here is
// the bundle of parallel links from a switch to one neighbour (a flow
// splits evenly over them, so they carry equal loads), busiest when its
// links carry the largest load. l must have been made with queues set; the
// share is 0 when no flow crosses a link.
func sharedBusiestQueues(l *Loads) float64 {
	busiest := map[[2]int]bool{} // (switch, neighbour)
	for _, b := range l.Busiest() {
		busiest[[2]int{b.Switch, int(l.net.Switches[b.Switch].Ports[b.Port].Peer)}] = true
	}
	type queue struct{ sw, in, vl int }
	peers := map[queue]int{}
	for h := range l.w.queues {
		if busiest[[2]int{h.sw, h.peer}] {
			peers[queue{h.sw, h.in, h.vl}]++
		}
	}
	var shared, all float64
	for h, w := range l.w.queues {
		if !busiest[[2]int{h.sw, h.peer}] {
			continue
		}
		all += w
		if peers[queue{h.sw, h.in, h.vl}] > 1 {
			shared += w
		}
	}
	if all == 0 {
		return 0
	}
	return shared / all
}

// maxLinkLoad returns the largest number of flows of the permutation
// host(a) → host(p(a)) over all addresses a that cross one switch-to-switch
// link under r (fields nil: host a is address a). With onePath set, a flow
// spread over candidates leading to different switches, or offered
// lower-priority ones, fails the test:
// the routing must have one path per flow, and the inverse of the load
// then bounds the saturation load of the permutation, in units of link
// bandwidth.
func maxLinkLoad(t *testing.T, net *topologies.Network, r routing.Routing, onePath bool, fields []addrField, p traffic.Pattern) float64 {
	t.Helper()
	l := New(net, r, 8)
	for a := range net.Hosts {
		src, dst := a, p.Dest(a, nil)
		if fields != nil {
			src, dst = hostOf(net, fields, a), hostOf(net, fields, dst)
		}
		if err := l.AddFlow(src, dst, 1); err != nil {
			t.Fatal(err)
		}
	}
	if onePath && (l.Spread() || l.Detours()) {
		t.Fatalf("%s under %s: a flow has candidates leading to different switches (%v) or of lower priority (%v)", p.Name(), r.Name(), l.Spread(), l.Detours())
	}
	return l.Max()
}

// TestFlatFlyDORBitPatternBounds computes the channel-load bound of dor on
// seed 004's FlatFly (4×8×8×8, widths 2,1,1,1, C = 8, 16,384 hosts) for the
// five bit patterns under this simulator's numbering and the other natural
// ones: local index in the low or the high bits of the host address, the
// 4-switch dimension routed first or last, and dimension order from the
// least or the most significant digit of the switch index. Every one gives
// complement 1/8, reverse 1/32, transpose 1/16, and rotation and shuffle
// 1/16 and 1/4 in one order or the other, so none reproduces seed 004's
// published DOR row (rotation 12.5 %, shuffle 7.8 %: both above 1/16); see
// studies/seed004/README.md.
func TestFlatFlyDORBitPatternBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("walks 16,384 flows per pattern and numbering")
	}
	first, err := topologies.Build(topologies.Spec{Preset: "flatfly"}) // 4-switch dimension routed first
	if err != nil {
		t.Fatal(err)
	}
	last, err := topologies.Build(topologies.Spec{Kind: "flatfly", Dims: []int{8, 8, 8, 4}, Widths: []int{1, 1, 1, 2}, HostsPerSwitch: 8})
	if err != nil {
		t.Fatal(err)
	}
	patterns := []string{"complement", "reverse", "rotation", "shuffle", "transpose"}
	published := []float64{11.7, 1.6, 12.5, 7.8, 2.3} // seed 004 §4, FlatFly DOR, %
	tests := []struct {
		name   string
		net    *topologies.Network
		fields string  // address digits, least significant first
		want   []int64 // max flows per link, in the order of patterns
	}{
		{"netsim: local low, 4-switch dim least significant, routed first", first, "L0123", []int64{8, 32, 16, 4, 16}},
		{"local high", first, "0123L", []int64{8, 32, 16, 4, 16}},
		{"4-switch dim most significant, routed first", first, "L3210", []int64{8, 32, 4, 16, 16}},
		{"local high, 4-switch dim most significant, routed first", first, "3210L", []int64{8, 32, 4, 16, 16}},
		{"4-switch dim most significant, routed last", last, "L0123", []int64{8, 32, 16, 4, 16}},
		{"local high, 4-switch dim most significant, routed last", last, "0123L", []int64{8, 32, 16, 4, 16}},
		{"4-switch dim least significant, routed last", last, "L3210", []int64{8, 32, 4, 16, 16}},
		{"local high, 4-switch dim least significant, routed last", last, "3210L", []int64{8, 32, 4, 16, 16}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := routing.New(routing.Spec{Algorithm: "dor", VLs: 8}, tc.net)
			if err != nil {
				t.Fatal(err)
			}
			hosts := len(tc.net.Hosts)
			within := 0 // patterns whose published saturation is at most the bound
			for i, name := range patterns {
				p, err := traffic.NewPattern(name, hosts, 0)
				if err != nil {
					t.Fatal(err)
				}
				got := maxLinkLoad(t, tc.net, r, true, fieldsOf(tc.fields), p)
				if got != float64(tc.want[i]) {
					t.Errorf("%s: max flows per link %g, want %d", name, got, tc.want[i])
				}
				if published[i] <= 100/got {
					within++
				}
			}
			if within != len(patterns)-1 {
				t.Errorf("%d of the 5 published values are within the bound, want 4 (all but rotation or shuffle)", within)
			}
		})
	}
}
