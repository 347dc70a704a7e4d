package traffic

import (
	"math"
	"slices"
	"strings"
	"testing"

	"netsim/kernel"
	"netsim/topologies"
)

func build(t *testing.T, s topologies.Spec) *topologies.Network {
	t.Helper()
	net, err := topologies.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// coordOf returns the coordinates of host h's switch.
func coordOf(net *topologies.Network, h int) []int32 { return net.Switches[net.Hosts[h].Switch].Coord }

// TestShiftPatterns: tornado moves ⌈K/2⌉ − 1 switches and neighbor one in
// every dimension, keeping the host's place on its switch.
func TestShiftPatterns(t *testing.T) {
	for _, c := range []struct {
		spec topologies.Spec
		name string
	}{
		{topologies.Spec{Kind: "ring", Switches: 8, HostsPerSwitch: 2}, "tornado"},
		{topologies.Spec{Kind: "torus", Dims: []int{5, 4, 3}, HostsPerSwitch: 2}, "tornado"},
		{topologies.Spec{Kind: "torus", Dims: []int{5, 4}, HostsPerSwitch: 1}, "neighbor"},
		{topologies.Spec{Kind: "flatfly", Dims: []int{4, 4}, HostsPerSwitch: 3}, "neighbour"},
	} {
		net := build(t, c.spec)
		p, err := NewNetworkPattern(c.name, net, 1, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if Random(p) {
			t.Errorf("%s is random", c.name)
		}
		seen := make([]bool, len(net.Hosts))
		for h := range net.Hosts {
			d := p.Dest(h, nil)
			seen[d] = true
			for n, k := range net.Dims {
				shift := 1
				if c.name == "tornado" {
					shift = (k+1)/2 - 1
				}
				if got, want := coordOf(net, d)[n], (coordOf(net, h)[n]+int32(shift))%int32(k); got != want {
					t.Errorf("%s on %v: host %d at %v sends to %v", c.name, c.spec.Dims, h, coordOf(net, h), coordOf(net, d))
				}
			}
			if h%c.spec.HostsPerSwitch != d%c.spec.HostsPerSwitch {
				t.Errorf("%s: host %d's place differs from host %d's", c.name, h, d)
			}
		}
		if slices.Contains(seen, false) {
			t.Errorf("%s on %v is not a permutation", c.name, c.spec.Dims)
		}
	}
}

// TestAdversarial: group g sends to group g + H, each host to its
// counterpart.
func TestAdversarial(t *testing.T) {
	net := build(t, topologies.Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 2})
	groups := int32(0)
	for _, sw := range net.Switches {
		groups = max(groups, sw.Coord[0]+1)
	}
	for _, c := range []struct {
		name string
		h    int32
	}{{"adversarial", 1}, {"adversarial+3", 3}} {
		p, err := NewNetworkPattern(c.name, net, 1, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for h := range net.Hosts {
			d := p.Dest(h, nil)
			a, b := coordOf(net, h), coordOf(net, d)
			if b[0] != (a[0]+c.h)%groups || b[1] != a[1] || h%2 != d%2 {
				t.Errorf("%s: host %d at %v sends to host %d at %v", c.name, h, a, d, b)
			}
		}
	}
}

// TestRandPair: a matching, drawn from the seed.
func TestRandPair(t *testing.T) {
	net := build(t, topologies.Spec{Kind: "crossbar", Hosts: 11})
	p, err := NewNetworkPattern("randpair", net, 7, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fixed := 0
	for h := range net.Hosts {
		d := p.Dest(h, nil)
		if p.Dest(d, nil) != h {
			t.Errorf("host %d → %d → %d: not a pairing", h, d, p.Dest(d, nil))
		}
		if d == h {
			fixed++
		}
	}
	if fixed != 1 {
		t.Errorf("%d hosts send to themselves, want 1 of 11", fixed)
	}
	q, _ := NewNetworkPattern("randpair", net, 8, Options{})
	same := true
	for h := range net.Hosts {
		same = same && p.Dest(h, nil) == q.Dest(h, nil)
	}
	if same {
		t.Error("seeds 7 and 8 give the same pairing")
	}
}

// TestHotspotAndMatrix: the draws follow the shares Mixture reports.
func TestHotspotAndMatrix(t *testing.T) {
	net := build(t, topologies.Spec{Kind: "crossbar", Hosts: 8})
	hot, err := NewNetworkPattern("hotspot", net, 1, Options{HotspotFraction: 0.5, HotspotHosts: 2})
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadMatrix([]byte("src,dst,weight\n# two hosts send\nH1,H2,1\nH1,3,3\n4,H5,2.5\n"), "m.csv", net)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Active(); !slices.Equal(got, []bool{true, false, false, false, true, false, false, false}) {
		t.Errorf("matrix sources %v", got)
	}
	rng := kernel.NewRNG(1, 2)
	for _, p := range []Pattern{hot, m} {
		mix := p.(Mixture)
		for _, src := range []int{0, 4} {
			want := make([]float64, len(net.Hosts))
			for d := range want {
				want[d] = mix.Uniform() / float64(len(net.Hosts))
			}
			for _, s := range mix.Shares(src, nil) {
				want[s.Dst] += s.Weight
			}
			got := make([]float64, len(net.Hosts))
			const draws = 200000
			for range draws {
				got[p.Dest(src, &rng)]++
			}
			for d := range got {
				if math.Abs(got[d]/draws-want[d]) > 0.01 {
					t.Errorf("%s from %d: host %d drawn %.3f of the time, want %.3f", p.Name(), src, d, got[d]/draws, want[d])
				}
			}
		}
	}
}

// TestNetworkPatternErrors: what the patterns refuse, and the matrix
// file's errors with their lines.
func TestNetworkPatternErrors(t *testing.T) {
	df := build(t, topologies.Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 2})
	torus := build(t, topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 1})
	for _, c := range []struct {
		name string
		net  *topologies.Network
		opt  Options
		want string
	}{
		{"tornado", df, Options{}, "needs a network with coordinates"},
		{"adversarial", torus, Options{}, "needs a Dragonfly"},
		{"adversarial+0", df, Options{}, "must be a positive number"},
		{"adversarial+9", df, Options{}, "leaves every host in its own group"},
		{"hotspot", torus, Options{HotspotFraction: 0.1, HotspotHosts: 0}, "hotspot_hosts 0 is outside 1 to the 16 hosts"},
		{"matrix", torus, Options{}, "needs a traffic matrix file"},
		{"tornadoes", torus, Options{}, `unknown pattern "tornadoes"`},
	} {
		if _, err := NewNetworkPattern(c.name, c.net, 1, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"H1,H2\n", "m.csv:1: expected src,dst,weight (3 fields), got 2"},
		{"H1,H2,1\nH99,H2,1\n", `m.csv:2: source "H99" is not a host`},
		{"H1,16,1\n", `m.csv:1: destination "16" is not a host`},
		{"H1,H2,0\n", `m.csv:1: bad weight "0"`},
		{"H1,H2,1\n\nH1,H2,2\n", "m.csv:3: pair H1,H2 given twice (first at line 1)"},
		{"# nothing\n", "m.csv: no entries"},
	} {
		if _, err := ReadMatrix([]byte(c.text), "m.csv", torus); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// TestOnOffMean: an on/off process keeps the Bernoulli mean (the gaps
// average PacketFlits/Load), its gaps vary more, and impossible bursts are
// refused.
func TestOnOffMean(t *testing.T) {
	b, err := NewOnOff(0.2, 4, 50, 150)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := NewBernoulli(0.2, 4)
	rng := kernel.NewRNG(3, 4)
	mean := func(p Bernoulli) (m, v float64) {
		const n = 400000
		var s, s2 float64
		for range n {
			g := float64(p.Gap(&rng))
			s, s2 = s+g, s2+g*g
		}
		m = s / n
		return m, s2/n - m*m
	}
	m, v := mean(b)
	pm, pv := mean(plain)
	if math.Abs(m-20) > 0.5 || math.Abs(pm-20) > 0.5 {
		t.Errorf("mean gaps %g (on/off) and %g (Bernoulli), want 20", m, pm)
	}
	if v < 3*pv {
		t.Errorf("gap variance %g on/off, %g Bernoulli: want far burstier", v, pv)
	}
	if _, err := NewOnOff(0.5, 1, 10, 100); err == nil || !strings.Contains(err.Error(), "more than 1") {
		t.Errorf("a burst rate above 1 packet a cycle: %v", err)
	}
	if _, err := NewOnOff(0.5, 1, 0.5, 10); err == nil {
		t.Error("a burst shorter than a cycle is accepted")
	}
}

// TestMessageSizes: the distributions' means and draws, the shortest
// packet they make, and their errors.
func TestMessageSizes(t *testing.T) {
	read := func(string) ([]byte, error) { return []byte("flits,weight\n4,1\n100,3\n"), nil }
	for _, c := range []struct {
		spec     string
		mean     float64
		shortest int // packets of 16 flits
	}{
		{"fixed 64", 64, 16},
		{"fixed 70", 70, 6},
		{"uniform 1 9", 5, 1},
		{"bimodal 8 512 0.75", 0.75*8 + 0.25*512, 8},
		{"histogram h.csv", (4 + 300) / 4.0, 4},
	} {
		m, err := ParseMessageSizes(c.spec, read)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(m.Mean()-c.mean) > 1e-9 || m.ShortestPacket(16) != c.shortest {
			t.Errorf("%s: mean %g, shortest packet %d; want %g, %d", c.spec, m.Mean(), m.ShortestPacket(16), c.mean, c.shortest)
		}
		rng := kernel.NewRNG(5, 6)
		sum := 0.0
		const n = 100000
		for range n {
			sum += float64(m.Draw(&rng))
		}
		if math.Abs(sum/n-c.mean) > 0.02*c.mean {
			t.Errorf("%s: draws average %g, want %g", c.spec, sum/n, c.mean)
		}
	}
	for _, c := range []struct{ spec, want string }{
		{"", "empty"},
		{"fixed", "fixed takes one length"},
		{"fixed 0", `"0" is not a length`},
		{"uniform 9 1", "A ≤ B"},
		{"bimodal 8 512 2", `"2" is not a probability`},
		{"zipf 3", `unknown distribution "zipf"`},
	} {
		if _, err := ParseMessageSizes(c.spec, read); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.spec, err, c.want)
		}
	}
	bad := func(string) ([]byte, error) { return []byte("4,1\n4,2\n"), nil }
	if _, err := ParseMessageSizes("histogram h.csv", bad); err == nil || !strings.Contains(err.Error(), "h.csv:2: length 4 given twice") {
		t.Errorf("histogram with a repeated length: %v", err)
	}
}
