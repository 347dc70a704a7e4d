package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"netsim/kernel"
	"netsim/topologies"
	"netsim/topologies/structure"
)

// ffLinks is docs/cli.md's example, a 3 × 2 FlatFly: two rows of three
// switches.
const ffLinks = "../../topologies/structure/testdata/ff3x2.links"

// ffText is netsim topo recover's output for ffLinks, as docs/cli.md
// shows it (for a copy named ff.links).
const ffText = `ff.links: FlatFly (detected)
switches    6, 6 mapped (largest connected part)
links       9
dimensions  2
K           3 × 2
L           1, 1
fill        100.0 % of the switches of the complete FlatFly, 100.0 % of their neighbours

switch  coordinates
a0      0 0
a1      1 0
a2      2 0
b0      0 1
b1      1 1
b2      2 1
`

func TestTopoRecoverText(t *testing.T) {
	file := ffLinks
	code, out, errs := netsim(t, "topo", "recover", file)
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if want := strings.Replace(ffText, "ff.links", file, 1); out != want {
		t.Errorf("output\n%s\nwant\n%s", out, want)
	}
	// The rows of the FlatFly come out as groups, but two groups of a
	// Dragonfly share one link, not three: the mapping is printed, and
	// the exit status says it is not a Dragonfly.
	code, out, errs = netsim(t, "topo", "recover", "--as", "dragonfly", file)
	if code != exitFailed || !strings.Contains(out, "Dragonfly (as asked)") || !strings.Contains(out, "links         9: 6 local, 3 global") ||
		!strings.Contains(errs, "not a Dragonfly: groups 0 and 1 share two links") {
		t.Errorf("--as dragonfly: exit %d, stderr %q, output\n%s", code, errs, out)
	}
}

// linkFile writes the link list of the network s describes, without the
// fraction switchFrac of its switches and then linkFrac of the remaining
// links (drawn with seed), and returns its path and the surviving
// switches' original indices.
func linkFile(t *testing.T, s topologies.Spec, switchFrac, linkFrac float64, seed uint64) (string, []int) {
	t.Helper()
	net, err := topologies.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	g := structure.FromNetwork(net)
	rng := kernel.NewRNG(seed, 7)
	alive := g.Damage(switchFrac, linkFrac, &rng)
	var buf bytes.Buffer
	if err := structure.WriteLinkList(&buf, g); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, t.TempDir(), "net.links", buf.String()), alive
}

// recoverJSON runs netsim topo recover --json with args and decodes its
// output.
func recoverJSON(t *testing.T, args ...string) recovered {
	t.Helper()
	code, out, errs := netsim(t, append([]string{"topo", "recover", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var r recovered
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	return r
}

// TestTopoRecoverFamilies checks the JSON netsim topo recover prints for
// each family structure.Detect recognises (whose own tests check the
// detection): the family, its parameters, and every switch and link
// listed with its coordinates or group.
func TestTopoRecoverFamilies(t *testing.T) {
	yes := true
	// want holds the family, K and L sorted by K then L (flatfly), or the
	// groups, K and G (dragonfly).
	tests := []struct {
		name    string
		spec    topologies.Spec
		missing [2]float64 // fractions of switches and links removed
		want    recovered
	}{
		{name: "FlatFly, 20 % switches and 15 % links missing", missing: [2]float64{0.2, 0.15},
			spec: topologies.Spec{Kind: "flatfly", Dims: []int{4, 8, 8, 8}, Widths: []int{2, 1, 1, 1}, HostsPerSwitch: 8},
			want: recovered{Family: "flatfly", Dims: []int{4, 8, 8, 8}, Widths: []int{2, 1, 1, 1}}},
		{name: "hypercube 6-D",
			spec: topologies.Spec{Kind: "hypercube", Dimension: 6, Width: 2, HostsPerSwitch: 1},
			want: recovered{Family: "flatfly", Dims: []int{2, 2, 2, 2, 2, 2}, Widths: []int{2, 2, 2, 2, 2, 2}}},
		{name: "Dragonfly K=16 G=8",
			spec: topologies.Spec{Kind: "dragonfly", GroupSize: 16, GlobalPerSwitch: 8, HostsPerSwitch: 8, OmitOneGlobal: &yes},
			want: recovered{Family: "dragonfly", Groups: 128, GroupSize: 16, GlobalPerSwitch: 8}},
		{name: "Dragonfly K=6 G=3 relative",
			spec: topologies.Spec{Kind: "dragonfly", GroupSize: 6, GlobalPerSwitch: 3, HostsPerSwitch: 2, Arrangement: "relative"},
			want: recovered{Family: "dragonfly", Groups: 19, GroupSize: 6, GlobalPerSwitch: 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file, alive := linkFile(t, tc.spec, tc.missing[0], tc.missing[1], 1)
			r := recoverJSON(t, file)
			if r.Family != tc.want.Family || !r.Detected || r.Switches != len(alive) {
				t.Fatalf("family %q detected %v, %d switches; want %q, true, %d", r.Family, r.Detected, r.Switches, tc.want.Family, len(alive))
			}
			if len(r.SwitchList) != r.Switches || len(r.LinkList) != r.Links {
				t.Errorf("%d switches and %d links listed, want %d and %d", len(r.SwitchList), len(r.LinkList), r.Switches, r.Links)
			}
			if tc.want.Family == "flatfly" {
				type kl struct{ k, l int }
				got := make([]kl, len(r.Dims))
				for i := range r.Dims {
					got[i] = kl{r.Dims[i], r.Widths[i]}
				}
				slices.SortFunc(got, func(a, b kl) int { return a.k*100 + b.l - b.k*100 - a.l })
				for i := range got {
					if i >= len(tc.want.Dims) || got[i] != (kl{tc.want.Dims[i], tc.want.Widths[i]}) {
						t.Fatalf("K = %v, L = %v; want %v, %v", r.Dims, r.Widths, tc.want.Dims, tc.want.Widths)
					}
				}
				for _, l := range r.LinkList {
					if l.Dim == nil && r.Mapped == r.Switches {
						t.Errorf("link %s–%s has no dimension", l.A, l.B)
					}
				}
				return
			}
			if r.Groups != tc.want.Groups || r.GroupSize != tc.want.GroupSize || r.GlobalPerSwitch != tc.want.GlobalPerSwitch || r.Mapped != r.Switches {
				t.Errorf("%d groups, K = %d, G = %d, %d mapped; want %d, %d, %d, %d", r.Groups, r.GroupSize, r.GlobalPerSwitch, r.Mapped, tc.want.Groups, tc.want.GroupSize, tc.want.GlobalPerSwitch, r.Switches)
			}
			local := 0
			for _, s := range r.SwitchList {
				if s.Group == nil || *s.Group >= r.Groups {
					t.Fatalf("switch %s: group %v", s.Name, s.Group)
				}
			}
			for _, l := range r.LinkList {
				if *l.Local {
					local++
				}
			}
			if want := tc.want.Groups * tc.want.GroupSize * (tc.want.GroupSize - 1) / 2; local != want || r.LocalLinks != want || r.GlobalLinks != r.Links-want {
				t.Errorf("%d local links listed, %d and %d global counted; want %d local", local, r.LocalLinks, r.GlobalLinks, want)
			}
		})
	}
}

func TestTopoRecoverErrors(t *testing.T) {
	dir := t.TempDir()
	good := ffLinks
	bad := writeFile(t, dir, "bad.links", "a 1 b 1\n# fine so far\nb 2 c\n")
	ring := writeFile(t, dir, "ring.links", "a b\nb c\nc d\nd e\ne f\nf g\ng a\n")
	dfly, _ := linkFile(t, topologies.Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 1}, 0, 0, 1)
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no file", nil, exitUsage, "need one link-list file, got 0"},
		{"two files", []string{good, good}, exitUsage, "need one link-list file, got 2"},
		{"bad --as", []string{"--as", "torus", good}, exitUsage, `--as: unknown family "torus"`},
		{"unknown flag", []string{"--fast", good}, exitUsage, "unknown flag --fast"},
		{"missing file", []string{filepath.Join(dir, "none.links")}, exitUsage, "none.links: no such file"},
		{"bad line", []string{bad}, exitUsage, "bad.links:3: want \"SWITCH PORT SWITCH PORT\""},
		{"neither family", []string{ring}, exitFailed, "not recognised"},
		{"Dragonfly as FlatFly", []string{"--as", "flatfly", dfly}, exitFailed, "net.links: "},
		{"negative group size", []string{"--group-size", "-1", dfly}, exitUsage, "--group-size: must be positive (got -1)"},
		{"zero groups", []string{"--groups", "0", dfly}, exitUsage, "--groups: must be positive (got 0)"},
		{"shape of a FlatFly", []string{"--as", "flatfly", "--groups", "9", dfly}, exitUsage, "--groups: only for a Dragonfly, not with --as flatfly"},
		{"shape too small", []string{"--group-size", "3", "--global-per-switch", "2", "--groups", "9", dfly}, exitFailed, "not a Dragonfly: group 0 has 4 switches, more than K = 3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := netsim(t, append([]string{"topo", "recover"}, tc.args...)...)
			if code != tc.code || !strings.Contains(errs, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want %d, %q", code, errs, tc.code, tc.stderr)
			}
		})
	}
}

func TestTopoHelp(t *testing.T) {
	for _, args := range [][]string{{"topo", "recover", "-h"}, {"help", "topo"}, {"topo", "help"}} {
		code, out, _ := netsim(t, args...)
		if code != exitOK || !strings.Contains(out, "netsim topo recover FILE [--as flatfly|dragonfly] [--json]") {
			t.Errorf("%v: exit %d, output %q", args, code, out)
		}
	}
	if code, _, errs := netsim(t, "topo"); code != exitUsage || !strings.Contains(errs, "missing subcommand") {
		t.Errorf("topo: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := netsim(t, "topo", "fly"); code != exitUsage || !strings.Contains(errs, `unknown subcommand "fly"`) {
		t.Errorf("topo fly: exit %d, stderr %q", code, errs)
	}
}

// TestTopoRecoverDragonflyFaults recovers seed 004's Dragonfly with 40 %
// of the switches and 10 % of the links missing, with its shape inferred
// and given: every group must come out exactly.
func TestTopoRecoverDragonflyFaults(t *testing.T) {
	yes := true
	spec := topologies.Spec{Kind: "dragonfly", GroupSize: 16, GlobalPerSwitch: 8, HostsPerSwitch: 8, OmitOneGlobal: &yes}
	net, err := topologies.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	file, _ := linkFile(t, spec, 0.4, 0.1, 3)
	tests := []struct {
		args  []string
		given []string
	}{
		{nil, nil},
		{[]string{"--group-size", "16", "--global-per-switch", "8", "--groups", "128"}, []string{"group_size", "global_per_switch", "groups"}},
	}
	for _, tc := range tests {
		r := recoverJSON(t, append(tc.args, file)...)
		if r.Family != "dragonfly" || r.Detected != (tc.args == nil) || r.Model == nil {
			t.Fatalf("%v: family %q, detected %v, model %v", tc.args, r.Family, r.Detected, r.Model)
		}
		m := r.Model
		groups := 129
		if tc.given != nil {
			groups = 128
		}
		if m.GroupSize != 16 || m.GlobalPerSwitch != 8 || m.Groups != groups || !slices.Equal(m.Given, tc.given) ||
			m.SwitchSurvival < 0.55 || m.SwitchSurvival > 0.65 || m.LinkSurvival < 0.85 || m.LinkSurvival > 0.95 {
			t.Errorf("%v: model %+v", tc.args, *m)
		}
		rec := make(map[int]int) // recovered group → true group
		back := make(map[int]int)
		for _, s := range r.SwitchList {
			if s.Group == nil {
				continue
			}
			var orig int
			if _, err := fmt.Sscanf(s.Name, "s%d", &orig); err != nil {
				t.Fatal(err)
			}
			tg := int(net.Switches[orig].Coord[0])
			if x, ok := rec[*s.Group]; ok && x != tg {
				t.Fatalf("%v: recovered group %d holds true groups %d and %d", tc.args, *s.Group, x, tg)
			}
			if x, ok := back[tg]; ok && x != *s.Group {
				t.Fatalf("%v: true group %d split into recovered groups %d and %d", tc.args, tg, x, *s.Group)
			}
			rec[*s.Group], back[tg] = tg, *s.Group
		}
		if len(rec) != 128 || r.Groups != 128 {
			t.Errorf("%v: %d groups (%d listed), want 128", tc.args, r.Groups, len(rec))
		}
	}
	code, out, _ := netsim(t, "topo", "recover", file)
	if code != exitOK || !strings.Contains(out, "shape         K = 16 (inferred), G = 8 (inferred), at most 129 groups (inferred)") ||
		!strings.Contains(out, "rejoined      ") {
		t.Errorf("exit %d, output\n%s", code, out)
	}
}

// dfLinks is docs/cli.md's Dragonfly example: K = 4, G = 2, 8 groups, with
// switch gIsJ the J-th of group I, a switch gone, a group without its
// diagonals and a switch with one local link left.
const dfLinks = "../../topologies/structure/testdata/df4x2-faults.links"

// dfText is the head of netsim topo recover's output for dfLinks, as
// docs/cli.md shows it (for a copy named df.links).
const dfText = `df.links: Dragonfly (detected)
switches      31, 31 mapped (largest connected part)
links         68: 41 local, 27 global
groups        8, up to 4 switches (K)
global links  up to 2 per switch (G)
shape         K = 4 (inferred), G = 2 (inferred), at most 9 groups (inferred)
faults        about 86 % of the switches and 93 % of the local links present
rejoined      4 switches, into groups that missing switches or links had split
`

func TestTopoRecoverDragonflyExample(t *testing.T) {
	code, out, errs := netsim(t, "topo", "recover", dfLinks)
	if want := strings.Replace(dfText, "df.links", dfLinks, 1); code != exitOK || errs != "" || !strings.HasPrefix(out, want) {
		t.Fatalf("exit %d, stderr %q, output\n%s\nwant it to start with\n%s", code, errs, out, want)
	}
	r := recoverJSON(t, dfLinks)
	groups := make(map[int]string) // recovered group → true group (name prefix)
	for _, s := range r.SwitchList {
		tg, _, _ := strings.Cut(s.Name, "s")
		if g, ok := groups[*s.Group]; ok && g != tg {
			t.Errorf("recovered group %d holds switches of %s and %s", *s.Group, g, tg)
		}
		groups[*s.Group] = tg
	}
	if len(groups) != 8 {
		t.Errorf("%d groups, want 8", len(groups))
	}
}
