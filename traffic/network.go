package traffic

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"netsim/kernel"
	"netsim/topologies"
)

// Names of the patterns that need the network or options.
const (
	nameTornado     = "tornado"
	nameNeighbor    = "neighbor"
	nameHotspot     = "hotspot"
	nameAdversarial = "adversarial"
	nameRandPair    = "randpair"
	nameMatrix      = "matrix"
)

// randPairStream is the kernel.RNG stream of randpair's matching
// ("randpair" in ASCII).
const randPairStream = 0x72616e6470616972

// NetworkPatternNames returns the names of the patterns NewNetworkPattern
// knows beyond NewPattern's; "adversarial+H" takes a group offset H.
func NetworkPatternNames() []string {
	return []string{nameTornado, nameNeighbor, nameHotspot, nameAdversarial, "adversarial+H", nameRandPair, nameMatrix}
}

// Options are the parameters of the patterns that take some.
type Options struct {
	// HotspotFraction is the share of every host's packets that go to a
	// hot host (hotspot), drawn uniformly among the HotspotHosts hot
	// hosts, which are spread evenly over the host indices (host ⌊i·H/k⌋
	// for i < k); the other packets go uniformly to every host.
	HotspotFraction float64
	HotspotHosts    int
	// Matrix is the traffic matrix of pattern "matrix" (ReadMatrix).
	Matrix *Matrix
}

// NewNetworkPattern returns the pattern called name on net: every pattern
// of NewPattern, and those that need the network's structure or options:
//
//	tornado        on a coordinate family (ring, torus, flatfly, hyperx,
//	               hypercube): the host of the same local index on the
//	               switch ⌈K/2⌉ − 1 further in every dimension of size K
//	               (Dally and Towles)
//	neighbor       the same, one switch further in every dimension
//	               ("neighbour" is an alias)
//	hotspot        Options.HotspotFraction of the packets to one of
//	               Options.HotspotHosts hot hosts, the others uniform
//	adversarial    on a Dragonfly, the host of the same position in the
//	               next group (group g to g + 1); "adversarial+H", to
//	               group g + H
//	randpair       a random perfect matching of the hosts, drawn from
//	               seed: paired hosts send to each other (with an odd
//	               count, one host to itself)
//	matrix         Options.Matrix: each source's destinations with the
//	               weights it gives; sources without a row do not send
//
// tornado, neighbor and adversarial need the same number of hosts on every
// switch (a host's local index is its rank among its switch's hosts).
func NewNetworkPattern(name string, net *topologies.Network, seed uint64, opt Options) (Pattern, error) {
	hosts := len(net.Hosts)
	switch {
	case name == nameTornado || name == nameNeighbor || name == "neighbour":
		return newShift(name, net)
	case name == nameAdversarial || strings.HasPrefix(name, nameAdversarial+"+"):
		h := 1
		if rest, ok := strings.CutPrefix(name, nameAdversarial+"+"); ok {
			v, err := strconv.Atoi(rest)
			if err != nil || v < 1 {
				return nil, fmt.Errorf("traffic: pattern %q: the group offset must be a positive number, as in adversarial+2", name)
			}
			h = v
		}
		return newAdversarial(name, net, h)
	case name == nameHotspot:
		if err := checkHosts(name, hosts); err != nil {
			return nil, err
		}
		if opt.HotspotHosts < 1 || opt.HotspotHosts > hosts {
			return nil, fmt.Errorf("traffic: pattern hotspot: hotspot_hosts %d is outside 1 to the %d hosts", opt.HotspotHosts, hosts)
		}
		if !(opt.HotspotFraction >= 0 && opt.HotspotFraction <= 1) {
			return nil, fmt.Errorf("traffic: pattern hotspot: hotspot_fraction %g is outside [0, 1]", opt.HotspotFraction)
		}
		hot := make([]int32, opt.HotspotHosts)
		for i := range hot {
			hot[i] = int32(i * hosts / opt.HotspotHosts)
		}
		return hotspot{hosts: hosts, hot: hot, frac: opt.HotspotFraction}, nil
	case name == nameRandPair:
		if err := checkHosts(name, hosts); err != nil {
			return nil, err
		}
		return newRandPair(hosts, seed), nil
	case name == nameMatrix:
		if opt.Matrix == nil {
			return nil, fmt.Errorf("traffic: pattern matrix needs a traffic matrix file ([traffic] matrix)")
		}
		if opt.Matrix.hosts != hosts {
			return nil, fmt.Errorf("traffic: pattern matrix: the matrix is for %d hosts, the network has %d", opt.Matrix.hosts, hosts)
		}
		return opt.Matrix, nil
	}
	p, err := NewPattern(name, hosts, seed)
	if err != nil && strings.Contains(err.Error(), "unknown pattern") {
		return nil, fmt.Errorf("traffic: unknown pattern %q (known: %s, %s; aliases of %s: random_permutation, permutation; of neighbor: neighbour)",
			name, strings.Join(PatternNames(), ", "), strings.Join(NetworkPatternNames(), ", "), nameRandPerm)
	}
	return p, err
}

// table is a pattern given by a destination per source.
type table struct {
	name string
	dest []int32
}

// Name returns the pattern's name.
func (t table) Name() string { return t.name }

// Dest returns src's destination; rng is unused.
func (t table) Dest(src int, _ *kernel.RNG) int { return int(t.dest[src]) }

// localHosts returns, per switch, its hosts in index order, and checks
// that every switch has as many.
func localHosts(name string, net *topologies.Network) ([][]int32, error) {
	on := make([][]int32, len(net.Switches))
	for h, a := range net.Hosts {
		on[a.Switch] = append(on[a.Switch], int32(h))
	}
	for s := range on {
		if len(on[s]) != len(on[0]) {
			return nil, fmt.Errorf("traffic: pattern %s needs the same number of hosts on every switch (switch %d has %d, switch 0 %d)", name, s, len(on[s]), len(on[0]))
		}
	}
	return on, nil
}

// newShift builds tornado or neighbor on a coordinate family.
func newShift(name string, net *topologies.Network) (Pattern, error) {
	if name == "neighbour" {
		name = nameNeighbor
	}
	nd := len(net.Dims)
	if nd == 0 {
		return nil, fmt.Errorf("traffic: pattern %s needs a network with coordinates (ring, torus, flatfly, hyperx, hypercube), not %s", name, net.Kind)
	}
	on, err := localHosts(name, net)
	if err != nil {
		return nil, err
	}
	at := map[string]int32{}
	key := func(c []int32) string { return fmt.Sprint(c) }
	for s, sw := range net.Switches {
		if len(sw.Coord) != nd {
			return nil, fmt.Errorf("traffic: pattern %s: switch %d has %d coordinates, the network %d dimensions", name, s, len(sw.Coord), nd)
		}
		at[key(sw.Coord)] = int32(s)
	}
	t := table{name: name, dest: make([]int32, len(net.Hosts))}
	c := make([]int32, nd)
	for s, sw := range net.Switches {
		for n, k := range net.Dims {
			shift := 1
			if name == nameTornado {
				shift = (k+1)/2 - 1
			}
			c[n] = int32((int(sw.Coord[n]) + shift) % k)
		}
		d, ok := at[key(c)]
		if !ok {
			return nil, fmt.Errorf("traffic: pattern %s: no switch at %v", name, c)
		}
		for i, h := range on[s] {
			t.dest[h] = on[d][i]
		}
	}
	return t, nil
}

// newAdversarial builds Dragonfly's adversarial pattern: group g to group
// g + h, the same switch and host position.
func newAdversarial(name string, net *topologies.Network, h int) (Pattern, error) {
	if net.Kind != "dragonfly" {
		return nil, fmt.Errorf("traffic: pattern %s needs a Dragonfly, not %s", name, net.Kind)
	}
	on, err := localHosts(name, net)
	if err != nil {
		return nil, err
	}
	groups := int32(0)
	at := map[[2]int32]int32{}
	for s, sw := range net.Switches {
		groups = max(groups, sw.Coord[0]+1)
		at[[2]int32{sw.Coord[0], sw.Coord[1]}] = int32(s)
	}
	if int32(h)%groups == 0 {
		return nil, fmt.Errorf("traffic: pattern %s: a group offset of %d leaves every host in its own group of the %d", name, h, groups)
	}
	t := table{name: name, dest: make([]int32, len(net.Hosts))}
	for s, sw := range net.Switches {
		d := at[[2]int32{(sw.Coord[0] + int32(h)) % groups, sw.Coord[1]}]
		for i, x := range on[s] {
			t.dest[x] = on[d][i]
		}
	}
	return t, nil
}

// newRandPair draws a random perfect matching of the hosts from seed.
func newRandPair(hosts int, seed uint64) table {
	p := newRandPerm(hosts, seed^randPairStream)
	t := table{name: nameRandPair, dest: make([]int32, hosts)}
	for i := 0; i+1 < hosts; i += 2 {
		a, b := p.perm[i], p.perm[i+1]
		t.dest[a], t.dest[b] = b, a
	}
	if hosts%2 == 1 {
		last := p.perm[hosts-1]
		t.dest[last] = last
	}
	return t
}

// Share is a destination and the share of a source's packets it gets.
type Share struct {
	Dst    int
	Weight float64
}

// Mixture is implemented by the random patterns other than uniform: a
// share Uniform of a source's packets go uniformly to every host (itself
// included), and the others to the destinations Shares lists. Channel
// load (linkload) reads patterns through it.
type Mixture interface {
	Pattern
	// Uniform returns the share of each source's packets drawn uniformly.
	Uniform() float64
	// Shares appends to out the destinations of src's other packets and
	// their shares (together 1 − Uniform()).
	Shares(src int, out []Share) []Share
}

// hotspot sends a share of the packets to hot hosts, the rest uniformly.
type hotspot struct {
	hosts int
	hot   []int32
	frac  float64
}

// Name returns "hotspot".
func (p hotspot) Name() string { return nameHotspot }

// Dest draws a hot host with probability frac, else any host.
func (p hotspot) Dest(src int, rng *kernel.RNG) int {
	if rng.Float64() < p.frac {
		return int(p.hot[rng.IntN(len(p.hot))])
	}
	return rng.IntN(p.hosts)
}

// Uniform implements Mixture.
func (p hotspot) Uniform() float64 { return 1 - p.frac }

// Shares implements Mixture.
func (p hotspot) Shares(src int, out []Share) []Share {
	for _, h := range p.hot {
		out = append(out, Share{Dst: int(h), Weight: p.frac / float64(len(p.hot))})
	}
	return out
}

// Matrix is a traffic matrix read from a file (ReadMatrix): per source,
// destinations with weights; a source's packets go to its destinations in
// proportion to their weights (by an alias table: one draw, O(1)).
type Matrix struct {
	hosts int
	// rows[src] lists src's destinations; prob and alias are Walker's
	// alias tables over them.
	rows   [][]int32
	prob   [][]float64
	alias  [][]int32
	shares [][]float64 // normalized weights, for Shares
	random bool        // some source has several destinations
}

// Name returns "matrix".
func (m *Matrix) Name() string { return nameMatrix }

// Dest returns a destination of src by weight (src's only one without an
// rng); it returns src itself for a source without a row, which does not
// send (Active).
func (m *Matrix) Dest(src int, rng *kernel.RNG) int {
	row := m.rows[src]
	switch len(row) {
	case 0:
		return src
	case 1:
		return int(row[0])
	}
	i := rng.IntN(len(row))
	if rng.Float64() < m.prob[src][i] {
		return int(row[i])
	}
	return int(m.alias[src][i])
}

// Random reports whether some source has several destinations.
func (m *Matrix) Random() bool { return m.random }

// Active returns which hosts send: those with a row.
func (m *Matrix) Active() []bool {
	a := make([]bool, m.hosts)
	for h, row := range m.rows {
		a[h] = len(row) > 0
	}
	return a
}

// Uniform implements Mixture: none.
func (m *Matrix) Uniform() float64 { return 0 }

// Shares implements Mixture.
func (m *Matrix) Shares(src int, out []Share) []Share {
	for i, d := range m.rows[src] {
		out = append(out, Share{Dst: int(d), Weight: m.shares[src][i]})
	}
	return out
}

// newMatrix builds the alias tables of rows with weights w.
func newMatrix(hosts int, rows [][]int32, w [][]float64) *Matrix {
	m := &Matrix{hosts: hosts, rows: rows, prob: make([][]float64, hosts), alias: make([][]int32, hosts), shares: make([][]float64, hosts)}
	for src, row := range rows {
		n := len(row)
		if n == 0 {
			continue
		}
		m.random = m.random || n > 1
		sum := 0.0
		for _, x := range w[src] {
			sum += x
		}
		prob := make([]float64, n)
		alias := make([]int32, n)
		m.shares[src] = make([]float64, n)
		var small, large []int
		for i, x := range w[src] {
			m.shares[src][i] = x / sum
			prob[i] = x / sum * float64(n)
			if prob[i] < 1 {
				small = append(small, i)
			} else {
				large = append(large, i)
			}
		}
		for len(small) > 0 && len(large) > 0 {
			s, l := small[len(small)-1], large[len(large)-1]
			small = small[:len(small)-1]
			alias[s] = row[l]
			prob[l] -= 1 - prob[s]
			if prob[l] < 1 {
				large = large[:len(large)-1]
				small = append(small, l)
			}
		}
		for _, i := range slices.Concat(small, large) {
			prob[i], alias[i] = 1, row[i]
		}
		m.prob[src], m.alias[src] = prob, alias
	}
	return m
}
