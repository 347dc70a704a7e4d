package topologies

import (
	"strings"
	"testing"
)

func TestBuildErrors(t *testing.T) {
	big := MaxSwitches + 1
	tests := []struct {
		name string
		spec Spec
		want string // exact error text, or a prefix when it ends with "…"
	}{
		{"no kind", Spec{}, "kind: missing topology kind (known: flatfly, hyperx, crossbar, ring, clos, fattree, xgft, deimos, file)"},
		{"unknown kind", Spec{Kind: "flatflyy"}, `kind: unknown topology "flatflyy" (known: flatfly, hyperx, crossbar, ring, clos, fattree, xgft, deimos, file)`},
		{"case matters", Spec{Kind: "FlatFly"}, `kind: unknown topology "FlatFly" …`},

		{"ff no dims", Spec{Kind: "flatfly", HostsPerSwitch: 1}, "dims: need at least one dimension, got []"},
		{"ff empty dims", Spec{Kind: "hyperx", Dims: []int{}, HostsPerSwitch: 1}, "dims: need at least one dimension, got []"},
		{"ff zero dim", Spec{Kind: "flatfly", Dims: []int{4, 0}, HostsPerSwitch: 1}, "dims: entry 1 is 0, need at least 1"},
		{"ff negative dim", Spec{Kind: "flatfly", Dims: []int{-3}, HostsPerSwitch: 1}, "dims: entry 0 is -3, need at least 1"},
		{"ff huge dim", Spec{Kind: "flatfly", Dims: []int{big}, HostsPerSwitch: 1}, "dims: entry 0 is 262145, exceeds the limit of 262144"},
		{"ff too many dims", Spec{Kind: "flatfly", Dims: make([]int, MaxDims+1), HostsPerSwitch: 1}, "dims: has 65 dimensions, more than the limit of 64"},
		{"ff too many switches", Spec{Kind: "flatfly", Dims: []int{1024, 1024}, HostsPerSwitch: 1}, "dims: [1024 1024] gives more than the limit of 262144 switches"},
		{"ff widths count", Spec{Kind: "flatfly", Dims: []int{2, 3}, Widths: []int{1, 1, 1}, HostsPerSwitch: 1}, "widths: has 3 entries but dims has 2"},
		{"ff zero width", Spec{Kind: "flatfly", Dims: []int{2, 3}, Widths: []int{1, 0}, HostsPerSwitch: 1}, "widths: entry 1 is 0, need at least 1"},
		{"ff huge width", Spec{Kind: "flatfly", Dims: []int{2}, Widths: []int{1 << 62}, HostsPerSwitch: 1}, "widths: entry 0 is 4611686018427387904, exceeds the limit of 8388608"},
		{"ff no hosts", Spec{Kind: "flatfly", Dims: []int{2}}, "hosts_per_switch: need at least 1, got 0"},
		{"ff negative hosts", Spec{Kind: "flatfly", Dims: []int{2}, HostsPerSwitch: -1}, "hosts_per_switch: need at least 1, got -1"},
		{"ff too many hosts", Spec{Kind: "flatfly", Dims: []int{64, 64}, HostsPerSwitch: 1024}, "hosts_per_switch: 1024 hosts per switch on 4096 switches gives 4194304 hosts, more than the limit of 2097152"},
		{"ff radix too large", Spec{Kind: "flatfly", Dims: []int{2, 3}, Widths: []int{1 << 22, 1 << 22}, HostsPerSwitch: 1}, "dims/widths: radix 12582913 exceeds the limit of 8388608 ports"},
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
		{"ring zero width", Spec{Kind: "ring", Switches: 4, Widths: []int{0}, HostsPerSwitch: 1}, "widths: entry 0 is 0, need at least 1"},
		{"ring no hosts", Spec{Kind: "ring", Switches: 4}, "hosts_per_switch: need at least 1, got 0"},
		{"ring too many hosts", Spec{Kind: "ring", Switches: 4096, HostsPerSwitch: 1024}, "hosts_per_switch: 1024 hosts per switch on 4096 switches gives 4194304 hosts, more than the limit of 2097152"},
		{"ring too many ports", Spec{Kind: "ring", Switches: 1024, Widths: []int{1 << 20}, HostsPerSwitch: 1}, "widths: radix 2097153 on 1024 switches gives 2147484672 ports, more than the limit of 8388608"},
		{"ring stray dims", Spec{Kind: "ring", Switches: 4, HostsPerSwitch: 1, Dims: []int{4}}, "dims: not used by topology ring (it uses switches, widths, hosts_per_switch)"},
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
