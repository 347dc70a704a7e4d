package routing

import (
	"fmt"
	"slices"

	"netsim/topologies"
)

// maxSparseDimension bounds K_n of a dimension that is not a complete
// graph (a Slim Fly factor): its K_n² distance table takes one byte per
// ordered pair, 16 MiB at the limit.
const maxSparseDimension = 1 << 12

// dimension is one dimension of a dimNet: the graph G_n whose Cartesian
// product (with the other dimensions' graphs) is the network.
type dimension struct {
	k     int32 // K_n, the vertices (coordinate values) of G_n
	width int32 // L_n, parallel links per edge
	off   int32 // offset of the dimension within a row of dimNet.first
	// complete says G_n is the complete graph K_{K_n} (a FlatFly
	// dimension); adj and dist are then nil.
	complete bool
	diam     int32 // diameter of G_n (1 when complete, 0 when K_n = 1)
	// adj[adjStart[x]:adjStart[x+1]] lists the neighbours of x in
	// increasing order; dist[x·K_n+y] is the distance from x to y.
	adjStart, adj []int32
	dist          []uint8
}

// distance returns the distance from x to y in G_n.
func (d *dimension) distance(x, y int32) int32 {
	switch {
	case x == y:
		return 0
	case d.complete:
		return 1
	default:
		return int32(d.dist[x*d.k+y])
	}
}

// dimNet is the coordinate structure of a network that is the Cartesian
// product of graphs of diameter at most 2, one per dimension: a FlatFly
// (complete graphs) or a Slim Fly × FlatFly product (the Slim Fly one
// dimension). It is read from Network.Dims, Widths, Switch.Coord and the
// Port.Dim labels, and checked: every switch has widths[n] contiguous ports
// to each of its neighbours in dimension n, the neighbours in dimension n
// differ from it in coordinate n only, and its neighbour values in
// dimension n depend on its own coordinate n only (the same graph G_n in
// every fibre).
type dimNet struct {
	nsw    int
	nd     int
	dims   []dimension
	coords []int32 // coords[s·nd+n]: coordinate n of switch s
	row    int     // Σ K_n
	// first[s·row + dims[n].off + v] is the first of the width ports from
	// switch s to its neighbour with coordinate v in dimension n, or -1.
	first []int32
	// portDim[portStart[s]+p] is the dimension of port p of switch s, -1
	// for a host or unused port.
	portStart []int32
	portDim   []int16
}

// newDimNet reads and checks the coordinate structure of net; with
// complete set, every dimension must be a complete graph (a FlatFly).
func newDimNet(net *topologies.Network, complete bool) (*dimNet, error) {
	g := &dimNet{nsw: len(net.Switches), nd: len(net.Dims)}
	if err := g.shape(net); err != nil {
		return nil, err
	}
	if err := g.links(net); err != nil {
		return nil, err
	}
	if err := g.graphs(complete); err != nil {
		return nil, err
	}
	return g, nil
}

// shape checks Dims, Widths and the coordinates of net.
func (g *dimNet) shape(net *topologies.Network) error {
	if g.nd == 0 || len(net.Widths) != g.nd {
		return fmt.Errorf("%d dims and %d widths", g.nd, len(net.Widths))
	}
	g.dims = make([]dimension, g.nd)
	switches := 1
	for n, k := range net.Dims {
		if k < 1 || net.Widths[n] < 1 || switches > g.nsw/k {
			return fmt.Errorf("dims %v and widths %v do not match %d switches", net.Dims, net.Widths, g.nsw)
		}
		g.dims[n] = dimension{k: int32(k), width: int32(net.Widths[n]), off: int32(g.row)}
		g.row += k
		switches *= k
	}
	if switches != g.nsw {
		return fmt.Errorf("dims %v give %d switches, network has %d", net.Dims, switches, g.nsw)
	}
	coords, err := switchCoords(net)
	if err != nil {
		return err
	}
	g.coords = coords
	return nil
}

// coord returns the coordinates of switch s.
func (g *dimNet) coord(s int) []int32 { return g.coords[s*g.nd : (s+1)*g.nd] }

// links fills first and portDim from the switch ports and checks that each
// link spans its labelled dimension and that parallel links are contiguous
// and as many as the dimension's width.
func (g *dimNet) links(net *topologies.Network) error {
	g.first = make([]int32, g.nsw*g.row)
	for i := range g.first {
		g.first[i] = -1
	}
	g.portStart = make([]int32, g.nsw+1)
	for s := range net.Switches {
		g.portStart[s+1] = g.portStart[s] + int32(len(net.Switches[s].Ports))
	}
	g.portDim = make([]int16, g.portStart[g.nsw])
	count := make([]int32, g.row)
	for s := range net.Switches {
		own := g.coord(s)
		first := g.first[s*g.row : (s+1)*g.row]
		clear(count)
		for p, port := range net.Switches[s].Ports {
			g.portDim[int(g.portStart[s])+p] = -1
			if port.Kind != topologies.SwitchPort {
				continue
			}
			n := int(port.Dim)
			if n < 0 || n >= g.nd {
				return fmt.Errorf("switch %d port %d has dimension %d, want [0,%d)", s, p, n, g.nd)
			}
			g.portDim[int(g.portStart[s])+p] = int16(n)
			peer := g.coord(int(port.Peer))
			for m := range own {
				if (m == n) == (own[m] == peer[m]) {
					return fmt.Errorf("switch %d %v port %d (dimension %d) goes to switch %d %v", s, own, p, n, port.Peer, peer)
				}
			}
			i := int(g.dims[n].off) + int(peer[n])
			if err := extendRun(s, p, port.Peer, &first[i], &count[i]); err != nil {
				return err
			}
		}
		for n := range g.dims {
			d := &g.dims[n]
			for v := range d.k {
				i := int(d.off) + int(v)
				if c := count[i]; c != 0 && c != d.width {
					return fmt.Errorf("switch %d %v has %d links to its neighbour with coordinate %d in dimension %d, want width %d", s, own, c, v, n, d.width)
				}
			}
		}
	}
	return nil
}

// graphs finds the graph G_n of every dimension, checks that every switch
// has the neighbours G_n gives its coordinate, and fills the adjacency and
// distances of the dimensions that are not complete graphs, which are an
// error when complete is set.
func (g *dimNet) graphs(complete bool) error {
	for n := range g.dims {
		d := &g.dims[n]
		d.complete = true
		for s := range g.nsw {
			if c := g.neighbours(s, n); c != int(d.k)-1 {
				if complete {
					return fmt.Errorf("dimension %d is not a complete graph: switch %d %v has %d of its %d neighbours", n, s, g.coord(s), c, d.k-1)
				}
				d.complete = false
				break
			}
		}
		if d.complete {
			d.diam = min(d.k-1, 1)
			continue
		}
		if d.k > maxSparseDimension {
			return fmt.Errorf("dimension %d has %d switches and is not a complete graph; at most %d are supported", n, d.k, maxSparseDimension)
		}
		if err := g.sparse(n); err != nil {
			return err
		}
	}
	return nil
}

// neighbours returns how many neighbours switch s has in dimension n.
func (g *dimNet) neighbours(s, n int) int {
	d := &g.dims[n]
	row := g.first[s*g.row+int(d.off) : s*g.row+int(d.off+d.k)]
	c := 0
	for _, p := range row {
		if p >= 0 {
			c++
		}
	}
	return c
}

// sparse builds G_n for a dimension that is not complete: the adjacency of
// the first switch with each coordinate value, which every other switch
// must repeat, and the distances, which must not exceed 2.
func (g *dimNet) sparse(n int) error {
	d := &g.dims[n]
	rep := make([]int32, d.k) // a switch with coordinate x in dimension n
	for i := range rep {
		rep[i] = -1
	}
	for s := range g.nsw {
		if x := g.coords[s*g.nd+n]; rep[x] < 0 {
			rep[x] = int32(s)
		}
	}
	d.adjStart = make([]int32, d.k+1)
	for x := range d.k {
		row := g.first[int(rep[x])*g.row+int(d.off):][:d.k]
		for v, p := range row {
			if p >= 0 {
				d.adj = append(d.adj, int32(v))
			}
		}
		d.adjStart[x+1] = int32(len(d.adj))
	}
	for s := range g.nsw {
		x := g.coords[s*g.nd+n]
		row := g.first[s*g.row+int(d.off):][:d.k]
		nb := d.adj[d.adjStart[x]:d.adjStart[x+1]]
		for v, p := range row {
			if _, in := slices.BinarySearch(nb, int32(v)); (p >= 0) != in {
				return fmt.Errorf("dimension %d is not the same graph in every fibre: switch %d %v and switch %d differ in their link to coordinate %d",
					n, s, g.coord(s), rep[x], v)
			}
		}
	}
	d.dist = make([]uint8, int(d.k)*int(d.k))
	queue := make([]int32, 0, d.k)
	for x := range d.k {
		dist := d.dist[x*d.k : (x+1)*d.k]
		for i := range dist {
			dist[i] = 255
		}
		dist[x] = 0
		queue = append(queue[:0], x)
		for h := 0; h < len(queue); h++ {
			u := queue[h]
			for _, v := range d.adj[d.adjStart[u]:d.adjStart[u+1]] {
				if dist[v] == 255 {
					dist[v] = dist[u] + 1
					queue = append(queue, v)
				}
			}
		}
		if len(queue) < int(d.k) {
			return fmt.Errorf("dimension %d is disconnected: coordinate %d cannot reach all %d others", n, x, d.k-1)
		}
		d.diam = max(d.diam, int32(dist[queue[len(queue)-1]]))
	}
	if d.diam > 2 {
		return fmt.Errorf("dimension %d has diameter %d; the DOR family supports dimensions of diameter at most 2", n, d.diam)
	}
	return nil
}

// ports returns the first of the width ports from switch s to its
// neighbour with coordinate v in dimension n, or -1.
func (g *dimNet) ports(s, n int, v int32) int32 {
	return g.first[s*g.row+int(g.dims[n].off)+int(v)]
}

// portDimension returns the dimension of port p of switch s, -1 for a host
// or unused port, -2 for a port that does not exist.
func (g *dimNet) portDimension(s, p int) int {
	if uint(s) >= uint(g.nsw) || p < 0 || p >= int(g.portStart[s+1]-g.portStart[s]) {
		return -2
	}
	return int(g.portDim[int(g.portStart[s])+p])
}

// twistDim returns the dimension of order o (a permutation of the
// dimensions) in which a twisted routing makes its twist hop: the last
// FlatFly dimension (complete, K_n > 1) of the order, else the last
// dimension with K_n > 1, else the last one.
func (g *dimNet) twistDim(o []int) int {
	best := o[len(o)-1]
	found := false
	for _, n := range o {
		switch d := &g.dims[n]; {
		case d.k > 1 && d.complete:
			best, found = n, true
		case d.k > 1 && !found:
			best = n
		}
	}
	return best
}

// switchCoords returns the coordinates of every switch of net, a network
// whose switch count is the product of net.Dims (checked by the caller),
// as coords[s·N+n], checking that each switch has N coordinates within
// Dims and that no two switches share them.
func switchCoords(net *topologies.Network) ([]int32, error) {
	nd := len(net.Dims)
	coords := make([]int32, len(net.Switches)*nd)
	seen := make([]bool, len(net.Switches))
	for s := range net.Switches {
		c := net.Switches[s].Coord
		if len(c) != nd {
			return nil, fmt.Errorf("switch %d has %d coordinates, want %d", s, len(c), nd)
		}
		idx, place := 0, 1
		for n, k := range net.Dims {
			if c[n] < 0 || int(c[n]) >= k {
				return nil, fmt.Errorf("switch %d coordinate %d is %d, outside [0,%d)", s, n, c[n], k)
			}
			idx += int(c[n]) * place
			place *= k
		}
		if seen[idx] {
			return nil, fmt.Errorf("switch %d repeats coordinates %v", s, c)
		}
		seen[idx] = true
		copy(coords[s*nd:], c)
	}
	return coords, nil
}
