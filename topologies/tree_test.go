package topologies

import (
	"reflect"
	"slices"
	"testing"
)

// treeWant is the expected structure of a tree network (clos, fattree,
// xgft), level by level from the leaves.
type treeWant struct {
	levels []int // switches per level
	down   []int // down ports per switch (host ports on leaves); -1: varies
	up     []int // up ports per switch
	par    []int // parallel links from a level-l switch to each parent
	hosts  int
	links  int
	radix  int
}

// checkTree checks net against want and the tree layout documented on
// Clos: level-major numbering with Coord = [level, index], hosts numbered
// leaf-major on the first ports of the leaves, down ports before up ports,
// Dim = the lower level of a link, parallel links on consecutive ports,
// and a connected switch graph of diameter 2·(levels − 1).
func checkTree(t *testing.T, net *Network, want treeWant) {
	t.Helper()
	if err := net.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(net.Hosts) != want.hosts || net.Links() != want.links || net.Radix() != want.radix {
		t.Fatalf("hosts %d links %d radix %d, want %d, %d, %d",
			len(net.Hosts), net.Links(), net.Radix(), want.hosts, want.links, want.radix)
	}
	counts := make([]int, len(want.levels))
	level := make([]int, len(net.Switches))
	for s := range net.Switches {
		c := net.Switches[s].Coord
		if len(c) != 2 || c[0] < 0 || int(c[0]) >= len(want.levels) {
			t.Fatalf("switch %d: Coord %v, want [level, index] with level < %d", s, c, len(want.levels))
		}
		l := int(c[0])
		if s > 0 && l < level[s-1] {
			t.Fatalf("switch %d at level %d after a level-%d switch", s, l, level[s-1])
		}
		if int(c[1]) != counts[l] {
			t.Fatalf("switch %d: Coord %v, want index %d within level %d", s, c, counts[l], l)
		}
		level[s] = l
		counts[l]++
	}
	if !slices.Equal(counts, want.levels) {
		t.Fatalf("switches per level %v, want %v", counts, want.levels)
	}
	for s := range net.Switches {
		checkTreeSwitch(t, net, s, level, want)
	}
	prev := Host{Switch: -1, Port: -1}
	for h, a := range net.Hosts {
		first := a.Switch != prev.Switch
		if level[a.Switch] != 0 || (first && (a.Switch < prev.Switch || a.Port != 0)) || (!first && a.Port != prev.Port+1) {
			t.Fatalf("host %d at switch %d port %d after host %d at switch %d port %d: not leaf-major on the first ports",
				h, a.Switch, a.Port, h-1, prev.Switch, prev.Port)
		}
		prev = a
	}
	if d, want := diameter(t, net), 2*(len(want.levels)-1); d != want {
		t.Fatalf("diameter %d, want %d", d, want)
	}
}

// checkTreeSwitch checks the ports of switch s: down ports (hosts, or links
// to level l−1 with Dim l−1) then up ports (links to level l+1 with Dim l),
// in the counts of want, with want.par consecutive links to each parent and
// the matching count to each child.
func checkTreeSwitch(t *testing.T, net *Network, s int, level []int, want treeWant) {
	t.Helper()
	l := level[s]
	down, up := 0, 0
	ports := net.Switches[s].Ports
	for p, port := range ports {
		switch {
		case port.Kind == HostPort && l == 0 && up == 0 && port.Dim == -1:
			down++
		case port.Kind == SwitchPort && level[port.Peer] == l-1 && up == 0 && port.Dim == int16(l-1):
			down++
		case port.Kind == SwitchPort && level[port.Peer] == l+1 && port.Dim == int16(l):
			up++
		default:
			t.Fatalf("switch %d (level %d) port %d = %+v out of the down-then-up order (level of peer %d)", s, l, p, port, level[port.Peer])
		}
		continues := p > 0 && ports[p-1].Kind == SwitchPort && ports[p-1].Peer == port.Peer
		if port.Kind == SwitchPort && !continues &&
			slices.ContainsFunc(ports[:p], func(q Port) bool { return q.Kind == SwitchPort && q.Peer == port.Peer }) {
			t.Fatalf("switch %d: parallel ports to switch %d are not consecutive", s, port.Peer)
		}
	}
	if (want.down[l] >= 0 && down != want.down[l]) || up != want.up[l] {
		t.Fatalf("switch %d (level %d): %d down and %d up ports, want %d and %d", s, l, down, up, want.down[l], want.up[l])
	}
	for p := len(ports) - up; p < len(ports); p++ {
		peer := ports[p].Peer
		n := 0
		for _, q := range ports {
			if q.Kind == SwitchPort && q.Peer == peer {
				n++
			}
		}
		if n != want.par[l] {
			t.Fatalf("switch %d (level %d): %d links to parent %d, want %d", s, l, n, peer, want.par[l])
		}
	}
}

// shortestPaths returns the hop distance between switches a and b and the
// number of shortest paths between them, counting parallel links as
// distinct paths (the routes a source-routed packet can take).
func shortestPaths(net *Network, a, b int) (dist, paths int) {
	d := make([]int, len(net.Switches))
	cnt := make([]int, len(net.Switches))
	for i := range d {
		d[i] = -1
	}
	d[a], cnt[a] = 0, 1
	queue := []int{a}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, p := range net.Switches[s].Ports {
			if p.Kind != SwitchPort {
				continue
			}
			switch q := int(p.Peer); d[q] {
			case -1:
				d[q], cnt[q] = d[s]+1, cnt[s]
				queue = append(queue, q)
			case d[s] + 1:
				cnt[q] += cnt[s]
			}
		}
	}
	return d[b], cnt[b]
}

// sameNetwork reports whether a and b have the same switches, ports,
// coordinates, hosts and hosts per switch (their kinds may differ).
func sameNetwork(t *testing.T, a, b *Network) {
	t.Helper()
	if !reflect.DeepEqual(a.Switches, b.Switches) || !reflect.DeepEqual(a.Hosts, b.Hosts) || a.HostsPerSwitch != b.HostsPerSwitch {
		t.Fatalf("%s (%d switches, %d hosts) and %s (%d switches, %d hosts) differ",
			a.Kind, len(a.Switches), len(a.Hosts), b.Kind, len(b.Switches), len(b.Hosts))
	}
}
