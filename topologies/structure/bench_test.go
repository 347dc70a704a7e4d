package structure

import (
	"testing"

	"netsim/topologies"
)

// The seed-004 reference networks: 2,048 switches each.

func BenchmarkMapFlatFly(b *testing.B) {
	net, err := topologies.Build(topologies.Spec{Kind: "flatfly", Dims: []int{4, 8, 8, 8}, Widths: []int{2, 1, 1, 1}, HostsPerSwitch: 8})
	if err != nil {
		b.Fatal(err)
	}
	g, _ := faulty(FromNetwork(net), 0.2, 0.15, 1)
	for b.Loop() {
		if _, err := MapFlatFly(g); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMapDragonfly(b *testing.B) {
	yes := true
	net, err := topologies.Build(topologies.Spec{Kind: "dragonfly", GroupSize: 16, GlobalPerSwitch: 8, HostsPerSwitch: 8, OmitOneGlobal: &yes})
	if err != nil {
		b.Fatal(err)
	}
	g := FromNetwork(net)
	for b.Loop() {
		if _, err := MapDragonfly(g); err != nil {
			b.Fatal(err)
		}
	}
}
