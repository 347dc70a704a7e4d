package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"netsim/topologies"
)

// TestTopoDescribePresets checks `netsim topo describe --preset NAME
// --json` against seed 004 §1 for its seven networks (2,048 switches,
// 16,384 hosts; radix, diameter and relative bisection as in the seed,
// the Dragonfly's radix by its formula C + G + K − 1 = 31) and against the
// structure of the Myrinet and Deimos networks of seeds 001 and 000/002.
//
// The average distance, where given, follows from the mean switch distance
// D over all ordered pairs of switches (self pairs included): with h hosts
// and C per switch it is D·h/(h−1). D is the sum over dimensions of K/4
// for a torus of even K_n, (K−1)/K for a FlatFly dimension, n/2 for an
// n-cube, and for a Slim Fly of N routers and radix r at diameter 2,
// (r + 2(N−1−r))/N.
func TestTopoDescribePresets(t *testing.T) {
	sf := func(n, r float64) float64 { return (r + 2*(n-1-r)) / n }
	tests := []struct {
		preset          string
		switches, hosts int
		radix, diameter int
		bisection       float64 // -1: an estimate, not checked
		meanSwitchDist  float64 // 0: not checked
		topology, kind  string
	}{
		{"torus3d", 2048, 16384, 34, 20, 0.15625, 8.0/4 + 16.0/4 + 16.0/4, "torus 8x16x16 w3,5,5 c8", "torus"},
		{"torus4d", 2048, 16384, 36, 14, 0.25, 4.0/4 + 3*8.0/4, "torus 4x8x8x8 w2,4,4,4 c8", "torus"},
		{"flatfly", 2048, 16384, 35, 4, 0.5, 3.0/4 + 3*7.0/8, "flatfly 4x8x8x8 w2,1,1,1 c8", "flatfly"},
		{"hypercube", 2048, 16384, 30, 11, 0.25, 11.0 / 2, "hypercube d11 w2 c8", "hypercube"},
		{"dragonfly", 2048, 16384, 31, 3, 0.5, 0, "dragonfly k16 g8 c8 absolute omit", "dragonfly"},
		{"sfxff1", 2048, 16384, 34, 4, 0.5, sf(32, 6) + 2*7.0/8, "product[slimfly q4 w2; flatfly 8x8 w1,1] c8", "product"},
		{"sfxff2", 2048, 16384, 35, 3, 0.5, sf(128, 12) + 15.0/16, "product[slimfly q8 w1; flatfly 16 w1] c8", "product"},
		// 32 leaves (16 hosts, 16 uplinks) and 16 spines: leaf–spine–leaf.
		{"myrinet512", 48, 512, 32, 2, 1, 0, "clos p32 h512", "clos"},
		// Three boxes of 24 leaves and 12 spines of 24-port crossbars.
		{"deimos", 108, 744, 24, 6, -1, 0, "deimos p24 h258,228,258 l30", "deimos"},
	}
	if len(tests) != len(topologies.Presets()) {
		t.Errorf("%d presets tested, %d defined", len(tests), len(topologies.Presets()))
	}
	for _, tc := range tests {
		t.Run(tc.preset, func(t *testing.T) {
			code, out, errs := netsim(t, "topo", "describe", "--preset", tc.preset, "--json")
			if code != exitOK || errs != "" {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			var got struct {
				File           *string `json:"file"`
				Preset         string  `json:"preset"`
				Topology       string  `json:"topology"`
				Kind           string  `json:"kind"`
				Switches       int     `json:"switches"`
				Hosts          int     `json:"hosts"`
				Radix          int     `json:"radix"`
				Diameter       int     `json:"diameter"`
				AvgDistance    float64 `json:"avg_distance"`
				Bisection      float64 `json:"bisection"`
				BisectionExact bool    `json:"bisection_exact"`
				CutLinks       int     `json:"cut_links"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v in %q", err, out)
			}
			if got.File != nil || got.Preset != tc.preset || got.Topology != tc.topology || got.Kind != tc.kind {
				t.Errorf("file %v preset %q topology %q kind %q; want none, %q, %q, %q",
					got.File, got.Preset, got.Topology, got.Kind, tc.preset, tc.topology, tc.kind)
			}
			if got.Switches != tc.switches || got.Hosts != tc.hosts || got.Radix != tc.radix || got.Diameter != tc.diameter {
				t.Errorf("switches %d hosts %d radix %d diameter %d; want %d %d %d %d",
					got.Switches, got.Hosts, got.Radix, got.Diameter, tc.switches, tc.hosts, tc.radix, tc.diameter)
			}
			if tc.bisection >= 0 {
				if got.Bisection != tc.bisection || !got.BisectionExact || got.CutLinks != 0 {
					t.Errorf("bisection %v exact %v cut_links %d; want %v exact", got.Bisection, got.BisectionExact, got.CutLinks, tc.bisection)
				}
			} else if want := float64(got.CutLinks) / (float64(got.Hosts) / 2); got.BisectionExact || got.CutLinks == 0 || math.Abs(got.Bisection-want) > 1e-6 {
				t.Errorf("bisection %v exact %v cut_links %d; want an estimate of cut_links/(hosts/2)", got.Bisection, got.BisectionExact, got.CutLinks)
			}
			if tc.meanSwitchDist > 0 {
				h := float64(tc.hosts)
				want := tc.meanSwitchDist * h / (h - 1)
				if math.Abs(got.AvgDistance-want) > 1e-6 {
					t.Errorf("avg_distance %v, want %v", got.AvgDistance, want)
				}
			}
		})
	}
}

func TestTopoDescribePresetText(t *testing.T) {
	code, out, errs := netsim(t, "topo", "describe", "--preset", "myrinet512")
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	want := `preset        myrinet512
topology      clos p32 h512
switches      48
hosts         512
links         512 inter-switch
radix         32 ports used
diameter      2 switch hops
avg distance  1.9413 switch hops between hosts
bisection     100.0 % (exact)
`
	// 16 of the 511 other hosts share the leaf (0 hops), 496 are 2 hops
	// away: 2·496/511 = 1.9413.
	if out != want {
		t.Errorf("output\n%s\nwant\n%s", out, want)
	}
}

func TestTopoExportPreset(t *testing.T) {
	dot := filepath.Join(t.TempDir(), "myrinet.dot")
	code, out, errs := netsim(t, "topo", "export", "-o", dot, "--preset", "myrinet512")
	if code != exitOK || out != "" || errs != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	f, err := os.Open(dot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	net, routes, err := topologies.ReadDot(f, dot)
	if err != nil {
		t.Fatal(err)
	}
	// Every leaf has one link to every spine: 32·16 links.
	if len(net.Switches) != 48 || len(net.Hosts) != 512 || net.Links() != 512 || net.Radix() != 32 || routes != nil {
		t.Errorf("read back %d switches %d hosts %d links radix %d routes %v; want 48, 512, 512, 32, none",
			len(net.Switches), len(net.Hosts), net.Links(), net.Radix(), routes)
	}

	// On stdout, the seed-004 FlatFly: 2·(27,648 links + 16,384 hosts)
	// directed edges.
	code, out, errs = netsim(t, "topo", "export", "--preset", "flatfly")
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if n := strings.Count(out, " -> "); n != 2*(27648+16384) {
		t.Errorf("%d edges, want %d", n, 2*(27648+16384))
	}
}
