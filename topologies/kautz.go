package topologies

import (
	"slices"

	"netsim/keyerr"
)

// Kautz returns the undirected Kautz graph UK(b, n) with c hosts per
// switch. The Kautz digraph K(b, n) has the (b+1)·b^(n−1) words s_1…s_n
// over the alphabet {0, …, b} with no two equal consecutive symbols as
// vertices, and an arc s_1…s_n → s_2…s_n x for each of the b symbols
// x ≠ s_n. A link is bidirectional, so every arc becomes one link between
// its two switches, and an antiparallel pair of arcs (u → v and v → u,
// which exist between the words abab… and baba…, and between all pairs
// when n = 1) becomes a single link, not two parallel ones. There are no
// self-loops (consecutive symbols differ). So a switch has 2b links,
// except the (b+1)·b alternating words, which have 2b − 1 (b when n = 1).
//
// Switch numbering: switch = s_1·b^(n−1) + Σ_{i≥2} d_i·b^(n−i), where
// s_i = (s_{i−1} + 1 + d_i) mod (b+1); Switch.Coord holds s_1, …, s_n.
// Ports: 0..c-1 are host ports (host = switch·c + port), then one port per
// neighbour in increasing switch order, with Dim = -1. Network.Bisection
// is 0 (no formula).
//
// Kautz validates its arguments like Build does for the keys b, n and
// hosts_per_switch.
func Kautz(b, n, c int) (*Network, error) {
	return Build(Spec{Kind: "kautz", B: b, N: n, HostsPerSwitch: c})
}

// buildKautz validates s and builds the Kautz graph it describes.
func buildKautz(s Spec) (*Network, error) {
	if err := checkUsed(s); err != nil {
		return nil, err
	}
	b, n, c := s.B, s.N, s.HostsPerSwitch
	if err := checkCount("b", b, 2, MaxSwitches); err != nil {
		return nil, err
	}
	if err := checkCount("n", n, 1, MaxDims); err != nil {
		return nil, err
	}
	if err := checkCount("hosts_per_switch", c, 1, MaxHosts); err != nil {
		return nil, err
	}
	switches := b + 1
	for range n - 1 {
		if switches > MaxSwitches/b {
			return nil, keyerr.New("b/n", "K(%d, %d) has more than the limit of %d switches", b, n, MaxSwitches)
		}
		switches *= b
	}
	if err := checkTotals(switches, c+2*b, c, "hosts_per_switch", "b"); err != nil {
		return nil, err
	}
	return kautz(b, n, c, switches), nil
}

// kautz builds the validated Kautz graph; see Kautz.
func kautz(b, n, c, switches int) *Network {
	top := switches / (b + 1) // b^(n−1), the place of s_1
	word := make([]int, n)
	// decode fills word with the symbols of switch s.
	decode := func(s int) {
		word[0] = s / top
		rem, place := s%top, top
		for i := 1; i < n; i++ {
			place /= b
			word[i] = (word[i-1] + 1 + rem/place) % (b + 1)
			rem %= place
		}
	}
	adj := make([][]int32, switches)
	for u := range switches {
		decode(u)
		// v = s_2…s_n x: drop s_1's place, shift the digits up one place and
		// append the digit of x.
		shifted := 0
		if n > 1 {
			d2 := (word[1] - word[0] - 1 + 2*(b+1)) % (b + 1) // digit of s_2
			shifted = word[1]*top + (u%top-d2*(top/b))*b
		}
		for d := range b {
			v := shifted + d
			if n == 1 {
				v = (word[0] + 1 + d) % (b + 1)
			}
			adj[u] = append(adj[u], int32(v))
			adj[v] = append(adj[v], int32(u))
		}
	}
	for s := range adj {
		slices.Sort(adj[s])
		adj[s] = slices.Compact(adj[s])
	}
	net := fromAdjacency("kautz", adj, c, n)
	for s := range net.Switches {
		decode(s)
		for i, x := range word {
			net.Switches[s].Coord[i] = int32(x)
		}
	}
	return net
}
