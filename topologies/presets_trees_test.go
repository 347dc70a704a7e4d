package topologies

import (
	"reflect"
	"testing"
)

func TestTreePresets(t *testing.T) {
	tests := []struct {
		name     string
		spec     Spec
		resolved Spec
		same     func() (*Network, error)
	}{
		{"myrinet512", Spec{Preset: "myrinet512"}, Spec{Preset: "myrinet512", Kind: "clos", Ports: 32, Hosts: 512},
			func() (*Network, error) { return Clos(32, 512, "") }},
		{"myrinet512 with its kind", Spec{Preset: "myrinet512", Kind: "clos"}, Spec{Preset: "myrinet512", Kind: "clos", Ports: 32, Hosts: 512},
			func() (*Network, error) { return Clos(32, 512, "") }},
		{"myrinet512 scaled down", Spec{Preset: "myrinet512", Hosts: 128}, Spec{Preset: "myrinet512", Kind: "clos", Ports: 32, Hosts: 128},
			func() (*Network, error) { return Clos(32, 128, "") }},
		{"myrinet512 oversubscribed", Spec{Preset: "myrinet512", Hosts: 384, Oversubscription: "3:1"},
			Spec{Preset: "myrinet512", Kind: "clos", Ports: 32, Hosts: 384, Oversubscription: "3:1"},
			func() (*Network, error) { return Clos(32, 384, "3:1") }},
		{"deimos", Spec{Preset: "deimos"}, Spec{Preset: "deimos", Kind: "deimos", Ports: 24, BoxHosts: []int{258, 228, 258}, ChainLinks: 30},
			func() (*Network, error) { return Deimos(24, []int{258, 228, 258}, 30) }},
		{"deimos scaled down", Spec{Preset: "deimos", Ports: 8, BoxHosts: []int{28, 24, 28}, ChainLinks: 4},
			Spec{Preset: "deimos", Kind: "deimos", Ports: 8, BoxHosts: []int{28, 24, 28}, ChainLinks: 4},
			func() (*Network, error) { return Deimos(8, []int{28, 24, 28}, 4) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Build(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Spec, tc.resolved) {
				t.Errorf("Spec %+v, want %+v", got.Spec, tc.resolved)
			}
			want, err := tc.same()
			if err != nil {
				t.Fatal(err)
			}
			if got.Kind != want.Kind {
				t.Errorf("kind %q, want %q", got.Kind, want.Kind)
			}
			sameNetwork(t, got, want)
		})
	}
	// The full-size Deimos: 3 × (24 + 12) crossbars, 744 hosts.
	net, err := Build(Spec{Preset: "deimos"})
	if err != nil {
		t.Fatal(err)
	}
	if len(net.Switches) != 108 || len(net.Hosts) != 744 || net.Links() != 924 || net.Radix() != 24 {
		t.Errorf("deimos: %d switches %d hosts %d links radix %d, want 108, 744, 924, 24",
			len(net.Switches), len(net.Hosts), net.Links(), net.Radix())
	}
	// A spec without a preset is kept as given.
	net, err = Build(Spec{Kind: "fattree", K: 2, N: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(net.Spec, Spec{Kind: "fattree", K: 2, N: 2}) {
		t.Errorf("Spec %+v", net.Spec)
	}
}
