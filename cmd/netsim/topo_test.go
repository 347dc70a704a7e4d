package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestTopoDescribeCommands(t *testing.T) {
	dir := t.TempDir()
	ff := filepath.Join("..", "..", "experiments", "testdata", "ff8x8-dor.toml")
	tests := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{"no subcommand", []string{"topo"}, exitUsage, "", "netsim topo: missing subcommand"},
		{"unknown subcommand", []string{"topo", "draw"}, exitUsage, "", `netsim topo: unknown subcommand "draw"`},
		{"topo help", []string{"topo", "help"}, exitOK, "netsim topo describe (FILE.toml | --preset NAME) [--json]", ""},
		{"help topo", []string{"help", "topo"}, exitOK, "and its relative bisection bandwidth", ""},
		{"describe -h", []string{"topo", "describe", "-h"}, exitOK, "--json", ""},
		{"describe no file", []string{"topo", "describe"}, exitUsage, "", "need one experiment file or --preset NAME, got 0 files"},
		{"describe two files", []string{"topo", "describe", ff, ff}, exitUsage, "", "need one experiment file or --preset NAME, got 2 files"},
		{"describe file and preset", []string{"topo", "describe", ff, "--preset", "flatfly"}, exitUsage, "", "give an experiment file or --preset, not both"},
		{"describe unknown preset", []string{"topo", "describe", "--preset", "torus5d"}, exitUsage, "",
			`netsim topo describe: --preset: unknown preset "torus5d" (known: torus3d, torus4d, flatfly, hypercube, dragonfly, sfxff1, sfxff2, myrinet512, deimos)`},
		{"describe preset missing value", []string{"topo", "describe", "--preset"}, exitUsage, "", "flag --preset needs a value"},
		{"describe unknown flag", []string{"topo", "describe", "--routes", ff}, exitUsage, "", "unknown flag --routes"},
		{"describe missing file", []string{"topo", "describe", filepath.Join(dir, "none.toml")}, exitUsage, "", "none.toml: cannot read"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := netsim(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errs)
			}
			if !strings.Contains(out, tc.stdout) || (tc.stdout == "" && out != "") {
				t.Errorf("stdout %q, want it to contain %q", out, tc.stdout)
			}
			if !strings.Contains(errs, tc.stderr) || (tc.stderr == "" && errs != "") {
				t.Errorf("stderr %q, want it to contain %q", errs, tc.stderr)
			}
		})
	}
}

func TestTopoDescribeText(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, text, want string
	}{
		// FlatFly 8×8: 14 switches at 1 hop and 49 at 2 from each switch.
		{"flatfly", "[topology]\nkind = \"flatfly\"\ndims = [8, 8]\nhosts_per_switch = 8\n", `topology      flatfly 8x8 w1,1 c8
switches      64
hosts         512
links         448 inter-switch
radix         22 ports used
diameter      2 switch hops
avg distance  1.7534 switch hops between hosts
bisection     50.0 % (exact)
`},
		// Ring of 8 with width 2: cut twice, 4 links over 12 hosts.
		{"ring", "[topology]\nkind = \"ring\"\nswitches = 8\nwidths = [2]\nhosts_per_switch = 3\n", `topology      ring 8 w2 c3
switches      8
hosts         24
links         16 inter-switch
radix         7 ports used
diameter      4 switch hops
avg distance  2.0870 switch hops between hosts
bisection     33.3 % (estimate), 4 links cross the best balanced cut found
`},
		{"crossbar", small, `topology      crossbar h16
switches      1
hosts         16
links         0 inter-switch
radix         16 ports used
diameter      0 switch hops
avg distance  0.0000 switch hops between hosts
bisection     100.0 % (exact)
`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, dir, tc.name+".toml", tc.text)
			code, out, errs := netsim(t, "topo", "describe", p)
			if code != exitOK || errs != "" {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			if want := "file          " + p + "\n" + tc.want; out != want {
				t.Errorf("output\n%s\nwant\n%s", out, want)
			}
		})
	}
}

func TestTopoDescribeJSON(t *testing.T) {
	p := writeFile(t, t.TempDir(), "ring.toml", "[topology]\nkind = \"ring\"\nswitches = 7\nhosts_per_switch = 1\n")
	for _, args := range [][]string{{"--json", p}, {p, "--json"}, {"--json", "--", p}} {
		code, out, errs := netsim(t, append([]string{"topo", "describe"}, args...)...)
		if code != exitOK || errs != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errs)
		}
		if strings.Count(out, "\n") != 1 {
			t.Fatalf("%v: want one line, got %q", args, out)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		// Ring of 7: distances 1,1,2,2,3,3 (mean 2); sides of 3 and 4
		// switches cut by 2 links over 3.5 hosts.
		want := map[string]any{
			"file": p, "topology": "ring 7 w1 c1", "kind": "ring", "switches": 7.0, "hosts": 7.0,
			"links": 7.0, "radix": 3.0, "diameter": 3.0, "avg_distance": 2.0,
			"bisection": 0.571429, "bisection_exact": false, "cut_links": 2.0,
		}
		if len(got) != len(want) {
			t.Errorf("%v: fields %v, want %v", args, got, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%v: %s = %v, want %v", args, k, got[k], v)
			}
		}
	}
}

func TestTopoDescribeBadInput(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, text, want string
	}{
		{"malformed TOML", "[topology\nkind = \"ring\"\n", "bad.toml:1: invalid TOML"},
		{"no topology", "name = \"x\"\n", "bad.toml: [topology] missing section"},
		{"unknown key", "[topology]\nkind = \"ring\"\nswitch = 8\n", "bad.toml:3: [topology] switch: unknown key"},
		{"builder error", "[topology]\nkind = \"ring\"\nswitches = 2\nhosts_per_switch = 1\n", "bad.toml:3: [topology] switches: need at least 3, got 2"},
		{"misplaced key", "[topology]\nkind = \"crossbar\"\nhosts = 4\ndims = [4]\n", "bad.toml:4: [topology] dims: not used by topology crossbar"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, dir, "bad.toml", tc.text)
			code, out, errs := netsim(t, "topo", "describe", p)
			if code != exitUsage || out != "" {
				t.Errorf("exit %d, stdout %q; want %d and nothing", code, out, exitUsage)
			}
			if !strings.Contains(errs, filepath.Join(dir, tc.want)) {
				t.Errorf("stderr %q lacks %q", errs, tc.want)
			}
		})
	}
}
