package topologies

// graph is an undirected, edge- and vertex-weighted graph in compressed
// form: the neighbours of vertex v are adj[start[v]:start[v+1]], each
// listed once, with ew the weight of the edge to it. It is the switch graph
// of a network (edge weight = parallel links, vertex weight = hosts) and
// the coarse graphs the bisection heuristic derives from it.
type graph struct {
	start []int32
	adj   []int32
	ew    []int
	vw    []int
}

// switchGraph returns the switch graph of n: one vertex per switch,
// weighted by its hosts, and one edge per pair of adjacent switches,
// weighted by the number of parallel links between them. Links from a
// switch to itself are left out: they join no two switches. n must be
// valid (see Network.Validate).
func switchGraph(n *Network) *graph {
	ns := len(n.Switches)
	g := &graph{start: make([]int32, ns+1), vw: make([]int, ns)}
	// at[t] is the position of t in the list being built for switch s, or
	// −1; seen[t] == s+1 marks that at[t] belongs to s.
	at := make([]int32, ns)
	seen := make([]int32, ns)
	for s := range n.Switches {
		for _, p := range n.Switches[s].Ports {
			switch {
			case p.Kind == HostPort:
				g.vw[s]++
			case p.Kind != SwitchPort || int(p.Peer) == s:
			case seen[p.Peer] == int32(s+1):
				g.ew[at[p.Peer]]++
			default:
				seen[p.Peer] = int32(s + 1)
				at[p.Peer] = int32(len(g.adj))
				g.adj = append(g.adj, p.Peer)
				g.ew = append(g.ew, 1)
			}
		}
		g.start[s+1] = int32(len(g.adj))
	}
	return g
}

// order returns the number of vertices.
func (g *graph) order() int { return len(g.vw) }

// totalWeight returns the sum and the largest of the vertex weights.
func (g *graph) totalWeight() (sum, largest int) {
	for _, w := range g.vw {
		sum += w
		largest = max(largest, w)
	}
	return sum, largest
}
