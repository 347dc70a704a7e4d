package topologies

import (
	"strings"
	"testing"
)

func TestBuildErrors(t *testing.T) {
	big := MaxSwitches + 1
	yes, no := true, false
	tests := []struct {
		name string
		spec Spec
		want string // exact error text, or a prefix when it ends with "…"
	}{
		{"no kind", Spec{}, "kind: missing topology kind (known: flatfly, hyperx, crossbar, ring, torus, hypercube, dragonfly, slimfly, product, kautz, random, clos, fattree, xgft, deimos, file)"},
		{"unknown kind", Spec{Kind: "flatflyy"}, `kind: unknown topology "flatflyy" (known: flatfly, hyperx, crossbar, ring, torus, hypercube, dragonfly, slimfly, product, kautz, random, clos, fattree, xgft, deimos, file)`},
		{"case matters", Spec{Kind: "FlatFly"}, `kind: unknown topology "FlatFly" …`},

		{"ff no dims", Spec{Kind: "flatfly", HostsPerSwitch: 1}, "dims: need at least one dimension, got []"},
		{"ff empty dims", Spec{Kind: "hyperx", Dims: []int{}, HostsPerSwitch: 1}, "dims: need at least one dimension, got []"},
		{"ff zero dim", Spec{Kind: "flatfly", Dims: []int{4, 0}, HostsPerSwitch: 1}, "dims: element 2 is 0, need at least 1"},
		{"ff negative dim", Spec{Kind: "flatfly", Dims: []int{-3}, HostsPerSwitch: 1}, "dims: element 1 is -3, need at least 1"},
		{"ff huge dim", Spec{Kind: "flatfly", Dims: []int{big}, HostsPerSwitch: 1}, "dims: element 1 is 262145, exceeds the limit of 262144"},
		{"ff too many dims", Spec{Kind: "flatfly", Dims: make([]int, MaxDims+1), HostsPerSwitch: 1}, "dims: has 65 dimensions, more than the limit of 64"},
		{"ff too many switches", Spec{Kind: "flatfly", Dims: []int{1024, 1024}, HostsPerSwitch: 1}, "dims: [1024 1024] gives more than the limit of 262144 switches"},
		{"ff widths count", Spec{Kind: "flatfly", Dims: []int{2, 3}, Widths: []int{1, 1, 1}, HostsPerSwitch: 1}, "widths: has 3 entries but dims has 2"},
		{"ff zero width", Spec{Kind: "flatfly", Dims: []int{2, 3}, Widths: []int{1, 0}, HostsPerSwitch: 1}, "widths: element 2 is 0, need at least 1"},
		{"ff huge width", Spec{Kind: "flatfly", Dims: []int{2}, Widths: []int{1 << 62}, HostsPerSwitch: 1}, "widths: element 1 is 4611686018427387904, exceeds the limit of 8388608"},
		{"ff no hosts", Spec{Kind: "flatfly", Dims: []int{2}}, "hosts_per_switch: need at least 1, got 0"},
		{"ff negative hosts", Spec{Kind: "flatfly", Dims: []int{2}, HostsPerSwitch: -1}, "hosts_per_switch: need at least 1, got -1"},
		{"ff too many hosts", Spec{Kind: "flatfly", Dims: []int{64, 64}, HostsPerSwitch: 1024}, "hosts_per_switch: 1024 hosts per switch on 4096 switches gives 4194304 hosts, more than the limit of 2097152"},
		{"ff radix too large", Spec{Kind: "flatfly", Dims: []int{2, 3}, Widths: []int{1 << 22, 1 << 22}, HostsPerSwitch: 1}, "dims/widths: radix 12582913 exceeds the limit of 8388608 ports"},
		{"hypercube too wide", Spec{Kind: "hypercube", Dimension: 2, Width: 3000000, HostsPerSwitch: 1}, "width: radix 6000001 on 4 switches gives 24000004 ports, more than the limit of 8388608"},
		{"preset given widths too wide", Spec{Preset: "flatfly", Widths: []int{3000000, 1, 1, 1}}, "dims/widths: radix 9000029 exceeds the limit of 8388608 ports"},
		{"slimfly too many ports", Spec{Kind: "slimfly", Q: 361, HostsPerSwitch: 1}, "q: radix 542 on 260642 switches gives 141267964 ports, more than the limit of 8388608"},
		{"ff too many ports", Spec{Kind: "flatfly", Dims: []int{4096, 2}, HostsPerSwitch: 1}, "dims/widths: radix 4097 on 8192 switches gives 33562624 ports, more than the limit of 8388608"},
		{"ff stray hosts", Spec{Kind: "flatfly", Dims: []int{2}, HostsPerSwitch: 1, Hosts: 4}, "hosts: not used by topology flatfly (it uses dims, widths, hosts_per_switch)"},
		{"ff stray switches", Spec{Kind: "hyperx", Dims: []int{2}, HostsPerSwitch: 1, Switches: 4}, "switches: not used by topology hyperx (it uses dims, widths, hosts_per_switch)"},

		{"xbar no hosts", Spec{Kind: "crossbar"}, "hosts: need at least 1, got 0"},
		{"xbar too many hosts", Spec{Kind: "crossbar", Hosts: MaxHosts + 1}, "hosts: 2097153 exceeds the limit of 2097152"},
		{"xbar stray dims", Spec{Kind: "crossbar", Hosts: 4, Dims: []int{4}}, "dims: not used by topology crossbar (it uses hosts)"},
		{"xbar stray hosts_per_switch", Spec{Kind: "crossbar", Hosts: 4, HostsPerSwitch: 4}, "hosts_per_switch: not used by topology crossbar (it uses hosts)"},

		{"ring too small", Spec{Kind: "ring", Switches: 2, HostsPerSwitch: 1}, "switches: need at least 3, got 2"},
		{"ring missing switches", Spec{Kind: "ring", HostsPerSwitch: 1}, "switches: need at least 3, got 0"},
		{"ring too large", Spec{Kind: "ring", Switches: big, HostsPerSwitch: 1}, "switches: 262145 exceeds the limit of 262144"},
		{"ring widths count", Spec{Kind: "ring", Switches: 4, Widths: []int{1, 2}, HostsPerSwitch: 1}, "widths: a ring has one dimension, so need 1 entry (widths = [L]) or none, got [1 2]"},
		{"ring zero width", Spec{Kind: "ring", Switches: 4, Widths: []int{0}, HostsPerSwitch: 1}, "widths: element 1 is 0, need at least 1"},
		{"ring no hosts", Spec{Kind: "ring", Switches: 4}, "hosts_per_switch: need at least 1, got 0"},
		{"ring too many hosts", Spec{Kind: "ring", Switches: 4096, HostsPerSwitch: 1024}, "hosts_per_switch: 1024 hosts per switch on 4096 switches gives 4194304 hosts, more than the limit of 2097152"},
		{"ring too many ports", Spec{Kind: "ring", Switches: 1024, Widths: []int{1 << 20}, HostsPerSwitch: 1}, "widths: radix 2097153 on 1024 switches gives 2147484672 ports, more than the limit of 8388608"},
		{"ring stray dims", Spec{Kind: "ring", Switches: 4, HostsPerSwitch: 1, Dims: []int{4}}, "dims: not used by topology ring (it uses switches, widths, hosts_per_switch)"},

		{"torus K1", Spec{Kind: "torus", Dims: []int{4, 1}, HostsPerSwitch: 1}, "dims: element 2 is 1, a torus dimension needs at least 2 switches"},
		{"torus no dims", Spec{Kind: "torus", HostsPerSwitch: 1}, "dims: need at least one dimension, got []"},
		{"torus widths count", Spec{Kind: "torus", Dims: []int{4, 4}, Widths: []int{1}, HostsPerSwitch: 1}, "widths: has 1 entries but dims has 2"},
		{"torus no hosts", Spec{Kind: "torus", Dims: []int{4}}, "hosts_per_switch: need at least 1, got 0"},
		{"torus too many switches", Spec{Kind: "torus", Dims: []int{1024, 1024}, HostsPerSwitch: 1}, "dims: [1024 1024] gives more than the limit of 262144 switches"},
		{"torus stray q", Spec{Kind: "torus", Dims: []int{4}, HostsPerSwitch: 1, Q: 5}, "q: not used by topology torus (it uses dims, widths, hosts_per_switch)"},

		{"hypercube no dimension", Spec{Kind: "hypercube", HostsPerSwitch: 1}, "dimension: need at least 1, got 0"},
		{"hypercube too large", Spec{Kind: "hypercube", Dimension: 19, HostsPerSwitch: 1}, "dimension: 19 exceeds the limit of 18"},
		{"hypercube negative width", Spec{Kind: "hypercube", Dimension: 3, Width: -2, HostsPerSwitch: 1}, "width: need at least 1, got -2"},
		{"hypercube stray dims", Spec{Kind: "hypercube", Dimension: 3, Dims: []int{2}, HostsPerSwitch: 1}, "dims: not used by topology hypercube (it uses dimension, width, hosts_per_switch)"},
		{"hypercube stray widths", Spec{Kind: "hypercube", Dimension: 3, Widths: []int{2}, HostsPerSwitch: 1}, "widths: not used by topology hypercube (it uses dimension, width, hosts_per_switch)"},

		{"dragonfly no K", Spec{Kind: "dragonfly", GlobalPerSwitch: 2, HostsPerSwitch: 1}, "group_size: need at least 1, got 0"},
		{"dragonfly no G", Spec{Kind: "dragonfly", GroupSize: 4, HostsPerSwitch: 1}, "global_per_switch: need at least 1, got 0"},
		{"dragonfly arrangement", Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 1, Arrangement: "circulant"}, `arrangement: unknown value "circulant" (expected absolute, relative or palmtree)`},
		{"dragonfly one group", Spec{Kind: "dragonfly", GroupSize: 1, GlobalPerSwitch: 1, HostsPerSwitch: 1, OmitOneGlobal: &yes}, "omit_one_global: group_size·global_per_switch = 1 gives a single group, need at least 2"},
		{"dragonfly too large", Spec{Kind: "dragonfly", GroupSize: 64, GlobalPerSwitch: 64, HostsPerSwitch: 1}, "group_size/global_per_switch: 4097 groups of 64 switches exceed the limit of 262144 switches"},
		{"dragonfly stray width", Spec{Kind: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, HostsPerSwitch: 1, Width: 2}, "width: not used by topology dragonfly (it uses group_size, global_per_switch, hosts_per_switch, arrangement, omit_one_global)"},
		{"omit on a torus", Spec{Kind: "torus", Dims: []int{4}, HostsPerSwitch: 1, OmitOneGlobal: &no}, "omit_one_global: not used by topology torus (it uses dims, widths, hosts_per_switch)"},

		{"slimfly no q", Spec{Kind: "slimfly", HostsPerSwitch: 1}, "q: need at least 3, got 0"},
		{"slimfly q 2", Spec{Kind: "slimfly", Q: 2, HostsPerSwitch: 1}, "q: need at least 3, got 2"},
		{"slimfly q 6", Spec{Kind: "slimfly", Q: 6, HostsPerSwitch: 1}, "q: 6 is not a prime power (expected 3, 4, 5, 7, 8, 9, 11, 13, …)"},
		{"slimfly q 12", Spec{Kind: "slimfly", Q: 12, HostsPerSwitch: 1}, "q: 12 is not a prime power …"},
		{"slimfly q too large", Spec{Kind: "slimfly", Q: 363, HostsPerSwitch: 1}, "q: 363 exceeds the limit of 362"},
		{"slimfly no hosts", Spec{Kind: "slimfly", Q: 5}, "hosts_per_switch: need at least 1, got 0"},
		{"slimfly stray dims", Spec{Kind: "slimfly", Q: 5, HostsPerSwitch: 1, Dims: []int{3}}, "dims: not used by topology slimfly (it uses q, width, hosts_per_switch)"},

		{"product one factor", Spec{Kind: "product", HostsPerSwitch: 1, Factors: []Spec{{Kind: "slimfly", Q: 3}}}, "factors: need at least 2 factor tables ([[topology.factors]]), got 1"},
		{"product no factors", Spec{Kind: "product", HostsPerSwitch: 1}, "factors: need at least 2 factor tables ([[topology.factors]]), got 0"},
		{"product bad factor kind", Spec{Kind: "product", HostsPerSwitch: 1, Factors: []Spec{{Kind: "slimfly", Q: 3}, {Kind: "torus", Dims: []int{4}}}}, `factors: factor 2 has kind "torus", expected one of slimfly, flatfly, hyperx, hypercube`},
		{"product factor hosts", Spec{Kind: "product", HostsPerSwitch: 1, Factors: []Spec{{Kind: "slimfly", Q: 3, HostsPerSwitch: 2}, {Kind: "flatfly", Dims: []int{4}}}}, "factors: factor 1 (slimfly): hosts_per_switch: belongs to the product, not to a factor"},
		{"product factor error", Spec{Kind: "product", HostsPerSwitch: 1, Factors: []Spec{{Kind: "slimfly", Q: 6}, {Kind: "flatfly", Dims: []int{4}}}}, "factors: factor 1 (slimfly): q: 6 is not a prime power (expected 3, 4, 5, 7, 8, 9, 11, 13, …)"},
		{"product factor stray key", Spec{Kind: "product", HostsPerSwitch: 1, Factors: []Spec{{Kind: "slimfly", Q: 3}, {Kind: "flatfly", Dims: []int{4}, Q: 3}}}, "factors: factor 2 (flatfly): q: not used by topology flatfly (it uses dims, widths, hosts_per_switch)"},
		{"product factor preset", Spec{Kind: "product", HostsPerSwitch: 1, Factors: []Spec{{Kind: "flatfly", Preset: "flatfly"}, {Kind: "flatfly", Dims: []int{4}}}}, "factors: factor 1 (flatfly): preset: not allowed in a factor"},
		{"product too large", Spec{Kind: "product", HostsPerSwitch: 1, Factors: []Spec{{Kind: "slimfly", Q: 128}, {Kind: "flatfly", Dims: []int{9}}}}, "factors: the product has more than the limit of 262144 switches"},
		{"product no hosts", Spec{Kind: "product", Factors: []Spec{{Kind: "slimfly", Q: 3}, {Kind: "flatfly", Dims: []int{4}}}}, "hosts_per_switch: need at least 1, got 0"},
		{"product stray q", Spec{Kind: "product", HostsPerSwitch: 1, Q: 3, Factors: []Spec{{Kind: "slimfly", Q: 3}, {Kind: "flatfly", Dims: []int{4}}}}, "q: not used by topology product (it uses factors, hosts_per_switch)"},
		{"factors on a flatfly", Spec{Kind: "flatfly", Dims: []int{4}, HostsPerSwitch: 1, Factors: []Spec{}}, "factors: not used by topology flatfly (it uses dims, widths, hosts_per_switch)"},

		{"kautz b 1", Spec{Kind: "kautz", B: 1, N: 3, HostsPerSwitch: 1}, "b: need at least 2, got 1"},
		{"kautz no n", Spec{Kind: "kautz", B: 2, HostsPerSwitch: 1}, "n: need at least 1, got 0"},
		{"kautz too large", Spec{Kind: "kautz", B: 4, N: 10, HostsPerSwitch: 1}, "b/n: K(4, 10) has more than the limit of 262144 switches"},
		{"kautz stray seed", Spec{Kind: "kautz", B: 2, N: 2, HostsPerSwitch: 1, Seed: 3}, "seed: not used by topology kautz (it uses b, n, hosts_per_switch)"},

		{"random one switch", Spec{Kind: "random", Switches: 1, HostsPerSwitch: 1, Links: 1}, "switches: need at least 2, got 1"},
		{"random too few links", Spec{Kind: "random", Switches: 64, HostsPerSwitch: 16, Links: 62}, "links: need at least switches − 1 = 63 to connect 64 switches, got 62"},
		{"random too many links", Spec{Kind: "random", Switches: 5, HostsPerSwitch: 1, Links: 11}, "links: 11 exceeds the 10 that 5 switches with at most 4 links each can have"},
		{"random ports limit", Spec{Kind: "random", Switches: 64, HostsPerSwitch: 16, Links: 300, Ports: 24}, "links: 300 exceeds the 256 that 64 switches with at most 8 links each can have"},
		{"random ports too few", Spec{Kind: "random", Switches: 64, HostsPerSwitch: 16, Links: 63, Ports: 17}, "ports: 17 ports with 16 hosts leave 1 link per switch, too few to connect 64 switches"},
		{"random ports below hosts", Spec{Kind: "random", Switches: 64, HostsPerSwitch: 16, Links: 63, Ports: 16}, "ports: need at least 17, got 16 (hosts_per_switch = 16, and every switch needs a link)"},
		{"random stray q", Spec{Kind: "random", Switches: 4, HostsPerSwitch: 1, Links: 3, Q: 3}, "q: not used by topology random (it uses switches, hosts_per_switch, links, ports, seed)"},

		{"unknown preset", Spec{Preset: "torus5d"}, `preset: unknown preset "torus5d" (known: torus3d, torus4d, flatfly, hypercube, dragonfly, sfxff1, sfxff2, myrinet512, deimos)`},
		{"preset kind mismatch", Spec{Preset: "torus3d", Kind: "flatfly"}, `kind: preset "torus3d" is a torus topology, got kind "flatfly" (leave kind out, or give the same)`},
		{"preset stray key", Spec{Preset: "torus3d", Q: 5}, "q: not used by topology torus (it uses dims, widths, hosts_per_switch)"},
		{"preset scaled inconsistently", Spec{Preset: "torus3d", Dims: []int{4, 4}}, "widths: has 3 entries but dims has 2 (widths from preset \"torus3d\")"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, err := Build(tc.spec)
			if err == nil {
				t.Fatalf("Build succeeded with %d switches, want error %q", len(net.Switches), tc.want)
			}
			if prefix, ok := strings.CutSuffix(tc.want, "…"); ok {
				if !strings.HasPrefix(err.Error(), prefix) {
					t.Fatalf("error %q, want prefix %q", err, prefix)
				}
				return
			}
			if err.Error() != tc.want {
				t.Fatalf("error\n got %q\nwant %q", err, tc.want)
			}
		})
	}
}
