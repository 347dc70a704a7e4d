package fabric

import (
	"runtime"
	"testing"

	"netsim/nic"
	switching "netsim/switch"
	"netsim/topologies"
)

// TestEstimateMemory: the estimate of a point's memory, but its packets
// (allocated as traffic flows), is within 20 % of what assembling the
// point allocates, for switches of several radixes, buffer
// organisations, allocators and NIC dispersions; so a limit on it bounds
// what a run takes.
func TestEstimateMemory(t *testing.T) {
	for _, tc := range []struct {
		name string
		topo topologies.Spec
		alg  string
		vls  int
		edit func(*Config)
	}{
		{"torus 32x32", topologies.Spec{Kind: "torus", Dims: []int{32, 32}, HostsPerSwitch: 2}, "dor", 2, nil},
		{"flatfly 8x8 c8", topologies.Spec{Kind: "flatfly", Dims: []int{8, 8}, HostsPerSwitch: 8}, "dor", 2, nil},
		{"flatfly voq islip", topologies.Spec{Kind: "flatfly", Dims: []int{8, 8}, HostsPerSwitch: 8}, "dor", 2, func(c *Config) {
			c.Buffers, c.Allocator = switching.BuffersVOQ, switching.AllocISLIP
		}},
		{"flatfly shared", topologies.Spec{Kind: "flatfly", Dims: []int{8, 8}, HostsPerSwitch: 8}, "dor", 2, func(c *Config) {
			c.Buffers = switching.BuffersShared
		}},
		{"clos adaptive NICs", topologies.Spec{Kind: "clos", Ports: 32, Hosts: 512}, "source", 1, func(c *Config) {
			c.Dispersion = nic.Dispersion{Mode: nic.Adaptive, Threshold: 4, Probability: 0.5}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t, tc.topo, tc.alg, "uniform", tc.vls)
			cfg.BufferFlits = 64
			if tc.edit != nil {
				tc.edit(&cfg)
			}
			est := EstimateMemory(cfg)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			p, err := assemble(&cfg)
			if err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			got := int64(after.TotalAlloc - before.TotalAlloc)
			runtime.KeepAlive(p)
			ratio := float64(est.Total()-est.Packets) / float64(got)
			t.Logf("estimate %s, assembling allocated %s: %.2f", est, GiB(got), ratio)
			if ratio < 0.8 || ratio > 1.2 {
				t.Errorf("estimate %d bytes but packets, assembling allocated %d: ratio %.2f", est.Total()-est.Packets, got, ratio)
			}
		})
	}
}
