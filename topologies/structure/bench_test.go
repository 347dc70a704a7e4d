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

// BenchmarkMapDragonflyFaultDraws maps fault draws of seed 004's
// Dragonfly with 40 % of the switches and 10 % of the links missing, draw
// i in arrangement i mod 3 with seed i/3+1, and reports for every
// arrangement the fraction of draws mapped exactly by steps 1–5 of
// MapDragonfly alone (ARRANGEMENT-seed-rules) and by MapDragonfly
// (ARRANGEMENT-exact), and the fraction of all draws mapped otherwise but
// proven ambiguous (ambiguous). -benchtime 600x measures 200 draws per
// arrangement.
func BenchmarkMapDragonflyFaultDraws(b *testing.B) {
	yes := true
	var full [3]*Graph
	var group [3][]int
	for a, arr := range arrangements {
		net, err := topologies.Build(topologies.Spec{Kind: "dragonfly", GroupSize: 16, GlobalPerSwitch: 8, HostsPerSwitch: 8, Arrangement: arr, OmitOneGlobal: &yes})
		if err != nil {
			b.Fatal(err)
		}
		full[a] = FromNetwork(net)
		for _, sw := range net.Switches {
			group[a] = append(group[a], int(sw.Coord[0]))
		}
	}
	var seedExact, exact, draws [3]int
	ambiguous := 0
	b.ResetTimer()
	for i := range b.N {
		a, seed := i%3, uint64(i/3+1)
		b.StopTimer()
		g, orig := faulty(full[a], 0.40, 0.10, seed)
		b.StartTimer()
		d, err := MapDragonfly(g)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		seeded, n := seedGroups(newSimpleGraph(g))
		draws[a]++
		if checkDragonfly(dragonflyOf(g, seeded, n), g, orig, group[a]) == nil {
			seedExact[a]++
		}
		if err := checkDragonfly(d, g, orig, group[a]); err == nil {
			exact[a]++
		} else if provenAmbiguous(d, g, orig, group[a]) == nil {
			ambiguous++
			b.Logf("%s seed %d: ambiguous: %v", arrangements[a], seed, err)
		} else {
			b.Logf("%s seed %d: %v", arrangements[a], seed, err)
		}
		b.StartTimer()
	}
	for a, arr := range arrangements {
		if draws[a] > 0 {
			b.ReportMetric(float64(seedExact[a])/float64(draws[a]), arr+"-seed-rules")
			b.ReportMetric(float64(exact[a])/float64(draws[a]), arr+"-exact")
		}
	}
	b.ReportMetric(float64(ambiguous)/float64(b.N), "ambiguous")
}

// dragonflyOf returns the Dragonfly mapping of g with the given groups.
func dragonflyOf(g *Graph, group []int, groups int) *Dragonfly {
	d := &Dragonfly{Group: group, Groups: groups, Local: make([]bool, len(g.Links))}
	for i, l := range g.Links {
		d.Local[i] = group[l.A] >= 0 && group[l.A] == group[l.B]
	}
	for _, grp := range group {
		if grp >= 0 {
			d.Mapped++
		}
	}
	return d
}
