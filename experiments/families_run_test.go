package experiments

import (
	"context"
	"path/filepath"
	"testing"

	"netsim/fabric"
	"netsim/topologies"
)

// TestEveryKindRuns takes an experiment file on a small member of every
// topology kind (and a scaled-down preset) through the whole stack —
// decode, build, distance routing, one simulated uniform point at load
// 0.2 — and checks the label, the host count, that every measured packet
// arrived, that the point is stable, and that no packet crossed more
// switches than the diameter allows (minimal routing).
func TestEveryKindRuns(t *testing.T) {
	dir := writeTopologyFiles(t) // DIR/topo/ring.dot: 4 switches, 2 hosts each
	tests := []struct {
		name, topo, label string
		hosts             int
	}{
		{"flatfly", `kind = "flatfly"` + "\ndims = [3, 2]\nhosts_per_switch = 2", "flatfly 3x2 w1,1 c2", 12},
		{"hyperx", `kind = "hyperx"` + "\ndims = [2, 2]\nwidths = [2, 1]\nhosts_per_switch = 2", "flatfly 2x2 w2,1 c2", 8}, // the alias builds a flatfly,
		{"crossbar", `kind = "crossbar"` + "\nhosts = 6", "crossbar h6", 6},
		{"ring", `kind = "ring"` + "\nswitches = 5\nhosts_per_switch = 2", "ring 5 w1 c2", 10},
		{"torus", `kind = "torus"` + "\ndims = [4, 3]\nwidths = [2, 1]\nhosts_per_switch = 2", "torus 4x3 w2,1 c2", 24},
		{"hypercube", `kind = "hypercube"` + "\ndimension = 3\nwidth = 2\nhosts_per_switch = 2", "hypercube d3 w2 c2", 16},
		{"dragonfly", `kind = "dragonfly"` + "\ngroup_size = 2\nglobal_per_switch = 2\nhosts_per_switch = 2\narrangement = \"palmtree\"\nomit_one_global = true",
			"dragonfly k2 g2 c2 palmtree omit", 16}, // K·G = 4 groups of 2,
		{"slimfly", `kind = "slimfly"` + "\nq = 4\nhosts_per_switch = 1", "slimfly q4 w1 c1", 32},
		{"product", `kind = "product"` + "\nhosts_per_switch = 1\nfactors = [{kind = \"slimfly\", q = 3}, {kind = \"flatfly\", dims = [2]}]",
			"product[slimfly q3 w1; flatfly 2 w1] c1", 36},
		{"kautz", `kind = "kautz"` + "\nb = 2\nn = 2\nhosts_per_switch = 2", "kautz b2 n2 c2", 12},
		{"random", `kind = "random"` + "\nswitches = 8\nhosts_per_switch = 2\nlinks = 12\nseed = 5", "random s8 l12 c2 seed5", 16},
		{"clos", `kind = "clos"` + "\nports = 8\nhosts = 16", "clos p8 h16", 16},
		{"fattree", `kind = "fattree"` + "\nk = 2\nn = 3", "fattree k2 n3", 8},
		{"xgft", `kind = "xgft"` + "\nm = [3, 3]\nw = [1, 3]", "xgft m3,3 w1,3", 9},
		{"deimos", `kind = "deimos"` + "\nports = 4\nbox_hosts = [6, 4, 6]\nchain_links = 2", "deimos p4 h6,4,6 l2", 16},
		{"file", `kind = "file"` + "\npath = \"topo/ring.dot\"", "file ring.dot h8", 8},
		{"preset", `preset = "sfxff1"` + "\nhosts_per_switch = 1\nfactors = [{kind = \"slimfly\", q = 3}, {kind = \"flatfly\", dims = [2, 2]}]",
			"product[slimfly q3 w1; flatfly 2x2 w1,1] c1", 72},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := "[topology]\n" + tc.topo + `
[routing]
algorithm = "distance"
[flow_control]
vls = 8
[traffic]
pattern = "uniform"
packet_flits = 4
[sim]
warmup = 200
measure = 1500
[sweep]
loads = [0.2]
`
			e, err := Parse(filepath.Join(dir, tc.name+".toml"), []byte(text))
			if err != nil {
				t.Fatal(err)
			}
			if e.TopologyLabel() != tc.label || e.Hosts() != tc.hosts {
				t.Errorf("label %q, %d hosts; want %q, %d", e.TopologyLabel(), e.Hosts(), tc.label, tc.hosts)
			}
			sum, err := topologies.Describe(e.Network())
			if err != nil {
				t.Fatal(err)
			}
			if sum.Diameter > 8 {
				t.Fatalf("diameter %d needs more than the 8 VLs given", sum.Diameter)
			}
			rec, err := runPoint(context.Background(), fabric.Run, e, 0, 0.2)
			if err != nil || rec.Kind != KindPoint {
				t.Fatalf("record %s, error %v / %v", rec.Kind, err, rec.Err)
			}
			st := rec.Stats
			if st.MeasuredPackets == 0 || st.Delivered != st.MeasuredPackets || !rec.Stable {
				t.Errorf("%d of %d measured packets delivered, stable %v", st.Delivered, st.MeasuredPackets, rec.Stable)
			}
			if st.HopsAvg < 1 || st.HopsAvg > float64(sum.Diameter+1) {
				t.Errorf("%.3f switches per packet, diameter %d", st.HopsAvg, sum.Diameter)
			}
		})
	}
}
