package routing

import (
	"fmt"

	"netsim/keyerr"
	"netsim/topologies"
)

// engine returns the constructor of the table engine name, or nil when
// name is none of them:
//
//   - "minhop": newMinHop (min-hop, balanced per switch; 1 layer);
//   - "dor", on a topology without a dimension-order routing of its own:
//     newPortOrderDOR (OpenSM's dor: the lowest-numbered min-hop port);
//   - "updn": newUpDown (Up*/Down*, automatic root; deadlock-free on 1 VL);
//   - "ftree", "dmodk": newTreeRouting (tree families only);
//   - "sssp": newSSSP (P-SSSP of seed 000; 1 layer, not deadlock-free);
//   - "p2sssp": newP2SSSP (P²-SSSP, per pair, still one table per switch);
//   - "dfsssp": SSSP plus the offline layer assignment of seed 002 over at
//     most vls layers (cdg.dfLayers);
//   - "lash": minhop tables plus the online layer assignment of LASH
//     (cdg.lashLayers);
//   - "nue": Nue, routing on the complete channel dependency graph within
//     vls layers (newNue; deadlock-free on any network).
//
// Every engine checks that each switch reaches each host by its tables.
func engine(name string) func(*topologies.Network, int) (Routing, error) {
	var build func(*topologies.Network, int) (*Tables, error)
	switch name {
	case "minhop":
		build = newMinHop
	case "dor": // on a topology without a dor of its own
		build = newPortOrderDOR
	case "updn":
		build = newUpDown
	case "ftree", "dmodk":
		build = func(n *topologies.Network, vls int) (*Tables, error) { return newTreeRouting(name, n, vls) }
	case "sssp":
		build = func(n *topologies.Network, vls int) (*Tables, error) { return newSSSP(name, n, vls) }
	case "p2sssp":
		build = newP2SSSP
	case "dfsssp", "lash":
		build = func(n *topologies.Network, vls int) (*Tables, error) { return newLayered(name, n, vls) }
	case "nue":
		build = newNue
	default:
		return nil
	}
	return tableRouting(name, false, build)
}

// tableRouting returns the constructor of table engine name: it checks
// that net's tables fit, builds them, and checks that every switch reaches
// every host by them, or, with partial (an engine that leaves a pair
// without a path when it has none, [routing] unreachable = "skip"),
// records the pairs left unreachable (Partial).
func tableRouting(name string, partial bool, build func(*topologies.Network, int) (*Tables, error)) func(*topologies.Network, int) (Routing, error) {
	return func(n *topologies.Network, vls int) (Routing, error) {
		if err := tablesFit(name, n); err != nil {
			return nil, err
		}
		t, err := build(n, vls)
		if err != nil {
			return nil, err
		}
		if partial {
			err = checkFileTables(t, n, "routing "+name, true, func(int, int) int { return 0 })
			// The further LIDs (LMC) reach exactly the pairs the base LID does.
			for k := 1; k < t.paths && err == nil; k++ {
				view := *t
				view.lft, view.unreach = t.entries(k), nil
				if err = checkFileTables(&view, n, "routing "+name, true, func(int, int) int { return 0 }); err == nil && view.unreachPairs != t.unreachPairs {
					err = fmt.Errorf("routing %s: LID offset %d leaves %d pairs unreachable, the base LID %d", name, k, view.unreachPairs, t.unreachPairs)
				}
			}
		} else {
			for k := 0; k < t.paths && err == nil; k++ {
				view := *t
				view.lft = t.entries(k)
				if err = view.check(n); err != nil {
					err = keyerr.New("algorithm", "%w", err)
				}
			}
		}
		if err != nil {
			return nil, err
		}
		if t.paths > 1 {
			return lmcTables{t}, nil // several LIDs per host: a NIC chooses among them
		}
		return t, nil
	}
}

// lmcFits checks that tables with 2^lmc LIDs per host stay within
// MaxTableEntries.
func lmcFits(name string, net *topologies.Network, lmc int) error {
	if e := len(net.Switches) * len(net.Hosts) << lmc; e > MaxTableEntries {
		return keyerr.New("lmc", "routing %s with LMC %d keeps a table of switches × hosts × 2^LMC = %d entries, more than the limit of %d", name, lmc, e, MaxTableEntries)
	}
	return nil
}

// MaxTableEntries bounds switches × hosts of the table engines (two bytes
// per entry for the ports, one for the layers).
const MaxTableEntries = 1 << 28

// tablesFit checks that net's tables can be held: ports fit the entries
// and switches × hosts stay within MaxTableEntries.
func tablesFit(name string, net *topologies.Network) error {
	if e := len(net.Switches) * len(net.Hosts); e > MaxTableEntries {
		return keyerr.New("algorithm", "routing %s keeps a table of switches × hosts = %d entries, more than the limit of %d", name, e, MaxTableEntries)
	}
	if r := len(net.Hosts); r == 0 {
		return keyerr.New("algorithm", "routing %s: network has no hosts", name)
	}
	for s, sw := range net.Switches {
		if len(sw.Ports) >= noPort {
			return keyerr.New("algorithm", "routing %s: switch %d has %d ports, more than the %d a table entry holds", name, s, len(sw.Ports), noPort-1)
		}
	}
	return nil
}
