package fabric

import (
	"context"
	"strings"
	"testing"

	"netsim/topologies"
	"netsim/workload"
)

// fatTreeWorkload returns a configuration of a 2-level fat tree of 16
// hosts (4-ary 2-tree, full bisection) under minimal routing, and the
// workload run of w on its first ranks hosts.
func fatTreeWorkload(t testing.TB, w *workload.Workload) (Config, Workload) {
	t.Helper()
	cfg := testConfig(t, topologies.Spec{Kind: "fattree", K: 4, N: 2}, "dmodk", "uniform", 1)
	cfg.BufferFlits = 64 // more than a credit round trip: a link streams a message
	hosts := make([]int, len(w.Ranks))
	for i := range hosts {
		hosts[i] = i
	}
	return cfg, Workload{W: w, Hosts: hosts, MTUBytes: 256, FlitBytes: 16, CycleNS: 1}
}

// TestCollectivesNearBound runs each collective on an uncontended fat
// tree (full bisection, buffers longer than a credit round trip): it
// completes no sooner than its injection bound (workload.Bound), and
// within 2 % of it plus 10 cycles of latency per step.
func TestCollectivesNearBound(t *testing.T) {
	const ranks, bytes = 16, 16384 // 1,024 flits per message
	steps := map[string]int64{workload.AllToAllName: ranks - 1, workload.AllreduceRingName: 2 * (ranks - 1),
		workload.AllreduceDoublingName: 4, workload.BroadcastName: 4, workload.Halo3DName: 1}
	for _, name := range workload.Collectives() {
		t.Run(name, func(t *testing.T) {
			w, err := workload.Collective(name, ranks, bytes, nil)
			if err != nil {
				t.Fatal(err)
			}
			cfg, x := fatTreeWorkload(t, w)
			st, err := RunWorkload(context.Background(), cfg, x)
			if err != nil {
				t.Fatal(err)
			}
			bound := workload.Bound(name, ranks, bytes, nil, x.Flits)
			t.Logf("%s: %d cycles, bound %d (%.3f), %d messages", name, st.Cycles, bound, float64(st.Cycles)/float64(bound), st.Messages)
			if st.Cycles < bound {
				t.Errorf("completed in %d cycles, below the bound %d", st.Cycles, bound)
			}
			if limit := 1.02*float64(bound) + float64(10*steps[name]); float64(st.Cycles) > limit {
				t.Errorf("completed in %d cycles, more than %.0f: 1.02 × the bound %d plus 10 cycles for each of %d steps",
					st.Cycles, limit, bound, steps[name])
			}
		})
	}
}

func TestWorkloadStuck(t *testing.T) {
	w := &workload.Workload{Name: "stuck", Ranks: [][]workload.Op{
		{{Kind: workload.Recv, Peer: 1, Bytes: 8, Tag: 3}},
		{{Kind: workload.Send, Peer: 0, Bytes: 8, Tag: 4}},
	}}
	cfg, x := fatTreeWorkload(t, w)
	_, err := RunWorkload(context.Background(), cfg, x)
	if err == nil || !strings.Contains(err.Error(), "stuck") || !strings.Contains(err.Error(), "rank 0") {
		t.Fatalf("err = %v, want the stuck rank 0 named", err)
	}
	t.Log(err)
}
