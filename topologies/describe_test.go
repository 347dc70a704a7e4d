package topologies

import (
	"math"
	"strings"
	"testing"
)

// fromLinks builds a network of len(hosts) switches, switch s with
// hosts[s] hosts on its first ports, and one link per entry of links (a
// pair listed twice gives two parallel links).
func fromLinks(t testing.TB, hosts []int, links [][2]int) *Network {
	t.Helper()
	deg := make([]int, len(hosts))
	for _, l := range links {
		deg[l[0]]++
		deg[l[1]]++
	}
	net := &Network{Kind: "test", Switches: make([]Switch, len(hosts))}
	next := make([]int, len(hosts))
	for s, c := range hosts {
		net.Switches[s].Ports = make([]Port, c+deg[s])
		for p := range c {
			net.Switches[s].Ports[p] = Port{Kind: HostPort, Peer: int32(len(net.Hosts)), Dim: -1}
			net.Hosts = append(net.Hosts, Host{Switch: int32(s), Port: int32(p)})
		}
		next[s] = c
	}
	for _, l := range links {
		a, b := l[0], l[1]
		pa, pb := next[a], next[b]
		net.Switches[a].Ports[pa] = Port{Kind: SwitchPort, Peer: int32(b), PeerPort: int32(pb), Dim: -1}
		net.Switches[b].Ports[pb] = Port{Kind: SwitchPort, Peer: int32(a), PeerPort: int32(pa), Dim: -1}
		next[a]++
		next[b]++
	}
	if err := net.Validate(); err != nil {
		t.Fatal(err)
	}
	return net
}

// uniform returns n copies of c.
func uniform(n, c int) []int {
	h := make([]int, n)
	for i := range h {
		h[i] = c
	}
	return h
}

// testTorus builds the torus dims with the given widths and c hosts per
// switch through the internal builder Ring uses.
func testTorus(t testing.TB, dims, widths []int, c int) *Network {
	t.Helper()
	switches, ok := product(dims, MaxSwitches)
	if !ok {
		t.Fatalf("torus %v too large", dims)
	}
	radix := c
	for _, w := range widths {
		radix += 2 * w
	}
	net := torus("torus", dims, widths, c, switches, radix)
	if err := net.Validate(); err != nil {
		t.Fatal(err)
	}
	return net
}

// mustBuild builds s or fails the test.
func mustBuild(t testing.TB, s Spec) *Network {
	t.Helper()
	net, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// withBisection sets net.Bisection and returns net.
func withBisection(net *Network, b float64) *Network {
	net.Bisection = b
	return net
}

func TestDescribe(t *testing.T) {
	// Bisection is zeroed where a builder may know the formula, so that the
	// estimate is what is tested.
	chain := fromLinks(t, []int{2, 0, 0, 2}, [][2]int{{0, 1}, {1, 2}, {2, 3}})
	tests := []struct {
		name string
		net  *Network
		want Summary
	}{
		// Ring of 8: distances from a switch 1,1,2,2,3,3,4 (sum 16), so
		// 8·16·3·3 host-pair hops over 24·23 pairs; the best balanced cut
		// crosses the ring twice: 2·width links over 12.
		{"ring 8 width 2", withBisection(mustBuild(t, Spec{Kind: "ring", Switches: 8, Widths: []int{2}, HostsPerSwitch: 3}), 0),
			Summary{Kind: "ring", Switches: 8, Hosts: 24, Links: 16, Radix: 7, Diameter: 4,
				AvgDistance: 8 * 16 * 9 / (24.0 * 23), Bisection: 4.0 / 12, CutLinks: 4}},
		// Odd ring: sides of 3 and 4 switches, 2 links over 3.5.
		{"ring 7", withBisection(mustBuild(t, Spec{Kind: "ring", Switches: 7, HostsPerSwitch: 1}), 0),
			Summary{Kind: "ring", Switches: 7, Hosts: 7, Links: 7, Radix: 3, Diameter: 3,
				AvgDistance: 2, Bisection: 2 / 3.5, CutLinks: 2}},
		{"crossbar", mustBuild(t, Spec{Kind: "crossbar", Hosts: 16}),
			Summary{Kind: "crossbar", Switches: 1, Hosts: 16, Radix: 16, Bisection: 1, BisectionExact: true}},
		{"crossbar of one host", mustBuild(t, Spec{Kind: "crossbar", Hosts: 1}),
			Summary{Kind: "crossbar", Switches: 1, Hosts: 1, Radix: 1, Bisection: 1, BisectionExact: true}},
		// FlatFly 8×8: 14 switches at 1 hop, 49 at 2; halving a dimension
		// cuts 4·4 links in each of 8 lines: 128 over 256.
		{"flatfly 8x8 estimate", withBisection(mustBuild(t, Spec{Kind: "flatfly", Dims: []int{8, 8}, HostsPerSwitch: 8}), 0),
			Summary{Kind: "flatfly", Switches: 64, Hosts: 512, Links: 448, Radix: 22, Diameter: 2,
				AvgDistance: 64 * 64 * 112 / (512.0 * 511), Bisection: 0.5, CutLinks: 128}},
		{"flatfly 8x8 formula", withBisection(mustBuild(t, Spec{Kind: "flatfly", Dims: []int{8, 8}, HostsPerSwitch: 8}), 0.5),
			Summary{Kind: "flatfly", Switches: 64, Hosts: 512, Links: 448, Radix: 22, Diameter: 2,
				AvgDistance: 64 * 64 * 112 / (512.0 * 511), Bisection: 0.5, BisectionExact: true}},
		// Torus 4×6: distance sums 4 per 4-ring, 9 per 6-ring, so 6·4+4·9 =
		// 60 per switch; the narrowest cut crosses the 4 rings of size 6
		// twice: 8 links over 24 hosts.
		{"torus 4x6", withBisection(testTorus(t, []int{4, 6}, []int{1, 1}, 2), 0),
			Summary{Kind: "torus", Switches: 24, Hosts: 48, Links: 48, Radix: 6, Diameter: 5,
				AvgDistance: 24 * 60 * 4 / (48.0 * 47), Bisection: 8.0 / 24, CutLinks: 8}},
		// Hosts only at the ends of a chain of 4 switches: 8 of the 12
		// ordered host pairs are 3 hops apart; one link crosses.
		{"chain with hostless middle", chain,
			Summary{Kind: "test", Switches: 4, Hosts: 4, Links: 3, Radix: 3, Diameter: 3,
				AvgDistance: 2, Bisection: 0.5, CutLinks: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Describe(tc.net)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got.AvgDistance-tc.want.AvgDistance) > 1e-12 || math.Abs(got.Bisection-tc.want.Bisection) > 1e-12 {
				t.Errorf("avg distance %v bisection %v, want %v %v", got.AvgDistance, got.Bisection, tc.want.AvgDistance, tc.want.Bisection)
			}
			got.AvgDistance, got.Bisection = tc.want.AvgDistance, tc.want.Bisection
			if got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestDescribeErrors(t *testing.T) {
	twoRings := fromLinks(t, uniform(6, 1), [][2]int{{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}})
	broken := mustBuild(t, Spec{Kind: "ring", Switches: 4, HostsPerSwitch: 1})
	broken.Switches[0].Ports[1].PeerPort = 1
	tests := []struct {
		name string
		net  *Network
		want string
	}{
		{"disconnected", twoRings, "describe: switch graph is disconnected: switch 3 cannot reach switch 0"},
		{"invalid", broken, "describe: switch 0 port 1: link to switch 1 port 1 is not symmetric"},
		{"empty", &Network{Kind: "test"}, `describe: network "test" has no switches`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Describe(tc.net)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// refDistances returns the diameter and the average host-to-host switch
// distance of net by a plain queue BFS from every switch.
func refDistances(net *Network) (int, float64) {
	n := len(net.Switches)
	hosts := make([]int, n)
	for _, h := range net.Hosts {
		hosts[h.Switch]++
	}
	diam, sum := 0, 0
	dist := make([]int, n)
	for s := range n {
		for i := range dist {
			dist[i] = -1
		}
		dist[s] = 0
		queue := []int{s}
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			for _, p := range net.Switches[v].Ports {
				if p.Kind == SwitchPort && dist[p.Peer] < 0 {
					dist[p.Peer] = dist[v] + 1
					queue = append(queue, int(p.Peer))
				}
			}
		}
		for t, d := range dist {
			diam = max(diam, d)
			sum += hosts[s] * hosts[t] * d
		}
	}
	h := len(net.Hosts)
	return diam, float64(sum) / float64(h*(h-1))
}

func TestDescribeDistancesMatchReference(t *testing.T) {
	var irregular [][2]int // 150 switches: a ring with chords
	for i := range 150 {
		irregular = append(irregular, [2]int{i, (i + 1) % 150})
		if i%7 == 0 {
			irregular = append(irregular, [2]int{i, (i * 13) % 150}, [2]int{i, (i * 13) % 150})
		}
	}
	hosts := make([]int, 150)
	for i := range hosts {
		hosts[i] = i % 4 // some switches without hosts
	}
	tests := []struct {
		name string
		net  *Network
	}{
		{"ring 130 (three source batches)", mustBuild(t, Spec{Kind: "ring", Switches: 130, HostsPerSwitch: 2})},
		{"flatfly 3x5x7", mustBuild(t, Spec{Kind: "flatfly", Dims: []int{3, 5, 7}, Widths: []int{2, 1, 3}, HostsPerSwitch: 3})},
		{"torus 5x6x3", testTorus(t, []int{5, 6, 3}, []int{1, 2, 1}, 1)},
		{"irregular weights", fromLinks(t, hosts, irregular)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Describe(tc.net)
			if err != nil {
				t.Fatal(err)
			}
			diam, avg := refDistances(tc.net)
			if s.Diameter != diam || math.Abs(s.AvgDistance-avg) > 1e-12 {
				t.Errorf("diameter %d avg %v, want %d %v", s.Diameter, s.AvgDistance, diam, avg)
			}
			if d := diameter(t, tc.net); d != diam {
				t.Errorf("reference diameter %d, helper says %d", diam, d)
			}
		})
	}
}

func TestDescribeSeedNetworks(t *testing.T) {
	if testing.Short() {
		t.Skip("2,048-switch networks")
	}
	// Seed 004 §1: the 2,048-switch, 16,384-host configurations; the
	// estimates reach the formulas' values.
	tests := []struct {
		name     string
		net      *Network
		radix    int
		diameter int
		bisect   float64
	}{
		{"torus3d", mustBuild(t, Spec{Preset: "torus3d"}), 34, 20, 0.15625},
		{"torus4d", mustBuild(t, Spec{Preset: "torus4d"}), 36, 14, 0.25},
		{"flatfly", mustBuild(t, Spec{Preset: "flatfly"}), 35, 4, 0.5},
		{"hypercube", mustBuild(t, Spec{Preset: "hypercube"}), 30, 11, 0.25},
		{"dragonfly", mustBuild(t, Spec{Preset: "dragonfly"}), 31, 3, 0.5},
		{"sfxff1", mustBuild(t, Spec{Preset: "sfxff1"}), 34, 4, 0.5},
		{"sfxff2", mustBuild(t, Spec{Preset: "sfxff2"}), 35, 3, 0.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.net.Bisection = 0 // the estimate, even where a builder knows the formula
			s, err := Describe(tc.net)
			if err != nil {
				t.Fatal(err)
			}
			if s.Switches != 2048 || s.Hosts != 16384 || s.Radix != tc.radix || s.Diameter != tc.diameter {
				t.Errorf("switches %d hosts %d radix %d diameter %d, want 2048 16384 %d %d",
					s.Switches, s.Hosts, s.Radix, s.Diameter, tc.radix, tc.diameter)
			}
			if s.Bisection != tc.bisect || s.BisectionExact || s.CutLinks != int(tc.bisect*8192) {
				t.Errorf("bisection %v exact %v cut %d, want estimate %v", s.Bisection, s.BisectionExact, s.CutLinks, tc.bisect)
			}
		})
	}
}

func TestDescribeDeterministic(t *testing.T) {
	net := fromLinks(t, uniform(40, 2), randomLinks(40, 100, 7))
	a, err := Describe(net)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Describe(net)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Fatalf("two runs differ:\n%+v\n%+v", a, b)
	}
	if !strings.Contains(a.Kind, "test") || a.CutLinks == 0 {
		t.Fatalf("unexpected summary %+v", a)
	}
}

func BenchmarkDescribe(b *testing.B) {
	nets := []struct {
		name string
		net  *Network
	}{
		{"flatfly16384", mustBuild(b, Spec{Kind: "flatfly", Dims: []int{4, 8, 8, 8}, Widths: []int{2, 1, 1, 1}, HostsPerSwitch: 8})},
		{"torus3d16384", mustBuild(b, Spec{Preset: "torus3d"})},
		{"dragonfly16384", mustBuild(b, Spec{Preset: "dragonfly"})},
	}
	for _, n := range nets {
		b.Run(n.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Describe(n.net); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
