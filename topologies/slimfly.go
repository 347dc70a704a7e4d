package topologies

import (
	"slices"

	"netsim/keyerr"
)

// maxSlimFlyQ is the largest q with 2q² ≤ MaxSwitches.
const maxSlimFlyQ = 362

// SlimFly returns the Slim Fly built on the McKay–Miller–Širáň graph of the
// prime power q = 4w + δ, δ ∈ {−1, 0, 1} (seed 004 §1.5, after Besta and
// Hoefler, SC 2014), with width parallel links between adjacent switches
// and c hosts per switch. It has 2q² switches, diameter 2 and network
// radix (3q − δ)/2, so its radix is c + width·(3q − δ)/2.
//
// The switches are the triples (t, x, y), t ∈ {0, 1}, x, y ∈ GF(q) (see
// field for the numbering of GF(q), which makes GF(p) the integers mod p);
// switch = t·q² + x·q + y and Switch.Coord = [t, x, y]. With ξ the
// field's primitive element the generator sets are
//
//   - δ = 1: X_0 = {1, ξ², …, ξ^(q−3)}, X_1 = {ξ, ξ³, …, ξ^(q−2)};
//   - δ = 0: X_0 = {1, ξ², …, ξ^(q−2)}, X_1 = {ξ, ξ³, …, ξ^(q−1)};
//   - δ = −1: X_0 = {1, ξ², …, ξ^(2w−2), ξ^(2w−1), ξ^(2w+1), …, ξ^(4w−3)},
//     X_1 = {ξ, ξ³, …, ξ^(2w−1), ξ^(2w), ξ^(2w+2), …, ξ^(4w−2)}.
//
// y-edges: (t, x, y) ~ (t, x, y') when y' − y or y − y' lies in X_t, one
// link per unordered pair (the rule does not rely on X_t = −X_t); t-edges:
// (0, x, y) ~ (1, m, c) when y = x·m + c.
//
// Port layout of switch (t, x, y): ports 0..c-1 are host ports (host =
// switch·c + port); then width ports to each y-edge neighbour (t, x, y')
// in increasing y'; then width ports to each t-edge neighbour, the one in
// column x' = 0, 1, …, q−1 of the other half in turn. Every link has
// Dim = 0, so a product treats the Slim Fly as one dimension.
//
// Network.Bisection is width·q/(2c) when q is a power of two, 0 otherwise:
// splitting each half (t = 0, 1) into the switches with x in one of two
// sets of q/2 columns cuts width·q³/2 links, and the tests check for
// q = 4, 8 and 16 that the Laplacian's second eigenvalue is width·q, so
// no balanced cut crosses fewer than width·q·2q²/4 links (seed 004
// conjectures the formula for q = 2^p). For odd q the second eigenvalue
// is width·q as well (measured for q ≤ 13), but the best balanced cut
// known here crosses width·q·(q²+1)/2 links, so there is no exact formula.
//
// SlimFly validates its arguments like Build does for the keys q, width (0
// means 1) and hosts_per_switch.
func SlimFly(q, width, c int) (*Network, error) {
	return Build(Spec{Kind: "slimfly", Q: q, Width: width, HostsPerSwitch: c})
}

// buildSlimFly validates s and builds the Slim Fly it describes.
func buildSlimFly(s Spec) (*Network, error) {
	if err := checkUsed(s); err != nil {
		return nil, err
	}
	q := s.Q
	if err := checkCount("q", q, 3, maxSlimFlyQ); err != nil {
		return nil, err
	}
	if _, _, ok := primePower(q); !ok {
		return nil, keyerr.New("q", "%d is not a prime power (expected 3, 4, 5, 7, 8, 9, 11, 13, …)", q)
	}
	width, err := widthFor(s.Width)
	if err != nil {
		return nil, err
	}
	if err := checkCount("hosts_per_switch", s.HostsPerSwitch, 1, MaxHosts); err != nil {
		return nil, err
	}
	delta := q % 4
	if delta == 3 {
		delta = -1
	}
	radix := s.HostsPerSwitch + width*(3*q-delta)/2
	if err := checkTotals(2*q*q, radix, s.HostsPerSwitch, "hosts_per_switch", sizeKey("q", s.Width)); err != nil {
		return nil, err
	}
	f, err := newField(q)
	if err != nil {
		return nil, keyerr.New("q", "%w", err)
	}
	return slimFly(f, delta, width, s.HostsPerSwitch)
}

// generators returns the exponents of ξ in X_0 and X_1 for q = 4w + δ.
func generators(q, delta int) (x0, x1 []int) {
	switch delta {
	case 1:
		for i := 0; i <= q-3; i += 2 {
			x0, x1 = append(x0, i), append(x1, i+1)
		}
	case 0:
		for i := 0; i <= q-2; i += 2 {
			x0, x1 = append(x0, i), append(x1, i+1)
		}
	case -1:
		w := (q + 1) / 4
		for i := 0; i <= 2*w-2; i += 2 {
			x0 = append(x0, i)
		}
		for i := 2*w - 1; i <= 4*w-3; i += 2 {
			x0 = append(x0, i)
		}
		for i := 1; i <= 2*w-1; i += 2 {
			x1 = append(x1, i)
		}
		for i := 2 * w; i <= 4*w-2; i += 2 {
			x1 = append(x1, i)
		}
	}
	return x0, x1
}

// slimFly builds the validated Slim Fly over f; see SlimFly.
func slimFly(f *field, delta, width, c int) (*Network, error) {
	q := f.q
	e0, e1 := generators(q, delta)
	// nbr[t][y]: the y-edge neighbours y' of y in a column of half t, in
	// increasing order; it is a Cayley graph, so every y has as many.
	var nbr [2][][]int
	for t, exps := range [2][]int{e0, e1} {
		nbr[t] = make([][]int, q)
		for y := range q {
			var list []int
			for _, e := range exps {
				a := f.power(e)
				list = append(list, f.plus(y, a), f.minus(y, a))
			}
			slices.Sort(list)
			nbr[t][y] = slices.Compact(list)
		}
	}
	dy := len(nbr[0][0])
	if len(nbr[1][0]) != dy || dy != (q-delta)/2 {
		return nil, keyerr.New("q", "internal error: y-degrees %d and %d, want %d", dy, len(nbr[1][0]), (q-delta)/2)
	}
	radix := c + width*(dy+q)
	n := 2 * q * q
	sw := newSwitches(n, radix, 3)
	hosts := attachHosts(sw, c)
	index := func(t, x, y int) int { return t*q*q + x*q + y }
	tBase := c + width*dy // first t-edge port
	for s := range sw {
		t, x, y := s/(q*q), s/q%q, s%q
		sw[s].Coord[0], sw[s].Coord[1], sw[s].Coord[2] = int32(t), int32(x), int32(y)
		ports := sw[s].Ports
		for i, y2 := range nbr[t][y] {
			back, _ := slices.BinarySearch(nbr[t][y2], y)
			for l := range width {
				ports[c+i*width+l] = Port{Kind: SwitchPort, Peer: int32(index(t, x, y2)),
					PeerPort: int32(c + back*width + l), Dim: 0}
			}
		}
		for x2 := range q {
			var peer int
			if t == 0 { // (0, x, y) ~ (1, x2, y − x·x2)
				peer = index(1, x2, f.minus(y, f.times(x, x2)))
			} else { // (1, x, y) ~ (0, x2, x2·x + y)
				peer = index(0, x2, f.plus(f.times(x2, x), y))
			}
			for l := range width {
				ports[tBase+x2*width+l] = Port{Kind: SwitchPort, Peer: int32(peer),
					PeerPort: int32(tBase + x*width + l), Dim: 0}
			}
		}
	}
	net := &Network{
		Kind:           "slimfly",
		Switches:       sw,
		Hosts:          hosts,
		HostsPerSwitch: c,
	}
	if delta == 0 && q&(q-1) == 0 {
		net.Bisection = float64(width*q) / (2 * float64(c))
	}
	return net, nil
}
