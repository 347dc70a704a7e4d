package routing

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"netsim/topologies"
)

// TestReadRoots reads root files by name and by GUID and checks the
// errors.
func TestReadRoots(t *testing.T) {
	ring, err := topologies.Build(topologies.Spec{Kind: "ring", Switches: 6, HostsPerSwitch: 1})
	if err != nil {
		t.Fatal(err)
	}
	ib, _ := readOpenSM2sw(t)
	for _, c := range []struct {
		name string
		net  *topologies.Network
		text string
		want []int
		err  string
	}{
		{"names", ring, "# roots\nS1\n\nS4  spine\n", []int{0, 3}, ""},
		{"guid", ib, "0x0000000000200001\n", []int{0}, ""}, // Switch2 is the file's first switch block
		{"unknown name", ring, "S9\n", nil, `r:1: switch "S9" is not in the network (expected a switch name or a node GUID 0x…)`},
		{"guid without GUIDs", ring, "0x10\n", nil, "r:1: switch GUID 0x0000000000000010 is not in the network (expected switch names: the topology has no GUIDs (an ibnetdiscover import has them))"},
		{"unknown guid", ib, "S-0000000000200000\n0x00000000002000ff\n", nil, "r:2: switch GUID 0x00000000002000ff is not in the network (expected a switch's node GUID in the topology file)"},
		{"bad guid", ib, "0xzz\n", nil, `r:1: bad GUID "0xzz" (expected 0x and at most 16 hexadecimal digits)`},
		{"twice", ring, "S2\nS2\n", nil, "r:2: switch S2 is listed twice (first at line 1)"},
		{"empty", ring, "# none\n", nil, "r: no root switches (expected one GUID or switch name a line)"},
	} {
		got, err := ReadRoots([]byte(c.text), "r", c.net)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%s: error %v, want %s", c.name, err, c.err)
			}
			continue
		}
		if err != nil || len(got) != len(c.want) || got[0] != c.want[0] || len(got) > 1 && got[1] != c.want[1] {
			t.Errorf("%s: %v, %v, want %v", c.name, got, err, c.want)
		}
	}
}

// TestUpDownRoots routes a ring and a torus by Up*/Down* from two adjacent roots:
// the tables reach every host and the routing is deadlock-free on one VL.
// Roots on opposite sides of a ring leave pairs without an up*/down* path:
// refused, or with unreachable = "skip" accepted as partial tables, still
// deadlock-free over the pairs they connect.
func TestUpDownRoots(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "roots")
	if err := os.WriteFile(file, []byte("S1\nS2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, spec := range []topologies.Spec{
		{Kind: "ring", Switches: 6, HostsPerSwitch: 2},
		{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 1},
	} {
		net, err := topologies.Build(spec)
		if err != nil {
			t.Fatal(err)
		}
		r, err := New(Spec{Algorithm: "updn", VLs: 1, Roots: file}, net)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := CheckDeadlock(context.Background(), r, net, CheckOptions{VLs: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Acyclic() {
			t.Errorf("%s: updn with roots S1, S2: cycle %v", spec.Kind, rep.Cycle)
		}
		auto, err := New(Spec{Algorithm: "updn", VLs: 1}, net)
		if err != nil {
			t.Fatal(err)
		}
		if same := slicesEqual(r.(*Tables).lft, auto.(*Tables).lft); same {
			t.Errorf("%s: the roots change nothing", spec.Kind)
		}
	}
	opposite := filepath.Join(dir, "opposite")
	if err := os.WriteFile(opposite, []byte("S1\nS4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ring, err := topologies.Build(topologies.Spec{Kind: "ring", Switches: 6, HostsPerSwitch: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(Spec{Algorithm: "updn", VLs: 1, Roots: opposite}, ring); err == nil || !strings.Contains(err.Error(), "has no up*/down* path") {
		t.Errorf("opposite roots: %v", err)
	}
	r, err := New(Spec{Algorithm: "updn", VLs: 1, Roots: opposite, Unreachable: UnreachableSkip}, ring)
	if err != nil {
		t.Fatal(err)
	}
	if pairs, ex := Unreachable(r, len(ring.Hosts), 2); pairs == 0 || len(ex) != 2 {
		t.Errorf("opposite roots with skip: %d unreachable pairs %v", pairs, ex)
	}
	if rep, err := CheckDeadlock(context.Background(), r, ring, CheckOptions{VLs: 1}); err != nil || !rep.Acyclic() {
		t.Errorf("opposite roots with skip: %v, %v", rep, err)
	}
	if _, err := New(Spec{Algorithm: "minhop", VLs: 1, Roots: file}, &topologies.Network{}); err == nil || !strings.Contains(err.Error(), `roots: only algorithms "updn", "ftree" and "dmodk" take root switches`) {
		t.Errorf("roots with minhop: %v", err)
	}
}

func slicesEqual(a, b []uint16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestTreeRoots routes a built fat tree by ftree and dmodk with its top
// switches given as roots: the same tables as from its own levels. Roots
// that make no fat tree of a ring are refused, saying why.
func TestTreeRoots(t *testing.T) {
	net, err := topologies.Build(topologies.Spec{Kind: "fattree", K: 4, N: 2})
	if err != nil {
		t.Fatal(err)
	}
	names, _ := net.DisplayNames()
	var roots strings.Builder
	for s, sw := range net.Switches {
		if sw.Coord[0] == 1 {
			roots.WriteString(names[s] + "\n")
		}
	}
	file := filepath.Join(t.TempDir(), "roots")
	if err := os.WriteFile(file, []byte(roots.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, alg := range []string{"ftree", "dmodk"} {
		own, err := New(Spec{Algorithm: alg, VLs: 1}, net)
		if err != nil {
			t.Fatal(err)
		}
		given, err := New(Spec{Algorithm: alg, VLs: 1, Roots: file}, net)
		if err != nil {
			t.Fatal(err)
		}
		if !slicesEqual(own.(*Tables).lft, given.(*Tables).lft) {
			t.Errorf("%s: the top switches as roots give other tables", alg)
		}
	}
	ring, err := topologies.Build(topologies.Spec{Kind: "ring", Switches: 4, HostsPerSwitch: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("S1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Spec{Algorithm: "ftree", VLs: 1, Roots: file}, ring); err == nil || !strings.Contains(err.Error(), "roots: routing ftree: the roots do not make the network a fat tree") {
		t.Errorf("ftree on a ring with roots: %v", err)
	}
}
