package routing

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"netsim/kernel"
	"netsim/topologies"
)

// bruteDistances returns the switch distances of net by Floyd–Warshall over
// its link list (-1: unreachable).
func bruteDistances(net *topologies.Network) [][]int {
	n := len(net.Switches)
	const inf = 1 << 30
	d := make([][]int, n)
	for a := range d {
		d[a] = make([]int, n)
		for b := range d[a] {
			if a != b {
				d[a][b] = inf
			}
		}
		for _, p := range net.Switches[a].Ports {
			if p.Kind == topologies.SwitchPort {
				d[a][p.Peer] = 1
			}
		}
	}
	for k := range n {
		for a := range n {
			for b := range n {
				d[a][b] = min(d[a][b], d[a][k]+d[k][b])
			}
		}
	}
	for a := range d {
		for b := range d[a] {
			if d[a][b] == inf {
				d[a][b] = -1
			}
		}
	}
	return d
}

// randomNetwork builds a connected network of kind "test-random" that no
// builder makes: a random tree plus extra random links (parallel links
// included), 0–2 hosts per switch, and the ports of each switch shuffled so
// that parallel links are not contiguous and hosts sit between them.
func randomNetwork(t testing.TB, seed uint64, switches, extra int) *topologies.Network {
	t.Helper()
	rng := kernel.NewRNG(seed, 1)
	type end struct{ host, peer int }
	ends := make([][]end, switches)
	link := func(a, b int) {
		ends[a] = append(ends[a], end{-1, b})
		ends[b] = append(ends[b], end{-1, a})
	}
	for s := 1; s < switches; s++ {
		link(s, rng.IntN(s))
	}
	for range extra {
		a, b := rng.IntN(switches), rng.IntN(switches)
		if a != b {
			link(a, b)
			if rng.IntN(4) == 0 {
				link(a, b) // a parallel link
			}
		}
	}
	hosts := 0
	for s := range ends {
		for range (s * 7) % 3 {
			ends[s] = append(ends[s], end{hosts, -1})
			hosts++
		}
		for i := len(ends[s]) - 1; i > 0; i-- { // shuffle the ports
			j := rng.IntN(i + 1)
			ends[s][i], ends[s][j] = ends[s][j], ends[s][i]
		}
	}
	net := &topologies.Network{Kind: "test-random", Switches: make([]topologies.Switch, switches), Hosts: make([]topologies.Host, hosts)}
	for s := range ends {
		net.Switches[s].Ports = make([]topologies.Port, len(ends[s]))
		for p, e := range ends[s] {
			if e.host >= 0 {
				net.Switches[s].Ports[p] = topologies.Port{Kind: topologies.HostPort, Peer: int32(e.host), Dim: -1}
				net.Hosts[e.host] = topologies.Host{Switch: int32(s), Port: int32(p)}
			}
		}
	}
	// Pair the k-th a→b link end with the k-th b→a one.
	for a := range ends {
		for p, e := range ends[a] {
			if e.peer < a { // host ends (peer −1) and links already paired
				continue
			}
			b := e.peer
			k := 0 // which of the parallel a→b ends this is
			for _, f := range ends[a][:p] {
				if f.peer == b {
					k++
				}
			}
			for q, f := range ends[b] {
				if f.peer != a {
					continue
				}
				if k > 0 {
					k--
					continue
				}
				net.Switches[a].Ports[p] = topologies.Port{Kind: topologies.SwitchPort, Peer: int32(b), PeerPort: int32(q), Dim: -1}
				net.Switches[b].Ports[q] = topologies.Port{Kind: topologies.SwitchPort, Peer: int32(a), PeerPort: int32(p), Dim: -1}
				break
			}
		}
	}
	if err := net.Validate(); err != nil {
		t.Fatal(err)
	}
	return net
}

// distanceNets returns the networks the distance tests run on.
func distanceNets(t testing.TB) map[string]*topologies.Network {
	t.Helper()
	return map[string]*topologies.Network{
		"flatfly 4x3x2":   mustBuild(t, topologies.Spec{Kind: "flatfly", Dims: []int{4, 3, 2}, Widths: []int{1, 2, 1}, HostsPerSwitch: 2}),
		"ring 7 width 2":  mustBuild(t, topologies.Spec{Kind: "ring", Switches: 7, Widths: []int{2}, HostsPerSwitch: 1}),
		"ring 6":          mustBuild(t, topologies.Spec{Kind: "ring", Switches: 6, HostsPerSwitch: 2}),
		"crossbar 5":      mustBuild(t, topologies.Spec{Kind: "crossbar", Hosts: 5}),
		"random 40 sw":    randomNetwork(t, 3, 40, 25),
		"random 12 dense": randomNetwork(t, 4, 12, 40),
	}
}

func TestDistanceTable(t *testing.T) {
	ring := func(n int) func(a, b []int32) int {
		return func(a, b []int32) int {
			x := int(a[0]-b[0]+int32(n)) % n
			return min(x, n-x)
		}
	}
	hamming := func(a, b []int32) int {
		d := 0
		for i := range a {
			if a[i] != b[i] {
				d++
			}
		}
		return d
	}
	closed := map[string]func(a, b []int32) int{
		"flatfly 4x3x2":  hamming,
		"ring 7 width 2": ring(7),
		"ring 6":         ring(6),
	}
	wantDiam := map[string]int{"flatfly 4x3x2": 3, "ring 7 width 2": 3, "ring 6": 3, "crossbar 5": 0}
	for name, net := range distanceNets(t) {
		t.Run(name, func(t *testing.T) {
			r, err := newDistance(net, 8, 0, false)
			if err != nil {
				t.Fatal(err)
			}
			brute := bruteDistances(net)
			diam := 0
			n := len(net.Switches)
			for a := range n {
				for b := range n {
					got := int(r.dist[a*n+b])
					if got != brute[a][b] {
						t.Fatalf("dist %d→%d = %d, Floyd–Warshall says %d", a, b, got, brute[a][b])
					}
					if f := closed[name]; f != nil {
						if want := f(net.Switches[a].Coord, net.Switches[b].Coord); got != want {
							t.Fatalf("dist %d→%d = %d, closed form says %d", a, b, got, want)
						}
					}
					diam = max(diam, got)
				}
			}
			if r.Diameter() != diam {
				t.Errorf("Diameter() = %d, want %d", r.Diameter(), diam)
			}
			if want, ok := wantDiam[name]; ok && diam != want {
				t.Errorf("diameter %d, want %d", diam, want)
			}
		})
	}
}

// TestDistanceNeighbourGroups checks that every switch port appears in
// exactly one group, the group of its peer switch, and no host port does.
func TestDistanceNeighbourGroups(t *testing.T) {
	for name, net := range distanceNets(t) {
		r, err := newDistance(net, 1, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		for s := range net.Switches {
			seen := map[int32]bool{}
			peers := map[int32]bool{}
			for g := r.nbrStart[s]; g < r.nbrStart[s+1]; g++ {
				if peers[r.nbrSw[g]] {
					t.Fatalf("%s switch %d: two groups for neighbour %d", name, s, r.nbrSw[g])
				}
				peers[r.nbrSw[g]] = true
				for _, p := range r.ports[r.grpStart[g]:r.grpStart[g+1]] {
					port := net.Switches[s].Ports[p]
					if port.Kind != topologies.SwitchPort || port.Peer != r.nbrSw[g] || seen[p] {
						t.Fatalf("%s switch %d: port %d (%+v) in the group of neighbour %d", name, s, p, port, r.nbrSw[g])
					}
					seen[p] = true
				}
			}
			for p, port := range net.Switches[s].Ports {
				if (port.Kind == topologies.SwitchPort) != seen[int32(p)] {
					t.Fatalf("%s switch %d: port %d (%+v) grouped = %v", name, s, p, port, seen[int32(p)])
				}
			}
		}
	}
}

// distWalk follows r from host src to host dst, taking a random candidate of
// any priority at every switch, and returns the number of switch-to-switch
// hops and how many of them were sideways and deflections. At every switch
// it checks the candidate set against the definition of seed 004 §3.7
// (computed here from the Floyd–Warshall distances), the VL arithmetic, and
// that the path ends at dst within D + E hops.
func distWalk(t *testing.T, net *topologies.Network, brute [][]int, r Routing, vls, extra int, deflect bool, src, dst int, rng *kernel.RNG) (hops, sideways, deflections int) {
	t.Helper()
	ssw, dsw := int(net.Hosts[src].Switch), int(net.Hosts[dst].Switch)
	dlid, sl, vl := r.Source(src, dst)
	D := brute[ssw][dsw]
	if int(dlid) != dst || vl != (D+extra)%vls {
		t.Fatalf("Source(%d,%d) = %d,%d, want %d,(%d+%d) mod %d", src, dst, dlid, vl, dst, D, extra, vls)
	}
	sw, inPort := ssw, int(net.Hosts[src].Port)
	buf := make([]Candidate, 0, 64)
	for {
		cands := r.Route(sw, inPort, vl, sl, dlid, buf[:0])
		if sw == dsw {
			if len(cands) != 1 || cands[0] != (Candidate{Port: net.Hosts[dst].Port, Priority: High}) {
				t.Fatalf("%d→%d at destination switch %d: candidates %v, want host port %d", src, dst, sw, cands, net.Hosts[dst].Port)
			}
			if got := r.OutVL(sw, inPort, vl, sl, int(cands[0].Port)); got != vl {
				t.Fatalf("%d→%d: VL to the host %d, want the arriving VL %d", src, dst, got, vl)
			}
			if hops > D+extra {
				t.Fatalf("%d→%d: %d hops, more than D+E = %d+%d", src, dst, hops, D, extra)
			}
			return hops, sideways, deflections
		}
		out := (vl - 1 + vls) % vls
		d := brute[sw][dsw]
		want := map[int32]Priority{}
		for p, port := range net.Switches[sw].Ports {
			if port.Kind != topologies.SwitchPort {
				continue
			}
			dp := brute[port.Peer][dsw]
			switch {
			case dp < d:
				want[int32(p)] = High
			case dp == d && dp <= out:
				want[int32(p)] = Medium
			case dp > d && dp <= out && deflect:
				want[int32(p)] = Low
			}
		}
		got := map[int32]Priority{}
		for _, c := range cands {
			if _, dup := got[c.Port]; dup {
				t.Fatalf("%d→%d at switch %d: port %d twice in %v", src, dst, sw, c.Port, cands)
			}
			got[c.Port] = c.Priority
		}
		if !maps.Equal(got, want) {
			t.Fatalf("%d→%d at switch %d (d=%d, VL %d): candidates %v, want %v", src, dst, sw, d, vl, got, want)
		}
		c := cands[rng.IntN(len(cands))]
		port := net.Switches[sw].Ports[c.Port]
		if nv := r.OutVL(sw, inPort, vl, sl, int(c.Port)); nv != out {
			t.Fatalf("%d→%d at switch %d: OutVL %d, want (%d−1) mod %d", src, dst, sw, nv, vl, vls)
		}
		switch c.Priority {
		case Medium:
			sideways++
		case Low:
			deflections++
		}
		hops++
		if hops > D+extra {
			t.Fatalf("%d→%d: more than D+E = %d+%d hops", src, dst, D, extra)
		}
		sw, inPort, vl = int(port.Peer), int(port.PeerPort), out
	}
}

func TestDistanceWalks(t *testing.T) {
	for name, net := range distanceNets(t) {
		brute := bruteDistances(net)
		// Sideways hops exist unless the graph is bipartite (even ring):
		// then some link joins two switches equally far from switch 0.
		hasSideways := false
		for a, sw := range net.Switches {
			for _, p := range sw.Ports {
				hasSideways = hasSideways || (p.Kind == topologies.SwitchPort && brute[a][0] == brute[p.Peer][0])
			}
		}
		for _, alg := range []string{"distance", "distance+1", "distance+2", "deflection+2", "deflection+4"} {
			extra, deflect, _, err := parseDistance(alg)
			if err != nil {
				t.Fatal(err)
			}
			// 8 VLs as in the seed; 3 so that D + E > V on the larger
			// networks (VL wrap, budget cut, still within D + E hops).
			for _, vls := range []int{8, 3} {
				r, err := New(Spec{Algorithm: alg, VLs: vls}, net)
				if err != nil {
					t.Fatal(err)
				}
				if want := min(vls, r.(*distance).Diameter()+extra+1); r.Name() != alg || r.VLs() != want {
					t.Fatalf("%s: Name, VLs = %q, %d, want %q, %d", alg, r.Name(), r.VLs(), alg, want)
				}
				rng := kernel.NewRNG(11, uint64(vls), uint64(extra))
				var hops, side, defl, minimal int
				for src := range net.Hosts {
					for dst := range net.Hosts {
						for range 3 {
							h, s, d := distWalk(t, net, brute, r, vls, extra, deflect, src, dst, &rng)
							hops, side, defl = hops+h, side+s, defl+d
							minimal += brute[net.Hosts[src].Switch][net.Hosts[dst].Switch]
						}
					}
				}
				// The walks must have used what the routing allows.
				if hops != minimal+side+2*defl {
					t.Errorf("%s %s V=%d: %d hops, %d minimal + %d sideways + 2·%d deflections", name, alg, vls, hops, minimal, side, defl)
				}
				if extra > 0 && hasSideways && vls == 8 && side == 0 {
					t.Errorf("%s %s V=%d: no sideways hop in any walk", name, alg, vls)
				}
				if deflect && len(net.Switches) > 2 && vls == 8 && defl == 0 {
					t.Errorf("%s %s V=%d: no deflection in any walk", name, alg, vls)
				}
			}
		}
	}
}

// TestDistanceVLsDecrease: when diameter + E ≤ V, the switch-to-switch hops
// of every path use VLs D+E−1, D+E−2, … (no wrap), which makes the channel
// dependency graph acyclic.
func TestDistanceVLsDecrease(t *testing.T) {
	net := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 8, HostsPerSwitch: 1}) // diameter 4
	for _, alg := range []string{"distance+2", "deflection+4"} {
		extra, _, _, _ := parseDistance(alg)
		r, err := New(Spec{Algorithm: alg, VLs: 4 + extra}, net)
		if err != nil {
			t.Fatal(err)
		}
		rng := kernel.NewRNG(5)
		buf := make([]Candidate, 0, 8)
		for src := range net.Hosts {
			for dst := range net.Hosts {
				dlid, sl, vl := r.Source(src, dst)
				sw, in := int(net.Hosts[src].Switch), int(net.Hosts[src].Port)
				// Switch hop h uses VL D+E−h; D+E ≤ V so the source's VL is
				// (D+E) mod V, 0 only when D+E = V.
				next := vl
				if next == 0 {
					next = 4 + extra
				}
				for sw != int(net.Hosts[dst].Switch) {
					cands := r.Route(sw, in, vl, sl, dlid, buf[:0])
					c := cands[rng.IntN(len(cands))]
					ov := r.OutVL(sw, in, vl, sl, int(c.Port))
					if ov != next-1 {
						t.Fatalf("%s %d→%d at switch %d: VL %d after %d, want strictly decreasing by one", alg, src, dst, sw, ov, vl)
					}
					next = ov
					p := net.Switches[sw].Ports[c.Port]
					sw, in, vl = int(p.Peer), int(p.PeerPort), ov
				}
			}
		}
	}
}

func TestParseDistance(t *testing.T) {
	tests := []struct {
		name    string
		extra   int
		deflect bool
		ok      bool
		err     string
	}{
		{"distance", 0, false, true, ""},
		{"distance+0", 0, false, false, `algorithm: "distance+0": write it "distance" (one name per routing)`},
		{"deflection+00", 0, false, false, `algorithm: "deflection+00": deflection needs E ≥ 2 extra hops, got 0`},
		{"distance+3", 3, false, true, ""},
		{"distance+255", 255, false, true, ""},
		{"deflection+2", 2, true, true, ""},
		{"deflection+7", 7, true, true, ""},
		{"dor", 0, false, false, ""},
		{"distances", 0, false, false, ""},
		{"distance+", 0, false, false, `algorithm: "distance+": extra hops E must be a non-negative integer, got ""`},
		{"distance+x", 0, false, false, `algorithm: "distance+x": extra hops E must be a non-negative integer, got "x"`},
		{"distance+-1", 0, false, false, `algorithm: "distance+-1": extra hops E must be a non-negative integer, got "-1"`},
		{"distance++1", 0, false, false, `algorithm: "distance++1": extra hops E must be a non-negative integer, got "+1"`},
		{"distance+01", 0, false, false, `algorithm: "distance+01": write it "distance+1" (one name per routing)`},
		{"deflection+007", 0, false, false, `algorithm: "deflection+007": write it "deflection+7" (one name per routing)`},
		{"distance+1.5", 0, false, false, `algorithm: "distance+1.5": extra hops E must be a non-negative integer, got "1.5"`},
		{"distance+256", 0, false, false, `algorithm: "distance+256": extra hops E = 256 exceed the limit of 255`},
		{"distance+99999999999999999999", 0, false, false, `algorithm: "distance+99999999999999999999": extra hops E must be a non-negative integer, got "99999999999999999999"`},
		{"deflection", 0, false, false, `algorithm: "deflection" needs extra hops, as deflection+E with E ≥ 2`},
		{"deflection+1", 0, false, false, `algorithm: "deflection+1": deflection needs E ≥ 2 extra hops, got 1`},
		{"deflection+0", 0, false, false, `algorithm: "deflection+0": deflection needs E ≥ 2 extra hops, got 0`},
	}
	for _, tc := range tests {
		extra, deflect, ok, err := parseDistance(tc.name)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if extra != tc.extra || deflect != tc.deflect || ok != tc.ok || gotErr != tc.err {
			t.Errorf("parseDistance(%q) = %d, %v, %v, %q; want %d, %v, %v, %q", tc.name, extra, deflect, ok, gotErr, tc.extra, tc.deflect, tc.ok, tc.err)
		}
	}
}

func TestDistanceNames(t *testing.T) {
	net := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 3, HostsPerSwitch: 1})
	for alg, want := range map[string]string{"distance": "distance", "distance+2": "distance+2", "deflection+3": "deflection+3"} {
		r, err := New(Spec{Algorithm: alg, VLs: 2}, net)
		if err != nil {
			t.Fatal(err)
		}
		if r.Name() != want {
			t.Errorf("%s: Name() = %q, want %q", alg, r.Name(), want)
		}
	}
}

func TestDistanceErrors(t *testing.T) {
	// Two rings of 3 switches each side by side: disconnected.
	a := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 3, HostsPerSwitch: 1})
	split := &topologies.Network{Kind: "two-rings", Switches: append([]topologies.Switch(nil), a.Switches...), Hosts: append([]topologies.Host(nil), a.Hosts...)}
	for s := range a.Switches {
		ports := append([]topologies.Port(nil), a.Switches[s].Ports...)
		for p := range ports {
			switch ports[p].Kind {
			case topologies.SwitchPort:
				ports[p].Peer += 3
			case topologies.HostPort:
				ports[p].Peer += 3
			}
		}
		split.Switches = append(split.Switches, topologies.Switch{Ports: ports})
	}
	for _, h := range a.Hosts {
		split.Hosts = append(split.Hosts, topologies.Host{Switch: h.Switch + 3, Port: h.Port})
	}
	big := &topologies.Network{Kind: "huge", Switches: make([]topologies.Switch, MaxDistanceSwitches+1)}
	long := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 2*MaxDistanceDiameter + 2, HostsPerSwitch: 1})
	tests := []struct {
		name string
		spec Spec
		net  *topologies.Network
		want string
	}{
		{"disconnected", Spec{Algorithm: "distance", VLs: 1}, split, "algorithm: routing distance: network is disconnected: switch 0 cannot reach switch 3"},
		{"too many switches", Spec{Algorithm: "distance+1", VLs: 2}, big, fmt.Sprintf("algorithm: routing distance+1 keeps a table of n² switch distances and supports at most %d switches, network has %d", MaxDistanceSwitches, MaxDistanceSwitches+1)},
		{"diameter", Spec{Algorithm: "deflection+2", VLs: 8}, long, "algorithm: routing deflection+2: switch 256 is more than 255 hops from switch 0; distances above 255 are not supported"},
		{"bad E", Spec{Algorithm: "distance+two", VLs: 8}, a, `algorithm: "distance+two": extra hops E must be a non-negative integer, got "two"`},
	}
	for _, tc := range tests {
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
	// A diameter of exactly 255 is accepted.
	ok := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 2 * MaxDistanceDiameter, HostsPerSwitch: 1})
	r, err := New(Spec{Algorithm: "distance", VLs: 1}, ok)
	if err != nil {
		t.Fatal(err)
	}
	if d := r.(*distance).Diameter(); d != MaxDistanceDiameter {
		t.Errorf("ring of %d switches: diameter %d, want %d", 2*MaxDistanceDiameter, d, MaxDistanceDiameter)
	}
	if !strings.HasPrefix(anyAlgorithms, "distance") {
		t.Errorf("anyAlgorithms = %q", anyAlgorithms)
	}
}

func BenchmarkNewDistanceSeed004(b *testing.B) {
	net := mustBuild(b, topologies.Spec{Kind: "flatfly", Dims: []int{4, 8, 8, 8}, Widths: []int{2, 1, 1, 1}, HostsPerSwitch: 8})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(Spec{Algorithm: "distance+4", VLs: 8}, net); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDistanceRouteSeed004(b *testing.B) {
	net := mustBuild(b, topologies.Spec{Kind: "flatfly", Dims: []int{4, 8, 8, 8}, Widths: []int{2, 1, 1, 1}, HostsPerSwitch: 8})
	r, err := New(Spec{Algorithm: "deflection+4", VLs: 8}, net)
	if err != nil {
		b.Fatal(err)
	}
	out := make([]Candidate, 0, 64)
	nh, ns := len(net.Hosts), len(net.Switches)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		dlid, sl, vl := r.Source(0, i*7919%nh)
		out = r.Route(i*31%ns, 0, vl, sl, dlid, out[:0])
		i++
	}
}

// TestDistanceOutVL checks (inVL − 1) mod V for the switch's lanes and
// beyond them, where it takes the modulo.
func TestDistanceOutVL(t *testing.T) {
	net := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 4, HostsPerSwitch: 1})
	for _, vls := range []int{1, 2, 5, 8} {
		r, err := newDistance(net, vls, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		for inVL := range 3 * vls {
			want := ((inVL-1)%vls + vls) % vls
			if got := r.outVL(inVL); int(got) != want {
				t.Errorf("V = %d: outVL(%d) = %d, want %d", vls, inVL, got, want)
			}
		}
	}
}
