package topologies

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuildFile(t *testing.T) {
	dir := t.TempDir()
	ff, err := FlatFly([]int{4, 2}, []int{1, 3}, 3)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteDot(&b, ff, nil); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dot := write("ff.dot", b.String())
	upper := write("FF.DOT", b.String())
	noExt := write("ff", b.String())

	for _, s := range []Spec{
		{Kind: "file", Path: dot},
		{Kind: "file", Path: upper},
		{Kind: "file", Path: noExt, Format: "dot"},
	} {
		net, err := Build(s)
		if err != nil {
			t.Fatalf("%+v: %v", s, err)
		}
		sameGraph(t, ff, net)
		if net.Kind != "file" || net.HostsPerSwitch != 3 || net.Names.Switches[7] != "S8" {
			t.Errorf("%+v: kind %q C %d names %v", s, net.Kind, net.HostsPerSwitch, net.Names)
		}
	}
	net, err := Build(Spec{Kind: "file", Path: samplePath, Format: "ibnetdiscover"})
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, readSample(t), net)

	bad := write("bad.dot", "digraph {\n\"S1\" -> \"H1\"\n")
	apart := write("apart.dot", "digraph {\n\"S1\" -> \"H1\" [srcport=1];\n\"H1\" -> \"S1\" [dstport=1];\n\"S2\" -> \"H2\" [srcport=1];\n\"H2\" -> \"S2\" [dstport=1];\n}\n")
	stray := write("stray.dot", "digraph {\n\"S1\" -> \"H1\" [srcport=1];\n\"H1\" -> \"S1\" [dstport=1];\ngarbage here\n}\n")
	tests := []struct {
		spec Spec
		want string
	}{
		{Spec{Kind: "file"}, "path: missing (expected the topology file"},
		{Spec{Kind: "file", Path: samplePath}, `path: cannot tell the format of "testdata/fabric.ibnetdiscover" from its extension (expected a .dot file, or the key format = "dot" or "ibnetdiscover")`},
		{Spec{Kind: "file", Path: dot, Format: "xml"}, `format: unknown format "xml"`},
		{Spec{Kind: "file", Path: filepath.Join(dir, "none.dot")}, "path: cannot read the topology file: open " + filepath.Join(dir, "none.dot")},
		{Spec{Kind: "file", Path: bad}, "path: " + bad + ":3: expected '}' to close the digraph opened on line 1"},
		{Spec{Kind: "file", Path: dot, Format: "ibnetdiscover"}, "path: " + dot + ":1: expected a node header"},
		{Spec{Kind: "file", Path: apart}, "path: " + apart + `: the network is disconnected: switch "S1" cannot reach switch "S2" (expected every switch to reach every other)`},
		{Spec{Kind: "file", Path: stray}, "path: " + stray + `: the network is disconnected: switch "S1" cannot reach switch "garbage", which has no links at all`},
		{Spec{Kind: "file", Path: dot, Dims: []int{2}}, "dims: not used by topology file (it uses path, format)"},
		{Spec{Kind: "crossbar", Hosts: 2, Path: dot}, "path: not used by topology crossbar (it uses hosts)"},
		{Spec{Kind: "ring", Switches: 3, HostsPerSwitch: 1, Format: "dot"}, "format: not used by topology ring"},
	}
	for _, tc := range tests {
		_, err := Build(tc.spec)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want prefix %q", tc.spec, err, tc.want)
		}
	}
}
