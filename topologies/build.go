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
const knownKinds = "flatfly, hyperx, crossbar, ring, file"

// Spec describes a topology as written in the [topology] section of an
// experiment file. A zero field means "not given"; Build rejects a field
// the chosen kind does not use, so a misplaced key cannot be silently
// ignored.
type Spec struct {
	// Kind is the family: "flatfly" (alias "hyperx"), "crossbar", "ring",
	// or "file" (a network read from a topology file). TOML key: kind.
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
	// Hosts is the number of hosts of a crossbar. TOML key: hosts.
	Hosts int
	// Switches is the number of switches of a ring. TOML key: switches.
	Switches int
	// Path is the topology file of kind "file", read as given (experiment
	// files resolve it relative to their own directory). TOML key: path.
	Path string
	// Format is the format of Path: FormatDot or FormatIBNetDiscover;
	// empty means FormatDot for a ".dot" file. TOML key: format.
	Format string
}

// Build builds the network s describes. Errors name the offending TOML key
// of the [topology] section and say what was expected.
func Build(s Spec) (*Network, error) {
	switch s.Kind {
	case "flatfly", "hyperx":
		return buildFlatFly(s)
	case "crossbar":
		return buildCrossbar(s)
	case "ring":
		return buildRing(s)
	case "file":
		return buildFile(s)
	case "":
		return nil, errors.New("kind: missing topology kind (known: " + knownKinds + ")")
	default:
		return nil, fmt.Errorf("kind: unknown topology %q (known: %s)", s.Kind, knownKinds)
	}
}
