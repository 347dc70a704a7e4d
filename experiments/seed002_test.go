package experiments

import (
	"slices"
	"testing"

	"netsim/congestion"
)

// TestSeed002Files loads files of studies/seed002/ (the smaller ones:
// loading builds every routing) and checks that they compare the table
// engines on the networks of seed 002's Table I and Deimos with 1,000 random
// bisections of seed 2 (studies/seed002/README.md, "Λ of the table engines").
func TestSeed002Files(t *testing.T) {
	trees := []string{"minhop", "updn", "sssp", "dfsssp", "ftree", "dmodk"}
	tests := []struct {
		file     string
		hosts    []int
		routings []string
	}{
		{"xgft64", []int{64}, trees},
		{"xgft512", []int{512}, trees},
		{"kary2tree", []int{36, 100, 256}, trees},
		{"deimos", []int{744}, []string{"minhop", "updn", "sssp", "dfsssp"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			exps, err := LoadFile(studyPath("seed002", tc.file+".toml"))
			if err != nil {
				t.Fatal(err)
			}
			var hosts []int
			var routings []string
			for _, e := range exps {
				if !slices.Contains(hosts, e.Hosts()) {
					hosts = append(hosts, e.Hosts())
				}
				if !slices.Contains(routings, e.Routing) {
					routings = append(routings, e.Routing)
				}
				c := e.Congestion
				if c == nil || !slices.Equal(c.Patterns, []string{"bisect"}) || c.Runs != 1000 || c.Seed != 2 ||
					!slices.Equal(c.Metrics, []string{congestion.HistAccBand}) {
					t.Errorf("%s: congestion %+v, want bisect, hist_acc_band, 1000 runs, seed 2", e, c)
				}
			}
			if !slices.Equal(hosts, tc.hosts) || !slices.Equal(routings, tc.routings) {
				t.Errorf("hosts %v routings %v, want %v and %v", hosts, routings, tc.hosts, tc.routings)
			}
		})
	}
}
