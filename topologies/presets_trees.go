package topologies

import "fmt"

// knownPresets lists the preset names resolvePreset accepts, for error
// messages.
const knownPresets = "myrinet512, deimos"

// presetSpec returns the parameters of the named preset:
//
//   - myrinet512: the 512-host Myrinet Clos of seed 001, 32-port crossbars
//     (32 leaves with 16 hosts and 16 uplinks, 16 spines);
//   - deimos: the Deimos chain of seeds 000/002, three 288-port fat-tree
//     switches of 24-port crossbars joined by 30 links each, with
//     258/228/258 hosts.
func presetSpec(name string) (Spec, bool) {
	switch name {
	case "myrinet512":
		return Spec{Kind: "clos", Ports: 32, Hosts: 512}, true
	case "deimos":
		return Spec{Kind: "deimos", Ports: 24, BoxHosts: []int{258, 228, 258}, ChainLinks: 30}, true
	}
	return Spec{}, false
}

// resolvePreset returns s with its preset's parameters in the fields s
// leaves zero, so explicit keys scale a preset down (preset = "myrinet512"
// with hosts = 128). A kind given with a preset must be the preset's.
func resolvePreset(s Spec) (Spec, error) {
	if s.Preset == "" {
		return s, nil
	}
	p, ok := presetSpec(s.Preset)
	if !ok {
		return Spec{}, fmt.Errorf("preset: unknown preset %q (known: %s)", s.Preset, knownPresets)
	}
	if s.Kind != "" && s.Kind != p.Kind {
		return Spec{}, fmt.Errorf("kind: %q conflicts with preset %q, a %s topology", s.Kind, s.Preset, p.Kind)
	}
	p.Preset = s.Preset
	setInts(&p.Dims, s.Dims)
	setInts(&p.Widths, s.Widths)
	setInts(&p.M, s.M)
	setInts(&p.W, s.W)
	setInts(&p.BoxHosts, s.BoxHosts)
	for _, f := range []struct{ dst, src *int }{
		{&p.HostsPerSwitch, &s.HostsPerSwitch}, {&p.Hosts, &s.Hosts}, {&p.Switches, &s.Switches},
		{&p.Ports, &s.Ports}, {&p.K, &s.K}, {&p.N, &s.N}, {&p.ChainLinks, &s.ChainLinks},
	} {
		if *f.src != 0 {
			*f.dst = *f.src
		}
	}
	if s.Oversubscription != "" {
		p.Oversubscription = s.Oversubscription
	}
	return p, nil
}

// setInts sets *dst to src when src is given (not nil).
func setInts(dst *[]int, src []int) {
	if src != nil {
		*dst = src
	}
}
