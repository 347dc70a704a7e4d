package topologies

import (
	"errors"

	"netsim/keyerr"
)

// Limits on the size of a network Build accepts. They are far above the
// networks the seed papers study (2,048 switches, 16,384 hosts) and keep a
// typo in an experiment file from exhausting memory.
const (
	// MaxSwitches bounds the number of switches.
	MaxSwitches = 1 << 18
	// MaxHosts bounds the number of hosts.
	MaxHosts = 1 << 21
	// MaxPorts bounds the total number of switch ports (host ports
	// included), about 128 MiB of Port values.
	MaxPorts = 1 << 23
	// MaxDims bounds the number of dimensions of coordinate families.
	MaxDims = 64
)

// knownKinds lists the kind values Build accepts, for error messages.
const knownKinds = "flatfly, hyperx, crossbar, ring, torus, hypercube, dragonfly, slimfly, product, kautz, random, clos, fattree, xgft, deimos, file"

// Spec describes a topology as written in the [topology] section of an
// experiment file. A zero field means "not given"; Build rejects a field
// the chosen kind does not use, so a misplaced key cannot be silently
// ignored.
type Spec struct {
	// Preset names a preset (see Presets) whose values fill every field
	// not given here. TOML key: preset.
	Preset string `toml:"preset"`
	// Kind is the family: "flatfly" (alias "hyperx"), "crossbar", "ring",
	// "torus", "hypercube", "dragonfly", "slimfly", "product", "kautz",
	// "random", "clos", "fattree", "xgft", "deimos", or "file" (a network
	// read from a topology file). TOML key: kind.
	Kind string `toml:"kind"`
	// Dims holds K_n, the size of each dimension (flatfly, torus). TOML
	// key: dims.
	Dims []int `toml:"dims"`
	// Widths holds L_n, the number of parallel links between two switches
	// adjacent in dimension n (flatfly, torus, ring); nil means 1 in every
	// dimension. TOML key: widths.
	Widths []int `toml:"widths"`
	// HostsPerSwitch is C, the number of hosts on each switch (every kind
	// but crossbar; in a product it applies to the product, not to the
	// factors). TOML key: hosts_per_switch.
	HostsPerSwitch int `toml:"hosts_per_switch"`
	// Hosts is the number of hosts of a crossbar or a Clos, or of an XGFT
	// whose level 0 is switches. TOML key: hosts.
	Hosts int `toml:"hosts"`
	// Switches is the number of switches of a ring or a random topology.
	// TOML key: switches.
	Switches int `toml:"switches"`
	// Path is the topology file of kind "file", read as given (experiment
	// files resolve it relative to their own directory). TOML key: path.
	Path string `toml:"path"`
	// Format is the format of Path: FormatDot or FormatIBNetDiscover;
	// empty means FormatDot for a ".dot" file. TOML key: format.
	Format string `toml:"format"`
	// Ports is the crossbar radix of a Clos or a Deimos chain, or the
	// bound on the ports of a random topology's switches (hosts included;
	// 0 means no bound). TOML key: ports.
	Ports int `toml:"ports"`
	// K and N give the k-ary n-tree (fattree); N is also the word
	// length n of a Kautz graph K(b, n). TOML keys: k, n.
	K int `toml:"k"`
	N int `toml:"n"`
	// M and W give XGFT(h; m_1…m_h; w_1…w_h). TOML keys: m, w.
	M []int `toml:"m"`
	W []int `toml:"w"`
	// Oversubscription is the ratio "D:U" of host ports to uplinks of a
	// leaf switch (clos, fattree); "" means "1:1". TOML key:
	// oversubscription.
	Oversubscription string `toml:"oversubscription"`
	// BoxHosts holds the hosts of each fat-tree switch of a Deimos chain.
	// TOML key: box_hosts.
	BoxHosts []int `toml:"box_hosts"`
	// ChainLinks is the number of links between consecutive boxes of a
	// Deimos chain. TOML key: chain_links.
	ChainLinks int `toml:"chain_links"`
	// Dimension is n, the dimension of a hypercube. TOML key: dimension.
	Dimension int `toml:"dimension"`
	// Width is L, the number of parallel links between adjacent switches
	// of a hypercube or a Slim Fly; 0 means 1. TOML key: width.
	Width int `toml:"width"`
	// GroupSize is K, the switches per Dragonfly group. TOML key:
	// group_size.
	GroupSize int `toml:"group_size"`
	// GlobalPerSwitch is G, the global links per Dragonfly switch. TOML
	// key: global_per_switch.
	GlobalPerSwitch int `toml:"global_per_switch"`
	// Arrangement is the Dragonfly global-link arrangement: "absolute"
	// (the default), "relative" or "palmtree". TOML key: arrangement.
	Arrangement string `toml:"arrangement"`
	// OmitOneGlobal selects the Dragonfly variant of seed 004 with K·G
	// groups, one global port per group left unused (nil: not given,
	// false). TOML key: omit_one_global.
	OmitOneGlobal *bool `toml:"omit_one_global"`
	// Q is the prime power q of a Slim Fly. TOML key: q.
	Q int `toml:"q"`
	// Factors lists the factors of a product (Slim Fly, FlatFly/HyperX or
	// hypercube specs, without hosts_per_switch). TOML key: factors, an
	// array of tables ([[topology.factors]]).
	Factors []Spec `toml:"factors"`
	// B is the degree b of a Kautz graph K(b, n). TOML key: b.
	B int `toml:"b"`
	// Links is the number of inter-switch links of a random topology.
	// TOML key: links.
	Links int `toml:"links"`
	// Seed seeds a random topology; 0 is a valid seed and the default.
	// TOML key: seed.
	Seed uint64 `toml:"seed"`
}

// Build builds the network s describes, after resolving its preset.
// Errors name the offending TOML key of the [topology] section and say
// what was expected. The network's Spec is the resolved s.
func Build(s Spec) (*Network, error) {
	orig, preset := s, s.Preset
	s, err := expandPreset(s)
	if err != nil {
		return nil, err
	}
	net, err := build(s)
	if err != nil {
		var ke *keyerr.Error
		if preset != "" && errors.As(err, &ke) && !anyKeyGiven(orig, ke.Key) {
			// The key at fault is one the file left to the preset.
			err = keyerr.Annotate(err, " (%s from preset %q)", ke.Key, preset)
		}
		return nil, err
	}
	net.Spec = withDefaults(s)
	return net, nil
}

// withDefaults returns s, built successfully, with the defaults of its
// kind's optional keys filled in, so that Network.Spec is explicit.
func withDefaults(s Spec) Spec {
	switch s.Kind {
	case "hypercube", "slimfly":
		s.Width = max(s.Width, 1)
	case "dragonfly":
		if s.Arrangement == "" {
			s.Arrangement = "absolute"
		}
		if s.OmitOneGlobal == nil {
			s.OmitOneGlobal = new(bool)
		}
	case "product":
		s.Factors = append([]Spec(nil), s.Factors...)
		for i := range s.Factors {
			s.Factors[i] = withDefaults(s.Factors[i])
		}
	}
	return s
}

// build dispatches on the kind of s, with any preset expanded.
func build(s Spec) (*Network, error) {
	switch s.Kind {
	case "flatfly", "hyperx":
		return buildFlatFly(s)
	case "crossbar":
		return buildCrossbar(s)
	case "ring":
		return buildRing(s)
	case "file":
		return buildFile(s)
	case "clos":
		return buildClos(s)
	case "fattree":
		return buildFatTree(s)
	case "xgft":
		return buildXGFT(s)
	case "deimos":
		return buildDeimos(s)
	case "torus":
		return buildTorus(s)
	case "hypercube":
		return buildHypercube(s)
	case "dragonfly":
		return buildDragonfly(s)
	case "slimfly":
		return buildSlimFly(s)
	case "product":
		return buildProduct(s)
	case "kautz":
		return buildKautz(s)
	case "random":
		return buildRandom(s)
	case "":
		return nil, keyerr.New("kind", "missing topology kind (known: %s)", knownKinds)
	default:
		return nil, keyerr.New("kind", "unknown topology %q (known: %s)", s.Kind, knownKinds)
	}
}
