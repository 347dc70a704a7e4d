package routing

import (
	"bytes"
	"cmp"
	"math/bits"
	"slices"

	"netsim/topologies"
)

// ftreeTupleLen is the length of OpenSM ftree's switch index (tuple):
// the rank, then one digit per level.
const ftreeTupleLen = 8

// ftreeNoHops marks a switch without a route to the current target.
const ftreeNoHops = 0xFF

// ftGroup is a port group of OpenSM's ftree: the links of a switch to one
// neighbour switch, or its link to one host, with their load counters.
type ftGroup struct {
	remote      int32   // neighbour switch, or −1 for a host
	host        int32   // the host, when remote is −1
	ports       []int32 // local ports, ascending
	remotePorts []int32 // the neighbour's port of each
	counterUp   int32   // routes up through the group (on a down group)
	counterDown int32   // routes down through the group (on an up group)
}

// ftSwitch is a switch of OpenSM's ftree.
type ftSwitch struct {
	rank      int // 0 at the roots
	tuple     [ftreeTupleLen]byte
	up, down  []*ftGroup
	portUp    []int32 // per local port: routes up through it
	portDown  []int32 // per local port: routes down through it
	upChanged bool    // counterUp changed since down was sorted
	downIdx   int
	isLeaf    bool // has compute nodes
	hasTuple  bool
}

// ftreeState is one run of OpenSM's ftree over a network.
type ftreeState struct {
	sw []ftSwitch
	// The current target: each switch's port toward it (noPort: none)
	// and least hops to it.
	lft  []uint16
	hops []uint8
}

// ftreeOptions are the inputs of OpenSM's ftree besides the network and
// the levels: which hosts are compute nodes (nil: all) and which I/O
// nodes, and the reverse hops an I/O node's routes may take.
type ftreeOptions struct {
	cn, io         []bool
	maxReverseHops int
}

// ftreeRoutes fills t with OpenSM's ftree routes (osm_ucast_ftree.c, as
// OpenSM 3.3 has it), given each switch's level (leaves 0; OpenSM's rank
// is the top level less it):
//
//   - Port groups: a switch's links to one neighbour form a group, its link
//     to a host another; up, or down, by the neighbour's rank.
//   - Indexing: from the first leaf (a switch with compute nodes) in
//     OpenSM's switch order (node GUIDs as its table sorts them), a
//     breadth-first search gives every switch a tuple: its rank, then
//     digits, each new neighbour the lowest digit free at the position of
//     the level it is reached from; every switch's groups are then sorted
//     by their neighbour's tuple.
//   - Compute nodes, leaf by leaf in tuple order, hosts in port order: the
//     main path climbs from the leaf, at each switch by the up group that
//     carries the fewest routes down (then the lowest tuple) and its least
//     loaded port, the switch above routing the host down that link; the
//     other up groups get secondary entries (no counting); at each switch
//     reached, every lower switch not yet routed (or routed longer) gets
//     an entry up toward it, by the least loaded port of its group,
//     counted when it leads to hosts. A leaf with fewer compute nodes than
//     the most any leaf has routes dummy targets that only count.
//   - Then the hosts that are not compute nodes, in OpenSM's CA order,
//     counted as main paths, an I/O node's with maxReverseHops reverse
//     hops (down and up again).
func ftreeRoutes(t *Tables, net *topologies.Network, level []int32, opt ftreeOptions) {
	n := len(net.Switches)
	top := int32(0)
	for _, l := range level {
		top = max(top, l)
	}
	x := &ftreeState{sw: make([]ftSwitch, n), lft: make([]uint16, n), hops: make([]uint8, n)}
	isCN := func(h int) bool { return opt.cn == nil || opt.cn[h] }
	for s := range x.sw {
		x.sw[s].rank = int(top - level[s])
	}
	for h, a := range net.Hosts {
		if isCN(h) {
			x.sw[a.Switch].isLeaf = true
		}
	}
	// Groups, by port.
	for s, sw := range net.Switches {
		f := &x.sw[s]
		f.portUp = make([]int32, len(sw.Ports))
		f.portDown = make([]int32, len(sw.Ports))
		bySwitch := map[int32]*ftGroup{}
		for p, port := range sw.Ports {
			switch port.Kind {
			case topologies.HostPort:
				f.down = append(f.down, &ftGroup{remote: -1, host: port.Peer, ports: []int32{int32(p)}, remotePorts: []int32{port.PeerPort}})
			case topologies.SwitchPort:
				g := bySwitch[port.Peer]
				if g == nil {
					g = &ftGroup{remote: port.Peer}
					bySwitch[port.Peer] = g
					if level[port.Peer] > level[s] {
						f.up = append(f.up, g)
					} else {
						f.down = append(f.down, g)
					}
				}
				g.ports = append(g.ports, int32(p))
				g.remotePorts = append(g.remotePorts, port.PeerPort)
			}
		}
	}
	x.index(net)
	leafRank := int(top)
	// Leaves in tuple order, from the first to the last with compute nodes.
	var leaves []int
	for s := range x.sw {
		if x.sw[s].rank == leafRank {
			leaves = append(leaves, s)
		}
	}
	slices.SortFunc(leaves, func(a, b int) int { return bytes.Compare(x.sw[a].tuple[:], x.sw[b].tuple[:]) })
	first, last := -1, -1
	for i, s := range leaves {
		if x.sw[s].isLeaf {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	leaves = leaves[first : last+1]
	maxCN := 0
	for _, s := range leaves {
		c := 0
		for _, g := range x.sw[s].down {
			if g.remote < 0 && isCN(int(g.host)) {
				c++
			}
		}
		maxCN = max(maxCN, c)
	}
	route := func(h int, sw int32, credit int) {
		x.start(sw)
		x.lft[sw] = uint16(net.Hosts[h].Port)
		x.downgoing(sw, -1, true, credit, 1)
		for s := range n {
			if s != int(sw) && x.lft[s] != noPort {
				t.lft[s*t.hosts+h] = x.lft[s]
			}
		}
	}
	for _, s := range leaves {
		routed := 0
		for _, g := range x.sw[s].down {
			if g.remote >= 0 || !isCN(int(g.host)) {
				continue
			}
			route(int(g.host), int32(s), 0)
			routed++
		}
		for range maxCN - routed { // dummies: they only count
			x.start(int32(s))
			x.downgoing(int32(s), -1, true, 0, 1)
		}
	}
	if opt.cn != nil {
		for _, h := range osmCAOrder(net) {
			if isCN(h) {
				continue
			}
			credit := 0
			if opt.io != nil && opt.io[h] {
				credit = opt.maxReverseHops
			}
			route(h, net.Hosts[h].Switch, credit)
		}
	}
}

// start prepares the routing of a target on switch sw's hosts.
func (x *ftreeState) start(sw int32) {
	for s := range x.lft {
		x.lft[s], x.hops[s] = noPort, ftreeNoHops
	}
	x.hops[sw] = 1
}

// setHops records that switch s reaches the target in h hops.
func (x *ftreeState) setHops(s int32, h int) {
	x.hops[s] = min(x.hops[s], uint8(min(h, ftreeNoHops)))
}

// compareTuples orders groups by their neighbour switch's tuple, hosts
// after switches.
func (x *ftreeState) compareTuples(a, b *ftGroup) int {
	if a.remote < 0 || b.remote < 0 {
		return cmp.Compare(min(a.remote, 0), min(b.remote, 0)) * -1
	}
	return bytes.Compare(x.sw[a.remote].tuple[:], x.sw[b.remote].tuple[:])
}

// index gives every switch its tuple and sorts its groups by them
// (OpenSM's fabric_make_indexing from the first leaf).
func (x *ftreeState) index(net *topologies.Network) {
	used := map[[ftreeTupleLen]byte]bool{}
	assign := func(s int, tp [ftreeTupleLen]byte) {
		x.sw[s].tuple, x.sw[s].hasTuple = tp, true
		used[tp] = true
	}
	order := osmSwitchOrder(net)
	start := -1
	for _, s := range order {
		if x.sw[s].isLeaf {
			start = s
			break
		}
	}
	if start < 0 {
		return
	}
	var tp [ftreeTupleLen]byte
	for i := range tp {
		tp[i] = 0xFF
	}
	tp[0] = byte(x.sw[start].rank)
	for i := 1; i <= x.sw[start].rank && i < ftreeTupleLen; i++ {
		tp[i] = 0
	}
	assign(start, tp)
	leafRank := x.sw[start].rank
	newTuple := func(from [ftreeTupleLen]byte, down bool) [ftreeTupleLen]byte {
		t := from
		var at int
		if down {
			t[0]++
			at = int(from[0]) + 1
		} else {
			t[0]--
			at = int(from[0])
		}
		for i := range 0xFF {
			t[at] = byte(i)
			if !used[t] {
				return t
			}
		}
		return t
	}
	queue := []int{start}
	for head := 0; head < len(queue); head++ {
		s := queue[head]
		f := &x.sw[s]
		if f.rank < leafRank {
			for _, g := range f.down {
				if g.remote < 0 || x.sw[g.remote].hasTuple {
					continue
				}
				assign(int(g.remote), newTuple(f.tuple, true))
				queue = append(queue, int(g.remote))
			}
			slices.SortStableFunc(f.down, x.compareTuples)
		}
		if f.rank != 0 {
			for _, g := range f.up {
				if x.sw[g.remote].hasTuple {
					continue
				}
				assign(int(g.remote), newTuple(f.tuple, false))
				queue = append(queue, int(g.remote))
			}
			slices.SortStableFunc(f.up, x.compareTuples)
		}
	}
}

// leastPort returns the port of g whose counter (per local port) is
// lowest, the first such.
func leastPort(g *ftGroup, counter []int32) int {
	best := 0
	for i, p := range g.ports {
		if counter[p] < counter[g.ports[best]] {
			best = i
		}
	}
	return best
}

// upgoing is OpenSM's fabric_route_upgoing_by_going_down: from switch s
// (reached from prev above, or −1), every lower switch not yet routed to
// the target, or routed by a longer path, routes up to s by the least
// loaded port of its group, recursively; the counters grow where such a
// route leads to hosts. It reports whether s has hosts or routed any.
func (x *ftreeState) upgoing(s, prev int32, main bool, hops int) bool {
	f := &x.sw[s]
	if len(f.down) == 0 {
		return false
	}
	if f.upChanged {
		slices.SortStableFunc(f.down, func(a, b *ftGroup) int {
			if c := cmp.Compare(a.counterUp, b.counterUp); c != 0 {
				return c
			}
			return x.compareTuples(a, b)
		})
		f.upChanged = false
	}
	created := false
	for _, g := range f.down {
		if g.remote < 0 {
			created = true
			continue
		}
		if g.remote == prev {
			continue
		}
		i := leastPort(g, f.portUp)
		r := g.remote
		if x.hops[r] != ftreeNoHops && hops+1 >= int(x.hops[r]) {
			continue
		}
		x.lft[r] = uint16(g.remotePorts[i])
		x.setHops(r, hops+1)
		if x.upgoing(r, -1, main, hops+1) {
			created = true
			f.portUp[g.ports[i]]++
			g.counterUp++
			f.upChanged = true
		}
	}
	if created {
		f.downIdx = (f.downIdx + 1) % len(f.down)
	}
	return created
}

// downgoing is OpenSM's fabric_route_downgoing_by_going_up: the lower
// switches of s route up to it (upgoing), then s's least loaded up group
// routes the target down to s (the main path, counted) and every other
// up group that has no shorter route does too (secondary, not counted),
// recursively upward; with reverse hops left, it also goes down and up
// again.
func (x *ftreeState) downgoing(s, prev int32, main bool, credit, hops int) bool {
	created := x.upgoing(s, prev, main, hops)
	f := &x.sw[s]
	if f.rank == 0 {
		if credit > 0 && len(f.down) > 0 {
			f.downIdx = (f.downIdx + 1) % len(f.down)
			i := f.downIdx
			for range f.down {
				g := f.down[i]
				i = (i + 1) % len(f.down)
				if g.remote >= 0 {
					created = x.downgoing(g.remote, s, main, credit-1, hops+1) || created
				}
			}
		}
		return created
	}
	if len(f.up) == 0 {
		return created
	}
	slices.SortStableFunc(f.up, func(a, b *ftGroup) int {
		if c := cmp.Compare(a.counterDown, b.counterDown); c != 0 {
			return c
		}
		return x.compareTuples(a, b)
	})
	if main {
		g := f.up[0]
		i := leastPort(g, f.portDown)
		g.counterDown++
		f.portDown[g.ports[i]]++
		r := g.remote
		if x.lft[r] == noPort || hops+1 < int(x.hops[r]) {
			x.lft[r] = uint16(g.remotePorts[i])
			x.setHops(r, hops+1)
		}
		created = x.downgoing(r, s, true, credit, hops+1) || created
	}
	from := 0
	if main {
		from = 1
	}
	for _, g := range f.up[from:] {
		r := g.remote
		if x.lft[r] != noPort && hops+1 >= int(x.hops[r]) {
			continue
		}
		i := leastPort(g, f.portDown)
		x.lft[r] = uint16(g.remotePorts[i])
		x.setHops(r, hops+1)
		created = x.downgoing(r, s, false, credit, hops+1) || created
	}
	if credit == 0 || f.isLeaf {
		return created
	}
	for _, g := range f.down {
		if g.remote >= 0 {
			created = x.downgoing(g.remote, s, true, credit-1, hops+1) || created
		}
	}
	return created
}

// osmSwitchOrder returns the switches in the order of OpenSM's switch
// table: by node GUID as the table compares it (the GUID's bytes in
// network order read as a little-endian integer) on an import, by index
// otherwise.
func osmSwitchOrder(net *topologies.Network) []int {
	order := make([]int, len(net.Switches))
	for s := range order {
		order[s] = s
	}
	if x := newIBIndex(net); x != nil {
		slices.SortStableFunc(order, func(a, b int) int {
			return cmp.Compare(bits.ReverseBytes64(x.swGUID[a]), bits.ReverseBytes64(x.swGUID[b]))
		})
	}
	return order
}

// osmCAOrder returns the hosts in the order OpenSM's ftree visits CA
// ports: CAs by node GUID as its table compares them, then by port
// number; by index on a network without GUIDs.
func osmCAOrder(net *topologies.Network) []int {
	order := make([]int, len(net.Hosts))
	for h := range order {
		order[h] = h
	}
	x := newIBIndex(net)
	if x == nil {
		return order
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(bits.ReverseBytes64(x.caGUID[a]), bits.ReverseBytes64(x.caGUID[b])); c != 0 {
			return c
		}
		return cmp.Compare(net.IB.Hosts[a].Port, net.IB.Hosts[b].Port)
	})
	return order
}
