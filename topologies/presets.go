package topologies

import (
	"strings"

	"netsim/keyerr"
)

// Preset is a named topology: [topology] preset = "NAME" builds Spec, and
// keys given next to the preset replace its values (a preset scaled down
// for a quick run keeps the keys it does not replace).
type Preset struct {
	// Name is the value of the preset key.
	Name string
	// Doc says where the preset comes from, in a few words.
	Doc string
	// Spec is the topology the preset stands for.
	Spec Spec
}

// Presets returns the named presets, in a fixed order. The seed-004
// reference configuration (2,048 switches, C = 8, 16,384 hosts) comes in
// the seven topologies of its section 1; myrinet512 and deimos are the
// networks of seeds 001 and 000/002.
func Presets() []Preset {
	yes := true
	return []Preset{
		{"torus3d", "seed 004 §1.1: 3D torus 8×16×16, widths 3,5,5",
			Spec{Kind: "torus", Dims: []int{8, 16, 16}, Widths: []int{3, 5, 5}, HostsPerSwitch: 8}},
		{"torus4d", "seed 004 §1.1: 4D torus 4×8×8×8, widths 2,4,4,4",
			Spec{Kind: "torus", Dims: []int{4, 8, 8, 8}, Widths: []int{2, 4, 4, 4}, HostsPerSwitch: 8}},
		{"flatfly", "seed 004 §1.2: FlatFly 4×8×8×8, widths 2,1,1,1",
			Spec{Kind: "flatfly", Dims: []int{4, 8, 8, 8}, Widths: []int{2, 1, 1, 1}, HostsPerSwitch: 8}},
		{"hypercube", "seed 004 §1.3: 11-D hypercube, double links",
			Spec{Kind: "hypercube", Dimension: 11, Width: 2, HostsPerSwitch: 8}},
		{"dragonfly", "seed 004 §1.4: Dragonfly K = 16, G = 8, 128 groups (one global link omitted per group)",
			Spec{Kind: "dragonfly", GroupSize: 16, GlobalPerSwitch: 8, HostsPerSwitch: 8, OmitOneGlobal: &yes}},
		{"sfxff1", "seed 004 §1.5: Slim Fly q = 4, L = 2 × FlatFly 8×8",
			Spec{Kind: "product", HostsPerSwitch: 8, Factors: []Spec{
				{Kind: "slimfly", Q: 4, Width: 2},
				{Kind: "flatfly", Dims: []int{8, 8}, Widths: []int{1, 1}},
			}}},
		{"sfxff2", "seed 004 §1.5: Slim Fly q = 8, L = 1 × FlatFly 16",
			Spec{Kind: "product", HostsPerSwitch: 8, Factors: []Spec{
				{Kind: "slimfly", Q: 8, Width: 1},
				{Kind: "flatfly", Dims: []int{16}, Widths: []int{1}},
			}}},
		{"myrinet512", "seed 001: 512-host Myrinet Clos of 32-port crossbars (32 leaves with 16 hosts and 16 uplinks, 16 spines)",
			Spec{Kind: "clos", Ports: 32, Hosts: 512}},
		{"deimos", "seeds 000/002: three 288-port fat-tree switches of 24-port crossbars, chained by 30 links, 258/228/258 hosts",
			Spec{Kind: "deimos", Ports: 24, BoxHosts: []int{258, 228, 258}, ChainLinks: 30}},
	}
}

// expandPreset returns s with its preset's values filling the fields s
// does not give; s itself when it names no preset.
func expandPreset(s Spec) (Spec, error) {
	if s.Preset == "" {
		return s, nil
	}
	var names []string
	for _, p := range Presets() {
		names = append(names, p.Name)
		if p.Name != s.Preset {
			continue
		}
		if s.Kind != "" && s.Kind != p.Spec.Kind {
			return Spec{}, keyerr.New("kind", "preset %q is a %s topology, got kind %q (leave kind out, or give the same)",
				p.Name, p.Spec.Kind, s.Kind)
		}
		return overlay(p.Spec, s), nil
	}
	return Spec{}, keyerr.New("preset", "unknown preset %q (known: %s)", s.Preset, strings.Join(names, ", "))
}

// overlay returns base with every field given in top (non-zero) replacing
// base's.
func overlay(base, top Spec) Spec {
	out := base
	out.Preset = top.Preset
	set := func(dst *int, v int) {
		if v != 0 {
			*dst = v
		}
	}
	if top.Dims != nil {
		out.Dims = top.Dims
	}
	if top.Widths != nil {
		out.Widths = top.Widths
	}
	set(&out.HostsPerSwitch, top.HostsPerSwitch)
	set(&out.Hosts, top.Hosts)
	set(&out.Switches, top.Switches)
	set(&out.Dimension, top.Dimension)
	set(&out.Width, top.Width)
	set(&out.GroupSize, top.GroupSize)
	set(&out.GlobalPerSwitch, top.GlobalPerSwitch)
	if top.Arrangement != "" {
		out.Arrangement = top.Arrangement
	}
	if top.OmitOneGlobal != nil {
		out.OmitOneGlobal = top.OmitOneGlobal
	}
	set(&out.Q, top.Q)
	if top.Factors != nil {
		out.Factors = top.Factors
	}
	set(&out.B, top.B)
	set(&out.N, top.N)
	set(&out.Links, top.Links)
	set(&out.Ports, top.Ports)
	if top.Seed != 0 {
		out.Seed = top.Seed
	}
	set(&out.K, top.K)
	if top.M != nil {
		out.M = top.M
	}
	if top.W != nil {
		out.W = top.W
	}
	if top.Oversubscription != "" {
		out.Oversubscription = top.Oversubscription
	}
	if top.BoxHosts != nil {
		out.BoxHosts = top.BoxHosts
	}
	set(&out.ChainLinks, top.ChainLinks)
	if top.Path != "" {
		out.Path = top.Path
	}
	if top.Format != "" {
		out.Format = top.Format
	}
	return out
}
