package topologies

import (
	"math"
	"reflect"
	"slices"
	"testing"
)

// TestPresetsSeed004 checks every preset against seed 004 §1: 2,048
// switches, 16,384 hosts, the radix (used ports), the relative bisection
// and, unless -short, the diameter.
func TestPresetsSeed004(t *testing.T) {
	tests := []struct {
		name      string
		radix     int
		diameter  int
		bisection float64
	}{
		{"torus3d", 34, 20, 0.15625},
		{"torus4d", 36, 14, 0.25},
		{"flatfly", 35, 4, 0.5},
		{"hypercube", 30, 11, 0.25},
		{"dragonfly", 31, 3, 0.5}, // the seed's text says 30; its formula C + G + K − 1 gives 31
		{"sfxff1", 34, 4, 0.5},
		{"sfxff2", 35, 3, 0.5},
	}
	var names []string
	for _, p := range Presets() {
		names = append(names, p.Name)
	}
	for i, tc := range tests {
		if i >= len(names) || names[i] != tc.name {
			t.Fatalf("presets %v, want %s at %d", names, tc.name, i)
		}
		t.Run(tc.name, func(t *testing.T) {
			net, err := Build(Spec{Preset: tc.name})
			if err != nil {
				t.Fatal(err)
			}
			if err := net.Validate(); err != nil {
				t.Fatal(err)
			}
			if len(net.Switches) != 2048 || len(net.Hosts) != 16384 || net.HostsPerSwitch != 8 {
				t.Errorf("%d switches, %d hosts, C = %d; want 2048, 16384, 8", len(net.Switches), len(net.Hosts), net.HostsPerSwitch)
			}
			if got := net.Radix(); got != tc.radix {
				t.Errorf("radix %d, want %d", got, tc.radix)
			}
			if math.Abs(net.Bisection-tc.bisection) > 1e-12 {
				t.Errorf("bisection %v, want %v", net.Bisection, tc.bisection)
			}
			if net.Spec.Preset != tc.name || net.Spec.Kind != net.Kind {
				t.Errorf("Spec.Preset %q Spec.Kind %q, want %q and %q", net.Spec.Preset, net.Spec.Kind, tc.name, net.Kind)
			}
			if testing.Short() {
				return
			}
			if got := diameter(t, net); got != tc.diameter {
				t.Errorf("diameter %d, want %d", got, tc.diameter)
			}
		})
	}
	// The seed-004 presets come first, then the networks of other seeds
	// (tested with their families).
	if want := []string{"myrinet512", "deimos"}; !slices.Equal(names[len(tests):], want) {
		t.Errorf("presets %v, want the seven of seed 004 then %v", names, want)
	}
}

func TestPresetScaledDown(t *testing.T) {
	no := false
	tests := []struct {
		spec                   Spec
		kind                   string
		switches, hosts, radix int
	}{
		{Spec{Preset: "torus3d", Dims: []int{4, 4, 4}}, "torus", 64, 512, 34},
		{Spec{Preset: "torus3d", Kind: "torus", Dims: []int{4, 4}, Widths: []int{1, 1}, HostsPerSwitch: 2}, "torus", 16, 32, 6},
		{Spec{Preset: "flatfly", Dims: []int{4, 4, 2, 2}}, "flatfly", 64, 512, 8 + 6 + 3 + 1 + 1},
		{Spec{Preset: "hypercube", Dimension: 4}, "hypercube", 16, 128, 16},
		{Spec{Preset: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2}, "dragonfly", 32, 256, 8 + 3 + 2},
		{Spec{Preset: "dragonfly", GroupSize: 4, GlobalPerSwitch: 2, OmitOneGlobal: &no, HostsPerSwitch: 1}, "dragonfly", 36, 36, 1 + 3 + 2},
		{Spec{Preset: "sfxff1", HostsPerSwitch: 2, Factors: []Spec{{Kind: "slimfly", Q: 3}, {Kind: "flatfly", Dims: []int{2}}}}, "product", 36, 72, 2 + 5 + 1},
	}
	for _, tc := range tests {
		net, err := Build(tc.spec)
		if err != nil {
			t.Fatalf("%+v: %v", tc.spec, err)
		}
		if net.Kind != tc.kind || len(net.Switches) != tc.switches || len(net.Hosts) != tc.hosts || net.Radix() != tc.radix {
			t.Errorf("preset %s scaled: %s, %d switches, %d hosts, radix %d; want %s %d %d %d", tc.spec.Preset,
				net.Kind, len(net.Switches), len(net.Hosts), net.Radix(), tc.kind, tc.switches, tc.hosts, tc.radix)
		}
	}
}

// TestOverlayCoversEverySpecField sets every field of a Spec by reflection
// and checks that overlay copies each one but Kind over a preset: a field
// added to Spec but not to overlay fails here.
func TestOverlayCoversEverySpecField(t *testing.T) {
	var top Spec
	v := reflect.ValueOf(&top).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Int:
			f.SetInt(int64(i + 2))
		case reflect.Uint64:
			f.SetUint(uint64(i + 2))
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		default:
			t.Fatalf("field %s has kind %s: extend this test", v.Type().Field(i).Name, f.Kind())
		}
	}
	for _, p := range Presets() {
		want := top
		want.Kind = p.Spec.Kind // expandPreset checks that a given kind matches
		if got := overlay(p.Spec, top); !reflect.DeepEqual(got, want) {
			t.Fatalf("overlay on %s loses fields:\n got %+v\nwant %+v", p.Name, got, want)
		}
		if got := overlay(p.Spec, Spec{Preset: p.Name}); !reflect.DeepEqual(got, withPreset(p.Spec, p.Name)) {
			t.Fatalf("overlay of nothing on %s changes it: %+v", p.Name, got)
		}
	}
}

func withPreset(s Spec, name string) Spec {
	s.Preset = name
	return s
}

func TestPresetsAreValidAndDistinct(t *testing.T) {
	seen := make(map[string]bool)
	for _, p := range Presets() {
		if p.Name == "" || p.Doc == "" || seen[p.Name] || p.Spec.Preset != "" {
			t.Errorf("preset %+v: empty name or doc, repeated, or naming another preset", p)
		}
		seen[p.Name] = true
	}
	if !slices.Equal(Presets()[0].Spec.Dims, []int{8, 16, 16}) {
		t.Error("Presets shares its slices between calls")
	}
	Presets()[0].Spec.Dims[0] = 99
	if Presets()[0].Spec.Dims[0] != 8 {
		t.Error("a caller can change the presets")
	}
}

// BenchmarkBuildPresets builds every preset; the largest must take well
// under 2 s (issue 3).
func BenchmarkBuildPresets(b *testing.B) {
	for _, p := range Presets() {
		b.Run(p.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Build(Spec{Preset: p.Name}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
