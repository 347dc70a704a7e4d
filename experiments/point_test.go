package experiments

import (
	"testing"

	"netsim/flowctl"
	switching "netsim/switch"
)

// TestConfigMapsEveryKey: every key of an experiment file reaches the
// simulation point, each with a distinct value so a swapped or dropped
// field shows.
func TestConfigMapsEveryKey(t *testing.T) {
	e := mustParse(t, "all.toml", `name = "all"
seed = 11
[topology]
kind = "flatfly"
dims = [2, 4]
widths = [2, 1]
hosts_per_switch = 2
[routing]
algorithm = "dor"
[flow_control]
kind = "stopgo"
vls = 3
buffer_flits = 40
stop_mark = 25
go_mark = 9
[switch]
switching = "wormhole"
speedup = 2
link_latency = 4
routing_delay = 5
crossbar_delay = 6
[traffic]
patterns = ["uniform", "transpose"]
packet_flits = 7
[sim]
warmup = 101
measure = 1002
drain = 303
deadlock_window = 4004
[sweep]
mode = "loads"
loads = [0.375]
tolerance = 0.05
`)
	c := e.Config(1, 0.375)
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"hosts", len(c.Net.Hosts), 16},
		{"routing", c.Routing.Name(), "dor"},
		{"pattern", c.Pattern.Name(), "transpose"},
		{"load", c.Load, 0.375},
		{"packet_flits", c.PacketFlits, 7},
		{"flow_control", c.FlowControl, flowctl.KindStopGo},
		{"vls", c.VLs, 3},
		{"buffer_flits", c.BufferFlits, 40},
		{"stop_mark", c.StopMark, 25},
		{"go_mark", c.GoMark, 9},
		{"switching", c.Switching, switching.Wormhole},
		{"speedup", c.Speedup, 2},
		{"link_latency", c.LinkLatency, 4},
		{"routing_delay", c.RoutingDelay, 5},
		{"crossbar_delay", c.CrossbarDelay, 6},
		{"warmup", c.Warmup, int64(101)},
		{"measure", c.Measure, int64(1002)},
		{"drain", c.Drain, int64(303)},
		{"deadlock_window", c.DeadlockWindow, int64(4004)},
		{"seed", c.Seed, PointSeed(11, "transpose", 0.375)},
		{"tolerance", e.Sweep.Tolerance, 0.05},
	} {
		if f.got != f.want {
			t.Errorf("%s: got %v (%T), want %v (%T)", f.name, f.got, f.got, f.want, f.want)
		}
	}
	if err := c.Validate(); err != nil {
		t.Fatalf("the point does not validate: %v", err)
	}
}
