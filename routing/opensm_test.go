package routing

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"netsim/internal/ibsim"
	"netsim/topologies"
)

// opensmFabrics are the fabrics the tests run OpenSM on: a ring, a torus,
// a fat tree and a Deimos-like chain of boxes, each small enough for a
// second of ibsim.
var opensmFabrics = []struct {
	name string
	spec topologies.Spec
}{
	{"ring", topologies.Spec{Kind: "ring", Switches: 5, HostsPerSwitch: 2}},
	{"torus", topologies.Spec{Kind: "torus", Dims: []int{3, 4}, HostsPerSwitch: 2}},
	{"fattree", topologies.Spec{Kind: "fattree", K: 4, N: 2}},
	{"deimos", topologies.Spec{Kind: "deimos", Ports: 8, BoxHosts: []int{6, 4, 6}, ChainLinks: 2}},
}

// fabric is a running ibsim of a netsim network, with the network as
// ibnetdiscover reports it (GUIDs, LIDs and port numbers of the
// simulated fabric).
type fabric struct {
	*ibsim.Fabric
	net *topologies.Network
}

// startFabric starts ibsim on spec's network, discovers it with
// ibnetdiscover and stops ibsim, by its process id, when the test ends.
func startFabric(t *testing.T, spec topologies.Spec) fabric {
	t.Helper()
	built, err := topologies.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	return startNetFabric(t, built)
}

// startNetFabric is startFabric for a network built already.
func startNetFabric(t *testing.T, built *topologies.Network) fabric {
	t.Helper()
	f := ibsim.StartTest(t, built)
	// OpenSM first: ibnetdiscover lists LIDs only once a subnet manager
	// has given them.
	if _, err := f.OpenSM("minhop"); err != nil {
		t.Fatal(err)
	}
	out, err := f.Run("ibnetdiscover")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(f.Dir(), "fabric.ibnetdiscover")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	net, _, err := topologies.ReadIBNetDiscover(bytes.NewReader(out), file)
	if err != nil {
		t.Fatal(err)
	}
	if len(net.Switches) != len(built.Switches) || len(net.Hosts) != len(built.Hosts) {
		t.Fatalf("ibnetdiscover found %d switches and %d hosts, the fabric has %d and %d", len(net.Switches), len(net.Hosts), len(built.Switches), len(built.Hosts))
	}
	return fabric{f, net}
}

// readDump reads forwarding tables from text in file for f's network.
func (f fabric) readDump(t *testing.T, file string, text []byte) *Tables {
	t.Helper()
	tab, err := ReadLFT(bytes.NewReader(text), file, f.net, 1)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return tab
}

// opensmTables runs OpenSM once with engine and extra options on f and
// reads its opensm-lfts.dump onto f's network, unreachable pairs accepted
// (as some engines leave them).
func (f fabric) opensmTables(t *testing.T, engine string, extra ...string) *Tables {
	t.Helper()
	dumps, err := f.OpenSM(engine, extra...)
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(dumps, "opensm-lfts.dump"))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := readLFT(bytes.NewReader(text), "opensm-lfts.dump", f.net, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// sameEntries reports the first entries where a and b differ, nil when
// none does.
func sameEntries(net *topologies.Network, a, b *Tables) error {
	var diffs []string
	hasHosts := make([]bool, a.sws)
	for _, sw := range a.hostSw {
		hasHosts[sw] = true
	}
	for i := range a.lft {
		// Whether a switch reaches a host matters where packets start: at
		// switches with hosts (a switch on no host's path may differ).
		if ra, rb := reaches(a, i), reaches(b, i); ra != rb && hasHosts[i/a.hosts] {
			s, d := i/a.hosts, i%a.hosts
			diffs = append(diffs, fmt.Sprintf("switch %s to host %s: reaches it by one table (%v), not by the other", net.IB.Switches[s].GUID, net.IB.Hosts[d].Desc, ra))
			continue
		}
		if a.lft[i] != b.lft[i] && reaches(a, i) && reaches(b, i) {
			s, d := i/a.hosts, i%a.hosts
			diffs = append(diffs, fmt.Sprintf("switch %s to host %s (GUID %s): port %d against %d",
				net.IB.Switches[s].GUID, net.IB.Hosts[d].Desc, net.IB.Hosts[d].PortGUID, int(a.lft[i])+1, int(b.lft[i])+1))
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	return fmt.Errorf("%d of %d entries differ, first %v", len(diffs), len(a.lft), diffs[:min(len(diffs), 5)])
}

// reaches reports whether entry i (switch·hosts + host) of t leads to
// the host: its switch is not one that partial tables leave without a
// path (where any port, or none, is as good).
func reaches(t *Tables, i int) bool {
	return t.unreach == nil || t.unreach[i/64]&(1<<(i%64)) == 0
}

// TestOpenSMMinHop runs OpenSM's minhop on each fabric and reads its
// tables as every dump tool prints them — opensm-lfts.dump, opensm.fdbs,
// dump_lfts and dump_fts — onto the fabric as ibnetdiscover reports it,
// matched by GUID and LID; every dump gives the same tables, and netsim's
// minhop on the imported fabric gives them too, entry for entry.
func TestOpenSMMinHop(t *testing.T) {
	moved := 0 // fabrics where index order gives other tables
	for _, c := range opensmFabrics {
		t.Run(c.name, func(t *testing.T) {
			f := startFabric(t, c.spec)
			dumps, err := f.OpenSM("minhop")
			if err != nil {
				t.Fatal(err)
			}
			var tables []*Tables
			for _, name := range []string{"opensm-lfts.dump", "opensm.fdbs"} {
				file := filepath.Join(dumps, name)
				text, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				tables = append(tables, f.readDump(t, file, text))
			}
			for _, tool := range []string{"dump_lfts", "dump_fts"} {
				out, err := f.Run(tool)
				if err != nil {
					t.Fatal(err)
				}
				tables = append(tables, f.readDump(t, tool+" output", out))
			}
			for i, tab := range tables[1:] {
				if err := sameEntries(f.net, tables[0], tab); err != nil {
					t.Errorf("dump %d against opensm-lfts.dump: %v", i+1, err)
				}
			}
			own, err := newMinHop(f.net, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameEntries(f.net, tables[0], own); err != nil {
				t.Errorf("OpenSM's minhop against netsim's: %v", err)
			}
			// The same rule in index order: how many entries the order moves.
			plain := *f.net
			plain.IB = nil
			idx, err := newMinHop(&plain, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameEntries(f.net, tables[0], idx); err != nil {
				t.Logf("in index order: %v", err)
				moved++
			}
		})
	}
	if moved == 0 {
		t.Error("on no fabric does OpenSM's order of destinations matter: the test cannot tell it from index order")
	}
}

// TestOpenSMDor runs OpenSM's dor engine on each fabric and checks that
// netsim's dor on the imported fabric (no coordinates: the port-order dor)
// gives its tables entry for entry.
func TestOpenSMDor(t *testing.T) {
	for _, c := range opensmFabrics {
		t.Run(c.name, func(t *testing.T) {
			f := startFabric(t, c.spec)
			theirs := f.opensmTables(t, "dor")
			r, err := New(Spec{Algorithm: "dor", VLs: 1}, f.net)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameEntries(f.net, theirs, r.(*Tables)); err != nil {
				t.Errorf("OpenSM's dor against netsim's: %v", err)
			}
		})
	}
}

// TestOpenSMUpDownRoots runs OpenSM's updn with a root GUID file (-a) on
// each fabric, and netsim's updn with the same file on the imported
// fabric: both are deadlock-free on one VL, and netsim's tables are
// OpenSM's entry for entry where their up*/down* distances agree.
func TestOpenSMUpDownRoots(t *testing.T) {
	for _, c := range opensmFabrics {
		t.Run(c.name, func(t *testing.T) {
			f := startFabric(t, c.spec)
			// The roots: the last switch, or on the trees the top level.
			top := []int{len(f.net.Switches) - 1}
			if c.spec.Kind != "ring" && c.spec.Kind != "torus" {
				top = nil
				for s, sw := range f.net.Switches {
					hosts := 0
					for _, p := range sw.Ports {
						if p.Kind == topologies.HostPort {
							hosts++
						}
					}
					if hosts == 0 {
						top = append(top, s)
					}
				}
			}
			var roots bytes.Buffer
			for _, s := range top {
				fmt.Fprintf(&roots, "0x%s\n", f.net.IB.Switches[s].GUID)
			}
			file := filepath.Join(f.Dir(), "roots")
			if err := os.WriteFile(file, roots.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			theirs := f.opensmTables(t, "updn", "-a", file)
			ours, err := New(Spec{Algorithm: "updn", VLs: 1, Roots: file, Unreachable: UnreachableSkip}, f.net)
			if err != nil {
				t.Fatal(err)
			}
			for name, r := range map[string]Routing{"OpenSM's": theirs, "netsim's": ours} {
				rep, err := CheckDeadlock(context.Background(), r, f.net, CheckOptions{VLs: 1})
				if err != nil {
					t.Fatal(err)
				}
				if !rep.Acyclic() {
					t.Errorf("%s updn with roots %v: cycle %v", name, top, rep.Cycle)
				}
			}
			if err := sameEntries(f.net, theirs, ours.(*Tables)); err != nil {
				t.Errorf("OpenSM's updn against netsim's: %v", err)
			}
			for src := range f.net.Hosts {
				for dst := range f.net.Hosts {
					if a, b := theirs.Reachable(src, dst), ours.(Partial).Reachable(src, dst); a != b {
						t.Fatalf("host %d to host %d: reachable by OpenSM's tables %v, by netsim's %v", src, dst, a, b)
					}
				}
			}
			t.Logf("roots %v: %d pairs unreachable", top, theirs.UnreachablePairs())
		})
	}
}

// TestOpenSMDnUp runs OpenSM's dnup on each fabric and checks that
// netsim's dnup on the imported fabric gives its tables entry for entry,
// with the same pairs unreachable (the Deimos chain leaves some), and that
// netsim check finds them deadlock-free on the trees, cyclic on the ring
// and torus (every switch there has hosts, so dnup is minhop).
func TestOpenSMDnUp(t *testing.T) {
	for _, c := range opensmFabrics {
		t.Run(c.name, func(t *testing.T) {
			f := startFabric(t, c.spec)
			theirs := f.opensmTables(t, "dnup")
			r, err := New(Spec{Algorithm: "dnup", VLs: 1, Unreachable: UnreachableSkip}, f.net)
			if err != nil {
				t.Fatal(err)
			}
			ours := r.(*Tables)
			if err := sameEntries(f.net, theirs, ours); err != nil {
				t.Errorf("OpenSM's dnup against netsim's: %v", err)
			}
			for src := range f.net.Hosts {
				for dst := range f.net.Hosts {
					if a, b := theirs.Reachable(src, dst), ours.Reachable(src, dst); a != b {
						t.Fatalf("host %d to host %d: reachable by OpenSM's tables %v, by netsim's %v", src, dst, a, b)
					}
				}
			}
			for name, r := range map[string]Routing{"OpenSM's": theirs, "netsim's": ours} {
				rep, err := CheckDeadlock(context.Background(), r, f.net, CheckOptions{VLs: 1})
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s dnup: %d unreachable pairs, acyclic %v", name, r.(Partial).UnreachablePairs(), rep.Acyclic())
				// Where every switch has hosts (ring, torus) all have rank 0
				// and dnup is minhop; on the trees it is deadlock-free.
				if tree := c.name == "fattree" || c.name == "deimos"; rep.Acyclic() != tree {
					t.Errorf("%s dnup on a %s: acyclic %v, want %v", name, c.name, rep.Acyclic(), tree)
				}
			}
		})
	}
}

// minimal returns an error naming the first path of t longer than the
// shortest path between its switches.
func minimal(net *topologies.Network, t *Tables) error {
	g := newGraph(net)
	dist := make([]int32, g.n)
	var path []int32
	for d, a := range net.Hosts {
		g.bfs(int(a.Switch), dist, nil)
		for s := range g.n {
			var err error
			if path, err = t.Path(net, s, d, path[:0]); err != nil {
				return err
			}
			if len(path)-1 != int(dist[s]) {
				return fmt.Errorf("switch %d to host %d: %d hops, shortest %d", s, d, len(path)-1, dist[s])
			}
		}
	}
	return nil
}

// TestOpenSMFtree runs OpenSM's ftree on fat trees and checks netsim's
// ftree on the imported fabric (its levels detected from the graph, or
// the top switches given as OpenSM's -a): the same tables entry for entry
// on 2- and 3-level fat trees and XGFTs, one with leaves short of hosts
// (OpenSM's dummy targets), all minimal and deadlock-free on one VL.
func TestOpenSMFtree(t *testing.T) {
	for _, c := range []struct {
		name  string
		spec  topologies.Spec
		equal bool
	}{
		{"fattree 4-ary 2-tree", topologies.Spec{Kind: "fattree", K: 4, N: 2}, true},
		{"xgft(2;4,4;1,2)", topologies.Spec{Kind: "xgft", M: []int{4, 4}, W: []int{1, 2}}, true},
		{"fattree 4-ary 3-tree", topologies.Spec{Kind: "fattree", K: 4, N: 3}, true},
		{"xgft(3;2,3,2;1,2,3)", topologies.Spec{Kind: "xgft", M: []int{2, 3, 2}, W: []int{1, 2, 3}}, true},
		{"xgft(2;4,4;1,2) 25 hosts", topologies.Spec{Kind: "xgft", M: []int{4, 4}, W: []int{1, 2}, Hosts: 25}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := startFabric(t, c.spec)
			theirs := f.opensmTables(t, "ftree")
			r, err := New(Spec{Algorithm: "ftree", VLs: 1}, f.net)
			if err != nil {
				t.Fatal(err)
			}
			ours := r.(*Tables)
			// The same with the top switches given, as OpenSM's -a.
			var roots bytes.Buffer
			level := make([]int32, len(f.net.Switches))
			if why := detectTreeLevels(f.net, level); why != "" {
				t.Fatal(why)
			}
			for s, l := range level {
				if l == slices.Max(level) {
					fmt.Fprintf(&roots, "0x%s\n", f.net.IB.Switches[s].GUID)
				}
			}
			file := filepath.Join(f.Dir(), "roots")
			if err := os.WriteFile(file, roots.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			theirsRoots := f.opensmTables(t, "ftree", "-a", file)
			withRoots, err := New(Spec{Algorithm: "ftree", VLs: 1, Roots: file}, f.net)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameEntries(f.net, theirsRoots, withRoots.(*Tables)); c.equal && err != nil {
				t.Errorf("OpenSM's ftree -a against netsim's ftree with roots: %v", err)
			}
			err = sameEntries(f.net, theirs, ours)
			if c.equal && err != nil {
				t.Errorf("OpenSM's ftree against netsim's: %v", err)
			}
			t.Logf("OpenSM's ftree against netsim's: %v", err)
			for name, tab := range map[string]*Tables{"OpenSM's": theirs, "netsim's": ours} {
				if err := minimal(f.net, tab); err != nil {
					t.Errorf("%s ftree: %v", name, err)
				}
				rep, err := CheckDeadlock(context.Background(), tab, f.net, CheckOptions{VLs: 1})
				if err != nil {
					t.Fatal(err)
				}
				if !rep.Acyclic() {
					t.Errorf("%s ftree: cycle %v", name, rep.Cycle)
				}
			}
		})
	}
	// An imported network that is no fat tree is refused, saying why.
	f := startFabric(t, opensmFabrics[0].spec)
	if _, err := New(Spec{Algorithm: "ftree", VLs: 1}, f.net); err == nil || !strings.Contains(err.Error(), "linked but on the same level") {
		t.Errorf("ftree on a ring: %v", err)
	}
}

// TestOpenSMFtreeNodes runs OpenSM's ftree with compute node and I/O
// node lists: on a fat tree where three hosts are not compute nodes (a
// leaf short of compute nodes routes dummies; the others are routed after
// the compute nodes, one as an I/O node), and on a fat tree with an I/O
// node on a top switch, reached with one reverse hop (-H 1, roots given);
// netsim's ftree with the same lists gives the same tables.
func TestOpenSMFtreeNodes(t *testing.T) {
	ioOnTop := func() *topologies.Network {
		net, err := topologies.Build(topologies.Spec{Kind: "fattree", K: 4, N: 2})
		if err != nil {
			t.Fatal(err)
		}
		top := int32(0)
		for _, sw := range net.Switches {
			top = max(top, sw.Coord[0])
		}
		for s := range net.Switches {
			if net.Switches[s].Coord[0] == top {
				net.Hosts = append(net.Hosts, topologies.Host{Switch: int32(s), Port: int32(len(net.Switches[s].Ports))})
				net.Switches[s].Ports = append(net.Switches[s].Ports, topologies.Port{Kind: topologies.HostPort, Peer: int32(len(net.Hosts) - 1), Dim: -1})
				break
			}
		}
		net.HostsPerSwitch = 0
		if err := net.Validate(); err != nil {
			t.Fatal(err)
		}
		return net
	}
	for _, c := range []struct {
		name    string
		net     func() *topologies.Network
		notCN   []int // hosts that are not compute nodes, by index
		io      []int // of which I/O nodes
		reverse int
		roots   bool
	}{
		{"three non-CNs", func() *topologies.Network {
			net, err := topologies.Build(topologies.Spec{Kind: "fattree", K: 4, N: 2})
			if err != nil {
				t.Fatal(err)
			}
			return net
		}, []int{0, 1, 5}, []int{5}, 0, false},
		{"I/O node on a top switch", ioOnTop, []int{16}, []int{16}, 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			built := c.net()
			f := startNetFabric(t, built)
			// The imported host of each built one: by its description.
			_, builtNames := built.DisplayNames()
			byDesc := map[string]int{}
			for i, h := range f.net.IB.Hosts {
				byDesc[h.Desc] = i
			}
			imported := func(h int) int { return byDesc[builtNames[h]] }
			write := func(name string, hosts []int, except bool) string {
				var b bytes.Buffer
				skip := map[int]bool{}
				for _, h := range hosts {
					skip[h] = true
				}
				for h := range len(f.net.Hosts) {
					if skip[h] != except {
						fmt.Fprintf(&b, "0x%s\n", f.net.IB.Hosts[imported(h)].PortGUID)
					}
				}
				p := filepath.Join(f.Dir(), name)
				if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}
			cn, io := write("cn", c.notCN, true), write("io", c.io, false)
			args := []string{"--cn_guid_file", cn, "--io_guid_file", io, "--max_reverse_hops", fmt.Sprint(c.reverse)}
			spec := Spec{Algorithm: "ftree", VLs: 1, ComputeNodes: cn, IONodes: io, MaxReverseHops: c.reverse}
			if c.roots {
				// The top switches: farthest from the compute nodes' switches.
				var roots bytes.Buffer
				notCN := map[int]bool{}
				for _, h := range c.notCN {
					notCN[imported(h)] = true
				}
				var from []int
				for h, a := range f.net.Hosts {
					if !notCN[h] {
						from = append(from, int(a.Switch))
					}
				}
				dist := make([]int32, len(f.net.Switches))
				newGraph(f.net).bfsFrom(from, dist, nil)
				for s, d := range dist {
					if d == slices.Max(dist) {
						fmt.Fprintf(&roots, "0x%s\n", f.net.IB.Switches[s].GUID)
					}
				}
				file := filepath.Join(f.Dir(), "roots")
				if err := os.WriteFile(file, roots.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, "-a", file)
				spec.Roots = file
			}
			theirs := f.opensmTables(t, "ftree", args...)
			r, err := New(spec, f.net)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameEntries(f.net, theirs, r.(*Tables)); err != nil {
				t.Errorf("OpenSM's ftree against netsim's: %v", err)
			}
		})
	}
}

// TestOpenSMLMC reads the tables OpenSM's minhop writes with LMC 1 and 2
// (each CA port answers to 2 or 4 LIDs) onto the imported fabric: every
// LID of every host is reached from every switch, the routes of a fat
// tree's LIDs spread over its spines, the check over every route a
// dispersing NIC may take is acyclic on the fat tree.
func TestOpenSMLMC(t *testing.T) {
	for _, c := range []struct {
		spec topologies.Spec
		lmc  int
	}{{opensmFabrics[2].spec, 1}, {opensmFabrics[2].spec, 2}, {opensmFabrics[3].spec, 2}, {opensmFabrics[1].spec, 1}} {
		lmc := c.lmc
		t.Run(fmt.Sprint(c.spec.Kind, "/lmc", lmc), func(t *testing.T) {
			t.Parallel()
			built, err := topologies.Build(c.spec)
			if err != nil {
				t.Fatal(err)
			}
			fab := ibsim.StartTest(t, built)
			dumps, err := fab.OpenSM("minhop", "-l", fmt.Sprint(lmc))
			if err != nil {
				t.Fatal(err)
			}
			out, err := fab.Run("ibnetdiscover")
			if err != nil {
				t.Fatal(err)
			}
			net, _, err := topologies.ReadIBNetDiscover(bytes.NewReader(out), "fabric.ibnetdiscover")
			if err != nil {
				t.Fatal(err)
			}
			if net.IB.Hosts[0].LMC != lmc {
				t.Fatalf("ibnetdiscover gives LMC %d, want %d", net.IB.Hosts[0].LMC, lmc)
			}
			r, err := readTables(Spec{Path: filepath.Join(dumps, "opensm-lfts.dump")}, net, 1)
			if err != nil {
				t.Fatal(err)
			}
			mp, ok := r.(Multipath)
			if !ok || mp.Routes(0, 1) != 1<<lmc {
				t.Fatalf("tables with LMC %d: Multipath %v with %d routes, want %d", lmc, ok, mp.Routes(0, 1), 1<<lmc)
			}
			tab, _ := asTables(r)
			spread := 0 // pairs whose LIDs leave the source switch by different ports
			var buf []Candidate
			for src, a := range net.Hosts {
				for dst, b := range net.Hosts {
					if a.Switch == b.Switch {
						continue
					}
					ports := map[int32]bool{}
					for k := range mp.Routes(src, dst) {
						dlid, _, _ := mp.SourceRoute(src, dst, k)
						if buf = tab.Route(int(a.Switch), 0, 0, 0, dlid, buf[:0]); len(buf) != 1 {
							t.Fatalf("host %d to host %d, LID offset %d: no port at the source switch", src, dst, k)
						}
						ports[buf[0].Port] = true
					}
					if len(ports) > 1 {
						spread++
					}
				}
			}
			if spread == 0 && c.spec.Kind == "fattree" {
				t.Error("no pair's LIDs take different up ports: LMC gives no multipath")
			}
			rep, err := CheckDeadlock(context.Background(), r, net, CheckOptions{VLs: 1, AllRoutes: true})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Acyclic() && c.spec.Kind == "fattree" {
				t.Errorf("minhop with LMC %d on a fat tree: cycle %v", lmc, rep.Cycle)
			}
			t.Logf("LMC %d: %d of %d pairs spread over several up ports", lmc, spread, len(net.Hosts)*(len(net.Hosts)-1))

			// netsim's minhop, updn and dnup with the same LMC give OpenSM's
			// tables, every LID's entry.
			for _, engine := range []string{"minhop", "updn", "dnup"} {
				theirs := tab
				if engine != "minhop" {
					dumps, err := fab.OpenSM(engine, "-l", fmt.Sprint(lmc))
					var fallback *ibsim.FallbackError
					if errors.As(err, &fallback) {
						t.Logf("%s: %v", engine, err) // OpenSM finds no root of its own on this fabric
						continue
					}
					if err != nil {
						t.Fatal(err)
					}
					r, err := readTables(Spec{Path: filepath.Join(dumps, "opensm-lfts.dump"), Unreachable: UnreachableSkip}, net, 1)
					if err != nil {
						t.Fatal(err)
					}
					theirs, _ = asTables(r)
				}
				skip := map[bool]string{true: UnreachableSkip}[engine == "dnup"] // dnup on the Deimos chain leaves pairs unreachable
				own, err := New(Spec{Algorithm: engine, VLs: 1, LMC: lmc, Unreachable: skip}, net)
				if err != nil {
					t.Fatal(err)
				}
				ot, _ := asTables(own)
				for k := range 1 << lmc {
					a, b := *theirs, *ot
					a.lft, b.lft = theirs.entries(k), ot.entries(k)
					if err := sameEntries(net, &a, &b); err != nil {
						t.Errorf("%s, LID offset %d: %v", engine, k, err)
					}
				}
			}
		})
	}
}

// TestOpenSMTorus2QoS runs OpenSM's torus-2QoS on a 3×5 and a 4×4 torus
// (its torus-2QoS.conf seeded with the +x and +y links of the switch at
// the origin, and on the 4×4 the −x and −y too), reads its tables with
// the SLs of its path records and its SL2VL tables, and checks that
// netsim finds them deadlock-free, as torus-2QoS's datelines make them,
// while the same tables on one SL are cyclic on the ring of 5 (on rings
// of 4, OpenSM's ties going the direct way leave them acyclic); netsim's
// torus-2QoS, given the same torus-2QoS.conf, finds the same coordinates
// and gives the same tables, path SLs, VLs and SL2VL tables.
func TestOpenSMTorus2QoS(t *testing.T) {
	for _, dims := range [][]int{{3, 5}, {4, 4}} {
		t.Run(fmt.Sprint(dims), func(t *testing.T) {
			t.Parallel()
			testOpenSMTorus2QoS(t, dims)
		})
	}
}

func testOpenSMTorus2QoS(t *testing.T, dims []int) {
	spec := topologies.Spec{Kind: "torus", Dims: dims, HostsPerSwitch: 1}
	built, err := topologies.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	f := startFabric(t, spec)
	guidOf := func(coord ...int32) string { // the built switch at coord, by its name in the import
		names, _ := built.DisplayNames()
		for s, sw := range built.Switches {
			if slices.Equal(sw.Coord, coord) {
				for i, n := range f.net.IB.Switches {
					if n.Desc == names[s] {
						return "0x" + f.net.IB.Switches[i].GUID
					}
				}
			}
		}
		t.Fatalf("no switch at %v", coord)
		return ""
	}
	conf := filepath.Join(f.Dir(), "torus-2QoS.conf")
	text := fmt.Sprintf("torus %d %d 1\nxp_link %s %s\nyp_link %s %s\n", dims[0], dims[1], guidOf(0, 0), guidOf(1, 0), guidOf(0, 0), guidOf(0, 1))
	if dims[0] == 4 { // a ring of 4 needs both directions
		text += fmt.Sprintf("xm_link %s %s\nym_link %s %s\n", guidOf(0, 0), guidOf(3, 0), guidOf(0, 0), guidOf(0, 3))
	}
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	dumps := filepath.Join(f.Dir(), "daemon-torus-2QoS")
	if err := os.Mkdir(dumps, 0o755); err != nil {
		t.Fatal(err)
	}
	stop, err := f.Daemon("torus-2QoS", "-Q", "--torus_config", conf, "-D", "0x47", "--dump_files_dir", dumps)
	if err != nil {
		t.Fatal(err)
	}
	records, err := f.PathRecords(f.net)
	stop()
	if err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(filepath.Join(f.Dir(), "opensm-daemon-torus-2QoS.log"))
	if err != nil {
		t.Fatal(err)
	}
	if used := ibsim.Engine(log); used != "torus-2QoS" {
		t.Fatalf("OpenSM routed with %q, not torus-2QoS", used)
	}
	paths := filepath.Join(dumps, "paths.saquery")
	if err := os.WriteFile(paths, records, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := readTables(Spec{Path: filepath.Join(dumps, "opensm-lfts.dump"), PathSLs: paths, SL2VL: filepath.Join(dumps, "opensm-sl2vl.dump")}, f.net, 8)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := CheckDeadlock(context.Background(), r, f.net, CheckOptions{VLs: 8})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("torus-2QoS: %d layers, %d VLs, %d dependencies", Layers(r), r.VLs(), rep.Dependencies)
	if !rep.Acyclic() {
		t.Errorf("OpenSM's torus-2QoS with its SLs is reported cyclic: %v", rep.Cycle)
	}
	flat, err := readTables(Spec{Path: filepath.Join(dumps, "opensm-lfts.dump")}, f.net, 8)
	if err != nil {
		t.Fatal(err)
	}
	if rep, err = CheckDeadlock(context.Background(), flat, f.net, CheckOptions{VLs: 8}); err != nil || rep.Acyclic() != (dims[1] < 5) {
		t.Errorf("torus-2QoS's tables on one SL: acyclic %v, %v (want a cycle on a ring of 5: the torus needs its datelines)", rep != nil && rep.Acyclic(), err)
	}

	// netsim's torus-2QoS with the same torus-2QoS.conf gives OpenSM's
	// tables, path SLs and SL2VL tables.
	own, err := New(Spec{Algorithm: "torus-2QoS", VLs: 8, TorusConfig: conf}, f.net)
	if err != nil {
		t.Fatal(err)
	}
	ot, _ := asTables(own)
	dt, _ := asTables(r)
	if err := sameEntries(f.net, dt, ot); err != nil {
		t.Errorf("torus-2QoS: %v", err)
	}
	slDiffs := 0
	for src := range f.net.Hosts {
		for dst := range f.net.Hosts {
			_, sla, vla := dt.Source(src, dst)
			_, slb, vlb := ot.Source(src, dst)
			if (sla != slb || vla != vlb) && src != dst {
				if slDiffs++; slDiffs <= 3 {
					t.Errorf("path %s → %s: OpenSM's SL %d VL %d, netsim's SL %d VL %d", f.net.IB.Hosts[src].Desc, f.net.IB.Hosts[dst].Desc, sla, vla, slb, vlb)
				}
			}
		}
	}
	if !slices.Equal(dt.sl2vl.ca, ot.sl2vl.ca) {
		t.Errorf("host SL2VL tables differ: %v against %v", dt.sl2vl.ca[:16], ot.sl2vl.ca[:16])
	}

	for sw := range f.net.Switches {
		p := len(f.net.Switches[sw].Ports) + 1
		for in := range p {
			for out := range p {
				if !dt.sl2vl.seenSw[sw][in*p+out] {
					continue
				}
				for sl := range slsPerTable {
					if a, b := dt.sl2vl.Switch(sw, in, out, sl), ot.sl2vl.Switch(sw, in, out, sl); a != b {
						t.Fatalf("switch %s ports %d→%d SL %d: OpenSM's VL %d, netsim's %d", f.net.IB.Switches[sw].Desc, in, out, sl, a, b)
					}
				}
			}
		}
	}
	if rep, err := CheckDeadlock(context.Background(), own, f.net, CheckOptions{VLs: 8}); err != nil || !rep.Acyclic() {
		t.Errorf("netsim's torus-2QoS: acyclic %v, %v", rep != nil && rep.Acyclic(), err)
	}
}

// TestOpenSMCheck checks netsim's deadlock check on OpenSM's own tables,
// read from its dumps as a user would: minhop on a ring and a torus keeps
// every path on SL 0 and so VL 0, where its channel dependencies are
// cyclic, however many VLs the links have.
func TestOpenSMCheck(t *testing.T) {
	for _, c := range opensmFabrics[:2] {
		t.Run(c.name, func(t *testing.T) {
			f := startFabric(t, c.spec)
			dumps, err := f.OpenSM("minhop")
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dumps, "opensm-lfts.dump")
			for _, vls := range []int{1, 8} {
				tab, err := readTables(Spec{Path: file}, f.net, vls)
				if err != nil {
					t.Fatal(err)
				}
				rep, err := CheckDeadlock(context.Background(), tab, f.net, CheckOptions{VLs: vls})
				if err != nil {
					t.Fatal(err)
				}
				if rep.Acyclic() {
					t.Errorf("%d VLs: OpenSM's minhop on a %s is reported deadlock-free (OpenSM runs it on VL 0, where it is cyclic)", vls, c.name)
				}
			}
		})
	}
}

// TestOpenSMLayered runs OpenSM's deadlock-free engines with QoS on, reads
// their tables with the SLs of their path records and their SL2VL tables
// (OpenSM's dump and smpquery's, which must agree), and checks that netsim
// finds them deadlock-free as OpenSM means them to be; without the path
// SLs, the same tables on the ring are cyclic.
func TestOpenSMLayered(t *testing.T) {
	fabrics := []struct {
		name string
		spec topologies.Spec
	}{
		opensmFabrics[0], // two hosts a switch: DFSSSP gives them different SLs
		{"torus", topologies.Spec{Kind: "torus", Dims: []int{4, 3}, HostsPerSwitch: 1}},
	}
	for _, c := range fabrics {
		for _, engine := range []string{"dfsssp", "lash", "nue"} {
			t.Run(c.name+"/"+engine, func(t *testing.T) {
				t.Parallel()
				f := startFabric(t, c.spec)
				dumps := filepath.Join(f.Dir(), "daemon-"+engine)
				if err := os.Mkdir(dumps, 0o755); err != nil {
					t.Fatal(err)
				}
				stop, err := f.Daemon(engine, "-Q", "-D", "0x47", "--dump_files_dir", dumps)
				if err != nil {
					t.Fatal(err)
				}
				records, err := f.PathRecords(f.net)
				if err != nil {
					t.Fatal(err)
				}
				queried, err := f.SL2VL(f.net)
				stop()
				if err != nil {
					t.Fatal(err)
				}
				files := map[string][]byte{"paths.saquery": records, "sl2vl.smpquery": queried}
				for name, data := range files {
					if err := os.WriteFile(filepath.Join(dumps, name), data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				spec := Spec{Path: filepath.Join(dumps, "opensm-lfts.dump"), PathSLs: filepath.Join(dumps, "paths.saquery"),
					SL2VL: filepath.Join(dumps, "opensm-sl2vl.dump")}
				r, err := readTables(spec, f.net, 8)
				if err != nil {
					t.Fatal(err)
				}
				spec.SL2VL = filepath.Join(dumps, "sl2vl.smpquery")
				r2, err := readTables(spec, f.net, 8)
				if err != nil {
					t.Fatal(err)
				}
				tab, _ := asTables(r)
				tab2, _ := asTables(r2)
				if !slices.Equal(tab.sl2vl.ca, tab2.sl2vl.ca) || !slices.EqualFunc(tab.sl2vl.sw, tab2.sl2vl.sw, slices.Equal) {
					t.Error("opensm-sl2vl.dump and smpquery sl2vl give different SL2VL tables")
				}
				rep, err := CheckDeadlock(context.Background(), tab, f.net, CheckOptions{VLs: 8})
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: %d layers, %d VLs needed, %d dependencies", engine, tab.Layers(), tab.VLs(), rep.Dependencies)
				if !rep.Acyclic() {
					t.Errorf("OpenSM's %s with its SLs is reported cyclic: %v", engine, rep.Cycle)
				}
				if engine == "nue" {
					// netsim's nue on the import: deadlock-free on as many
					// VLs as OpenSM's used, its paths about as long.
					own, x, err := nueTables(f.net, tab.Layers())
					if err != nil {
						t.Fatal(err)
					}
					if rep, err := CheckDeadlock(context.Background(), own, f.net, CheckOptions{VLs: tab.Layers()}); err != nil || !rep.Acyclic() {
						t.Errorf("netsim's nue on %d VLs: acyclic %v, %v", tab.Layers(), rep != nil && rep.Acyclic(), err)
					}
					eo, so := extraHops(f.net, own)
					et, _ := extraHops(f.net, tab)
					t.Logf("nue on %d VLs: netsim's paths %d hops beyond the shortest %d (%d fallbacks), OpenSM's %d", tab.Layers(), eo, so, x.fallbacks, et)
					if eo > et+so/10 {
						t.Errorf("netsim's nue takes %d extra hops, OpenSM's %d (of %d)", eo, et, so)
					}
				}
				if c.name != "ring" || tab.Layers() == 1 {
					return // nue routes deadlock-free within 1 VL
				}
				spec.PathSLs, spec.SL2VL = "", ""
				flat, err := readTables(spec, f.net, 8)
				if err != nil {
					t.Fatal(err)
				}
				if rep, err = CheckDeadlock(context.Background(), flat, f.net, CheckOptions{VLs: 8}); err != nil {
					t.Fatal(err)
				}
				if rep.Acyclic() {
					t.Errorf("OpenSM's %s tables without their SLs are reported deadlock-free on a ring", engine)
				}
			})
		}
	}
}
