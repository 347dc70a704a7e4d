package linkload

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"netsim/routing"
	"netsim/topologies"
	"netsim/traffic"
)

// build returns the network of spec and the routing called algorithm on it.
func build(t *testing.T, spec topologies.Spec, algorithm string) (*topologies.Network, routing.Routing) {
	t.Helper()
	net, err := topologies.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	r, err := routing.New(routing.Spec{Algorithm: algorithm, VLs: 8}, net)
	if err != nil {
		t.Fatal(err)
	}
	return net, r
}

// loadsOf returns the loads of pattern name on net under r.
func loadsOf(t *testing.T, net *topologies.Network, r routing.Routing, name string, workers int) *Loads {
	t.Helper()
	p, err := traffic.NewPattern(name, len(net.Hosts), 1)
	if err != nil {
		t.Fatal(err)
	}
	l := New(net, r, 8)
	if err := l.AddPattern(context.Background(), p, workers); err != nil {
		t.Fatal(err)
	}
	return l
}

// everyPair returns the loads of uniform traffic on net under r added a
// flow at a time: 1/N from every host to every host.
func everyPair(t *testing.T, net *topologies.Network, r routing.Routing) *Loads {
	t.Helper()
	l := New(net, r, 8)
	n := len(net.Hosts)
	for src := range n {
		for dst := range n {
			if err := l.AddFlow(src, dst, 1/float64(n)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return l
}

// TestKnownLoads checks loads that follow from the structure of small
// networks.
func TestKnownLoads(t *testing.T) {
	tests := []struct {
		name      string
		spec      topologies.Spec
		algorithm string
		pattern   string
		max       float64
		busiest   int
		spread    bool
		detours   bool
	}{
		// K = 4 switches, all linked, C = 4: each link carries the C·C
		// flows between two switches at 1/N: C/K.
		{"flatfly K4 C4 uniform", topologies.Spec{Kind: "flatfly", Dims: []int{4}, HostsPerSwitch: 4}, "dor", "uniform", 1, 12, false, false},
		// Complement sends the C = 2 hosts of switch s to switch 3 − s
		// over the one link between them.
		{"flatfly K4 C2 complement", topologies.Spec{Kind: "flatfly", Dims: []int{4}, HostsPerSwitch: 2}, "dor", "complement", 2, 4, false, false},
		// Two parallel links share the same two flows.
		{"flatfly K4 C2 w2 complement", topologies.Spec{Kind: "flatfly", Dims: []int{4}, Widths: []int{2}, HostsPerSwitch: 2}, "dor", "complement", 1, 8, false, false},
		// ADOR offers the other switches of the dimension as sideways
		// (Medium) candidates, not counted: the direct link carries the
		// flows as under dor.
		{"flatfly K4 C2 complement, ador", topologies.Spec{Kind: "flatfly", Dims: []int{4}, HostsPerSwitch: 2}, "ador", "complement", 2, 4, false, true},
		// Minimal routing on a ring of 4: the opposite switch has two
		// minimal paths, each taking half of the flow; complement sends
		// host a (switch a) to 3 − a, so 0↔3 and 1↔2 are neighbours.
		{"ring 4 complement, distance", topologies.Spec{Kind: "ring", Switches: 4, HostsPerSwitch: 1}, "distance", "complement", 1, 4, false, false},
		// Uniform on that ring: each direction of a link carries the
		// neighbour flow (1/4) and half of each of the two opposite flows
		// crossing it (2 · 1/8): 1/2, split over two paths.
		{"ring 4 uniform, distance", topologies.Spec{Kind: "ring", Switches: 4, HostsPerSwitch: 1}, "distance", "uniform", 0.5, 8, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, r := build(t, tc.spec, tc.algorithm)
			l := loadsOf(t, net, r, tc.pattern, 1)
			if got := l.Max(); math.Abs(got-tc.max) > 1e-12 {
				t.Errorf("Max = %v, want %v", got, tc.max)
			}
			if got := len(l.Busiest()); got != tc.busiest {
				t.Errorf("%d busiest links, want %d", got, tc.busiest)
			}
			if got := l.Spread(); got != tc.spread {
				t.Errorf("Spread = %v, want %v", got, tc.spread)
			}
			if got := l.Detours(); got != tc.detours {
				t.Errorf("Detours = %v, want %v", got, tc.detours)
			}
			if want := min(1, 1/tc.max); l.Bound() != want {
				t.Errorf("Bound = %v, want %v", l.Bound(), want)
			}
			for _, b := range l.Busiest() {
				if l.At(b.Switch, b.Port) != l.Max() {
					t.Errorf("busiest %v carries %v, Max %v", b, l.At(b.Switch, b.Port), l.Max())
				}
			}
		})
	}
}

// TestUniformIsEveryPair checks that uniform traffic, walked a source
// switch and a destination at a time on several goroutines, loads every
// link as the N² flows added one by one do, and that the loads do not
// depend on the number of goroutines: on routings whose paths depend on the
// source's SL (mixed-dor), its input port (twisted-mixed-dor) and a
// Slim Fly's two-hop paths (split).
func TestUniformIsEveryPair(t *testing.T) {
	tests := []struct {
		spec       topologies.Spec
		algorithms []string
	}{
		{topologies.Spec{Kind: "flatfly", Dims: []int{2, 4, 4, 4}, Widths: []int{2, 1, 1, 1}, HostsPerSwitch: 2}, []string{"dor", "mixed-dor", "twisted-mixed-dor", "ador", "distance+2"}},
		{topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 2}, []string{"dor"}},
		{topologies.Spec{Kind: "slimfly", Q: 5, HostsPerSwitch: 2}, []string{"minimal"}},
		{topologies.Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 1, HostsPerSwitch: 2}, []string{"static", "GSID"}},
	}
	for _, tc := range tests {
		for _, alg := range tc.algorithms {
			t.Run(tc.spec.Kind+"/"+alg, func(t *testing.T) {
				net, r := build(t, tc.spec, alg)
				want := everyPair(t, net, r)
				one := loadsOf(t, net, r, "uniform", 1)
				three := loadsOf(t, net, r, "uniform", 3)
				for i := range want.w.load {
					if math.Abs(one.w.load[i]-want.w.load[i]) > 1e-12 {
						t.Fatalf("load %d: %v walked by switch, %v by pair", i, one.w.load[i], want.w.load[i])
					}
					if one.w.load[i] != three.w.load[i] {
						t.Fatalf("load %d: %v on one goroutine, %v on three", i, one.w.load[i], three.w.load[i])
					}
				}
				if one.Spread() != want.Spread() || three.Spread() != want.Spread() {
					t.Errorf("Split: %v by switch, %v on three goroutines, %v by pair", one.Spread(), three.Spread(), want.Spread())
				}
				if one.Max() == 0 {
					t.Error("no load")
				}
			})
		}
	}
}

// TestPermutationIsItsFlows checks that a fixed pattern adds one flow of
// rate 1 per host.
func TestPermutationIsItsFlows(t *testing.T) {
	net, r := build(t, topologies.Spec{Kind: "hypercube", Dimension: 4, HostsPerSwitch: 2}, "dor")
	for _, name := range []string{"complement", "reverse", "rotation", "shuffle", "transpose", "randperm"} {
		p, err := traffic.NewPattern(name, len(net.Hosts), 1)
		if err != nil {
			t.Fatal(err)
		}
		want := New(net, r, 8)
		for a := range net.Hosts {
			if err := want.AddFlow(a, p.Dest(a, nil), 1); err != nil {
				t.Fatal(err)
			}
		}
		got := loadsOf(t, net, r, name, 2)
		for i := range want.w.load {
			if got.w.load[i] != want.w.load[i] {
				t.Fatalf("%s: load %d is %v, want %v", name, i, got.w.load[i], want.w.load[i])
			}
		}
	}
}

// fake is a routing of tests: it routes every packet to port, whatever
// the switch, with the SL, source VL and output VL given.
type fake struct {
	port       int32
	dlid       int32
	sl, vl, ov int
}

func (f fake) Name() string { return "fake" }
func (f fake) VLs() int     { return 1 }
func (f fake) SLs() int     { return 1 }
func (f fake) Source(src, dst int) (int32, int, int) {
	if f.dlid != 0 {
		return f.dlid, f.sl, f.vl
	}
	return int32(dst), f.sl, f.vl
}
func (f fake) Route(sw, inPort, inVL, sl int, dlid int32, out []routing.Candidate) []routing.Candidate {
	if f.port < 0 {
		return out
	}
	return append(out, routing.Candidate{Port: f.port, Priority: routing.High})
}
func (f fake) OutVL(sw, inPort, inVL, sl, outPort int) int { return inVL + f.ov }

// TestRoutingErrors checks that a routing that loses a flow is reported,
// naming the flow and the switch, for single flows and uniform traffic.
func TestRoutingErrors(t *testing.T) {
	// A ring of 4 switches, one host each, and a port with nothing
	// attached on switch 0.
	net, err := topologies.Build(topologies.Spec{Kind: "ring", Switches: 4, HostsPerSwitch: 1})
	if err != nil {
		t.Fatal(err)
	}
	net.Switches[0].Ports = append(net.Switches[0].Ports, topologies.Port{Kind: topologies.Unused})
	unused := len(net.Switches[0].Ports) - 1
	hostPort, linkPort := -1, -1
	for p, port := range net.Switches[0].Ports {
		if port.Kind == topologies.HostPort {
			hostPort = p
		} else if linkPort < 0 {
			linkPort = p
		}
	}
	tests := []struct {
		name string
		r    routing.Routing
		want string
	}{
		{"no candidate", fake{port: -1}, "no candidate port at switch S1"},
		{"loop", fake{port: int32(linkPort)}, "not delivered after"},
		{"wrong host", fake{port: int32(hostPort)}, "delivered to host H1 at switch S1"},
		{"no LID", fake{port: int32(hostPort), dlid: -1}, "no destination LID from host H1 to host H3"},
		{"port out of range", fake{port: 9}, "port 10 at switch S1"},
		{"negative port", fake{port: -2}, "no candidate port at switch S1"},
		{"unused port", fake{port: int32(unused)}, "sent to port 4 of switch S1, which has nothing attached"},
		{"SL out of range", fake{port: int32(linkPort), sl: 1}, "gives the flow H1 → H3 SL 1, out of 0..0"},
		{"source VL out of range", fake{port: int32(linkPort), vl: 1}, "gives the flow H1 → H3 VL 1 at its source, out of 0..0"},
		{"VL out of range", fake{port: int32(linkPort), ov: 1}, "given VL 1 on port 2 of switch S1, out of 0..0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := New(net, tc.r, 1)
			err := l.AddFlow(0, 2, 1)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("AddFlow: %v, want one containing %q", err, tc.want)
			}
			p, _ := traffic.NewPattern("uniform", len(net.Hosts), 0)
			if err := New(net, tc.r, 1).AddPattern(context.Background(), p, 2); err == nil || !strings.Contains(err.Error(), "pattern uniform: linkload:") {
				t.Errorf("AddPattern: %v, want an error naming the pattern", err)
			}
		})
	}
	if err := New(net, fake{}, 1).AddFlow(0, 4, 1); err == nil || !strings.Contains(err.Error(), "hosts are 0 to 3") {
		t.Errorf("AddFlow to host 4: %v", err)
	}
}

// TestCancel checks that uniform traffic and a fixed pattern stop when
// their context is done.
func TestCancel(t *testing.T) {
	net, r := build(t, topologies.Spec{Kind: "flatfly", Dims: []int{4, 4}, HostsPerSwitch: 2}, "dor")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, name := range []string{"uniform", "complement"} {
		p, _ := traffic.NewPattern(name, len(net.Hosts), 0)
		if err := New(net, r, 8).AddPattern(ctx, p, 2); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: AddPattern after cancel: %v, want context.Canceled", name, err)
		}
	}
}

// TestFirstErrorWhateverTheWorkers checks that a routing failing for
// several source switches reports the same flow whatever the number of
// goroutines.
func TestFirstErrorWhateverTheWorkers(t *testing.T) {
	net, err := topologies.Build(topologies.Spec{Kind: "ring", Switches: 40, HostsPerSwitch: 1})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := traffic.NewPattern("uniform", len(net.Hosts), 0)
	var want string
	for _, workers := range []int{1, 2, 3, 5} {
		err := New(net, fake{port: -1}, 1).AddPattern(context.Background(), p, workers)
		if err == nil {
			t.Fatal("no error")
		}
		if workers == 1 {
			want = err.Error()
		} else if err.Error() != want {
			t.Errorf("%d goroutines: %v, want %v", workers, err, want)
		}
	}
}

// vlLadder is a routing of tests on a fully connected network of K
// switches: a packet first goes to the next switch (or to its
// destination's, if that is the next), then, on VL 0, straight to the
// destination's switch, on VL 1 one switch further at a time. Its source
// gives odd hosts VL 1, so the packets of one switch's hosts to one
// destination meet on the first hop's link and part at the second.
type vlLadder struct {
	net *topologies.Network
	k   int
}

func (r vlLadder) Name() string { return "vl-ladder" }
func (r vlLadder) VLs() int     { return 2 }
func (r vlLadder) SLs() int     { return 1 }
func (r vlLadder) Source(src, dst int) (int32, int, int) {
	return int32(dst), 0, src % 2
}
func (r vlLadder) Route(sw, inPort, inVL, sl int, dlid int32, out []routing.Candidate) []routing.Candidate {
	h := r.net.Hosts[dlid]
	to := r.next(sw, inPort, inVL, int(h.Switch))
	for p, port := range r.net.Switches[sw].Ports {
		if to < 0 && p == int(h.Port) || to >= 0 && port.Kind == topologies.SwitchPort && int(port.Peer) == to {
			return append(out, routing.Candidate{Port: int32(p), Priority: routing.High})
		}
	}
	return out
}

// next returns the switch a packet goes to from sw, −1 for its host.
func (r vlLadder) next(sw, inPort, inVL, dsw int) int {
	fromHost := r.net.Switches[sw].Ports[inPort].Kind == topologies.HostPort
	switch {
	case sw == dsw:
		return -1
	case fromHost || inVL == 1:
		return (sw + 1) % r.k
	}
	return dsw
}
func (r vlLadder) OutVL(sw, inPort, inVL, sl, outPort int) int { return inVL }

// TestUniformKeepsVLs checks uniform traffic against loads added up here,
// path by path, on a routing whose choices depend on the VL, which the
// hosts of one switch do not share: their shares must not merge where
// they meet on one link with different VLs.
func TestUniformKeepsVLs(t *testing.T) {
	const k, c = 5, 2
	net, err := topologies.Build(topologies.Spec{Kind: "flatfly", Dims: []int{k}, HostsPerSwitch: c})
	if err != nil {
		t.Fatal(err)
	}
	r := vlLadder{net, k}
	n := len(net.Hosts)
	want := map[[2]int]float64{} // (switch, next switch) → load
	for src := range n {
		for dst := range n {
			sw, dsw, vl := int(net.Hosts[src].Switch), int(net.Hosts[dst].Switch), src%2
			for first := true; sw != dsw; first = false {
				next := dsw
				if first || vl == 1 {
					next = (sw + 1) % k
				}
				want[[2]int{sw, next}] += 1 / float64(n)
				sw = next
			}
		}
	}
	got := loadsOf(t, net, r, "uniform", 2)
	for s, sw := range net.Switches {
		for p, port := range sw.Ports {
			if port.Kind != topologies.SwitchPort {
				continue
			}
			if w := want[[2]int{s, int(port.Peer)}]; math.Abs(got.At(s, p)-w) > 1e-12 {
				t.Errorf("link %d→%d: load %v, want %v", s, port.Peer, got.At(s, p), w)
			}
		}
	}
}

// ringBySL is a routing of tests on a ring: a packet goes around one way
// or the other by the SL its source gives it, the source host's parity.
type ringBySL struct{ net *topologies.Network }

func (r ringBySL) Name() string { return "ring-by-sl" }
func (r ringBySL) VLs() int     { return 1 }
func (r ringBySL) SLs() int     { return 2 }
func (r ringBySL) Source(src, dst int) (int32, int, int) {
	return int32(dst), src % 2, 0
}
func (r ringBySL) Route(sw, inPort, inVL, sl int, dlid int32, out []routing.Candidate) []routing.Candidate {
	n := len(r.net.Switches)
	h := r.net.Hosts[dlid]
	next := (sw + 1) % n
	if sl == 1 {
		next = (sw + n - 1) % n
	}
	for p, port := range r.net.Switches[sw].Ports {
		if int(h.Switch) == sw && p == int(h.Port) || int(h.Switch) != sw && port.Kind == topologies.SwitchPort && int(port.Peer) == next {
			return append(out, routing.Candidate{Port: int32(p), Priority: routing.High})
		}
	}
	return out
}
func (r ringBySL) OutVL(sw, inPort, inVL, sl, outPort int) int { return inVL }

// TestUniformKeepsSourceSL checks that uniform traffic walks the flows of
// one switch's hosts to a destination apart when their sources give them
// different SLs, which here send them around the ring in opposite
// directions.
func TestUniformKeepsSourceSL(t *testing.T) {
	net, err := topologies.Build(topologies.Spec{Kind: "ring", Switches: 5, HostsPerSwitch: 2})
	if err != nil {
		t.Fatal(err)
	}
	r := ringBySL{net}
	want := everyPair(t, net, r)
	got := loadsOf(t, net, r, "uniform", 2)
	for i := range want.w.load {
		if math.Abs(got.w.load[i]-want.w.load[i]) > 1e-12 {
			t.Fatalf("load %d: %v, want %v", i, got.w.load[i], want.w.load[i])
		}
	}
	// Each host sends 1/10 to each of the 8 hosts on other switches, 1
	// to 4 hops away in its direction: the 5 hosts of one parity put
	// 5 · 2 · (1 + 2 + 3 + 4) / 10 = 10 on the 5 links of their
	// direction, 2 on each.
	if m := got.Max(); math.Abs(m-2) > 1e-12 {
		t.Errorf("Max = %v, want 2", m)
	}
	if b := len(got.Busiest()); b != 10 {
		t.Errorf("%d busiest links, want all 10", b)
	}
}
