package routing

import (
	"context"
	"fmt"
	"testing"

	"netsim/topologies"
)

// depChannel is a channel of the dependency graph: output port port of
// switch sw, on VL vl.
type depChannel struct{ sw, port, vl int }

func (c depChannel) String() string {
	return fmt.Sprintf("(switch %d, port %d, VL %d)", c.sw, c.port, c.vl)
}

// dependencyCycle returns one cycle of the channel dependency graph of r
// on net with vls VLs (CheckDeadlock), as the output channels it goes
// through, or nil when the graph is acyclic; an error of the check fails
// the test.
func dependencyCycle(t *testing.T, net *topologies.Network, r Routing, vls int) []depChannel {
	t.Helper()
	rep, err := CheckDeadlock(context.Background(), r, net, CheckOptions{VLs: vls, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var c []depChannel
	for _, ch := range rep.Cycle {
		c = append(c, depChannel{sw: ch.Switch, port: ch.Port, vl: ch.VL})
	}
	return c
}

// TestDependencyGraphsAcyclic: the routings of this package that are
// deadlock-free by their proofs have acyclic channel dependency graphs on
// small instances of their topologies.
func TestDependencyGraphsAcyclic(t *testing.T) {
	cube4 := topologies.Spec{Kind: "hypercube", Dimension: 4, Width: 2, HostsPerSwitch: 2}
	cube5 := topologies.Spec{Kind: "hypercube", Dimension: 5, HostsPerSwitch: 1}
	tests := []struct {
		spec topologies.Spec
		alg  string
		vls  int
	}{
		{topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 1}, "dor", 4},
		{topologies.Spec{Kind: "torus", Dims: []int{5, 3, 4}, Widths: []int{1, 2, 1}, HostsPerSwitch: 1}, "dor", 8},
		{topologies.Spec{Kind: "torus", Dims: []int{6, 2, 5}, Widths: []int{1, 2, 1}, HostsPerSwitch: 2}, "dor", 4},
		{topologies.Spec{Kind: "torus", Dims: []int{8}, HostsPerSwitch: 2}, "dor", 2},
		{topologies.Spec{Kind: "ring", Switches: 9, Widths: []int{2}, HostsPerSwitch: 1}, "dor", 3},
		{topologies.Spec{Kind: "torus", Dims: []int{4, 4, 4, 4}, HostsPerSwitch: 1}, "dor", 16},
		{cube4, "dor", 1},
		{cube4, "mixed-dor", 4},
		{cube4, "negative-first", 1},
		{cube4, "abo-negative-first", 2},
		{cube4, "abo-positive-last", 1},
		{cube5, "mixed-dor", 8},
		{cube5, "negative-first", 1},
		{cube5, "abo-negative-first", 1},
		{cube5, "abo-positive-last", 1},
	}
	for _, tc := range tests {
		net := mustBuild(t, tc.spec)
		name := fmt.Sprintf("%s %v %s vls=%d", tc.spec.Kind, net.Dims, tc.alg, tc.vls)
		t.Run(name, func(t *testing.T) {
			r, err := New(Spec{Algorithm: tc.alg, VLs: tc.vls}, net)
			if err != nil {
				t.Fatal(err)
			}
			if c := dependencyCycle(t, net, r, tc.vls); c != nil {
				t.Fatalf("dependency cycle %v", c)
			}
		})
	}
}

// TestDependencyCyclesFound: the check finds the cycles it must: minimal
// routing on a ring without datelines, fully adaptive minimal routing on
// one VL of a hypercube (which the turn models restrict), and torus dor
// with its dateline bits cleared.
func TestDependencyCyclesFound(t *testing.T) {
	ring := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 6, HostsPerSwitch: 1})
	cube := mustBuild(t, topologies.Spec{Kind: "hypercube", Dimension: 3, HostsPerSwitch: 1})
	torus := mustBuild(t, topologies.Spec{Kind: "torus", Dims: []int{4, 5}, HostsPerSwitch: 1})
	build := func(alg string, vls int, net *topologies.Network) Routing {
		r, err := New(Spec{Algorithm: alg, VLs: vls}, net)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	noDateline := build("dor", 4, torus).(*torusDOR)
	noDateline.bit = []int8{-1, -1}
	for _, tc := range []struct {
		name string
		net  *topologies.Network
		r    Routing
		vls  int
	}{
		{"ring dor-nodateline", ring, build("dor-nodateline", 1, ring), 1},
		{"hypercube distance on 1 VL", cube, build("distance", 1, cube), 1},
		{"torus dor without datelines", torus, noDateline, 4},
	} {
		c := dependencyCycle(t, tc.net, tc.r, tc.vls)
		if len(c) < 2 {
			t.Errorf("%s: no dependency cycle found", tc.name)
			continue
		}
		for i, ch := range c {
			next := c[(i+1)%len(c)]
			if p := tc.net.Switches[ch.sw].Ports[ch.port]; int(p.Peer) != next.sw {
				t.Errorf("%s: cycle %v: channel %v does not lead to switch %d", tc.name, c, ch, next.sw)
			}
		}
	}
}
