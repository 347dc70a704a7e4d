package experiments

import (
	"reflect"
	"strings"
	"testing"

	"netsim/topologies"
)

// treeFile returns an experiment file whose [topology] section is topo.
func treeFile(topo string) string {
	return "[topology]\n" + topo + `
[routing]
algorithm = "mixed-dor"
[traffic]
patterns = ["uniform"]
`
}

func TestParseTreeTopologyKeys(t *testing.T) {
	tests := []struct {
		name string
		topo string
		want topologies.Spec
	}{
		{"clos", "kind = \"clos\"\nports = 32\nhosts = 384\noversubscription = \"3:1\"",
			topologies.Spec{Kind: "clos", Ports: 32, Hosts: 384, Oversubscription: "3:1"}},
		{"fattree", "kind = \"fattree\"\nk = 4\nn = 3", topologies.Spec{Kind: "fattree", K: 4, N: 3}},
		{"xgft", "kind = \"xgft\"\nm = [6, 6]\nw = [3, 3]\nhosts = 512",
			topologies.Spec{Kind: "xgft", M: []int{6, 6}, W: []int{3, 3}, Hosts: 512}},
		{"deimos", "kind = \"deimos\"\nports = 8\nbox_hosts = [28, 24, 28]\nchain_links = 4",
			topologies.Spec{Kind: "deimos", Ports: 8, BoxHosts: []int{28, 24, 28}, ChainLinks: 4}},
		{"preset without kind", "preset = \"myrinet512\"\nhosts = 128", topologies.Spec{Preset: "myrinet512", Hosts: 128}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, _, err := parse("f.toml", []byte(treeFile(tc.topo)))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(e.Topology, tc.want) {
				t.Errorf("Topology\n got %+v\nwant %+v", e.Topology, tc.want)
			}
		})
	}
}

// TestParseTreeTopologyErrors checks that the tree families' errors reach
// the key and line at fault. A topology that builds fails next on the
// routing, since mixed-dor does not serve the tree families: that error
// shows the network was built.
func TestParseTreeTopologyErrors(t *testing.T) {
	tests := []struct {
		name, topo, want string
	}{
		{"clos builds", "kind = \"clos\"\nports = 32\nhosts = 512",
			`f.toml:6: [routing] algorithm: unknown routing "mixed-dor" for topology clos`},
		{"preset builds", "preset = \"deimos\"",
			`f.toml:4: [routing] algorithm: unknown routing "mixed-dor" for topology deimos`},
		{"clos hosts", "kind = \"clos\"\nports = 32\nhosts = 500",
			"f.toml:4: [topology] hosts: 500 is not a multiple of 16, the host ports of a leaf crossbar"},
		{"fattree k/n", "kind = \"fattree\"\nk = 64\nn = 5",
			"f.toml:3: [topology] k/n: level 0 has more than the limit of 262144 switches"},
		{"xgft w_1", "kind = \"xgft\"\nm = [6, 6]\nw = [3, 3]",
			"f.toml:4: [topology] w: w_1 = 3, but a host"},
		{"xgft m/w", "kind = \"xgft\"\nm = [4096, 4096, 4096]\nw = [1, 1, 1]",
			"f.toml:3: [topology] m/w: level 0 has more than the limit"},
		{"deimos box_hosts", "kind = \"deimos\"\nports = 24\nbox_hosts = [259, 228, 258]\nchain_links = 30",
			"f.toml:4: [topology] box_hosts: element 1: 259 hosts and 30 chain links exceed"},
		{"empty oversubscription", "kind = \"clos\"\nports = 32\nhosts = 512\noversubscription = \"\"",
			"f.toml:5: [topology] oversubscription: must not be empty"},
		{"integer oversubscription", "kind = \"clos\"\nports = 32\nhosts = 512\noversubscription = 2",
			"f.toml:5: [topology] oversubscription: expected a string, got integer 2"},
		{"bad oversubscription", "kind = \"clos\"\nports = 32\nhosts = 512\noversubscription = \"2\"",
			`f.toml:5: [topology] oversubscription: want "D:U"`},
		{"oversubscription on xgft", "kind = \"xgft\"\nm = [4]\nw = [1]\noversubscription = \"2:1\"",
			"f.toml:5: [topology] oversubscription: not used by topology xgft"},
		{"chain_links on clos", "kind = \"clos\"\nports = 32\nhosts = 512\nchain_links = 2",
			"f.toml:5: [topology] chain_links: not used by topology clos"},
		{"zero k", "kind = \"fattree\"\nk = 0\nn = 2", "f.toml:3: [topology] k: 0 is out of range"},
		{"unknown preset", "preset = \"myrinet\"", `f.toml:2: [topology] preset: unknown preset "myrinet" (known: torus3d, torus4d, flatfly, hypercube, dragonfly, sfxff1, sfxff2, myrinet512, deimos)`},
		{"empty preset", "preset = \"\"", "f.toml:2: [topology] preset: must not be empty"},
		{"preset kind conflict", "preset = \"myrinet512\"\nkind = \"fattree\"", `f.toml:3: [topology] kind: preset "myrinet512" is a clos topology, got kind "fattree"`},
		{"no kind, no preset", "ports = 32", "f.toml:1: [topology] kind: missing (expected one of: flatfly, hyperx, crossbar, ring, torus, hypercube, dragonfly, slimfly, product, kautz, random, clos, fattree, xgft, deimos, file; or preset = \"NAME\")"},
		{"misspelt key", "kind = \"clos\"\nport = 32", "f.toml:3: [topology] port: unknown key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.toml", []byte(treeFile(tc.topo)))
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			first, _, _ := strings.Cut(err.Error(), "\n")
			if !strings.HasPrefix(first, tc.want) {
				t.Errorf("error:\n got %s\nwant %s…", err, tc.want)
			}
		})
	}
}

func TestTreeLabels(t *testing.T) {
	tests := []struct {
		spec topologies.Spec
		want string
	}{
		{topologies.Spec{Preset: "myrinet512"}, "clos p32 h512"},
		{topologies.Spec{Kind: "clos", Ports: 32, Hosts: 384, Oversubscription: "3:1"}, "clos p32 h384 o3:1"},
		{topologies.Spec{Kind: "clos", Ports: 32, Hosts: 512, Oversubscription: "1:1"}, "clos p32 h512"},
		{topologies.Spec{Kind: "fattree", K: 4, N: 3}, "fattree k4 n3"},
		{topologies.Spec{Kind: "fattree", K: 4, N: 3, Oversubscription: "3:1"}, "fattree k4 n3 o3:1"},
		{topologies.Spec{Kind: "xgft", M: []int{6, 6}, W: []int{3, 3}, Hosts: 512}, "xgft m6,6 w3,3 h512"},
		{topologies.Spec{Kind: "xgft", M: []int{4, 4}, W: []int{1, 4}}, "xgft m4,4 w1,4"},
		{topologies.Spec{Preset: "deimos"}, "deimos p24 h258,228,258 l30"},
		{topologies.Spec{Kind: "crossbar", Hosts: 16}, "crossbar h16"},
	}
	for _, tc := range tests {
		net, err := topologies.Build(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := topologyLabel(net); got != tc.want {
			t.Errorf("%+v: label %q, want %q", tc.spec, got, tc.want)
		}
	}
}

// TestParseTreeExperiment builds a whole experiment on a preset with the
// distance routing, which serves any topology.
func TestParseTreeExperiment(t *testing.T) {
	text := "[topology]\npreset = \"deimos\"\nports = 8\nbox_hosts = [28, 24, 28]\nchain_links = 4\n" +
		"[routing]\nalgorithm = \"distance\"\n[flow_control]\nvls = 8\n[traffic]\npatterns = [\"uniform\"]\n"
	e, err := Parse("f.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if e.Hosts() != 80 || e.TopologyLabel() != "deimos p8 h28,24,28 l4" {
		t.Errorf("hosts %d label %q, want 80 and %q", e.Hosts(), e.TopologyLabel(), "deimos p8 h28,24,28 l4")
	}
}
