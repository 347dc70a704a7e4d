package fabric

import (
	"testing"

	"netsim/routing"
	switching "netsim/switch"
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
		Switching: switching.CutThrough, Speedup: 1,
		LinkLatency: 1, RoutingDelay: 1, CrossbarDelay: 1,
		Warmup: 500, Measure: 2000, Drain: 5000, DeadlockWindow: 2000,
		Seed: 1,
	}
}

// mode returns the switching mode named s, as test tables name it.
func mode(s string) switching.Mode {
	m, err := switching.ParseMode(s)
	if err != nil {
		panic(err)
	}
	return m
}

// selectionNamed returns the selection function named s ("" for the
// default), as test tables name it.
func selectionNamed(s string) switching.Selection {
	if s == "" {
		return switching.SelectCredits
	}
	sel, err := switching.ParseSelection(s)
	if err != nil {
		panic(err)
	}
	return sel
}
