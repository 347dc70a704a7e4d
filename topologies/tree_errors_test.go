package topologies

import (
	"strings"
	"testing"
)

func TestTreeBuildErrors(t *testing.T) {
	deimos := func(ports int, boxHosts []int, chain int) Spec {
		return Spec{Kind: "deimos", Ports: ports, BoxHosts: boxHosts, ChainLinks: chain}
	}
	tests := []struct {
		name string
		spec Spec
		want string // exact error text, or a prefix when it ends with "…"
	}{
		{"clos no ports", Spec{Kind: "clos", Hosts: 512}, "ports: need at least 2, got 0"},
		{"clos odd ports", Spec{Kind: "clos", Ports: 31, Hosts: 512}, "ports: a leaf of 31 ports cannot give half to hosts and half to uplinks (set oversubscription to split it otherwise)"},
		{"clos ratio syntax", Spec{Kind: "clos", Ports: 32, Hosts: 512, Oversubscription: "2"}, `oversubscription: want "D:U", host ports to uplinks of a leaf as positive integers (such as "2:1"), got "2"`},
		{"clos ratio zero", Spec{Kind: "clos", Ports: 32, Hosts: 512, Oversubscription: "0:1"}, `oversubscription: want "D:U", …`},
		{"clos ratio float", Spec{Kind: "clos", Ports: 32, Hosts: 512, Oversubscription: "1.5:1"}, `oversubscription: want "D:U", …`},
		{"clos ratio split", Spec{Kind: "clos", Ports: 32, Hosts: 512, Oversubscription: "2:1"}, "oversubscription: 2:1 does not split the 32 ports of a leaf into whole numbers of host ports and uplinks"},
		{"clos no hosts", Spec{Kind: "clos", Ports: 32}, "hosts: need at least 1, got 0"},
		{"clos hosts not whole leaves", Spec{Kind: "clos", Ports: 32, Hosts: 500}, "hosts: 500 is not a multiple of 16, the host ports of a leaf crossbar"},
		{"clos one leaf", Spec{Kind: "clos", Ports: 32, Hosts: 16}, `hosts: 16 fit on one leaf crossbar (16 host ports); a Clos needs at least 2 leaves (a single switch is kind = "crossbar")`},
		{"clos too many hosts", Spec{Kind: "clos", Ports: 32, Hosts: 528}, "hosts: 528 need 33 leaf crossbars, but a spine crossbar of 32 ports reaches at most 32 leaves (512 hosts)"},
		{"clos stray k", Spec{Kind: "clos", Ports: 32, Hosts: 512, K: 4}, "k: not used by topology clos (it uses ports, hosts, oversubscription)"},
		{"clos stray box_hosts", Spec{Kind: "clos", Ports: 32, Hosts: 512, BoxHosts: []int{1}}, "box_hosts: not used by topology clos …"},

		{"fattree k 1", Spec{Kind: "fattree", K: 1, N: 2}, "k: need at least 2, got 1"},
		{"fattree no n", Spec{Kind: "fattree", K: 4}, "n: need at least 1, got 0"},
		{"fattree n too large", Spec{Kind: "fattree", K: 2, N: 65}, "n: 65 exceeds the limit of 64"},
		{"fattree too many switches", Spec{Kind: "fattree", K: 64, N: 5}, "k/n: level 0 has more than the limit of 262144 switches"},
		{"fattree too many hosts", Spec{Kind: "fattree", K: 4096, N: 2}, "k/n: 4096-ary 2-tree has 16777216 hosts, more than the limit of 2097152"},
		{"fattree too many ports", Spec{Kind: "fattree", K: 128, N: 3}, "k/n: more than the limit of 8388608 ports"},
		{"fattree 1-tree oversubscribed", Spec{Kind: "fattree", K: 4, N: 1, Oversubscription: "3:1"}, "oversubscription: a 4-ary 1-tree is one switch with no uplinks to oversubscribe"},
		{"fattree ratio split", Spec{Kind: "fattree", K: 4, N: 2, Oversubscription: "2:1"}, "oversubscription: 2:1 does not split the 8 ports of a leaf into whole numbers of host ports and uplinks"},
		{"fattree stray hosts", Spec{Kind: "fattree", K: 4, N: 2, Hosts: 16}, "hosts: not used by topology fattree (it uses k, n, oversubscription)"},
		{"fattree stray m", Spec{Kind: "fattree", K: 4, N: 2, M: []int{4}}, "m: not used by topology fattree …"},

		{"xgft no m", Spec{Kind: "xgft", W: []int{1}}, "m: need at least one level, got []"},
		{"xgft too many levels", Spec{Kind: "xgft", M: make([]int, 65), W: make([]int, 65)}, "m: has 65 levels, more than the limit of 64"},
		{"xgft w count", Spec{Kind: "xgft", M: []int{6, 6}, W: []int{3}}, "w: has 1 entries but m has 2"},
		{"xgft no w", Spec{Kind: "xgft", M: []int{6}}, "w: has 0 entries but m has 1"},
		{"xgft zero m", Spec{Kind: "xgft", M: []int{6, 0}, W: []int{1, 1}}, "m: element 2 is 0, need at least 1"},
		{"xgft zero w", Spec{Kind: "xgft", M: []int{6, 6}, W: []int{1, 0}}, "w: element 2 is 0, need at least 1"},
		{"xgft multi-homed hosts", Spec{Kind: "xgft", M: []int{6, 6}, W: []int{3, 3}}, "w: w_1 = 3, but a host (a level-0 node) has one port, so w_1 must be 1; set hosts to make level 0 switches with hosts spread over them (seed 002 Table I)"},
		{"xgft hosts below leaves", Spec{Kind: "xgft", M: []int{6, 6}, W: []int{3, 3}, Hosts: 20}, "hosts: 20 is fewer than the 36 leaf switches (m_1·…·m_h)"},
		{"xgft negative hosts", Spec{Kind: "xgft", M: []int{6}, W: []int{3}, Hosts: -1}, "hosts: need at least 1, got -1"},
		{"xgft too many switches", Spec{Kind: "xgft", M: []int{4096, 4096, 4096}, W: []int{1, 1, 1}}, "m/w: level 0 has more than the limit of 262144 switches"},
		{"xgft too many hosts", Spec{Kind: "xgft", M: []int{4096, 4096}, W: []int{1, 1}}, "m: gives 16777216 hosts, more than the limit of 2097152"},
		{"xgft stray oversubscription", Spec{Kind: "xgft", M: []int{6}, W: []int{1}, Oversubscription: "2:1"}, "oversubscription: not used by topology xgft (it uses m, w, hosts)"},

		{"deimos no ports", deimos(0, []int{258, 228, 258}, 30), "ports: need at least 2, got 0"},
		{"deimos odd ports", deimos(23, []int{258, 228, 258}, 30), "ports: 23 is odd; a leaf crossbar gives half its ports to the outside and half to the spines"},
		{"deimos huge ports", deimos(1<<13, []int{1, 1}, 1), "ports: 8192 exceeds the limit of 4096"},
		{"deimos one box", deimos(24, []int{258}, 30), "box_hosts: need at least 2 boxes in the chain, got [258]"},
		{"deimos no boxes", deimos(24, nil, 30), "box_hosts: need at least 2 boxes in the chain, got []"},
		{"deimos empty box", deimos(24, []int{258, 0, 258}, 30), "box_hosts: element 2 is 0, need at least 1"},
		{"deimos no chain", deimos(24, []int{258, 228, 258}, 0), "chain_links: need at least 1, got 0"},
		{"deimos chain too wide", deimos(24, []int{258, 228, 258}, 289), "chain_links: 289 exceeds the limit of 288"},
		{"deimos end box full", deimos(24, []int{259, 228, 258}, 30), "box_hosts: element 1: 259 hosts and 30 chain links exceed the 288 external ports of a box (ports²/2)"},
		{"deimos middle box full", deimos(24, []int{258, 229, 258}, 30), "box_hosts: element 2: 229 hosts and 60 chain links exceed the 288 external ports of a box (ports²/2)"},
		{"deimos stray hosts", Spec{Kind: "deimos", Ports: 24, BoxHosts: []int{1, 1}, ChainLinks: 1, Hosts: 4}, "hosts: not used by topology deimos (it uses ports, box_hosts, chain_links)"},

		{"unknown preset", Spec{Preset: "myrinet"}, `preset: unknown preset "myrinet" (known: torus3d, torus4d, flatfly, hypercube, dragonfly, sfxff1, sfxff2, myrinet512, deimos)`},
		{"preset kind conflict", Spec{Preset: "myrinet512", Kind: "fattree"}, `kind: preset "myrinet512" is a clos topology, got kind "fattree" (leave kind out, or give the same)`},
		{"preset stray key", Spec{Preset: "myrinet512", K: 4}, "k: not used by topology clos (it uses ports, hosts, oversubscription)"},
		{"preset bad override", Spec{Preset: "myrinet512", Hosts: 1024}, "hosts: 1024 need 64 leaf crossbars, but a spine crossbar of 32 ports reaches at most 32 leaves (512 hosts)"},
		{"preset override breaks deimos", Spec{Preset: "deimos", Ports: 8}, "box_hosts: element 1: 258 hosts and 30 chain links exceed the 32 external ports of a box (ports²/2) (box_hosts from preset \"deimos\")"},
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
