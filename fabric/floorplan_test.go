package fabric

import (
	"context"
	"testing"

	"netsim/topologies"
	"netsim/workload"
)

// TestFloorplanLatency: placing the switches of a 4-switch ring 10 m
// apart at 0.5 cycles a meter adds 5 cycles to every switch-to-switch
// link: a message from host 0 to host 2, two switch hops away, arrives
// 10 cycles later than without a floorplan.
func TestFloorplanLatency(t *testing.T) {
	w := &workload.Workload{Name: "one", Ranks: [][]workload.Op{
		{{Kind: workload.Send, Peer: 2, Bytes: 16}}, {}, {{Kind: workload.Recv, Peer: 0, Bytes: 16}}, {},
	}}
	run := func(fp *topologies.Floorplan) int64 {
		cfg := testConfig(t, topologies.Spec{Kind: "ring", Switches: 4, HostsPerSwitch: 1}, "dor", "uniform", 2)
		cfg.Floorplan = fp
		st, err := RunWorkload(context.Background(), cfg, Workload{W: w, Hosts: []int{0, 1, 2, 3}, MTUBytes: 16, FlitBytes: 16, CycleNS: 1})
		if err != nil {
			t.Fatal(err)
		}
		return st.Cycles
	}
	plain := run(nil)
	placed := run(&topologies.Floorplan{Pos: [][3]float64{{0, 0, 0}, {10, 0, 0}, {10, 10, 0}, {0, 10, 0}}, CyclesPerMeter: 0.5})
	if placed-plain != 10 {
		t.Errorf("completion %d cycles placed, %d without: want 10 more", placed, plain)
	}
}
