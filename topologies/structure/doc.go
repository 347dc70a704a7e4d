// Package structure recovers the structure of a direct network from its
// link list alone, with the mapping algorithms of seed 004 §2: the
// coordinates of a FlatFly (HyperX, hypercube) and the groups of a
// Dragonfly.
//
// The input is a Graph: switches, the inter-switch links between them and,
// optionally, the hosts on each switch; no coordinates. Both mappings start
// from the equivalence relation ε on links of seed 004 §2.1 (see Links),
// computed with union-find. For a FlatFly every class of ε is a dimension
// and further relations ε_i give the coordinates (MapFlatFly); for a
// Dragonfly the classes of more than one edge are the local links of the
// groups (MapDragonfly).
//
// Faults are tolerated as the seed claims: switches and links may be
// missing. The recovered structure covers the surviving connected part of
// the network: the largest connected component of the graph (the first
// one in switch order on a tie). Switches outside it get no coordinates and
// no group, and their links no dimension.
package structure
