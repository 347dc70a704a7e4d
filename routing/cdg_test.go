package routing

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"netsim/topologies"
)

// chanKey names a channel in the reference search: kind 'i' is the
// injection link into (sw, port), 'l' the switch link into (sw, port), 'e'
// the ejection link out of (sw, port); vl its VL.
type chanKey struct {
	kind     byte
	sw, port int
	vl       int
}

// depKey is one dependency of the reference search.
type depKey struct{ from, to chanKey }

// inKey returns the channel a packet at (sw, port) arrived on.
func inKey(net *topologies.Network, sw, port, vl int) chanKey {
	if net.Switches[sw].Ports[port].Kind == topologies.HostPort {
		return chanKey{'i', sw, port, vl}
	}
	return chanKey{'l', sw, port, vl}
}

// referenceCDG builds the channel dependency graph the slow, obvious way:
// for every ordered pair of distinct hosts, a breadth-first search over
// (switch, input port, input VL) with a map, following every candidate
// with the pair's SL.
func referenceCDG(t *testing.T, r Routing, net *topologies.Network) map[depKey]bool {
	t.Helper()
	deps := map[depKey]bool{}
	type state struct{ sw, port, vl int }
	for dst := range net.Hosts {
		for src := range net.Hosts {
			if src == dst {
				continue
			}
			dlid, sl, vl := r.Source(src, dst)
			start := state{int(net.Hosts[src].Switch), int(net.Hosts[src].Port), vl}
			seen := map[state]bool{start: true}
			queue := []state{start}
			for len(queue) > 0 {
				s := queue[0]
				queue = queue[1:]
				from := inKey(net, s.sw, s.port, s.vl)
				for _, c := range r.Route(s.sw, s.port, s.vl, sl, dlid, nil) {
					ov := r.OutVL(s.sw, s.port, s.vl, sl, int(c.Port))
					p := net.Switches[s.sw].Ports[c.Port]
					if p.Kind == topologies.HostPort {
						if int(p.Peer) != dst {
							t.Fatalf("%d→%d delivered to host %d", src, dst, p.Peer)
						}
						deps[depKey{from, chanKey{'e', s.sw, int(c.Port), ov}}] = true
						continue
					}
					next := state{int(p.Peer), int(p.PeerPort), ov}
					deps[depKey{from, chanKey{'l', next.sw, next.port, ov}}] = true
					if !seen[next] {
						seen[next] = true
						queue = append(queue, next)
					}
				}
			}
		}
	}
	return deps
}

// cdgDeps returns the dependencies of g in the reference's terms.
func cdgDeps(g *cdg) map[depKey]bool {
	deps := map[depKey]bool{}
	for st := range len(g.kind) * g.vls {
		gp, vl := st/g.vls, st%g.vls
		sw := int(g.portSw[gp])
		from := chanKey{'l', sw, gp - int(g.portStart[sw]), vl}
		if g.kind[gp] == topologies.HostPort {
			from.kind = 'i'
		}
		row := g.row(st)
		for c := range len(row) * 64 {
			if row[c/64].Load()&(1<<(c%64)) == 0 {
				continue
			}
			op, ov := int(g.portStart[sw])+c/g.vls, c%g.vls
			to := chanKey{'e', sw, c / g.vls, ov}
			if g.kind[op] == topologies.SwitchPort {
				peer := int(g.next[op])
				psw := int(g.portSw[peer])
				to = chanKey{'l', psw, peer - int(g.portStart[psw]), ov}
			}
			deps[depKey{from, to}] = true
		}
	}
	return deps
}

// acyclicLinks reports whether the link channels of deps form an acyclic
// graph, by Kahn's algorithm.
func acyclicLinks(deps map[depKey]bool) bool {
	indeg := map[chanKey]int{}
	out := map[chanKey][]chanKey{}
	for d := range deps {
		if d.from.kind != 'l' || d.to.kind != 'l' {
			continue
		}
		out[d.from] = append(out[d.from], d.to)
		indeg[d.to]++
		if _, ok := indeg[d.from]; !ok {
			indeg[d.from] = 0
		}
	}
	var ready []chanKey
	for c, n := range indeg {
		if n == 0 {
			ready = append(ready, c)
		}
	}
	done := 0
	for len(ready) > 0 {
		c := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		done++
		for _, d := range out[c] {
			if indeg[d]--; indeg[d] == 0 {
				ready = append(ready, d)
			}
		}
	}
	return done == len(indeg)
}

// checkCycle fails unless c is a cycle of dependencies of deps between
// switch links that net has.
func checkCycle(t *testing.T, net *topologies.Network, deps map[depKey]bool, c Cycle) {
	t.Helper()
	if len(c) == 0 {
		t.Fatal("empty cycle")
	}
	for i, ch := range c {
		p := net.Switches[ch.Switch].Ports[ch.Port]
		if p.Kind != topologies.SwitchPort || int(p.Peer) != ch.PeerSwitch || int(p.PeerPort) != ch.PeerPort {
			t.Fatalf("cycle channel %d (%v) is not a link of the network", i, ch)
		}
		next := c[(i+1)%len(c)]
		d := depKey{chanKey{'l', ch.PeerSwitch, ch.PeerPort, ch.VL}, chanKey{'l', next.PeerSwitch, next.PeerPort, next.VL}}
		if next.Switch != ch.PeerSwitch || !deps[d] {
			t.Fatalf("cycle %v: no dependency %v -> %v", c, ch, next)
		}
	}
}

// countDeps returns the channel counts of deps as a Report would.
func countDeps(deps map[depKey]bool) (channels, inj, ej int) {
	seen := map[chanKey]bool{}
	for d := range deps {
		for _, c := range []chanKey{d.from, d.to} {
			if seen[c] {
				continue
			}
			seen[c] = true
			switch c.kind {
			case 'l':
				channels++
			case 'i':
				inj++
			case 'e':
				ej++
			}
		}
	}
	return channels, inj, ej
}

// cdgCase is a routing on a network with its expected verdict.
type cdgCase struct {
	name    string
	net     topologies.Spec
	algo    string
	vls     int
	acyclic bool
}

func cdgCases() []cdgCase {
	ff33 := topologies.Spec{Kind: "flatfly", Dims: []int{3, 3}, Widths: []int{1, 2}, HostsPerSwitch: 2}
	ring8 := topologies.Spec{Kind: "ring", Switches: 8, HostsPerSwitch: 1}
	ring5w2 := topologies.Spec{Kind: "ring", Switches: 5, Widths: []int{2}, HostsPerSwitch: 2}
	return []cdgCase{
		{"dor flatfly 4x3x2", topologies.Spec{Kind: "flatfly", Dims: []int{4, 3, 2}, Widths: []int{1, 2, 1}, HostsPerSwitch: 2}, "dor", 2, true},
		{"dor hypercube 3", topologies.Spec{Kind: "hypercube", Dimension: 3, HostsPerSwitch: 1}, "dor", 1, true},
		{"dor crossbar", topologies.Spec{Kind: "crossbar", Hosts: 6}, "dor", 3, true},
		{"dor ring 5 w2", ring5w2, "dor", 2, true},
		{"dor torus 4x3x4 C2", topologies.Spec{Kind: "torus", Dims: []int{4, 3, 4}, HostsPerSwitch: 2}, "dor", 4, true},
		{"dor-nodateline ring 5 w2", ring5w2, "dor-nodateline", 2, false},
		{"dor-nodateline ring 8", ring8, "dor-nodateline", 1, false},
		// Ring of 8: diameter 4.
		{"distance ring 1 VL", ring8, "distance", 1, false},
		{"distance ring 3 VLs", ring8, "distance", 3, false},
		{"distance ring 4 VLs", ring8, "distance", 4, true},
		{"distance ring 5 VLs", ring8, "distance", 5, true},
		// D + E = 5 > 4 VLs for the farthest pairs, yet no cycle: their
		// paths stay minimal (budget 0 on the first hop) and use VLs 0, 3,
		// 2, 1: the condition D + E ≤ V is sufficient, not necessary.
		{"distance+1 ring 3 VLs", ring8, "distance+1", 3, false},
		{"distance+1 ring 4 VLs", ring8, "distance+1", 4, true},
		{"distance+1 ring 5 VLs", ring8, "distance+1", 5, true},
		{"deflection+2 ring 5 VLs", ring8, "deflection+2", 5, false},
		{"deflection+2 ring 6 VLs", ring8, "deflection+2", 6, true},
		{"deflection+3 ring 5 w2 5 VLs", ring5w2, "deflection+3", 5, true},
		{"deflection+3 ring 5 w2 4 VLs", ring5w2, "deflection+3", 4, false},
		// FlatFly 3×3: diameter 2.
		{"distance flatfly 1 VL", ff33, "distance", 1, false},
		{"distance flatfly 2 VLs", ff33, "distance", 2, true},
		{"distance+2 flatfly 3 VLs", ff33, "distance+2", 3, false},
		{"distance+2 flatfly 4 VLs", ff33, "distance+2", 4, true},
		{"deflection+2 flatfly 3 VLs", ff33, "deflection+2", 3, false},
		{"deflection+2 flatfly 4 VLs", ff33, "deflection+2", 4, true},
		{"deflection+3 flatfly 8 VLs", ff33, "deflection+3", 8, true},
	}
}

// TestCheckDeadlock compares the graph, the counts and the verdict of
// CheckDeadlock with a pairwise reference search and Kahn's algorithm, and
// checks that a reported cycle is made of dependencies the routing has.
func TestCheckDeadlock(t *testing.T) {
	for _, tc := range cdgCases() {
		t.Run(tc.name, func(t *testing.T) {
			net := mustBuild(t, tc.net)
			r, err := New(Spec{Algorithm: tc.algo, VLs: tc.vls}, net)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := CheckDeadlock(context.Background(), r, net, CheckOptions{VLs: tc.vls, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			compareWithReference(t, r, net, tc.vls, rep)
			if rep.Acyclic() != tc.acyclic {
				t.Fatalf("acyclic = %v, want %v (cycle %v)", rep.Acyclic(), tc.acyclic, rep.Cycle)
			}
		})
	}
}

// compareWithReference checks rep and the graph CheckDeadlock builds for r
// against the reference search.
func compareWithReference(t *testing.T, r Routing, net *topologies.Network, vls int, rep *Report) {
	t.Helper()
	ref := referenceCDG(t, r, net)
	g, err := newCDG(net, vls, r.SLs())
	if err != nil {
		t.Fatal(err)
	}
	if err := g.explore(context.Background(), r, net, 1, false); err != nil {
		t.Fatal(err)
	}
	if got := cdgDeps(g); !reflect.DeepEqual(got, ref) {
		for d := range ref {
			if !got[d] {
				t.Errorf("missing dependency %v", d)
			}
		}
		for d := range got {
			if !ref[d] {
				t.Errorf("extra dependency %v", d)
			}
		}
		t.FailNow()
	}
	channels, inj, ej := countDeps(ref)
	if rep.Channels != channels || rep.Injection != inj || rep.Ejection != ej || rep.Dependencies != len(ref) {
		t.Fatalf("report %d channels, %d injection, %d ejection, %d dependencies; reference %d, %d, %d, %d",
			rep.Channels, rep.Injection, rep.Ejection, rep.Dependencies, channels, inj, ej, len(ref))
	}
	if want := acyclicLinks(ref); rep.Acyclic() != want {
		t.Fatalf("acyclic = %v, Kahn's algorithm says %v", rep.Acyclic(), want)
	}
	if !rep.Acyclic() {
		checkCycle(t, net, ref, rep.Cycle)
	}
}

func TestCheckDeadlockRingCycle(t *testing.T) {
	// Minimal routing on a ring of 5 without datelines: the only cycles go
	// all the way round in one direction, on the one VL.
	net := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 5, Widths: []int{2}, HostsPerSwitch: 1})
	r, err := New(Spec{Algorithm: "dor-nodateline", VLs: 1}, net)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := CheckDeadlock(context.Background(), r, net, CheckOptions{VLs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Cycle) != 5 {
		t.Fatalf("cycle %v, want 5 channels", rep.Cycle)
	}
	step := (rep.Cycle[0].PeerSwitch - rep.Cycle[0].Switch + 5) % 5
	for _, c := range rep.Cycle {
		if (c.PeerSwitch-c.Switch+5)%5 != step || c.VL != 0 {
			t.Fatalf("cycle %v does not go round one way on VL 0", rep.Cycle)
		}
	}
	// 5 switches × 2 directions × 2 parallel links, all used; one
	// injection and one ejection channel per host.
	if rep.Channels != 20 || rep.Injection != 5 || rep.Ejection != 5 {
		t.Fatalf("%d channels, %d injection, %d ejection; want 20, 5, 5", rep.Channels, rep.Injection, rep.Ejection)
	}
}

// twistedRing is a test routing that depends on the source (Source gives
// DLID dst + hosts, or with bySL SL 1, for odd sources), the input port (a
// packet keeps going the way it came) and, with datelines, changes VL: it
// checks that the search is exact for such routings. With bySL, packets
// of both directions share DLIDs and meet in the same (port, VL) states,
// told apart only by their SL.
type twistedRing struct {
	hosts    int
	n        int
	dateline bool
	bySL     bool
	net      *topologies.Network
}

func (r *twistedRing) Name() string { return "twisted-test" }
func (r *twistedRing) VLs() int     { return 2 }
func (r *twistedRing) SLs() int     { return 2 }

func (r *twistedRing) Source(src, dst int) (int32, int, int) {
	vl := 0
	if !r.dateline {
		vl = src / 2 % 2 // the parity of the source switch
	}
	if r.bySL {
		return int32(dst), src % 2, vl
	}
	return int32(dst + r.hosts*(src%2)), 0, vl
}

// Route goes + for even sources and − for odd ones (a DLID of the second
// range or SL 1), the port of the same direction as the one it came on;
// from a host port the direction follows the DLID or SL.
func (r *twistedRing) Route(sw, inPort, inVL, sl int, dlid int32, out []Candidate) []Candidate {
	dst := int(dlid) % r.hosts
	h := r.net.Hosts[dst]
	if int(h.Switch) == sw {
		return append(out, Candidate{Port: h.Port, Priority: High})
	}
	want := (sw + 1) % r.n
	if int(dlid) >= r.hosts || sl == 1 {
		want = (sw + r.n - 1) % r.n
	}
	if in := r.net.Switches[sw].Ports[inPort]; in.Kind == topologies.SwitchPort {
		want = 2*sw - int(in.Peer) // away from where it came
		want = (want%r.n + r.n) % r.n
	}
	for p, port := range r.net.Switches[sw].Ports {
		if port.Kind == topologies.SwitchPort && int(port.Peer) == want {
			out = append(out, Candidate{Port: int32(p), Priority: High})
		}
	}
	return out
}

// OutVL moves to VL 1 on the link between positions n−1 and 0 with
// datelines.
func (r *twistedRing) OutVL(sw, inPort, inVL, sl, outPort int) int {
	p := r.net.Switches[sw].Ports[outPort]
	if r.dateline && p.Kind == topologies.SwitchPort && (sw == 0 && int(p.Peer) == r.n-1 || sw == r.n-1 && p.Peer == 0) {
		return 1
	}
	return inVL
}

func TestCheckDeadlockSourceAndPortDependent(t *testing.T) {
	for _, tc := range []struct{ dateline, bySL bool }{{true, false}, {false, false}, {true, true}, {false, true}} {
		dateline := tc.dateline
		t.Run(fmt.Sprintf("dateline %v by SL %v", dateline, tc.bySL), func(t *testing.T) {
			net := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 6, HostsPerSwitch: 2})
			r := &twistedRing{hosts: len(net.Hosts), n: 6, dateline: dateline, bySL: tc.bySL, net: net}
			rep, err := CheckDeadlock(context.Background(), r, net, CheckOptions{VLs: 2, Workers: 3})
			if err != nil {
				t.Fatal(err)
			}
			compareWithReference(t, r, net, 2, rep)
			if rep.Acyclic() != dateline {
				t.Fatalf("acyclic = %v, want %v (cycle %v)", rep.Acyclic(), dateline, rep.Cycle)
			}
			// Without datelines, even sources go + and odd ones −, each on
			// the VL of its switch's parity: every link direction on both
			// VLs.
			if !dateline && rep.Channels != 24 {
				t.Fatalf("%d channels, want 6 switches × 2 directions × 2 VLs = 24", rep.Channels)
			}
		})
	}
}

func TestCheckDeadlockWorkersAgree(t *testing.T) {
	net := randomNetwork(t, 5, 30, 20)
	for _, algo := range []string{"distance", "deflection+2"} {
		r, err := New(Spec{Algorithm: algo, VLs: 3}, net)
		if err != nil {
			t.Fatal(err)
		}
		var first *Report
		for _, w := range []int{1, 2, 5} {
			rep, err := CheckDeadlock(context.Background(), r, net, CheckOptions{VLs: 3, Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = rep
				compareWithReference(t, r, net, 3, rep)
				continue
			}
			if !reflect.DeepEqual(rep, first) {
				t.Fatalf("%s: %d workers give %+v, 1 worker %+v", algo, w, rep, first)
			}
		}
	}
}

// brokenRouting wraps a routing and breaks one answer.
type brokenRouting struct {
	Routing
	fault string
}

func (b *brokenRouting) Route(sw, inPort, inVL, sl int, dlid int32, out []Candidate) []Candidate {
	out = b.Routing.Route(sw, inPort, inVL, sl, dlid, out)
	if b.fault == "first host" && sw == 0 && inPort > 1 && dlid < 2 {
		// Packets to hosts 0 and 1 that come over a link all go to host
		// 0, which is right for host 0 only.
		return append(out[:0], Candidate{Port: 0, Priority: High})
	}
	if sw != 1 || dlid != 0 {
		return out
	}
	switch b.fault {
	case "none":
		return out[:0]
	case "port":
		return append(out, Candidate{Port: 99, Priority: High})
	case "host":
		return append(out[:0], Candidate{Port: 1, Priority: High}) // host 3's port
	}
	return out
}

func (b *brokenRouting) OutVL(sw, inPort, inVL, sl, outPort int) int {
	if b.fault == "vl" && sw == 1 {
		return 2
	}
	return b.Routing.OutVL(sw, inPort, inVL, sl, outPort)
}

func (b *brokenRouting) Source(src, dst int) (int32, int, int) {
	dlid, sl, vl := b.Routing.Source(src, dst)
	if b.fault == "source" && src == 5 {
		vl = -1
	}
	if b.fault == "source SL" && src == 5 {
		sl = 1
	}
	return dlid, sl, vl
}

func (b *brokenRouting) SLs() int {
	if b.fault == "SLs" {
		return MaxSLs + 1
	}
	return b.Routing.SLs()
}

func TestCheckDeadlockErrors(t *testing.T) {
	// Ring of 4, 2 hosts per switch: hosts 0 and 1 on switch 0 ports 0
	// and 1, host 3 on switch 1 port 1.
	net := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 4, HostsPerSwitch: 2})
	base, err := New(Spec{Algorithm: "dor-nodateline", VLs: 1}, net)
	if err != nil {
		t.Fatal(err)
	}
	if p := net.Switches[1].Ports[1]; p.Kind != topologies.HostPort || p.Peer != 3 {
		t.Fatalf("switch 1 port 1 is %+v, want host 3", p)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		r    Routing
		vls  int
		ctx  context.Context
		want string
	}{
		{"no candidate", &brokenRouting{base, "none"}, 1, nil,
			"routing dor-nodateline: no candidate at switch 1 for a packet to host 0 (DLID 0, SL 0) that arrived on port 0 with VL 0"},
		{"bad port", &brokenRouting{base, "port"}, 1, nil,
			"routing dor-nodateline: switch 1 offers port 99, which is out of range or unused, to a packet to host 0 (DLID 0, SL 0) that arrived on port 0 with VL 0"},
		{"wrong host", &brokenRouting{base, "host"}, 1, nil,
			"routing dor-nodateline: switch 1 delivers a packet to host 0 (DLID 0) to host 3 on port 1"},
		{"wrong host in transit", &brokenRouting{base, "first host"}, 1, nil,
			"routing dor-nodateline: switch 0 delivers a packet to host 1 (DLID 1) to host 0 on port 0"},
		{"bad VL", &brokenRouting{base, "vl"}, 2, nil,
			"routing dor-nodateline: switch 1 gives VL 2, outside [0,2), on port 3 to a packet to host 0 (DLID 0, SL 0) that arrived on port 0 with VL 0"},
		{"bad source VL", &brokenRouting{base, "source"}, 1, nil,
			"routing dor-nodateline: source VL -1 for host 5 to host 0 is outside [0,1)"},
		{"bad source SL", &brokenRouting{base, "source SL"}, 1, nil,
			"routing dor-nodateline: source SL 1 for host 5 to host 0 is outside [0,1)"},
		{"too many SLs", &brokenRouting{base, "SLs"}, 1, nil,
			"routing dor-nodateline: uses 17 service levels, want 1 to 16"},
		{"zero VLs", base, 0, nil, "vls: deadlock check needs 1 to 16 virtual lanes, got 0"},
		{"cancelled", base, 1, cancelled, "routing dor-nodateline: context canceled"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			for _, w := range []int{1, 4} {
				rep, err := CheckDeadlock(ctx, tc.r, net, CheckOptions{VLs: tc.vls, Workers: w})
				if err == nil {
					t.Fatalf("report %+v, want error %q", rep, tc.want)
				}
				if err.Error() != tc.want {
					t.Fatalf("%d workers: error\n got %q\nwant %q", w, err, tc.want)
				}
			}
		})
	}
	if _, err := CheckDeadlock(context.Background(), nil, net, CheckOptions{VLs: 1}); err == nil {
		t.Fatal("nil routing accepted")
	}
}
