// Package structure recovers the structure of a direct network from its
// link list alone, with the mapping algorithms of seed 004 §2: the
// dimensions and coordinates of a FlatFly (HyperX, hypercube), MapFlatFly,
// and the groups of a Dragonfly, MapDragonfly. Detect tells which of the
// two families a network is, and maps it.
//
// The input is a Graph: switches, the inter-switch links between them and,
// optionally, the hosts on each switch; no coordinates. ReadLinkList reads
// one from a text file, FromNetwork takes one from a built network.
//
// Both mappings start from the seed's equivalence relation ε on links,
// built from four rules and closed transitively with union-find:
//
//  1. the two unidirectional links of one bidirectional link are
//     equivalent (a Link is bidirectional, so this holds by construction);
//  2. parallel links joining the same two switches are equivalent;
//  3. three links forming a triangle are equivalent (the seed's text says
//     "rectangle", but three links can only close a triangle, which in a
//     FlatFly lies inside one dimension);
//  4. when four links form a rectangle (a cycle through four switches),
//     opposite sides are equivalent.
//
// In a FlatFly every class of ε is a dimension, and for every dimension i
// the switches joined by links of the other dimensions share coordinate i.
// In a Dragonfly the seed takes the classes of more than one edge for the
// local links of the groups. Where faults or the Dragonfly's global links
// defeat the rules taken literally, MapFlatFly and MapDragonfly document
// the extra steps they take; MapDragonfly's last ones rejoin groups that
// faults split, within the invariants of the family (Dragonfly.Check)
// and by the likelihood of the grouping (DragonflyModel.Score).
//
// Faults are tolerated as the seed claims: switches and links may be
// missing. The recovered structure covers the surviving connected part of
// the network: the largest connected component of the graph (the first
// one in switch order on a tie). Switches outside it get no coordinates and
// no group, and their links no dimension.
package structure
