package routing

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"netsim/kernel"
	"netsim/topologies"
)

// dorFamilyAlgorithms lists the DOR family in a fixed order.
func dorFamilyAlgorithms() []string { return strings.Split(dorFamilyNames, ", ") }

// dorNet is a test network for the DOR family, with the VLs each algorithm
// of dorFamilyAlgorithms needs on it (seed 004 §3.3's layout).
type dorNet struct {
	name string
	spec topologies.Spec
	need []int // VLs() per algorithm, in dorFamilyAlgorithms() order
}

// dorNets returns small FlatFlies (2-D to 4-D, parallel links) and Slim
// Fly × FlatFly products (the Slim Fly first and last, and alone).
func dorNets() []dorNet {
	sf3 := topologies.Spec{Kind: "slimfly", Q: 3}
	return []dorNet{
		{"flatfly 3x2x4 widths 2,1,2 C2",
			topologies.Spec{Kind: "flatfly", Dims: []int{3, 2, 4}, Widths: []int{2, 1, 2}, HostsPerSwitch: 2},
			[]int{1, 3, 2, 6, 2, 6, 2, 6}},
		{"flatfly 3x3 widths 1,2 C3", // every twist target in use
			topologies.Spec{Kind: "flatfly", Dims: []int{3, 3}, Widths: []int{1, 2}, HostsPerSwitch: 3},
			[]int{1, 2, 2, 4, 2, 4, 2, 4}},
		{"hyperx 2x2x3x2 widths 1,2,1,1 C4",
			topologies.Spec{Kind: "hyperx", Dims: []int{2, 2, 3, 2}, Widths: []int{1, 2, 1, 1}, HostsPerSwitch: 4},
			[]int{1, 4, 2, 8, 2, 8, 2, 8}},
		{"slimfly q3 x flatfly 3 width 2, C2",
			topologies.Spec{Kind: "product", HostsPerSwitch: 2, Factors: []topologies.Spec{sf3, {Kind: "flatfly", Dims: []int{3}, Widths: []int{2}}}},
			[]int{2, 4, 2, 4, 2, 4, 2, 4}},
		{"flatfly 2 x slimfly q3 width 2, C3",
			topologies.Spec{Kind: "product", HostsPerSwitch: 3, Factors: []topologies.Spec{{Kind: "flatfly", Dims: []int{2}}, {Kind: "slimfly", Q: 3, Width: 2}}},
			[]int{2, 4, 2, 4, 2, 4, 2, 4}},
		{"slimfly q3 x flatfly 1, C3", // the twist in the Slim Fly
			topologies.Spec{Kind: "product", HostsPerSwitch: 3, Factors: []topologies.Spec{sf3, {Kind: "flatfly", Dims: []int{1}}}},
			[]int{2, 4, 3, 6, 2, 4, 3, 6}},
	}
}

// dorModel is the test's statement of one DOR-family routing on one
// network, from seed 004 §3.3 and New's documentation, in terms of switch
// distances over the whole network rather than the routing's tables.
type dorModel struct {
	net     *topologies.Network
	v       dorVariant
	dist    [][]int
	stride  []int   // switch index = Σ coord·stride
	orders  [][]int // dimension orders in use
	perVL   int     // P
	twistVL int     // T
	classes int
}

func newDORModel(t *testing.T, net *topologies.Network, alg string, need, vls int) *dorModel {
	t.Helper()
	v, ok := dorVariantOf(alg)
	if !ok {
		t.Fatalf("%s is not of the DOR family", alg)
	}
	m := &dorModel{net: net, v: v, dist: bruteDistances(net)}
	st := 1
	for _, k := range net.Dims {
		m.stride = append(m.stride, st)
		st *= k
	}
	m.orders = dimOrders(len(net.Dims))
	if !v.mixed {
		m.orders = m.orders[:1]
	}
	m.perVL = need / len(m.orders)
	m.twistVL = 1
	for _, o := range m.orders {
		if !m.complete(m.twistDim(o)) {
			m.twistVL = 2
		}
	}
	m.classes = len(m.orders) * max(1, vls/need)
	return m
}

// complete reports whether dimension n is a complete graph.
func (m *dorModel) complete(n int) bool {
	for s := range m.net.Switches {
		c := 0
		for _, p := range m.net.Switches[s].Ports {
			if p.Kind == topologies.SwitchPort && int(p.Dim) == n {
				c++
			}
		}
		if c != m.net.Widths[n]*(m.net.Dims[n]-1) {
			return false
		}
	}
	return true
}

// twistDim returns the dimension a twisted routing twists in for order o:
// the last complete dimension of more than one switch, else the last of
// more than one switch (a Slim Fly).
func (m *dorModel) twistDim(o []int) int {
	for _, complete := range []bool{true, false} {
		for i := len(o) - 1; i >= 0; i-- {
			if n := o[i]; m.net.Dims[n] > 1 && (m.complete(n) || !complete) {
				return n
			}
		}
	}
	return o[len(o)-1]
}

// with returns switch s with coordinate n set to v.
func (m *dorModel) with(s, n, v int) int {
	return s + (v-int(m.net.Switches[s].Coord[n]))*m.stride[n]
}

// dimDist is the distance from switch a to the switch with b's coordinate
// in dimension n and a's elsewhere.
func (m *dorModel) dimDist(a, b, n int) int {
	return m.dist[a][m.with(a, n, int(m.net.Switches[b].Coord[n]))]
}

// prio classifies a hop from a to b toward dsw by distance.
func (m *dorModel) prio(a, b, dsw int) Priority {
	switch da, db := m.dist[a][dsw], m.dist[b][dsw]; {
	case db < da:
		return High
	case db == da:
		return Medium
	}
	return Low
}

// twistTarget returns the switch the twist hop from sw leads to for a
// packet with local destination index d in dimension n, sw itself for none.
func (m *dorModel) twistTarget(sw, n, d int) int {
	if m.complete(n) {
		return m.with(sw, n, d%m.net.Dims[n])
	}
	coords := []int{int(m.net.Switches[sw].Coord[n])}
	for _, p := range m.net.Switches[sw].Ports {
		if p.Kind == topologies.SwitchPort && int(p.Dim) == n {
			coords = append(coords, int(m.net.Switches[p.Peer].Coord[n]))
		}
	}
	slices.Sort(coords)
	coords = slices.Compact(coords)
	return m.with(sw, n, coords[d%len(coords)])
}

// candidates returns the candidates the model expects at switch sw for a
// packet to host dst that came in on a port of dimension inDim (-1: a
// host) with local VL local, in class class.
func (m *dorModel) candidates(sw, inDim, local, class, dst int) []Candidate {
	net := m.net
	dsw, d := int(net.Hosts[dst].Switch), dst%net.HostsPerSwitch
	if sw == dsw {
		return []Candidate{{Port: net.Hosts[dst].Port, Priority: High}}
	}
	o := m.orders[class%len(m.orders)]
	last := m.twistDim(o)
	var out []Candidate
	add := func(n int, keep func(peer int) (Priority, bool)) []Candidate {
		for p, port := range net.Switches[sw].Ports {
			if port.Kind == topologies.SwitchPort && int(port.Dim) == n {
				if pr, ok := keep(int(port.Peer)); ok {
					out = append(out, Candidate{Port: int32(p), Priority: pr})
				}
			}
		}
		return out
	}
	if m.v.twisted && inDim < 0 {
		if to := m.twistTarget(sw, last, d); to != sw {
			return add(last, func(peer int) (Priority, bool) { return m.prio(sw, to, dsw), peer == to })
		}
	}
	for _, n := range o {
		if m.dimDist(sw, dsw, n) == 0 {
			continue
		}
		first := inDim != n || (m.v.twisted && local == m.twistVL && inDim == last)
		extra := m.v.adaptive && first && !(m.v.twisted && n == last)
		return add(n, func(peer int) (Priority, bool) {
			switch {
			case m.dist[peer][dsw] < m.dist[sw][dsw]:
				return High, true
			case extra && m.dist[peer][dsw] == m.dist[sw][dsw] && m.dimDist(peer, dsw, n) <= 1:
				return Medium, true
			}
			return 0, false
		})
	}
	return nil
}

// dorHop is one switch-to-switch hop of a walked path.
type dorHop struct {
	from, to, dim, vl int
}

// walkDOR walks a packet src→dst, at every switch comparing the routing's
// candidates with the model's and picking one with rng (choose: 0 any,
// 1 highest priority first, 2 lowest priority first), and checks the VL of
// every hop against the model's rules. It returns the hops.
func (m *dorModel) walkDOR(t *testing.T, r Routing, src, dst int, rng *kernel.RNG, choose int) []dorHop {
	t.Helper()
	net := m.net
	dlid, sl, vl := r.Source(src, dst)
	d := dst % net.HostsPerSwitch
	class := d % m.classes
	if int(dlid) != dst || vl != class*m.perVL {
		t.Fatalf("Source(%d,%d) = %d, %d; want %d, %d (class d mod %d = %d)", src, dst, dlid, vl, dst, class*m.perVL, m.classes, class)
	}
	o := m.orders[class%len(m.orders)]
	last := m.twistDim(o)
	sw, inPort, inDim := int(net.Hosts[src].Switch), int(net.Hosts[src].Port), -1
	var hops []dorHop
	for range 4 * len(net.Dims) {
		cands := r.Route(sw, inPort, vl, sl, dlid, nil)
		want := m.candidates(sw, inDim, vl%m.perVL, class, dst)
		byPort := func(a, b Candidate) int { return int(a.Port - b.Port) }
		if !slices.Equal(slices.SortedFunc(slices.Values(cands), byPort), slices.SortedFunc(slices.Values(want), byPort)) {
			t.Fatalf("%d→%d at switch %d %v (in dim %d, VL %d): candidates %v, want %v; path %v",
				src, dst, sw, net.Switches[sw].Coord, inDim, vl, cands, want, hops)
		}
		if sw == int(net.Hosts[dst].Switch) {
			if got := r.OutVL(sw, inPort, vl, sl, int(cands[0].Port)); got != vl {
				t.Fatalf("%d→%d: OutVL to the host = %d, want %d", src, dst, got, vl)
			}
			return hops
		}
		c := pick(cands, rng, choose)
		port := net.Switches[sw].Ports[c.Port]
		// The VL rules: T on a hop from a host in the twist dimension
		// (twisted), 0 after it, 1 on a second hop in one dimension, else 0.
		local := 0
		switch {
		case m.v.twisted && inDim < 0 && int(port.Dim) == last:
			local = m.twistVL
		case m.v.twisted && len(hops) == 1 && hops[0].vl%m.perVL == m.twistVL && hops[0].dim == last:
		case int(port.Dim) == inDim && m.perVL > 1:
			local = 1
		}
		got := r.OutVL(sw, inPort, vl, sl, int(c.Port))
		if got != class*m.perVL+local {
			t.Fatalf("%d→%d at switch %d: OutVL = %d, want %d (class %d, local %d); path %v", src, dst, sw, got, class*m.perVL+local, class, local, hops)
		}
		hops = append(hops, dorHop{from: sw, to: int(port.Peer), dim: int(port.Dim), vl: got})
		sw, inPort, inDim, vl = int(port.Peer), int(port.PeerPort), int(port.Dim), got
	}
	t.Fatalf("%d→%d: no arrival after %d hops: %v", src, dst, len(hops), hops)
	return nil
}

// pick chooses a candidate: any (0), one of the highest priority (1) or one
// of the lowest (2).
func pick(cands []Candidate, rng *kernel.RNG, choose int) Candidate {
	if choose == 0 {
		return cands[rng.IntN(len(cands))]
	}
	best := cands[0].Priority
	for _, c := range cands {
		if (choose == 1 && c.Priority > best) || (choose == 2 && c.Priority < best) {
			best = c.Priority
		}
	}
	var some []Candidate
	for _, c := range cands {
		if c.Priority == best {
			some = append(some, c)
		}
	}
	return some[rng.IntN(len(some))]
}

// checkShape checks a walked path against the algorithm: after the twist
// hop (if any), dimensions in the class's order, in each the dimension
// distance (dor) or at most 2 hops with the first sideways when there are 2
// in a FlatFly dimension (ador; none extra in the twist dimension when
// twisted), and the twist hop to coordinate d mod K_L of a FlatFly
// dimension.
func (m *dorModel) checkShape(t *testing.T, src, dst int, hops []dorHop) {
	t.Helper()
	net := m.net
	d := dst % net.HostsPerSwitch
	o := m.orders[d%m.classes%len(m.orders)]
	last := m.twistDim(o)
	ssw, dsw := int(net.Hosts[src].Switch), int(net.Hosts[dst].Switch)
	rest, start := hops, ssw
	if m.v.twisted && ssw != dsw {
		if to := m.twistTarget(ssw, last, d); to != ssw {
			if len(hops) == 0 || hops[0].to != to {
				t.Fatalf("%d→%d: first hop %v, want the twist to switch %d", src, dst, hops, to)
			}
			rest, start = hops[1:], to
		}
	}
	pos := 0
	perDim := make([]int, len(net.Dims))
	for _, h := range rest {
		i := slices.Index(o, h.dim)
		if i < pos {
			t.Fatalf("%d→%d: dimension %d after a later one in order %v: %v", src, dst, h.dim, o, hops)
		}
		pos = i
		perDim[h.dim]++
	}
	for n, k := range perDim {
		dn := m.dimDist(start, dsw, n)
		lo, hi := dn, dn
		if m.v.adaptive && dn > 0 && !(m.v.twisted && n == last) {
			hi = 2
		}
		if k < lo || k > hi {
			t.Fatalf("%d→%d: %d hops in dimension %d, want %d..%d: %v", src, dst, k, n, lo, hi, hops)
		}
	}
}

// TestDORFamilyWalks walks every source–destination pair of every test
// network with every DOR-family algorithm, with 8 VLs (or as many as the
// routing needs) and with twice its need, three times per pair, checking
// every candidate set and VL against the model and the path's shape and
// length.
func TestDORFamilyWalks(t *testing.T) {
	for _, tn := range dorNets() {
		net := mustBuild(t, tn.spec)
		for ai, alg := range dorFamilyAlgorithms() {
			if alg == "dor" && net.Kind != "product" {
				continue // New gives flatFlyDOR there, walked in flatfly_dor_test.go
			}
			need := tn.need[ai]
			vlss := slices.Compact([]int{max(8, need), 2 * need})
			if testing.Short() {
				vlss = vlss[:1]
			}
			for _, vls := range vlss {
				t.Run(fmt.Sprintf("%s/%s/vls=%d", tn.name, alg, vls), func(t *testing.T) {
					r, err := New(Spec{Algorithm: alg, VLs: vls}, net)
					if err != nil {
						t.Fatal(err)
					}
					if r.Name() != alg || r.VLs() != need {
						t.Fatalf("Name %q VLs %d, want %q %d", r.Name(), r.VLs(), alg, need)
					}
					m := newDORModel(t, net, alg, need, vls)
					rng := kernel.NewRNG(1, uint64(ai), uint64(vls))
					bound := m.bound()
					for src := range net.Hosts {
						for dst := range net.Hosts {
							for choose := range 3 - 2*btoi(testing.Short()) {
								hops := m.walkDOR(t, r, src, dst, &rng, choose)
								m.checkShape(t, src, dst, hops)
								if len(hops) > bound {
									t.Fatalf("%d→%d: %d hops, bound %d: %v", src, dst, len(hops), bound, hops)
								}
							}
						}
					}
				})
			}
		}
	}
}

// bound returns the most hops a path may take: over the orders in use (of
// the classes of local indices 0..C−1), the sum over dimensions of the hops
// allowed in each, plus one for the twist.
func (m *dorModel) bound() int {
	best := 0
	for k := range min(m.classes, m.net.HostsPerSwitch) {
		o := m.orders[k%len(m.orders)]
		last, b := m.twistDim(o), 0
		for _, n := range o {
			switch k := m.net.Dims[n]; {
			case k == 1:
			case !m.complete(n):
				b += 2 // a Slim Fly: its diameter, and no more with ador
			case k > 2 && m.v.adaptive && !(m.v.twisted && n == last):
				b += 2
			default:
				b++
			}
		}
		if m.v.twisted {
			b++
		}
		best = max(best, b)
	}
	return best
}

// TestDORFamilyDeadlockFree follows every candidate of every algorithm on
// every test network: the channel dependency graph over (link, VL) is
// acyclic, no packet can cycle, and the longest path is the bound (dor:
// the diameter; ador: 2 per dimension of more than 2 switches; twisted:
// one more, but ador none extra in the twist dimension).
func TestDORFamilyDeadlockFree(t *testing.T) {
	for _, tn := range dorNets() {
		net := mustBuild(t, tn.spec)
		for ai, alg := range dorFamilyAlgorithms() {
			t.Run(tn.name+"/"+alg, func(t *testing.T) {
				vls := tn.need[ai]
				r, err := New(Spec{Algorithm: alg, VLs: vls}, net)
				if err != nil {
					t.Fatal(err)
				}
				m := newDORModel(t, net, alg, vls, vls)
				ex := explore(t, net, r, vls)
				if ex.cycle != nil {
					t.Fatalf("channel dependency cycle: %v", ex.cycle)
				}
				if want := m.bound(); ex.maxHops != want {
					t.Fatalf("longest path %d hops, want %d", ex.maxHops, want)
				}
			})
		}
	}
}

// TestDORFamilyTwistedLiteralVLRuleCycles shows why a twisted ADOR packet
// leaves the twist hop on VL 0: with ADOR's "same dimension → VL 1" applied
// after the twist, the twist channels (VL 1) depend on each other and the
// dependency graph has a cycle.
func TestDORFamilyTwistedLiteralVLRuleCycles(t *testing.T) {
	net := mustBuild(t, topologies.Spec{Kind: "flatfly", Dims: []int{3, 3}, HostsPerSwitch: 3})
	r, err := newDORFamily("twisted-ador", net, 2)
	if err != nil {
		t.Fatal(err)
	}
	if ex := explore(t, net, r, 2); ex.cycle != nil {
		t.Fatalf("twisted-ador: cycle %v", ex.cycle)
	}
	if ex := explore(t, net, literalTwist{r}, 2); ex.cycle == nil {
		t.Fatal("twisted-ador with the literal VL rule: no cycle, want one")
	}
}

// literalTwist is twisted ADOR whose hop after the twist takes VL 1 when it
// stays in the twist dimension.
type literalTwist struct{ *dorFamily }

func (l literalTwist) OutVL(sw, inPort, inVL, sl, outPort int) int {
	in, out := l.g.portDimension(sw, inPort), l.g.portDimension(sw, outPort)
	if in >= 0 && in == out {
		return inVL/int(l.perClass)*int(l.perClass) + 1
	}
	return l.dorFamily.OutVL(sw, inPort, inVL, sl, outPort)
}

// TestDORFamilyDORMatchesFlatFlyDOR checks that the family's dor on a
// FlatFly (reached through a product-free constructor call) gives the same
// candidates as flatFlyDOR, New's flatfly dor.
func TestDORFamilyDORMatchesFlatFlyDOR(t *testing.T) {
	net := mustBuild(t, dorNets()[0].spec)
	fam, err := newDORFamily("dor", net, 1)
	if err != nil {
		t.Fatal(err)
	}
	old, err := newFlatFlyDOR(net, 1)
	if err != nil {
		t.Fatal(err)
	}
	for sw := range net.Switches {
		for dst := range net.Hosts {
			a := fam.Route(sw, 0, 0, 0, int32(dst), nil)
			b := old.Route(sw, 0, 0, 0, int32(dst), nil)
			if !slices.Equal(a, b) || len(a) == 0 {
				t.Fatalf("switch %d, host %d: %v, flatFlyDOR %v", sw, dst, a, b)
			}
		}
	}
}

func TestDORFamilySeedOrders(t *testing.T) {
	// Seed 004's 4-D FlatFly: mixed-dor with SL = d mod 4 takes order
	// (1,2,3,4), (2,4,1,3), (3,1,4,2) or (4,3,2,1); with 4 VLs VL = SL.
	net := mustBuild(t, topologies.Spec{Kind: "flatfly", Dims: []int{2, 2, 2, 2}, HostsPerSwitch: 4})
	r, err := New(Spec{Algorithm: "mixed-dor", VLs: 4}, net)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{{0, 1, 2, 3}, {1, 3, 0, 2}, {2, 0, 3, 1}, {3, 2, 1, 0}}
	// From switch 0 to switch 15 (all coordinates differ) every order is
	// visible in the path.
	for d := range 4 {
		dst := 15*4 + d
		sw, inPort := 0, 0
		dlid, sl, vl := r.Source(0, dst)
		if vl != d {
			t.Fatalf("d=%d: VL %d, want %d", d, vl, d)
		}
		var dims []int
		for sw != 15 {
			c := r.Route(sw, inPort, vl, sl, dlid, nil)
			p := net.Switches[sw].Ports[c[0].Port]
			dims = append(dims, int(p.Dim))
			vl = r.OutVL(sw, inPort, vl, sl, int(c[0].Port))
			sw, inPort = int(p.Peer), int(p.PeerPort)
		}
		if !slices.Equal(dims, want[d]) {
			t.Fatalf("d=%d: dimensions %v, want %v", d, dims, want[d])
		}
	}
}

func TestDORFamilyVLErrors(t *testing.T) {
	for _, tn := range dorNets() {
		net := mustBuild(t, tn.spec)
		for ai, alg := range dorFamilyAlgorithms() {
			need := tn.need[ai]
			if need == 1 {
				continue
			}
			_, err := New(Spec{Algorithm: alg, VLs: need - 1}, net)
			want := fmt.Sprintf("vls: routing %s needs at least %d virtual lanes, got %d", alg, need, need-1)
			if err == nil || err.Error() != want {
				t.Errorf("%s %s: error %v, want %s", tn.name, alg, err, want)
			}
		}
	}
}

func TestDORFamilyRejectsBrokenNetworks(t *testing.T) {
	ff := topologies.Spec{Kind: "flatfly", Dims: []int{3, 4}, Widths: []int{1, 2}, HostsPerSwitch: 2}
	prod := dorNets()[3].spec
	// unlink removes the link on port p of switch s (both ends).
	unlink := func(n *topologies.Network, s, p int) {
		q := n.Switches[s].Ports[p]
		n.Switches[q.Peer].Ports[q.PeerPort] = topologies.Port{Dim: -1}
		n.Switches[s].Ports[p] = topologies.Port{Dim: -1}
	}
	tests := []struct {
		name   string
		spec   topologies.Spec
		alg    string
		mutate func(*topologies.Network)
		want   string
	}{
		{"widths count", ff, "ador", func(n *topologies.Network) { n.Widths = n.Widths[:1] },
			"routing ador: network is not a FlatFly: 2 dims and 1 widths"},
		{"dims product", ff, "mixed-dor", func(n *topologies.Network) { n.Dims = []int{3, 3} },
			"routing mixed-dor: network is not a FlatFly: dims [3 3] give 9 switches, network has 12"},
		{"repeated coordinates", ff, "twisted-dor", func(n *topologies.Network) { n.Switches[1].Coord = n.Switches[0].Coord },
			"routing twisted-dor: network is not a FlatFly: switch 1 repeats coordinates [0 0]"},
		{"dim label", ff, "ador", func(n *topologies.Network) { n.Switches[0].Ports[2].Dim = 1 },
			"routing ador: network is not a FlatFly: switch 0 [0 0] port 2 (dimension 1) goes to switch 1 [1 0]"},
		{"width", ff, "ador", func(n *topologies.Network) { n.Widths = []int{1, 3} },
			"routing ador: network is not a FlatFly: switch 0 [0 0] has 2 links to its neighbour with coordinate 1 in dimension 1, want width 3"},
		{"missing link", ff, "mixed-ador", func(n *topologies.Network) { unlink(n, 0, 2) },
			"routing mixed-ador: network is not a FlatFly: dimension 0 is not a complete graph: switch 0 [0 0] has 1 of its 2 neighbours"},
		{"irregular hosts", ff, "ador", func(n *topologies.Network) { n.HostsPerSwitch = 0 },
			"routing ador: network flatfly has no fixed number of hosts per switch (got 0)"},
		{"product fibre", prod, "dor", func(n *topologies.Network) { unlink(n, 0, 2) },
			"routing dor: network is not a product of dimensions of diameter ≤ 2: dimension 0 is not the same graph in every fibre: switch 18 [0 1] and switch 0 differ in their link to coordinate 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net := mustBuild(t, tc.spec)
			tc.mutate(net)
			_, err := New(Spec{Algorithm: tc.alg, VLs: 8}, net)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error\n got %v\nwant %s", err, tc.want)
			}
		})
	}
}

func TestDORFamilyRejectsLongDimensions(t *testing.T) {
	// The builders make no product with a dimension of diameter 3: label
	// a ring of 7 switches (diameter 3) as a one-dimensional product.
	ring := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 7, HostsPerSwitch: 1})
	ring.Kind = "product"
	ring.Dims, ring.Widths = []int{7}, []int{1}
	for s := range ring.Switches {
		ring.Switches[s].Coord = []int32{int32(s)}
		for p := range ring.Switches[s].Ports {
			if ring.Switches[s].Ports[p].Kind == topologies.SwitchPort {
				ring.Switches[s].Ports[p].Dim = 0
			}
		}
	}
	_, err := New(Spec{Algorithm: "dor", VLs: 2}, ring)
	const want = "routing dor: network is not a product of dimensions of diameter ≤ 2: dimension 0 has diameter 3; the DOR family supports dimensions of diameter at most 2"
	if err == nil || err.Error() != want {
		t.Fatalf("error\n got %v\nwant %s", err, want)
	}
}

func TestDORFamilyBadArgumentsAndAllocations(t *testing.T) {
	for _, tn := range dorNets() {
		net := mustBuild(t, tn.spec)
		for _, alg := range dorFamilyAlgorithms()[1:] {
			r, err := New(Spec{Algorithm: alg, VLs: 8}, net)
			if err != nil {
				continue // needs more VLs; covered elsewhere
			}
			nh := len(net.Hosts)
			for _, dst := range []int{-1, nh, 1 << 40} {
				if dlid, sl, vl := r.Source(0, dst); dlid != -1 || sl != 0 || vl != 0 {
					t.Errorf("%s %s: Source(0,%d) = %d,%d,%d", tn.name, alg, dst, dlid, sl, vl)
				}
			}
			for _, c := range []struct{ sw, port, vl, dlid int }{
				{-1, 0, 0, 0}, {len(net.Switches), 0, 0, 0}, {0, -1, 0, 0}, {0, 999, 0, 0}, {0, 0, -1, nh - 1}, {0, 0, 16, 0}, {0, 0, 0, -1}, {0, 0, 0, nh}, {0, -1, 0, nh - 1}, {0, 999, 0, nh - 1},
			} {
				if got := r.Route(c.sw, c.port, c.vl, 0, int32(c.dlid), nil); len(got) != 0 {
					t.Errorf("%s %s: Route%v = %v, want none", tn.name, alg, c, got)
				}
			}
			out := make([]Candidate, 0, len(net.Switches[0].Ports))
			allocs := testing.AllocsPerRun(20, func() {
				for dst := range nh {
					dlid, sl, vl := r.Source(0, dst)
					out = r.Route(0, 0, vl, sl, dlid, out[:0])
					_ = r.OutVL(0, 0, vl, sl, int(out[0].Port))
				}
			})
			if allocs != 0 {
				t.Errorf("%s %s: %v allocations per run", tn.name, alg, allocs)
			}
		}
	}
}

func BenchmarkTwistedMixedADORRouteSeed004(b *testing.B) {
	net := mustBuild(b, topologies.Spec{Kind: "flatfly", Dims: []int{4, 8, 8, 8}, Widths: []int{2, 1, 1, 1}, HostsPerSwitch: 8})
	r, err := New(Spec{Algorithm: "twisted-mixed-ador", VLs: 8}, net)
	if err != nil {
		b.Fatal(err)
	}
	out := make([]Candidate, 0, 64)
	nh, ns := len(net.Hosts), len(net.Switches)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		dlid, sl, vl := r.Source(0, i*7919%nh)
		out = r.Route(i*31%ns, 8, vl, sl, dlid, out[:0])
		i++
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
