package fabric

import (
	"testing"

	"netsim/routing"
	"netsim/topologies"
	"netsim/traffic"
)

// testConfig returns a small, valid configuration; tests override fields.
func testConfig(t testing.TB, topo topologies.Spec, algorithm, pattern string, vls int) Config {
	t.Helper()
	net, err := topologies.Build(topo)
	if err != nil {
		t.Fatal(err)
	}
	r, err := routing.New(routing.Spec{Algorithm: algorithm, VLs: vls}, net)
	if err != nil {
		t.Fatal(err)
	}
	pat, err := traffic.NewPattern(pattern, len(net.Hosts), 7)
	if err != nil {
		t.Fatal(err)
	}
	return Config{
		Net: net, Routing: r, Pattern: pat,
		Load: 0.3, PacketFlits: 4,
		FlowControl: "credit", VLs: vls, BufferFlits: 16, StopMark: 8, GoMark: 4,
		Switching: "cut-through", Speedup: 1,
		LinkLatency: 1, RoutingDelay: 1, CrossbarDelay: 1,
		Warmup: 500, Measure: 2000, Drain: 5000, DeadlockWindow: 2000,
		Seed: 1,
	}
}
