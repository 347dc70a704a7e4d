package routing

import (
	"fmt"
	"strings"
	"testing"

	"netsim/kernel"
	"netsim/topologies"
)

// dragonflyAlgorithms lists the Dragonfly routings of seed 004 §3.5.
var dragonflyAlgorithms = []string{"static", "S", "D", "SD", "G", "GS", "GI", "GD", "GSI", "GID", "GSD", "GSID"}

// dragonflyNets returns the small Dragonflies the tests route on: K = 4,
// G = 2, C = 2 in every arrangement, with and without omit_one_global,
// where every letter can add its hop; and groups of 1 and 2 switches,
// where some cannot (exact false).
func dragonflyNets(t testing.TB) map[string]struct {
	net   *topologies.Network
	exact bool
} {
	t.Helper()
	nets := map[string]struct {
		net   *topologies.Network
		exact bool
	}{}
	add := func(name string, k, g, c int, arr string, omit, exact bool) {
		net, err := topologies.Dragonfly(k, g, c, arr, omit)
		if err != nil {
			t.Fatal(err)
		}
		nets[name] = struct {
			net   *topologies.Network
			exact bool
		}{net, exact}
	}
	for _, arr := range []string{"absolute", "relative", "palmtree"} {
		for _, omit := range []bool{false, true} {
			add(fmt.Sprintf("%s omit=%v", arr, omit), 4, 2, 2, arr, omit, true)
		}
	}
	add("K=1 G=3", 1, 3, 1, "relative", false, false)
	add("K=2 G=1 omit", 2, 1, 2, "absolute", true, false)
	return nets
}

// dfLetters is the set of letters of a Dragonfly routing name.
type dfLetters struct{ g, s, i, d bool }

func lettersOf(name string) dfLetters {
	if name == "static" {
		return dfLetters{}
	}
	return dfLetters{strings.Contains(name, "G"), strings.Contains(name, "S"), strings.Contains(name, "I"), strings.Contains(name, "D")}
}

// maxHops is the longest path the letters allow: 1 + S local hops, a
// global hop, with G 1 + I local hops and another global hop, 1 + D local
// hops.
func (l dfLetters) maxHops() int {
	n := 3
	for _, b := range []bool{l.s, l.d} {
		if b {
			n++
		}
	}
	if l.g {
		n += 2
		if l.i {
			n++
		}
	}
	return n
}

// TestDragonflyRoutings explores every state every routing can reach, from
// every host to every host, on every arrangement with and without
// omit_one_global, and checks: the candidates are legal; the High
// candidates are exactly Static's (the minimal local–global–local route
// from where the packet is) and the others Low, except that with G a
// packet that spent its local hops in the source group on the way to an
// intermediate group has no High candidate; no packet can loop; the
// longest path is exactly what the letters allow (so each letter both
// works and is bounded; at most that on groups too small for some extra
// hops); and the channel dependency graph over (link, VL)
// is acyclic. Random walks then check each path's shape and VLs.
func TestDragonflyRoutings(t *testing.T) {
	for name, n := range dragonflyNets(t) {
		net := n.net
		static, err := New(Spec{Algorithm: "static", VLs: 2}, net)
		if err != nil {
			t.Fatal(err)
		}
		for _, alg := range dragonflyAlgorithms {
			t.Run(name+"/"+alg, func(t *testing.T) {
				letters := lettersOf(alg)
				vls := 6
				if alg == "static" {
					vls = 2
				}
				r, err := New(Spec{Algorithm: alg, VLs: vls}, net)
				if err != nil {
					t.Fatal(err)
				}
				if r.Name() != alg || r.VLs() != vls {
					t.Fatalf("Name %q VLs %d, want %q %d", r.Name(), r.VLs(), alg, vls)
				}
				g := newRouteGraph(net, vls)
				var want []Candidate
				committed := 0 // states with no High candidate
				for dst := range net.Hosts {
					g.explore(t, r, dst, func(st routeState, cands []Candidate) {
						want = static.Route(st.sw, st.inPort, st.inVL, st.sl, int32(dst), want[:0])
						high := 0
						for _, c := range cands {
							if c.Priority != High && c.Priority != Low {
								t.Fatalf("%+v to host %d: priority %d, want High or Low", st, dst, c.Priority)
							}
							if c.Priority == High {
								high++
								if !hasPort(want, c.Port) {
									t.Fatalf("%+v to host %d: High candidate %d is not minimal (static: %v)", st, dst, c.Port, want)
								}
							} else if hasPort(want, c.Port) {
								t.Fatalf("%+v to host %d: minimal port %d has Low priority", st, dst, c.Port)
							}
						}
						// None High: a packet that spent its local hops
						// on the way to an intermediate group.
						if high != len(want) && (high != 0 || !letters.g) {
							t.Fatalf("%+v to host %d: candidates %v, want every minimal port of %v High", st, dst, cands, want)
						}
						if high == 0 {
							committed++
						}
					})
				}
				if n.exact && letters.g != (committed > 0) {
					t.Errorf("%d states without a minimal candidate, want some exactly with G", committed)
				}
				if want := letters.maxHops(); g.longest != want && (n.exact || g.longest > want) {
					t.Errorf("longest path %d hops, want %d", g.longest, want)
				}
				if ok, cycle := g.acyclic(); !ok {
					t.Errorf("channel dependency graph has a cycle: %v", cycle)
				}
				checkDragonflyRanks(t, g, alg)
				rng := kernel.NewRNG(1, uint64(len(alg)))
				for src := range net.Hosts {
					for dst := range net.Hosts {
						for range 2 {
							steps, vl := randomWalk(t, net, r, vls, src, dst, letters.maxHops(), &rng)
							checkDragonflyPath(t, net, alg, src, dst, vl, steps)
						}
					}
				}
			})
		}
	}
}

// checkDragonflyRanks checks the deadlock-freedom proofs of the Dragonfly
// routings: every dependency between switch-to-switch channels goes up the
// ranking of (link kind, VL) the proof gives.
func checkDragonflyRanks(t *testing.T, g *routeGraph, alg string) {
	t.Helper()
	// rank[kind][VL], kind 0 local and 1 global; -1 for a channel the
	// proof says no packet uses.
	rank := [2][6]int{{0, 1, 3, 4, 6, 7}, {-1, -1, -1, 5, -1, 2}}
	if alg == "static" {
		rank = [2][6]int{{0, 2, -1, -1, -1, -1}, {1, -1, -1, -1, -1, -1}}
	}
	of := func(c int32) int {
		st := g.state(c)
		kind := 0
		if g.net.Switches[st.sw].Coord[0] != g.net.Switches[g.net.Switches[st.sw].Ports[st.inPort].Peer].Coord[0] {
			kind = 1
		}
		r := rank[kind][st.inVL]
		if r < 0 {
			t.Fatalf("%s: channel %+v (kind %d) is used", alg, st, kind)
		}
		return r
	}
	for d := range g.deps {
		if g.net.Switches[g.state(d[0]).sw].Ports[g.state(d[0]).inPort].Kind == topologies.HostPort {
			continue // injection
		}
		if of(d[0]) >= of(d[1]) {
			t.Fatalf("%s: dependency %+v → %+v goes down the ranking", alg, g.state(d[0]), g.state(d[1]))
		}
	}
}

// hasPort reports whether cands offers port p.
func hasPort(cands []Candidate, p int32) bool {
	for _, c := range cands {
		if c.Port == p {
			return true
		}
	}
	return false
}

// checkDragonflyPath checks a path of routing alg from host src to host
// dst, taken with source VL vl: it ends at the destination switch; it
// leaves the source group at most once more than minimal, and only with G;
// every group takes at most the local hops its letter allows; and every
// hop has the VL of the rules: for static, VL 0 up to the global hop and
// VL 1 after it; for the adaptive routings, VL 2·phase + (local hops
// already taken in the phase) on a local hop, 5 on the global hop out of
// phase 0 and 3 out of phase 1, with source VL 1 within a group and 4
// between groups.
func checkDragonflyPath(t *testing.T, net *topologies.Network, alg string, src, dst, vl int, steps []walkStep) {
	t.Helper()
	l, static := lettersOf(alg), alg == "static"
	group := func(s int) int32 { return net.Switches[s].Coord[0] }
	ssw, dsw := int(net.Hosts[src].Switch), int(net.Hosts[dst].Switch)
	intra := group(ssw) == group(dsw)
	wantVL := dfInjectVL
	switch {
	case static:
		wantVL = 0
	case intra:
		wantVL = dfIntraVL
	}
	if vl != wantVL {
		t.Fatalf("%s %d→%d: source VL %d, want %d", alg, src, dst, vl, wantVL)
	}
	last := ssw
	phase, locals := 0, 0
	for n, s := range steps {
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("%s %d→%d: hop %d of %v: %s", alg, src, dst, n, steps, fmt.Sprintf(format, args...))
		}
		want := 0
		if group(s.from) == group(s.to) {
			budget := 1
			switch {
			case static:
			case phase == 0 && intra:
				budget += b2i(l.s || l.d)
			case phase == 0:
				budget += b2i(l.s)
			case phase == 1 && group(s.from) != group(dsw):
				budget += b2i(l.i)
			default:
				budget += b2i(l.d)
			}
			if locals == budget {
				fail("more than %d local hops in phase %d", budget, phase)
			}
			want = 2*phase + locals
			if static {
				want = min(phase, 1)
			}
			locals++
		} else {
			switch {
			case intra:
				fail("traffic within a group leaves it")
			case phase > 1 || phase == 1 && !l.g:
				fail("global hop out of phase %d", phase)
			case group(s.to) != group(dsw) && (phase != 0 || !l.g):
				fail("global hop to group %d, not the destination group %d", group(s.to), group(dsw))
			}
			want = dfGlobal0VL
			switch {
			case static:
				want = 0
			case phase == 1:
				want = dfGlobal1VL
			}
			phase, locals = phase+1, 0
		}
		if s.vl != want {
			fail("VL %d, want %d (phase %d)", s.vl, want, phase)
		}
		last = s.to
	}
	if last != dsw {
		t.Fatalf("%s %d→%d: path %v ends at switch %d, not %d", alg, src, dst, steps, last, dsw)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestDragonflyStaticPath checks Static's path against the absolute
// arrangement worked by hand. K = 4, G = 2: group i's global port j goes
// to group j for j < i and j + 1 otherwise, from the switch with index
// ⌊j/G⌋. From switch 1 (group 0) to switch 23 (group 5, index 3): group
// 0's global port 4 is on switch 2 and reaches group 5's port 0, on its
// switch 0 (switch 20). Within group 5, one local hop; from group 5 to
// group 0 the mirror path.
func TestDragonflyStaticPath(t *testing.T) {
	net, err := topologies.Dragonfly(4, 2, 1, "absolute", false)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(Spec{Algorithm: "static", VLs: 2}, net)
	if err != nil {
		t.Fatal(err)
	}
	rng := kernel.NewRNG(3)
	for _, tc := range []struct {
		src, dst int
		want     []int
	}{
		{1, 23, []int{1, 2, 20, 23}},
		{23, 1, []int{23, 20, 2, 1}},
		{2, 20, []int{2, 20}},
		{21, 23, []int{21, 23}},
		{22, 22, []int{22}},
	} {
		steps, _ := randomWalk(t, net, r, 2, tc.src, tc.dst, 3, &rng)
		got := []int{tc.src}
		vls := []int{}
		for _, s := range steps {
			got = append(got, s.to)
			vls = append(vls, s.vl)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%d→%d: switches %v, want %v", tc.src, tc.dst, got, tc.want)
		}
		if tc.src == 1 && fmt.Sprint(vls) != "[0 0 1]" {
			t.Errorf("%d→%d: VLs %v, want [0 0 1]", tc.src, tc.dst, vls)
		}
	}
}

// TestDragonflyErrors: bad names, too few VLs and networks that are not
// Dragonflies are reported, naming what is wrong.
func TestDragonflyErrors(t *testing.T) {
	df := func() *topologies.Network {
		net, err := topologies.Dragonfly(3, 1, 1, "absolute", false)
		if err != nil {
			t.Fatal(err)
		}
		return net
	}
	noCoord := df()
	noCoord.Switches[4].Coord = nil
	// Switch 0's only global link goes to group 1: drop it on both sides.
	noGlobal := df()
	for s, sw := range noGlobal.Switches {
		for p, port := range sw.Ports {
			if port.Kind == topologies.SwitchPort && port.Dim == 1 && (s == 0 || int(port.Peer) == 0) {
				noGlobal.Switches[s].Ports[p] = topologies.Port{Dim: -1}
			}
		}
	}
	// Switches 0 and 1 lose their local link.
	noLocal := df()
	for _, s := range []int{0, 1} {
		for p, port := range noLocal.Switches[s].Ports {
			if port.Kind == topologies.SwitchPort && port.Peer == int32(1-s) {
				noLocal.Switches[s].Ports[p] = topologies.Port{Dim: -1}
			}
		}
	}
	sf, err := topologies.SlimFly(3, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	known := "static, S, D, SD, G, GS, GI, GD, GSI, GID, GSD, GSID, dor, distance, distance+E, deflection+E, minhop, updn, dnup, sssp, p2sssp, dfsssp, lash, nue, torus-2QoS, file"
	for _, tc := range []struct {
		name string
		spec Spec
		net  *topologies.Network
		want string
	}{
		{"I without G", Spec{Algorithm: "SID", VLs: 6}, df(), `algorithm: unknown routing "SID" for topology dragonfly (known: ` + known + ")"},
		{"letters out of order", Spec{Algorithm: "SG", VLs: 6}, df(), `algorithm: unknown routing "SG" for topology dragonfly (known: ` + known + ")"},
		{"lower case", Spec{Algorithm: "gsid", VLs: 6}, df(), `algorithm: unknown routing "gsid" for topology dragonfly (known: ` + known + ")"},
		{"five VLs", Spec{Algorithm: "GSID", VLs: 5}, df(), "vls: routing GSID needs at least 6 virtual lanes, got 5"},
		{"static on one VL", Spec{Algorithm: "static", VLs: 1}, df(), "vls: routing static needs at least 2 virtual lanes, got 1"},
		{"static on slimfly", Spec{Algorithm: "static", VLs: 2}, sf, `algorithm: unknown routing "static" for topology slimfly (known: minimal, dor, distance, distance+E, deflection+E, minhop, updn, dnup, sssp, p2sssp, dfsssp, lash, nue, torus-2QoS, file)`},
		{"no coordinates", Spec{Algorithm: "static", VLs: 2}, noCoord, "routing static: network is not a Dragonfly: switch 4 has coordinates [], want [group, index within group]"},
		{"missing global link", Spec{Algorithm: "G", VLs: 6}, noGlobal, "routing G: network is not a Dragonfly: no global link joins group 0 to group 1"},
		{"missing local link", Spec{Algorithm: "D", VLs: 6}, noLocal, "routing D: network is not a Dragonfly: switch 0 has no local link to switch 1 of its group 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := New(tc.spec, tc.net)
			if err == nil {
				t.Fatalf("New returned %s, want error %q", r.Name(), tc.want)
			}
			if err.Error() != tc.want {
				t.Fatalf("error\n got %q\nwant %q", err, tc.want)
			}
		})
	}
}

// BenchmarkDragonflyRouteSeed004 routes on seed 004's Dragonfly preset
// (K = 16, G = 8, C = 8, omit_one_global: 2,048 switches, 16,384 hosts),
// from the first switch of every path class: each iteration is one Route
// call for a packet fresh from a host, the costliest state.
func BenchmarkDragonflyRouteSeed004(b *testing.B) {
	net := mustBuild(b, topologies.Spec{Preset: "dragonfly"})
	for _, alg := range []string{"static", "GSID"} {
		b.Run(alg, func(b *testing.B) {
			r, err := New(Spec{Algorithm: alg, VLs: 8}, net)
			if err != nil {
				b.Fatal(err)
			}
			out := make([]Candidate, 0, 64)
			nh, ns := len(net.Hosts), len(net.Switches)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				src := i * 31 % ns * net.HostsPerSwitch
				dlid, sl, vl := r.Source(src, i*7919%nh)
				out = r.Route(src/net.HostsPerSwitch, 0, vl, sl, dlid, out[:0])
				i++
			}
		})
	}
}
