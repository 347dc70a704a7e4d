package topologies

import "slices"

// newSwitches returns n switches of radix ports each and, when dims > 0,
// dims coordinates each. All ports share one backing array and all
// coordinates another, so a network costs a handful of allocations; each
// switch's slices are capped so that appending to one cannot overwrite the
// next.
func newSwitches(n, radix, dims int) []Switch {
	sw := make([]Switch, n)
	ports := make([]Port, n*radix)
	var coords []int32
	if dims > 0 {
		coords = make([]int32, n*dims)
	}
	for i := range sw {
		sw[i].Ports = ports[i*radix : (i+1)*radix : (i+1)*radix]
		if dims > 0 {
			sw[i].Coord = coords[i*dims : (i+1)*dims : (i+1)*dims]
		}
	}
	return sw
}

// attachHosts attaches c hosts to ports 0..c-1 of every switch, numbered
// switch-major (host = switch·c + port), and returns the host list.
func attachHosts(sw []Switch, c int) []Host {
	hosts := make([]Host, len(sw)*c)
	for s := range sw {
		for p := range c {
			h := s*c + p
			sw[s].Ports[p] = Port{Kind: HostPort, Peer: int32(h), Dim: -1}
			hosts[h] = Host{Switch: int32(s), Port: int32(p)}
		}
	}
	return hosts
}

// strides returns the mixed-radix place values of dims: strides[0] = 1 and
// strides[n] = K_0·…·K_{n-1}. The switch with coordinates x has index
// Σ x_n·strides[n].
func strides(dims []int) []int {
	st := make([]int, len(dims))
	v := 1
	for n, k := range dims {
		st[n] = v
		v *= k
	}
	return st
}

// assignCoords sets every switch's coordinates from its index, read as a
// mixed-radix number over dims with dimension 0 the least significant digit.
func assignCoords(sw []Switch, dims []int) {
	for s := range sw {
		x := s
		for n, k := range dims {
			sw[s].Coord[n] = int32(x % k)
			x /= k
		}
	}
}

// product returns K_0·…·K_{N-1}, or ok = false when it exceeds limit. Every
// entry must be in [1, limit].
func product(dims []int, limit int) (p int, ok bool) {
	p = 1
	for _, k := range dims {
		p *= k
		if p > limit {
			return 0, false
		}
	}
	return p, true
}

// fromAdjacency builds a network of kind from adj, the sorted, duplicate-
// free and symmetric neighbour lists of its switches, with c hosts per
// switch: ports 0..c-1 are host ports (host = switch·c + port), then one
// port per neighbour in the order of adj[s], with Dim = -1. Switches have
// as many ports as they use. Switch.Coord gets dims entries, to be filled
// by the caller.
func fromAdjacency(kind string, adj [][]int32, c, dims int) *Network {
	n := len(adj)
	total := 0
	for _, a := range adj {
		total += c + len(a)
	}
	sw := make([]Switch, n)
	ports := make([]Port, total)
	var coords []int32
	if dims > 0 {
		coords = make([]int32, n*dims)
	}
	at := 0
	for s, a := range adj {
		r := c + len(a)
		sw[s].Ports = ports[at : at+r : at+r]
		at += r
		if dims > 0 {
			sw[s].Coord = coords[s*dims : (s+1)*dims : (s+1)*dims]
		}
	}
	hosts := attachHosts(sw, c)
	for s, a := range adj {
		for i, peer := range a {
			back, _ := slices.BinarySearch(adj[peer], int32(s))
			sw[s].Ports[c+i] = Port{Kind: SwitchPort, Peer: peer, PeerPort: int32(c + back), Dim: -1}
		}
	}
	return &Network{Kind: kind, Switches: sw, Hosts: hosts, HostsPerSwitch: c}
}
