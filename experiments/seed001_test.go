package experiments

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"netsim/nic"
	switching "netsim/switch"
)

// TestSeed001Files loads the files of studies/seed001/ and
// studies/seed001/scaled/ and checks that they define seed 001's
// evaluation with NICs that prepare packets 4 ahead of the wire: Figures
// 6 and 7 (every dispersion, bisection and bridge exchanges, 16 to 512
// hosts on Clos networks of 32-port crossbars, probing with the seed's
// best parameters) and the §5.3 parameter study; the scaled files the
// same on 8-port crossbars.
func TestSeed001Files(t *testing.T) {
	type summary struct {
		hosts       []int
		dispersions []string
		params      [][2]float64 // probing's (threshold, probability)
		ports       []string     // from the topology labels, "clos p32"
	}
	load := func(t *testing.T, pattern string) summary {
		t.Helper()
		files, err := filepath.Glob(pattern)
		if err != nil || len(files) == 0 {
			t.Fatalf("no files %s: %v", pattern, err)
		}
		var s summary
		for _, f := range files {
			exps, err := LoadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range exps {
				if !e.IsExchange() || e.Routing != "source" || e.FlowControl.Kind != "stopgo" || e.Switch.Switching != switching.Wormhole {
					t.Errorf("%s: not a source-routed STOP/GO wormhole exchange", e)
				}
				if e.NIC.RouteLag != 4 {
					t.Errorf("%s: route_lag %d, want 4 (the NIC model of common/hw.toml)", e, e.NIC.RouteLag)
				}
				if !slices.Contains(s.hosts, e.Hosts()) {
					s.hosts = append(s.hosts, e.Hosts())
				}
				if !slices.Contains(s.dispersions, e.NIC.Dispersion.String()) {
					s.dispersions = append(s.dispersions, e.NIC.Dispersion.String())
				}
				f := strings.Fields(e.label)
				if len(f) < 2 || !slices.Contains(s.ports, f[0]+" "+f[1]) {
					s.ports = append(s.ports, strings.Join(f[:min(2, len(f))], " "))
				}
				if e.NIC.Dispersion == nic.Probing {
					p := [2]float64{float64(e.NIC.Threshold), e.NIC.Probability}
					if !slices.Contains(s.params, p) {
						s.params = append(s.params, p)
					}
				}
				if e.NIC.Dispersion == nic.Adaptive && (e.NIC.Threshold != 4 || e.NIC.Probability != 0.5) {
					t.Errorf("%s: adaptive (%d, %v), want the seed's (4, 0.5)", e, e.NIC.Threshold, e.NIC.Probability)
				}
				want := []string{"bisection", "bridge"}
				if e.Name == "seed001-params" || e.Name == "seed001-scaled-params" {
					want = want[:1]
				}
				if !slices.Equal(e.Traffic.Patterns, want) {
					t.Errorf("%s: patterns %v, want %v", e, e.Traffic.Patterns, want)
				}
			}
		}
		slices.Sort(s.hosts)
		slices.Sort(s.ports)
		slices.SortFunc(s.params, func(a, b [2]float64) int { return slices.Compare(a[:], b[:]) })
		return s
	}
	allDisp := []string{"static", "random", "adaptive", "probing"}
	var study [][2]float64
	for _, th := range []float64{0, 4, 8, 16} {
		for _, p := range []float64{0.5, 1} {
			study = append(study, [2]float64{th, p})
		}
	}
	for _, tc := range []struct {
		name  string
		glob  string
		hosts []int
		ports []string
	}{
		{"figure 6", studyPath("seed001", "fig6*.toml"), []int{16, 32, 64, 128, 256, 512}, []string{"clos p16", "clos p32"}},
		{"scaled figure 6", studyPath("seed001", "scaled", "fig6*.toml"), []int{8, 16, 32}, []string{"clos p8"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := load(t, tc.glob)
			if !slices.Equal(s.hosts, tc.hosts) || !slices.Equal(s.ports, tc.ports) {
				t.Errorf("hosts %v on %v-port crossbars, want %v on %v", s.hosts, s.ports, tc.hosts, tc.ports)
			}
			slices.Sort(s.dispersions)
			want := slices.Sorted(slices.Values(allDisp))
			if !slices.Equal(s.dispersions, want) {
				t.Errorf("dispersions %v, want %v", s.dispersions, want)
			}
			if !slices.Equal(s.params, [][2]float64{{16, 1}}) {
				t.Errorf("probing parameters %v, want the seed's best (16, 1)", s.params)
			}
		})
	}
	for _, tc := range []struct {
		name, glob string
		hosts      []int
	}{{"parameter study", studyPath("seed001", "params.toml"), []int{128, 512}}, {"scaled parameter study", studyPath("seed001", "scaled", "params.toml"), []int{32}}} {
		t.Run(tc.name, func(t *testing.T) {
			s := load(t, tc.glob)
			if !slices.Equal(s.hosts, tc.hosts) || !slices.Equal(s.dispersions, []string{"probing"}) || !slices.Equal(s.params, study) {
				t.Errorf("hosts %v, dispersions %v, parameters %v; want %v, probing, %v", s.hosts, s.dispersions, s.params, tc.hosts, study)
			}
		})
	}
}
