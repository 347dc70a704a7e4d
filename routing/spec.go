package routing

import (
	"errors"
	"fmt"

	"netsim/flowctl"
	"netsim/keyerr"
	"netsim/topologies"
)

// MaxReverseHops bounds Spec.MaxReverseHops: each reverse hop lets every
// route to an I/O node go down and up again from every switch it passes,
// so the work grows exponentially with them (OpenSM's users take 1 or 2).
const MaxReverseHops = 4

// MaxLMC bounds Spec.LMC: InfiniBand's LID mask count is 3 bits.
const MaxLMC = 7

// MaxVLs bounds Spec.VLs: the virtual lanes a link of the simulator has at
// most (InfiniBand links carry at most 15 data VLs).
const MaxVLs = flowctl.MaxVLs

// Spec describes a routing as written in the [routing] section of an
// experiment file.
type Spec struct {
	// Algorithm is the routing name, e.g. "dor". TOML key: algorithm.
	Algorithm string
	// VLs is the number of virtual lanes available on every link (at least
	// 1, at most MaxVLs). A routing uses at least its own VLs() of them and
	// may spread traffic over all of them. TOML key: vls.
	VLs int
	// Path is the file of forwarding tables of algorithm "file" (TOML key
	// path of [routing]); Format is its format, "lft" (OpenSM LFT dump or
	// ibroute output, see ReadLFT) or "dot" (ORCS dot with routing
	// comments), by default "dot" for a .dot file and "lft" otherwise (TOML
	// key format).
	Path, Format string
	// SL2VL is the file of the fabric's SL-to-VL tables for algorithm
	// "file" (ReadSL2VL; TOML key sl2vl), PathSLs the file of its path
	// records giving each path's SL (ReadPathSLs; TOML key path_sls).
	// Both need a topology imported from ibnetdiscover output.
	SL2VL, PathSLs string
	// Unreachable says what algorithm "file" (and "dnup", and "updn" with
	// roots) does with tables that leave pairs of hosts unconnected (a LID
	// without a port): UnreachableError
	// (the default, "") refuses them; UnreachableSkip accepts them
	// (Partial), and traffic and metrics are over the reachable pairs only.
	// TOML key: unreachable.
	Unreachable string
	// Roots is a file of root switches for algorithms "updn", "ftree" and
	// "dmodk" (ReadRoots: GUIDs as OpenSM's root_guid_file, or switch
	// names); empty: the automatic root, or the detected levels. TOML key:
	// roots.
	Roots string
	// TorusConfig is the torus-2QoS.conf of algorithm "torus-2QoS"
	// (ReadTorusConf: sizes, seed links, datelines), needed on a network
	// without torus coordinates. TOML key: torus_config.
	TorusConfig string
	// ComputeNodes and IONodes are files of hosts for algorithm "ftree"
	// (ReadHostList), as OpenSM's ftree takes them (-u cn_guid_file, -G
	// io_guid_file): only the compute nodes are routed as the fat tree's
	// leaves' hosts, the others afterwards; an I/O node's routes may take
	// MaxReverseHops reverse hops (OpenSM's -H max_reverse_hops). TOML
	// keys: compute_nodes, io_nodes, max_reverse_hops.
	ComputeNodes, IONodes string
	MaxReverseHops        int
	// LMC gives each host 2^LMC LIDs (InfiniBand's LID mask count, as
	// OpenSM's -l), 0 to MaxLMC: algorithms "minhop", "updn" and "dnup"
	// route each LID as OpenSM does (lmcChoice), and the routing is a
	// Multipath whose routes a NIC chooses among ([nic] dispersion). 0: one
	// LID. TOML key: lmc.
	LMC int
	// Classes builds the routing for dynamic VL choice (Classes): with
	// the VLs its deadlock argument needs, Routing.VLs() of them, as its
	// VL classes, instead of spreading over copies of its VL layout when
	// VLs is more. TOML key: vl_choice = "dynamic" in [switch].
	Classes bool
}

// Values of Spec.Unreachable.
const (
	UnreachableError = "error"
	UnreachableSkip  = "skip"
)

// New returns the routing s names for net. Errors name the offending TOML
// key of the [routing] section (algorithm, vls) and say what was expected;
// a network that does not have the structure the routing relies on is
// reported as such. New never keeps a reference to net: the routing copies
// the tables it needs, is read-only afterwards, and may be shared by
// concurrent simulations.
//
// Algorithms by topology kind:
//
//   - flatfly (hyperx): "dor", dimension-order routing (seed 004 §3.3).
//     At a switch, take the lowest dimension n in which its coordinate
//     differs from the destination switch's; the candidates are all
//     widths[n] parallel ports to the neighbour that has the destination's
//     coordinate in dimension n, all High priority (the switch picks among
//     them by congestion). At the destination switch the candidate is the
//     destination host's port. A packet crosses at most one link per
//     dimension, so one VL suffices.
//   - flatfly (hyperx) and product (Slim Fly × FlatFly, seed 004 §1.5):
//     the DOR family of seed 004 §3.3, "dor", "mixed-dor", "twisted-dor",
//     "twisted-mixed-dor", "ador", "mixed-ador", "twisted-ador",
//     "twisted-mixed-ador"; see "The DOR family" below. On a flatfly,
//     "dor" is the routing described here.
//   - hypercube: "dor", the FlatFly's (a hypercube is the FlatFly
//     2 × … × 2): correct the differing bits from the lowest dimension up.
//   - hypercube: "mixed-dor" (seed 004 §3.3–3.4), DOR in one of k
//     dimension orders picked by the VL: the seed's SL = d mod 4, d the
//     destination's index within its switch. For 4 dimensions the orders
//     are the seed's (1,2,3,4), (2,4,1,3), (3,1,4,2), (4,3,2,1); for N
//     dimensions the first k = min(N, 4) orders of dimOrders (a Latin
//     square; order 0 ascending). It needs k VLs: VL = order +
//     k·copy, order = d mod k, copy = ⌊d/k⌋ mod ⌊V/k⌋, constant along the
//     path; each VL is DOR in a fixed order, hence deadlock-free.
//   - hypercube: the turn-model routings of seed 004 §3.4 (Glass and Ni).
//     A link from coordinate 1 to 0 is negative, from 0 to 1 positive; the
//     seed's dimension 1 is dimension 0 here. "negative-first": every
//     negative dimension, then every positive one; "abo-negative-first":
//     the negative dimensions but dimension 0, then all others;
//     "abo-positive-last": the negative dimensions and dimension 0, then
//     the positive ones. Within a phase the routing is fully adaptive: all
//     parallel ports of every dimension of the phase are High candidates.
//     They need one VL (their turn restrictions break every cycle; proofs
//     on type cube) and use VL d mod V like dor.
//   - torus, ring: "dor", dimension-order routing with datelines decided
//     at the source and kept in the SL (seed 004 §3.2). Each dimension is
//     corrected the shorter way round over all L_n parallel ports of that
//     direction (High); a tie (distance K/2) goes +1 from an even
//     coordinate and −1 from an odd one; with K = 2 all 2·L_n ports to
//     the one neighbour are candidates. Each of the D dimensions of size
//     K ≥ 4 has a bit in a mask set when the path crosses that
//     dimension's dateline (the wrap-around link); the source puts it in
//     the SL, SL = mask + 2^D·copy, and a hop in dimension n takes VL
//     2·copy + bit n of the mask (SL2VL), copy = d mod min(16/2^D, ⌊V/2⌋).
//     It needs 2 VLs (1 when D = 0) and 2^D ≤ 16 SLs, so at most 4 such
//     dimensions (more are an error naming algorithm), and is
//     deadlock-free: within one VL, a ring's packets either all cross its
//     dateline or none does, so the ring's dependencies never close
//     (proof on type torusDOR); sizes K ≤ 3 take at most one hop.
//   - crossbar: "dor", the single hop to the destination host's port.
//   - dragonfly: "static" (local, global, local hop; seed 004 §3.5) on 2
//     VLs, and the adaptive family "S", "D", "SD", "G", "GS", "GI", "GD",
//     "GSI", "GID", "GSD", "GSID" (G: an extra global hop through an
//     intermediate group; S, I, D: an extra local hop in the source,
//     intermediate, destination group) on 6 VLs; see dragonflyStatic and
//     dragonflyAdaptive for the VL rules and the deadlock-freedom proofs.
//     Both read the groups from Switch.Coord = [group, index] and the
//     gateways from the links, so they work with every arrangement and
//     with omit_one_global.
//   - slimfly: "minimal", all shortest paths from the algebra of seed 004
//     §3.6 on 2 VLs (VL 0 on the first hop, VL 1 on the second); see
//     slimFlyMinimal.
//   - clos, fattree, xgft: "source", up*/down* source routing over all
//     shortest routes, the route carried in the DLID (seed 001 §3); see
//     sourceRoute and Multipath.
//   - ring: "dor-nodateline", minimal routing around the ring (the shorter
//     direction; a tie goes the +1 way) over all parallel ports, with no
//     dateline VLs. Its channel-dependency graph has a cycle, so it can
//     deadlock: it exists to exercise deadlock detection, not to be used.
//
// VLs: dor on flatfly, hypercube and crossbar and dor-nodateline need one
// VL (VLs() = 1) and use all s.VLs they are given.
// The source sets DLID = destination host and VL = (destination's local
// index within its switch) mod s.VLs; the VL never changes along the path
// (OutVL returns inVL). Each VL is then a copy of the single-VL routing, so
// dor stays deadlock-free, and traffic spreads over every configured VL
// (the same rule seed 004 uses to pick a dimension order in Mixed DOR).
//
// The DOR family. A product is treated as a FlatFly whose dimensions are
// the product's (Network.Dims; a Slim Fly factor is one dimension whose
// graph is the Slim Fly, of diameter 2, every other dimension a complete
// graph). Write x and y for the current and the destination switch, d for
// the destination's index within its switch, and "the current dimension"
// for the first dimension of the packet's order in which x and y differ.
//
//   - dor: the ports to every neighbour in the current dimension that is
//     closer to y's coordinate, High: in a FlatFly dimension the one
//     neighbour with y's coordinate; in a Slim Fly dimension its minimal
//     route of at most 2 hops (breadth-first distances over the Slim Fly),
//     all minimal next hops offered.
//   - ador: also one extra hop per dimension. On the first hop in the
//     current dimension (the packet came from a host or another dimension)
//     the candidates add, Medium, every neighbour in the dimension that is
//     as far from y's coordinate but one hop from it: in a FlatFly
//     dimension every other switch of the dimension, in a Slim Fly one the
//     common neighbours when y's coordinate is adjacent. A packet that came
//     in the current dimension takes the minimal hop. So a path makes at
//     most 2 hops per dimension. The seed's two priorities (minimal high,
//     non-minimal low) become High and Medium: an extra hop keeps the
//     distance (it is sideways in the terms of the distance routings).
//     The seed's forwarding rules 3 and 4 ("input VL 0: all switches in the
//     current dimension; input VL 1: shortest route") cannot tell a packet
//     that just made its extra hop (input VL 0) from one that changed
//     dimension, and read literally allow three hops in a dimension and
//     cycles among VL 1 channels; the input port's dimension, which the VL
//     map uses anyway, makes the rule exact.
//   - mixed-: the packet's order is order d mod M of the M = N orders of
//     dimOrders for N dimensions (a Latin square, row-complete for even
//     N): for 4 dimensions the seed's (1,2,3,4), (2,4,1,3), (3,1,4,2),
//     (4,3,2,1) chosen by d mod 4.
//   - twisted-: at the source switch (the packet came from a host), the
//     one candidate is the hop in the twist dimension L to the switch
//     with coordinate d mod K_L there (none if that is x's own, or x = y).
//     L is the order's last dimension (the seed's), or on a product whose
//     order ends in the Slim Fly its last FlatFly dimension (of K > 1),
//     which keeps the twist hop off the Slim Fly's links and so within
//     2 VLs per order; only a product without such a dimension twists in
//     the Slim Fly, to entry d mod (deg + 1) of x's coordinate and its
//     neighbours', in increasing order. The priority of the twist hop
//     says whether it approaches y (High), keeps the distance (Medium) or
//     moves away (Low). Then the packet is routed as by the untwisted
//     variant, except that twisted ADOR takes no extra hop in L. Taken
//     literally the rule sends all packets to one local index through one
//     plane of L (with mixed also one order): on a 2×4×4×4 FlatFly with
//     C = 4 its uniform channel-load bound is 50 % (twisted-dor) and 29 %
//     (twisted-mixed-dor), against 100 % for dor.
//
// VLs (seed 004 §3.3, as the VL map of §3.1): VL = P·k + l, with k the
// packet's class, set at the source and never changed, and l its local
// VL: l = 0 on the first hop in a dimension (input port a host or another
// dimension), l = 1 on the second hop in the same dimension (an ADOR extra
// hop's successor, or a Slim Fly minimal route's second hop), and l = T on
// a hop from a host in L (the twist hop, or the first DOR hop when no twist
// was needed) in the twisted variants, whose next hop takes l = 0 ("proceed
// with DOR using VL 0"). T = 1 when L is a FlatFly dimension in every
// order (T shares l = 1: no second hop in one dimension ever uses L's links),
// else T = 2. P is the largest l + 1, M the number of orders (1 unless
// mixed), and the routing needs VLs() = M·P: dor 1 on a FlatFly, 2 on a
// product with a Slim Fly; ador, twisted-dor and twisted-ador 2 (3 on a
// product that twists in the Slim Fly); the mixed variants M times as many
// (seed 004: 4-D FlatFly mixed-dor 4, mixed-ador and twisted-mixed-ador 8,
// "2SL or 2SL+1"; SF×FF-1, 3 dimensions, 6). With V configured VLs the routing uses c = ⌊V/(M·P)⌋ copies of
// this layout (at least 1): the classes are k = 0 … M·c−1, k = d mod M·c,
// and class k takes order k mod M, which is still d mod M.
//
// Deadlock freedom. Within one class rank a channel (a link of dimension
// n with local VL l ≠ T) by 2·(position of n in the class's order) + l.
// A path visits its dimensions in the order and never returns to one
// (later hops keep earlier coordinates); within a dimension it makes at
// most 2 hops, the first with l = 0 and the second with l = 1, and the
// next dimension's first hop has l = 0 at a higher position: every channel
// dependency goes to a strictly higher rank, so the channel dependency
// graph restricted to non-twist channels is acyclic. Twist channels (l = T
// on L's links; with T = 1 those links carry l = 1 for no other hop, since
// L gets at most one hop after the twist) are entered only from hosts, so
// no cycle passes through them. Classes use disjoint VLs. Paths end within
// the sum over dimensions of the hops allowed in each (dor: the distance;
// ador: 2 per dimension; twisted: one more).
//
// Every topology kind also accepts the table engines of seeds 000 and 002
// (destination-based forwarding tables, see Tables and engine): "minhop",
// "updn", "dnup", "sssp", "p2sssp", "dfsssp", "lash", "nue"; the tree families (clos,
// fattree, xgft) also "ftree" and "dmodk"; tori and rings, and any fabric
// with s.TorusConfig, also OpenSM's "torus-2QoS" (newTorus2QoS). "file"
// reads such tables from s.Path (see Spec.Format).
//
// Every topology kind (including kinds added later) also accepts the
// topology-agnostic Distance Based routings of seed 004 §3.7: "distance"
// (fully adaptive minimal), "distance+E" (up to E ≥ 0 extra hops) and
// "deflection+E" (E ≥ 2, extra hops may also move away from the
// destination). With V = s.VLs, D the switch distance between source and
// destination (breadth-first over switch links; all parallel links usable)
// and d the remaining distance at the current switch:
//
//   - the source sets DLID = destination host and VL = (D + E) mod V (the
//     seed has V = 8);
//   - every switch-to-switch hop decrements the VL mod V (OutVL), the link
//     to the destination host keeps it;
//   - with out = (inVL − 1) mod V, a port to a switch at distance dp is a
//     candidate of High priority if dp < d, Medium if dp = d ≤ out, and
//     (deflection only) Low if d < dp ≤ out; at the destination switch the
//     candidate is the host's port.
//
// Every path ends at the destination within D + E hops, whatever V: the
// VL never exceeds the hops the packet may still take. The routings are
// deadlock-free when D + E ≤ V for every pair of switches, i.e. diameter +
// E ≤ V: the switch-to-switch hops of a path then use VLs D+E−1, …, 0 in
// strictly decreasing order, so the channel dependency graph over (link,
// VL) is acyclic (the injection link's VL, 0 when D + E = V, has no
// dependency into it). When D + E > V the VL wraps from 0 to V−1 along the
// path, which closes dependency cycles, and the routing can deadlock
// (with V = 1 "distance" is plain minimal adaptive routing on one VL); the
// wrapped VL also caps the extra hops, so paths only get more minimal.
// These routings accept any V ≥ 1; VLs() returns the VLs they use,
// min(V, diameter + E + 1).
// They keep an n×n byte table of switch distances, so networks of more
// than MaxDistanceSwitches switches, of a switch diameter above
// MaxDistanceDiameter, or disconnected are rejected.
func New(s Spec, net *topologies.Network) (Routing, error) {
	if net == nil {
		return nil, errors.New("routing: no network to route on")
	}
	if s.VLs < 1 {
		return nil, keyerr.New("vls", "need at least 1 virtual lane, got %d", s.VLs)
	}
	if s.VLs > MaxVLs {
		return nil, keyerr.New("vls", "%d exceeds the limit of %d virtual lanes", s.VLs, MaxVLs)
	}
	construct, err := constructor(s, net.Kind)
	if err != nil {
		return nil, err
	}
	if err := net.Validate(); err != nil {
		return nil, fmt.Errorf("routing %s: %w", s.Algorithm, err)
	}
	r, err := construct(net, s.VLs)
	if err != nil {
		return nil, err
	}
	if need := r.VLs(); s.VLs < need {
		return nil, keyerr.New("vls", "routing %s needs at least %d virtual lanes, got %d", r.Name(), need, s.VLs)
	} else if s.Classes && need < s.VLs {
		// Built again on its own VLs: every routing's layout depends on
		// the VLs it is given only through the copies it makes.
		if r, err = construct(net, need); err != nil {
			return nil, err
		}
		if r.VLs() != need {
			return nil, fmt.Errorf("routing %s: needs %d VLs when built with %d, but %d when built with %d", r.Name(), need, s.VLs, r.VLs(), need)
		}
	}
	if sls := r.SLs(); sls < 1 || sls > MaxSLs {
		return nil, keyerr.New("algorithm", "routing %s uses %d service levels, InfiniBand has 1 to %d", r.Name(), sls, MaxSLs)
	}
	return r, nil
}

// checkKeys checks that every key s sets belongs to its algorithm, so
// that none is silently ignored, and that the numbers are in range.
func checkKeys(s Spec) error {
	file := s.Algorithm == "file"
	if (s.Path != "" || s.Format != "") && !file {
		return keyerr.New("path", "only algorithm \"file\" reads tables from a file, algorithm is %q", s.Algorithm)
	}
	if s.Unreachable != "" && s.Unreachable != UnreachableError && s.Algorithm != "file" && s.Algorithm != "dnup" && (s.Algorithm != "updn" || s.Roots == "") {
		return keyerr.New("unreachable", "only algorithms \"file\", \"dnup\" and \"updn\" with roots may leave pairs unreachable; algorithm is %q", s.Algorithm)
	}
	if s.Roots != "" && s.Algorithm != "updn" && s.Algorithm != "ftree" && s.Algorithm != "dmodk" {
		return keyerr.New("roots", "only algorithms \"updn\", \"ftree\" and \"dmodk\" take root switches, algorithm is %q", s.Algorithm)
	}
	if s.LMC < 0 || s.LMC > MaxLMC {
		return keyerr.New("lmc", "%d is outside 0 to %d (InfiniBand's LID mask count)", s.LMC, MaxLMC)
	}
	if s.LMC > 0 && s.Algorithm != "minhop" && s.Algorithm != "updn" && s.Algorithm != "dnup" {
		return keyerr.New("lmc", "only algorithms \"minhop\", \"updn\" and \"dnup\" route several LIDs per host (with algorithm \"file\" the tables' own LIDs do), algorithm is %q", s.Algorithm)
	}
	if (s.ComputeNodes != "" || s.IONodes != "" || s.MaxReverseHops != 0) && s.Algorithm != "ftree" {
		key := "compute_nodes"
		switch {
		case s.ComputeNodes != "":
		case s.IONodes != "":
			key = "io_nodes"
		default:
			key = "max_reverse_hops"
		}
		return keyerr.New(key, "only algorithm \"ftree\" takes compute and I/O node lists, algorithm is %q", s.Algorithm)
	}
	if s.IONodes != "" && s.ComputeNodes == "" {
		return keyerr.New("io_nodes", "needs compute_nodes: OpenSM's ftree consults the I/O node list only for the hosts that are not compute nodes")
	}
	if s.MaxReverseHops < 0 || s.MaxReverseHops > MaxReverseHops {
		return keyerr.New("max_reverse_hops", "%d is outside 0 to %d", s.MaxReverseHops, MaxReverseHops)
	}
	if s.MaxReverseHops > 0 && s.IONodes == "" {
		return keyerr.New("max_reverse_hops", "applies to the routes to I/O nodes: give io_nodes")
	}
	if s.TorusConfig != "" && s.Algorithm != "torus-2QoS" {
		return keyerr.New("torus_config", "only algorithm \"torus-2QoS\" reads a torus-2QoS.conf, algorithm is %q", s.Algorithm)
	}
	if (s.SL2VL != "" || s.PathSLs != "") && s.Algorithm != "file" {
		return keyerr.New("sl2vl", "only algorithm \"file\" reads SL2VL tables and path records, algorithm is %q", s.Algorithm)
	}
	return nil
}

// constructor returns the constructor of the routing s names for topology
// kind, or an error naming the algorithm.
func constructor(s Spec, kind string) (func(*topologies.Network, int) (Routing, error), error) {
	if err := checkKeys(s); err != nil {
		return nil, err
	}
	switch kind {
	case "flatfly", "hyperx", "hypercube":
		if s.Algorithm == "dor" {
			return func(n *topologies.Network, vls int) (Routing, error) { return newFlatFlyDOR(n, vls) }, nil
		}
		if mode, ok := cubeModeOf(s.Algorithm); ok && kind == "hypercube" {
			return func(n *topologies.Network, vls int) (Routing, error) { return newCube(n, vls, s.Algorithm, mode) }, nil
		}
		if _, ok := dorVariantOf(s.Algorithm); ok && kind != "hypercube" {
			return func(n *topologies.Network, vls int) (Routing, error) { return newDORFamily(s.Algorithm, n, vls) }, nil
		}
	case "product":
		if _, ok := dorVariantOf(s.Algorithm); ok {
			return func(n *topologies.Network, vls int) (Routing, error) { return newDORFamily(s.Algorithm, n, vls) }, nil
		}
	case "torus":
		if s.Algorithm == "dor" {
			return func(n *topologies.Network, vls int) (Routing, error) { return newTorusDOR(n, vls) }, nil
		}
	case "crossbar":
		if s.Algorithm == "dor" {
			return func(n *topologies.Network, vls int) (Routing, error) { return newCrossbarDOR(n, vls) }, nil
		}
	case "ring":
		if s.Algorithm == "dor" {
			return func(n *topologies.Network, vls int) (Routing, error) { return newTorusDOR(n, vls) }, nil
		}
		if s.Algorithm == "dor-nodateline" {
			return func(n *topologies.Network, vls int) (Routing, error) { return newRingNoDateline(n, vls) }, nil
		}
	case "dragonfly":
		if s.Algorithm == "static" {
			return func(n *topologies.Network, vls int) (Routing, error) { return newDragonflyStatic(n, vls) }, nil
		}
		if _, _, _, _, ok := dragonflyLetters(s.Algorithm); ok {
			return func(n *topologies.Network, vls int) (Routing, error) {
				return newDragonflyAdaptive(n, vls, s.Algorithm)
			}, nil
		}
	case "clos", "fattree", "xgft":
		if s.Algorithm == "source" {
			return func(n *topologies.Network, vls int) (Routing, error) { return newSourceRoute(n, vls) }, nil
		}
	case "slimfly":
		if s.Algorithm == "minimal" {
			return func(n *topologies.Network, vls int) (Routing, error) { return newSlimFlyMinimal(n, vls) }, nil
		}
	}
	if s.Algorithm == "file" {
		return func(n *topologies.Network, vls int) (Routing, error) { return readTables(s, n, vls) }, nil
	}
	if s.LMC > 0 && s.Algorithm == "minhop" {
		return tableRouting("minhop", false, func(n *topologies.Network, vls int) (*Tables, error) { return newMinHopLMC(n, vls, s.LMC) }), nil
	}
	if s.LMC > 0 && s.Algorithm == "updn" && s.Roots == "" {
		return tableRouting("updn", false, func(n *topologies.Network, vls int) (*Tables, error) { return newUpDownLMC(n, vls, s.LMC) }), nil
	}
	if s.Algorithm == "ftree" && (s.ComputeNodes != "" || s.Roots != "") {
		return tableRouting("ftree", false, func(n *topologies.Network, vls int) (*Tables, error) {
			var roots []int
			var err error
			if s.Roots != "" {
				if roots, err = readRootsFile(s.Roots, n); err != nil {
					return nil, err
				}
			}
			opt := ftreeOptions{maxReverseHops: s.MaxReverseHops}
			if s.ComputeNodes != "" {
				if opt.cn, err = readHostListFile("compute_nodes", s.ComputeNodes, n); err != nil {
					return nil, err
				}
			}
			if s.IONodes != "" {
				if opt.io, err = readHostListFile("io_nodes", s.IONodes, n); err != nil {
					return nil, err
				}
				for h, io := range opt.io {
					if io && opt.cn[h] {
						return nil, keyerr.New("io_nodes", "host %s is a compute node too (%s lists it)", n.HostLabel(h), s.ComputeNodes)
					}
				}
			}
			return newTreeRoutingOpt("ftree", n, vls, roots, opt)
		}), nil
	}
	partial := s.Unreachable == UnreachableSkip
	switch {
	case s.Algorithm == "torus-2QoS":
		return tableRouting(s.Algorithm, false, func(n *topologies.Network, vls int) (*Tables, error) { return newTorus2QoS(n, vls, s.TorusConfig) }), nil
	case s.Algorithm == "dnup":
		return tableRouting("dnup", partial, func(n *topologies.Network, vls int) (*Tables, error) { return newDnUp(n, vls, partial, s.LMC) }), nil
	case s.Roots != "":
		return tableRouting(s.Algorithm, partial, func(n *topologies.Network, vls int) (*Tables, error) {
			roots, err := readRootsFile(s.Roots, n)
			if err != nil {
				return nil, err
			}
			if s.Algorithm == "updn" {
				return newUpDownRoots(n, vls, roots, partial, s.LMC)
			}
			return newTreeRoutingRoots(s.Algorithm, n, vls, roots)
		}), nil
	}
	if build := engine(s.Algorithm); build != nil {
		return build, nil
	}
	extra, deflect, ok, err := parseDistance(s.Algorithm)
	if err != nil {
		return nil, err
	}
	if ok {
		return func(n *topologies.Network, vls int) (Routing, error) { return newDistance(n, vls, extra, deflect) }, nil
	}
	if s.Algorithm == "" {
		return nil, keyerr.New("algorithm", "missing routing name for topology %s (known: %s)", kind, knownAlgorithms(kind))
	}
	return nil, keyerr.New("algorithm", "unknown routing %q for topology %s (known: %s)", s.Algorithm, kind, knownAlgorithms(kind))
}

// anyAlgorithms lists, for error messages, the algorithms New accepts on
// every topology kind.
const anyAlgorithms = "distance, distance+E, deflection+E, minhop, updn, dnup, sssp, p2sssp, dfsssp, lash, nue, torus-2QoS, file"

// portOrderDOR is what knownAlgorithms adds for the kinds whose "dor" is
// OpenSM's port-order dor engine.
const portOrderDOR = "dor, "

// knownAlgorithms lists, for error messages, the algorithms New accepts on
// a topology kind.
func knownAlgorithms(kind string) string {
	switch kind {
	case "flatfly", "hyperx", "product":
		return dorFamilyNames + ", " + anyAlgorithms
	case "crossbar", "torus":
		return "dor, " + anyAlgorithms
	case "hypercube":
		return "dor, mixed-dor, negative-first, abo-negative-first, abo-positive-last, " + anyAlgorithms
	case "ring":
		return "dor, dor-nodateline, " + anyAlgorithms
	case "dragonfly":
		return "static, " + dragonflyAdaptiveNames + ", " + portOrderDOR + anyAlgorithms
	case "slimfly":
		return "minimal, " + portOrderDOR + anyAlgorithms
	case "clos", "fattree", "xgft":
		return "source, ftree, dmodk, " + portOrderDOR + anyAlgorithms
	default:
		return portOrderDOR + anyAlgorithms
	}
}
