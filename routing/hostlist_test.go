package routing

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"netsim/topologies"
)

// TestReadHostList checks the compute and I/O node lists' errors, each
// naming the file and line.
func TestReadHostList(t *testing.T) {
	net := mustBuild(t, topologies.Spec{Kind: "fattree", K: 4, N: 2})
	for _, c := range []struct{ name, text, want string }{
		{"unknown host", "H1\nH99\n", `l.txt:2: host "H99" is not in the network`},
		{"repeated", "# compute nodes\nH1\n\nH1 again\n", "l.txt:4: host H1 is listed twice (first at line 2)"},
		{"bad GUID", "0xZZ\n", `l.txt:1: bad GUID "0xZZ"`},
		{"GUID without import", "0x0002c9030001d6b1\n", "port GUID 0x0002c9030001d6b1 is not in the network (expected host names: the topology has no GUIDs"},
		{"empty", "# nothing\n", "l.txt: no hosts"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadHostList([]byte(c.text), "l.txt", net)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
	marked, err := ReadHostList([]byte("H2 first\nH16\n"), "l.txt", net)
	if err != nil {
		t.Fatal(err)
	}
	if !marked[1] || !marked[15] || marked[0] {
		t.Errorf("marked %v, want hosts 1 and 15", marked)
	}
}

// TestFtreeComputeNodes routes ftree on built fat trees with compute node
// lists: every host is reached, the compute nodes' paths are minimal, the
// tables deadlock-free on one VL; the keys' misuse is an error naming it.
func TestFtreeComputeNodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	net := mustBuild(t, topologies.Spec{Kind: "xgft", M: []int{2, 3, 2}, W: []int{1, 2, 3}})
	_, names := net.DisplayNames()
	var cnText, ioText strings.Builder
	for h := range net.Hosts {
		if h%5 == 0 {
			ioText.WriteString(names[h] + "\n")
		} else {
			cnText.WriteString(names[h] + "\n")
		}
	}
	cn, io := write("cn", cnText.String()), write("io", ioText.String())
	r, err := New(Spec{Algorithm: "ftree", VLs: 1, ComputeNodes: cn, IONodes: io}, net)
	if err != nil {
		t.Fatal(err)
	}
	if err := minimal(net, r.(*Tables)); err != nil {
		t.Error(err)
	}
	rep, err := CheckDeadlock(context.Background(), r, net, CheckOptions{VLs: 1})
	if err != nil || !rep.Acyclic() {
		t.Errorf("ftree with compute nodes: acyclic %v, %v", rep != nil && rep.Acyclic(), err)
	}
	for _, c := range []struct {
		name string
		spec Spec
		want string
	}{
		{"io without cn", Spec{Algorithm: "ftree", VLs: 1, IONodes: io}, "io_nodes: needs compute_nodes"},
		{"reverse without io", Spec{Algorithm: "ftree", VLs: 1, ComputeNodes: cn, MaxReverseHops: 1}, "max_reverse_hops: applies to the routes to I/O nodes"},
		{"reverse too many", Spec{Algorithm: "ftree", VLs: 1, ComputeNodes: cn, IONodes: io, MaxReverseHops: 99}, "max_reverse_hops: 99 is outside 0 to 4"},
		{"cn on dmodk", Spec{Algorithm: "dmodk", VLs: 1, ComputeNodes: cn}, `compute_nodes: only algorithm "ftree"`},
		{"both lists", Spec{Algorithm: "ftree", VLs: 1, ComputeNodes: cn, IONodes: write("io2", names[1]+"\n")}, "io_nodes: host H2 is a compute node too"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := New(c.spec, net); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

// TestFtreeDepth: a fat tree deeper than OpenSM's switch indexes hold is
// refused, naming the limit.
func TestFtreeDepth(t *testing.T) {
	m, w := make([]int, 9), make([]int, 9)
	for i := range m {
		m[i], w[i] = 2, 1
	}
	net := mustBuild(t, topologies.Spec{Kind: "xgft", M: m, W: w})
	if _, err := New(Spec{Algorithm: "ftree", VLs: 1}, net); err == nil || !strings.Contains(err.Error(), "at most 8 levels") {
		t.Errorf("error %v, want the depth refused", err)
	}
}
