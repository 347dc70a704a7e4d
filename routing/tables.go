package routing

import (
	"fmt"

	"netsim/topologies"
)

// noPort marks a forwarding-table entry without a port.
const noPort = 0xFFFF

// Tables is a destination-based oblivious routing given by forwarding
// tables, as an InfiniBand subnet manager computes them: per switch a
// linear forwarding table DLID → output port (the DLID of host h is h), and
// per path from a source switch to a destination host the virtual layer
// (SL/VL) it travels on. The engines minhop, dor (OpenSM's), updn, dnup,
// ftree, dmodk, sssp, p2sssp, dfsssp, lash, nue and torus-2QoS produce
// it; tables read from a file (OpenSM LFT dump or ORCS dot) too.
//
// As a Routing, Source gives DLID = destination, SL = the path's layer (as
// OpenSM's path records give it; WriteLFT writes these SLs) and VL = the
// layer too, Route is one table lookup, and OutVL keeps the VL along the
// path. The engines' tables spread their paths over copies of the layers
// when more VLs are configured than layers are used (SL2VL is the
// identity per copy); tables read from a file use the VLs the fabric
// would: VL = SL, so VL 0 for every path when the file gives no SLs, or
// the SL2VL tables' VL, as torus-2QoS's tables do too.
type Tables struct {
	name   string
	hosts  int
	sws    int
	layers int // virtual layers the routing needs (≥ 1)
	vls    int // configured VLs
	hostSw []int32
	// lft[sw·hosts+d] is the output port of switch sw for DLID d.
	lft []uint16
	// layer[sw·hosts+d] is the layer of the path from source switch sw to
	// host d; nil when every path is on layer 0.
	layer []uint8
	// fabricVLs marks tables whose VLs are the fabric's (read from a file,
	// or torus-2QoS's): VL = SL or SL2VL's, never spread over copies of
	// the layers.
	fabricVLs bool
	// pathSL[src·hosts+dst] is the SL of the path from host src to host
	// dst when path records give it per pair of hosts (then layer is nil);
	// nil otherwise.
	pathSL []uint8
	// sl2vl maps SLs to VLs per port, as the fabric's SL2VL tables do;
	// nil: VL = SL.
	sl2vl *SL2VL
	// vlsNeeded is the VLs the paths need under sl2vl (0 without).
	vlsNeeded int
	// paths is the LIDs per host (2^LMC; 1 without LMC): DLID dst·paths + k is host dst's k-th LID, whose entries
	// are lft for k = 0 and alt[((k−1)·sws + sw)·hosts + dst] beyond.
	paths int
	alt   []uint16
	// unreach is a bitset over sw·hosts+d of the switches that do not
	// reach host d (partial tables read with Spec.Unreachable); nil when
	// every switch reaches every host. unreachPairs counts the host pairs
	// it leaves unreachable.
	unreach      []uint64
	unreachPairs int64
}

// Reachable implements Partial: whether the tables lead host src's
// packets to host dst.
func (t *Tables) Reachable(src, dst int) bool {
	if t.unreach == nil {
		return true
	}
	i := int(t.hostSw[src])*t.hosts + dst
	return t.unreach[i/64]&(1<<(i%64)) == 0
}

// UnreachablePairs implements Partial: the ordered pairs of hosts the
// tables do not connect.
func (t *Tables) UnreachablePairs() int64 { return t.unreachPairs }

// newTables returns empty tables for net (every entry noPort).
func newTables(name string, net *topologies.Network, vls int) *Tables {
	t := &Tables{
		name:   name,
		hosts:  len(net.Hosts),
		sws:    len(net.Switches),
		layers: 1,
		vls:    vls,
		hostSw: make([]int32, len(net.Hosts)),
		lft:    make([]uint16, len(net.Switches)*len(net.Hosts)),
	}
	for i := range t.lft {
		t.lft[i] = noPort
	}
	for h, a := range net.Hosts {
		t.hostSw[h] = a.Switch
		t.lft[int(a.Switch)*t.hosts+h] = uint16(a.Port)
	}
	t.paths = 1
	return t
}

// setPaths gives t paths LIDs per host (LMC > 0), every entry of the
// extra ones empty but each host's own switch's.
func (t *Tables) setPaths(paths int) {
	t.paths = paths
	if paths <= 1 {
		return
	}
	t.alt = make([]uint16, (paths-1)*t.sws*t.hosts)
	for i := range t.alt {
		t.alt[i] = noPort
	}
	for k := 1; k < paths; k++ {
		for h, sw := range t.hostSw {
			i := int(sw) * t.hosts
			t.alt[(k-1)*t.sws*t.hosts+i+h] = t.lft[i+h]
		}
	}
}

// entries returns the table of LID offset k (0 ≤ k < paths), indexed
// sw·hosts + dst.
func (t *Tables) entries(k int) []uint16 {
	if k == 0 {
		return t.lft
	}
	n := t.sws * t.hosts
	return t.alt[(k-1)*n : k*n]
}

// routeLMC is Route for tables with several LIDs per host.
func (t *Tables) routeLMC(sw int, dlid int32, out []Candidate) []Candidate {
	d, k := int(dlid)/t.paths, int(dlid)%t.paths
	if uint(sw) >= uint(t.sws) || dlid < 0 || d >= t.hosts {
		return out
	}
	p := t.entries(k)[sw*t.hosts+d]
	if p == noPort {
		return out
	}
	return append(out, Candidate{Port: int32(p), Priority: High})
}

// Paths returns the LIDs each host answers to (2^LMC): the routes a NIC
// may choose among (Multipath) when it is more than 1.
func (t *Tables) Paths() int { return max(t.paths, 1) }

// Layers returns the virtual layers routing r needs: the layers (SLs) of
// table routings, whatever VLs their SL2VL tables map them to, and VLs()
// for the others.
func Layers(r Routing) int {
	if t, ok := asTables(r); ok {
		return t.layers
	}
	return r.VLs()
}

// TablesOf returns the forwarding tables of a table routing (an engine's
// or a file's, with one or several LIDs per host), false for a routing
// that has none.
func TablesOf(r Routing) (*Tables, bool) { return asTables(r) }

// asTables returns the tables of a table routing (*Tables, or tables with
// several LIDs per host).
func asTables(r Routing) (*Tables, bool) {
	switch t := r.(type) {
	case *Tables:
		return t, true
	case lmcTables:
		return t.Tables, true
	}
	return nil, false
}

// lmcTables are tables with several LIDs per host, a Multipath routing:
// route k of a pair is the destination's k-th LID, its SL and VL those
// of the base LID.
type lmcTables struct{ *Tables }

// Routes implements Multipath: the LIDs per host.
func (t lmcTables) Routes(src, dst int) int { return t.paths }

// SourceRoute implements Multipath: the destination's r-th LID.
func (t lmcTables) SourceRoute(src, dst, r int) (dlid int32, sl, vl int) {
	dlid, sl, vl = t.Source(src, dst)
	if dlid < 0 || r < 0 || r >= t.paths {
		return -1, 0, 0
	}
	return dlid + int32(r), sl, vl
}

// Name implements Routing.
func (t *Tables) Name() string { return t.name }

// VLs implements Routing: the virtual layers the tables use, or, with
// SL2VL tables, the VLs their SLs map to.
func (t *Tables) VLs() int {
	if t.vlsNeeded > 0 {
		return t.vlsNeeded
	}
	return t.layers
}

// SLs implements Routing: one SL per virtual layer.
func (t *Tables) SLs() int { return t.layers }

// Layers returns the number of virtual layers the paths use.
func (t *Tables) Layers() int { return t.layers }

// Port returns the output port of switch sw for DLID dlid, or -1 when the
// table has no entry.
func (t *Tables) Port(sw int, dlid int32) int {
	p := t.lft[sw*t.hosts+int(dlid)]
	if p == noPort {
		return -1
	}
	return int(p)
}

// Layer returns the virtual layer of the path from source switch sw to
// host dst. Tables whose SLs come per pair of hosts (path records) answer
// for sw's first host.
func (t *Tables) Layer(sw, dst int) int {
	switch {
	case t.pathSL != nil:
		for h, s := range t.hostSw {
			if int(s) == sw {
				return int(t.pathSL[h*t.hosts+dst])
			}
		}
		return 0
	case t.layer == nil:
		return 0
	}
	return int(t.layer[sw*t.hosts+dst])
}

// Source implements Routing: DLID = dst; SL = the path's layer l; VL = l,
// or, for an engine's tables with V configured VLs and L layers,
// l + L·(dst mod ⌊V/L⌋) (each copy of the layers is deadlock-free like the
// layers themselves).
func (t *Tables) Source(src, dst int) (dlid int32, sl, vl int) {
	if uint(dst) >= uint(t.hosts) || uint(src) >= uint(t.hosts) {
		return -1, 0, 0
	}
	var l int
	if t.pathSL != nil {
		l = int(t.pathSL[src*t.hosts+dst])
	} else {
		l = t.Layer(int(t.hostSw[src]), dst)
	}
	if t.fabricVLs {
		dlid := int32(dst * t.paths)
		if t.sl2vl != nil {
			return dlid, l, t.sl2vl.CA(src, l)
		}
		return dlid, l, l
	}
	copies := max(t.vls/t.layers, 1)
	return int32(dst * t.paths), l, l + t.layers*(dst%copies)
}

// Route implements Routing with one table lookup and no allocation.
func (t *Tables) Route(sw, inPort, inVL, sl int, dlid int32, out []Candidate) []Candidate {
	if t.paths > 1 {
		return t.routeLMC(sw, dlid, out)
	}
	if uint(sw) >= uint(t.sws) || uint32(dlid) >= uint32(t.hosts) {
		return out
	}
	p := t.lft[sw*t.hosts+int(dlid)]
	if p == noPort {
		return out
	}
	return append(out, Candidate{Port: int32(p), Priority: High})
}

// OutVL implements Routing: the VL stays the same along the path, or is
// the SL2VL tables' for the SL from inPort to outPort.
func (t *Tables) OutVL(sw, inPort, inVL, sl, outPort int) int {
	if t.sl2vl != nil {
		return t.sl2vl.Switch(sw, inPort+1, outPort+1, sl)
	}
	return inVL
}

// Path appends to out the switches of the path from switch src to host dst
// (src first, the destination's switch last) and returns it, or an error
// when an entry is missing or the path loops.
func (t *Tables) Path(net *topologies.Network, src, dst int, out []int32) ([]int32, error) {
	s := int32(src)
	for range t.sws + 1 {
		out = append(out, s)
		if s == t.hostSw[dst] {
			return out, nil
		}
		p := t.lft[int(s)*t.hosts+dst]
		if p == noPort || int(p) >= len(net.Switches[s].Ports) {
			return out, fmt.Errorf("routing %s: switch %d has no route to host %d", t.name, s, dst)
		}
		port := net.Switches[s].Ports[p]
		if port.Kind != topologies.SwitchPort {
			return out, fmt.Errorf("routing %s: switch %d sends host %d to port %d, which leads to no switch", t.name, s, dst, p)
		}
		s = port.Peer
	}
	return out, fmt.Errorf("routing %s: the path from switch %d to host %d loops", t.name, src, dst)
}

// check verifies that every switch reaches every host by the tables.
func (t *Tables) check(net *topologies.Network) error {
	var path []int32
	for d := range t.hosts {
		for s := range t.sws {
			var err error
			if path, err = t.Path(net, s, d, path[:0]); err != nil {
				return err
			}
		}
	}
	return nil
}

// graph is the switch-to-switch graph of a network: the channels (directed
// links) out of switch s are chStart[s] ≤ c < chStart[s+1], channel c
// leaving port chPort[c] to switch chTo[c]; chRev[c] is the channel of the
// same link in the other direction.
type graph struct {
	n                   int
	chStart             []int32
	chPort, chTo, chRev []int32
	chOf                [][]int32 // chOf[s][port] = channel, or -1
}

// newGraph builds the switch graph of net.
func newGraph(net *topologies.Network) *graph {
	g := &graph{n: len(net.Switches), chStart: make([]int32, len(net.Switches)+1), chOf: make([][]int32, len(net.Switches))}
	for s, sw := range net.Switches {
		g.chOf[s] = make([]int32, len(sw.Ports))
		for p, port := range sw.Ports {
			g.chOf[s][p] = -1
			if port.Kind == topologies.SwitchPort {
				g.chOf[s][p] = int32(len(g.chPort))
				g.chPort = append(g.chPort, int32(p))
				g.chTo = append(g.chTo, port.Peer)
			}
		}
		g.chStart[s+1] = int32(len(g.chPort))
	}
	g.chRev = make([]int32, len(g.chPort))
	for s, sw := range net.Switches {
		for p, port := range sw.Ports {
			if c := g.chOf[s][p]; c >= 0 {
				g.chRev[c] = g.chOf[port.Peer][port.PeerPort]
			}
		}
	}
	return g
}

// bfsFrom fills dist with the hop distances of every switch to the
// nearest of the switches from (distance 0), using queue's storage, and
// returns false when some switch reaches none of them (its distance is
// −1).
func (g *graph) bfsFrom(from []int, dist []int32, queue []int32) bool {
	for i := range dist {
		dist[i] = -1
	}
	queue = queue[:0]
	for _, s := range from {
		if dist[s] < 0 {
			dist[s] = 0
			queue = append(queue, int32(s))
		}
	}
	for head := 0; head < len(queue); head++ {
		u := queue[head]
		for c := g.chStart[u]; c < g.chStart[u+1]; c++ {
			if v := g.chTo[c]; dist[v] < 0 {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return len(queue) == g.n
}

// channels returns the number of channels.
func (g *graph) channels() int { return len(g.chPort) }

// bfs fills dist with the hop distances of every switch to switch t
// (links are symmetric) and returns false when some switch cannot reach t.
func (g *graph) bfs(t int, dist []int32, queue []int32) bool {
	return g.bfsFrom([]int{t}, dist, queue)
}
