package topologies

import (
	"errors"
	"fmt"
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
const knownKinds = "flatfly, hyperx, crossbar, ring, clos, fattree, xgft, deimos, file"

// Spec describes a topology as written in the [topology] section of an
// experiment file. A zero field means "not given"; Build rejects a field
// the chosen kind does not use, so a misplaced key cannot be silently
// ignored.
type Spec struct {
	// Preset names a preset whose parameters fill the fields left zero
	// (see presetSpec). TOML key: preset.
	Preset string
	// Kind is the family: "flatfly" (alias "hyperx"), "crossbar", "ring",
	// "clos", "fattree", "xgft", "deimos", or "file" (a network read from
	// a topology file). TOML key: kind.
	Kind string
	// Dims holds K_n, the size of each dimension (flatfly). TOML key: dims.
	Dims []int
	// Widths holds L_n, the number of parallel links between two switches
	// adjacent in dimension n (flatfly, ring); nil means 1 in every
	// dimension. TOML key: widths.
	Widths []int
	// HostsPerSwitch is C, the number of hosts on each switch (flatfly,
	// ring). TOML key: hosts_per_switch.
	HostsPerSwitch int
	// Hosts is the number of hosts of a crossbar or a Clos, or of an XGFT
	// whose level 0 is switches. TOML key: hosts.
	Hosts int
	// Switches is the number of switches of a ring. TOML key: switches.
	Switches int
	// Path is the topology file of kind "file", read as given (experiment
	// files resolve it relative to their own directory). TOML key: path.
	Path string
	// Format is the format of Path: FormatDot or FormatIBNetDiscover;
	// empty means FormatDot for a ".dot" file. TOML key: format.
	Format string
	// Ports is the crossbar radix of a Clos or a Deimos chain. TOML key:
	// ports.
	Ports int
	// K and N give the k-ary n-tree (fattree). TOML keys: k, n.
	K, N int
	// M and W give XGFT(h; m_1…m_h; w_1…w_h). TOML keys: m, w.
	M, W []int
	// Oversubscription is the ratio "D:U" of host ports to uplinks of a
	// leaf switch (clos, fattree); "" means "1:1". TOML key:
	// oversubscription.
	Oversubscription string
	// BoxHosts holds the hosts of each fat-tree switch of a Deimos chain.
	// TOML key: box_hosts.
	BoxHosts []int
	// ChainLinks is the number of links between consecutive boxes of a
	// Deimos chain. TOML key: chain_links.
	ChainLinks int
}

// Build builds the network s describes, after resolving its preset.
// Errors name the offending TOML key of the [topology] section and say
// what was expected. The network's Spec is the resolved s.
func Build(s Spec) (*Network, error) {
	s, err := resolvePreset(s)
	if err != nil {
		return nil, err
	}
	net, err := build(s)
	if err != nil {
		return nil, err
	}
	net.Spec = s
	return net, nil
}

// build builds the network of a resolved s.
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
	case "":
		return nil, errors.New("kind: missing topology kind (known: " + knownKinds + ")")
	default:
		return nil, fmt.Errorf("kind: unknown topology %q (known: %s)", s.Kind, knownKinds)
	}
}
