package experiments

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestParseTopology(t *testing.T) {
	tests := []struct {
		name, text string
		switches   int
		hosts      int
		label      string
	}{
		{"whole experiment", base, 1, 16, "crossbar h16"},
		{"topology only", "[topology]\nkind = \"flatfly\"\ndims = [4, 3]\nhosts_per_switch = 2\n", 12, 24, "flatfly 4x3 w1,1 c2"},
		// Other sections are left to netsim run.
		{"bad routing ignored", edit(t, `algorithm = "dor"`, `algorithm = "valiant"`), 1, 16, "crossbar h16"},
		{"inline table", `topology = { kind = "ring", switches = 5, hosts_per_switch = 1 }`, 5, 5, "ring 5 w1 c1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, err := ParseTopology("t.toml", []byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			if len(net.Switches) != tc.switches || len(net.Hosts) != tc.hosts || NetworkLabel(net) != tc.label {
				t.Errorf("%d switches %d hosts %q, want %d %d %q", len(net.Switches), len(net.Hosts), NetworkLabel(net), tc.switches, tc.hosts, tc.label)
			}
		})
	}
}

func TestParseTopologyErrors(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"syntax", "[topology\nkind = 1\n", []string{"t.toml:1: invalid TOML"}},
		{"no topology", "name = \"x\"\n", []string{"t.toml: [topology] missing section"}},
		{"unknown top-level key", "topolgy = 1\n" + base, []string{
			"t.toml:1: topolgy: unknown key (did you mean topology? accepted: name, description, seed, include, topology, routing, flow_control, switch, nic, traffic, sim, sweep, congestion)"}},
		{"unknown topology key", edit(t, "hosts = 16", "hosts = 16\nportz = 4"), []string{
			"t.toml:6: [topology] portz: unknown key"}},
		{"wrong type", edit(t, "hosts = 16", `hosts = "16"`), []string{
			`t.toml:5: [topology] hosts: expected an integer, got string "16"`}},
		{"builder error on its line", "[topology]\nkind = \"flatfly\"\ndims = [4, 3]\nwidths = [1]\nhosts_per_switch = 2\n", []string{
			"t.toml:4: [topology] widths: has 1 entries but dims has 2"}},
		{"unknown kind", edit(t, `kind = "crossbar"`, `kind = "butterfly"`), []string{
			`t.toml:4: [topology] kind: unknown topology "butterfly"`}},
		{"several problems", "[topology]\nkind = 3\nhosts = -1\n", []string{
			"t.toml:2: [topology] kind: expected a string, got integer 3",
			"t.toml:3: [topology] hosts: -1 is out of range"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, err := ParseTopology("t.toml", []byte(tc.text))
			if err == nil {
				t.Fatalf("parsed a network of %d switches", len(net.Switches))
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestLoadTopologyFile(t *testing.T) {
	net, err := LoadTopology(filepath.Join("testdata", "ff8x8-dor.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := NetworkLabel(net); got != "flatfly 8x8 w1,1 c8" {
		t.Errorf("label %q", got)
	}
	_, err = LoadTopology(filepath.Join(t.TempDir(), "none.toml"))
	if err == nil || !strings.Contains(err.Error(), "none.toml: cannot read: no such file or directory") {
		t.Errorf("missing file: %v", err)
	}
}
