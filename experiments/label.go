package experiments

import (
	"fmt"
	"slices"
	"strings"

	"netsim/topologies"
)

// familyLabel returns the label of a network whose family has parameters
// other than dimension sizes and widths (see topologyLabel), from the
// specification it was built from; ok is false for other families.
func familyLabel(n *topologies.Network) (label string, ok bool) {
	var b strings.Builder
	b.WriteString(n.Kind)
	s := n.Spec
	switch n.Kind {
	case "hypercube":
		fmt.Fprintf(&b, " d%d w%d c%d", s.Dimension, s.Width, s.HostsPerSwitch)
	case "dragonfly":
		fmt.Fprintf(&b, " k%d g%d c%d %s", s.GroupSize, s.GlobalPerSwitch, s.HostsPerSwitch, s.Arrangement)
		if s.OmitOneGlobal != nil && *s.OmitOneGlobal {
			b.WriteString(" omit")
		}
	case "slimfly":
		fmt.Fprintf(&b, " q%d w%d c%d", s.Q, s.Width, s.HostsPerSwitch)
	case "product":
		b.WriteByte('[')
		for i, f := range s.Factors {
			if i > 0 {
				b.WriteString("; ")
			}
			fn := topologies.Network{Kind: f.Kind, Dims: f.Dims, Widths: f.Widths, Spec: f}
			if fn.Widths == nil && len(f.Dims) > 0 {
				fn.Widths = slices.Repeat([]int{1}, len(f.Dims))
			}
			b.WriteString(strings.TrimSuffix(topologyLabel(&fn), " c0"))
		}
		fmt.Fprintf(&b, "] c%d", s.HostsPerSwitch)
	case "kautz":
		fmt.Fprintf(&b, " b%d n%d c%d", s.B, s.N, s.HostsPerSwitch)
	case "random":
		fmt.Fprintf(&b, " s%d l%d c%d seed%d", s.Switches, s.Links, s.HostsPerSwitch, s.Seed)
		if s.Ports > 0 {
			fmt.Fprintf(&b, " p%d", s.Ports)
		}
	default:
		return "", false
	}
	return b.String(), true
}
