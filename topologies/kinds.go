package topologies

import "strings"

// Kinds returns the values of Spec.Kind that Build accepts, in the order
// of the reference (hyperx is an alias of flatfly).
func Kinds() []string { return strings.Split(knownKinds, ", ") }
