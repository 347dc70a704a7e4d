package experiments

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"netsim/topologies"
)

// withTopology returns a small experiment whose [topology] section is topo
// (everything from "[topology]" on to the next section).
func withTopology(topo, algorithm string) string {
	return `name = "t"
` + topo + `
[routing]
algorithm = "` + algorithm + `"
[traffic]
pattern = "uniform"
[sweep]
loads = [0.1]
`
}

// TestTopologyKindsDecode decodes every topology kind from TOML and checks
// the spec, that it builds, and its label.
func TestTopologyKindsDecode(t *testing.T) {
	yes := true
	tests := []struct {
		name  string
		topo  string
		spec  topologies.Spec
		label string
	}{
		{"torus", "[topology]\nkind = \"torus\"\ndims = [4, 2]\nwidths = [2, 1]\nhosts_per_switch = 3",
			topologies.Spec{Kind: "torus", Dims: []int{4, 2}, Widths: []int{2, 1}, HostsPerSwitch: 3}, "torus 4x2 w2,1 c3"},
		{"hypercube", "[topology]\nkind = \"hypercube\"\ndimension = 3\nwidth = 2\nhosts_per_switch = 1",
			topologies.Spec{Kind: "hypercube", Dimension: 3, Width: 2, HostsPerSwitch: 1}, "hypercube d3 w2 c1"},
		{"dragonfly", "[topology]\nkind = \"dragonfly\"\ngroup_size = 4\nglobal_per_switch = 2\nhosts_per_switch = 2\narrangement = \"palmtree\"\nomit_one_global = true",
			topologies.Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 2, Arrangement: "palmtree", OmitOneGlobal: &yes}, "dragonfly k4 g2 c2 palmtree omit"},
		{"dragonfly defaults", "[topology]\nkind = \"dragonfly\"\ngroup_size = 2\nglobal_per_switch = 1\nhosts_per_switch = 1",
			topologies.Spec{Kind: "dragonfly", GroupSize: 2, GlobalPerSwitch: 1, HostsPerSwitch: 1}, "dragonfly k2 g1 c1 absolute"},
		{"slimfly", "[topology]\nkind = \"slimfly\"\nq = 5\nhosts_per_switch = 4",
			topologies.Spec{Kind: "slimfly", Q: 5, HostsPerSwitch: 4}, "slimfly q5 w1 c4"},
		{"product", "[topology]\nkind = \"product\"\nhosts_per_switch = 2\n[[topology.factors]]\nkind = \"slimfly\"\nq = 3\nwidth = 2\n[[topology.factors]]\nkind = \"flatfly\"\ndims = [2, 3]",
			topologies.Spec{Kind: "product", HostsPerSwitch: 2, Factors: []topologies.Spec{{Kind: "slimfly", Q: 3, Width: 2}, {Kind: "flatfly", Dims: []int{2, 3}}}},
			"product[slimfly q3 w2; flatfly 2x3 w1,1] c2"},
		{"product inline", "[topology]\nkind = \"product\"\nhosts_per_switch = 1\nfactors = [{kind = \"slimfly\", q = 3}, {kind = \"hypercube\", dimension = 2}]",
			topologies.Spec{Kind: "product", HostsPerSwitch: 1, Factors: []topologies.Spec{{Kind: "slimfly", Q: 3}, {Kind: "hypercube", Dimension: 2}}},
			"product[slimfly q3 w1; hypercube d2 w1] c1"},
		{"kautz", "[topology]\nkind = \"kautz\"\nb = 3\nn = 2\nhosts_per_switch = 2",
			topologies.Spec{Kind: "kautz", B: 3, N: 2, HostsPerSwitch: 2}, "kautz b3 n2 c2"},
		{"random", "[topology]\nkind = \"random\"\nswitches = 8\nhosts_per_switch = 2\nlinks = 10\nports = 6\nseed = 4",
			topologies.Spec{Kind: "random", Switches: 8, HostsPerSwitch: 2, Links: 10, Ports: 6, Seed: 4}, "random s8 l10 c2 seed4 p6"},
		{"preset scaled down", "[topology]\npreset = \"torus3d\"\ndims = [4, 4, 2]",
			topologies.Spec{Preset: "torus3d", Dims: []int{4, 4, 2}}, "torus 4x4x2 w3,5,5 c8"},
		{"preset", "[topology]\npreset = \"sfxff2\"",
			topologies.Spec{Preset: "sfxff2"}, "product[slimfly q8 w1; flatfly 16 w1] c8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, _, err := parse("t.toml", []byte(withTopology(tc.topo, "dor")))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(e.Topology, tc.spec) {
				t.Fatalf("spec\n got %+v\nwant %+v", e.Topology, tc.spec)
			}
			net, err := topologies.Build(e.Topology)
			if err != nil {
				t.Fatal(err)
			}
			if got := topologyLabel(net); got != tc.label {
				t.Errorf("label %q, want %q", got, tc.label)
			}
		})
	}
}

func TestTopologyKeyErrors(t *testing.T) {
	product := "[topology]\nkind = \"product\"\nhosts_per_switch = 2\n[[topology.factors]]\nkind = \"slimfly\"\nq = Q\n[[topology.factors]]\nkind = \"flatfly\"\ndims = [4]\nEXTRA"
	tests := []struct {
		name, topo string
		want       []string // every error line, by prefix
	}{
		{"unknown key", "[topology]\nkind = \"torus\"\ndim = [4]", []string{"f.toml:4: [topology] dim: unknown key (did you mean dims? accepted: preset, kind, dims, "}},
		{"boolean expected", "[topology]\nkind = \"dragonfly\"\ngroup_size = 2\nglobal_per_switch = 1\nhosts_per_switch = 1\nomit_one_global = 1",
			[]string{"f.toml:7: [topology] omit_one_global: expected a boolean, got integer 1"}},
		{"negative seed", "[topology]\nkind = \"random\"\nseed = -3", []string{"f.toml:4: [topology] seed: -3 is out of range (expected ≥ 0)"}},
		{"key of another kind", "[topology]\nkind = \"torus\"\ndims = [4]\nhosts_per_switch = 1\nq = 5", []string{"f.toml:6: [topology] q: not used by topology torus"}},
		{"builder error", "[topology]\nkind = \"slimfly\"\nq = 6\nhosts_per_switch = 1", []string{"f.toml:4: [topology] q: 6 is not a prime power"}},
		{"no kind, no preset", "[topology]\nhosts_per_switch = 1", []string{`f.toml:2: [topology] kind: missing (expected one of: flatfly, `}},
		{"unknown preset", "[topology]\npreset = \"torus5d\"", []string{`f.toml:3: [topology] preset: unknown preset "torus5d" (known: torus3d, `}},
		{"preset and other kind", "[topology]\npreset = \"flatfly\"\nkind = \"torus\"", []string{`f.toml:4: [topology] kind: preset "flatfly" is a flatfly topology, got kind "torus"`}},
		{"factor value", strings.NewReplacer("Q", `"four"`, "EXTRA", "").Replace(product),
			[]string{`f.toml:7: [topology] factors: factor 1: q: expected an integer, got string "four"`}},
		{"factor unknown key", strings.NewReplacer("Q", "3", "EXTRA", "qq = 3").Replace(product),
			[]string{"f.toml:11: [topology] factors: factor 2: qq: unknown key (accepted: kind, dims, "}},
		{"factor without kind", strings.NewReplacer("Q", "3", "kind = \"flatfly\"\n", "", "EXTRA", "").Replace(product),
			[]string{"f.toml:8: [topology] factors: factor 2: kind: missing (expected slimfly, flatfly, hyperx or hypercube)"}},
		{"factor builder error", strings.NewReplacer("Q", "6", "EXTRA", "").Replace(product),
			[]string{"f.toml:7: [topology] factors: factor 1 (slimfly): q: 6 is not a prime power"}},
		{"factor key of another kind", strings.NewReplacer("Q", "3", "EXTRA", "q = 3").Replace(product),
			[]string{"f.toml:11: [topology] factors: factor 2 (flatfly): q: not used by topology flatfly"}},
		{"factor with hosts", strings.NewReplacer("Q", "3", "EXTRA", "hosts_per_switch = 3").Replace(product),
			[]string{"f.toml:11: [topology] factors: factor 2 (flatfly): hosts_per_switch: belongs to the product"}},
		{"factors not tables", "[topology]\nkind = \"product\"\nfactors = [1, 2]", []string{"f.toml:4: [topology] factors: element 1: expected a table, got integer 1"}},
		{"factors not an array", "[topology]\nkind = \"product\"\nfactors = 3", []string{"f.toml:4: [topology] factors: expected an array of tables ([[topology.factors]]), got integer 3"}},
		{"inline factor error", "[topology]\nkind = \"product\"\nhosts_per_switch = 1\nfactors = [{kind = \"slimfly\", q = 6}, {kind = \"flatfly\", dims = [2]}]",
			[]string{"f.toml:5: [topology] factors: factor 1 (slimfly): q: 6 is not a prime power"}},
		{"two factor errors", strings.NewReplacer("Q", "true", "EXTRA", "widths = \"x\"").Replace(product),
			[]string{"f.toml:7: [topology] factors: factor 1: q: expected an integer", `f.toml:11: [topology] factors: factor 2: widths: expected an array of integers, got string "x"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.toml", []byte(withTopology(tc.topo, "dor")))
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v (%T) is not an *InputError", err, err)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tc.want) {
				t.Fatalf("%d errors, want %d:\n%v", len(lines), len(tc.want), err)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("error:\n got %s\nwant %s…", lines[i], w)
				}
			}
		})
	}
}

// TestHypercubePresetRuns runs a scaled-down hypercube preset with DOR
// through the whole stack: decode, build, one simulated point.
func TestHypercubePresetRuns(t *testing.T) {
	e, err := Parse("cube.toml", []byte(withTopology("[topology]\npreset = \"hypercube\"\ndimension = 4\nhosts_per_switch = 2", "dor")))
	if err != nil {
		t.Fatal(err)
	}
	if got := e.TopologyLabel(); got != "hypercube d4 w2 c2" {
		t.Errorf("label %q", got)
	}
	cfg := e.Config(0, 0.1)
	if len(cfg.Net.Hosts) != 32 || cfg.Net.Radix() != 10 || cfg.Routing.Name() != "dor" {
		t.Errorf("%d hosts, radix %d, routing %s; want 32, 10, dor", len(cfg.Net.Hosts), cfg.Net.Radix(), cfg.Routing.Name())
	}
}
