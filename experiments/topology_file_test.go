package experiments

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"netsim/topologies"
)

// writeTopologyFiles writes DIR/topo/ring.dot (a ring of 4 switches with 2
// hosts each) and returns DIR.
func writeTopologyFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	ring, err := topologies.Ring(4, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := topologies.WriteDot(&b, ring, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "topo"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"topo/ring.dot": b.String(), "topo/bad.dot": "digraph {\nS1 -> H1\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadTopologyRelativePath(t *testing.T) {
	dir := writeTopologyFiles(t)
	exp := filepath.Join(dir, "exp.toml")
	// Only [topology]: the path is relative to the experiment file.
	if err := os.WriteFile(exp, []byte("[topology]\nkind = \"file\"\npath = \"topo/ring.dot\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	net, err := LoadTopology(exp)
	if err != nil {
		t.Fatal(err)
	}
	if net.Kind != "file" || len(net.Switches) != 4 || len(net.Hosts) != 8 || net.Links() != 4 || net.HostsPerSwitch != 2 {
		t.Errorf("kind %q, %d switches, %d hosts, %d links, C %d; want file, 4, 8, 4, 2",
			net.Kind, len(net.Switches), len(net.Hosts), net.Links(), net.HostsPerSwitch)
	}
}

func TestFileTopologyErrors(t *testing.T) {
	dir := writeTopologyFiles(t)
	tests := []struct {
		name, topology, want string
	}{
		{"bad file", "kind = \"file\"\npath = \"topo/bad.dot\"", "exp.toml:3: [topology] path: " + filepath.Join(dir, "topo/bad.dot") + ":3: expected '}' to close the digraph"},
		{"missing file", "kind = \"file\"\npath = \"topo/none.dot\"", "exp.toml:3: [topology] path: cannot read the topology file"},
		{"no path", "kind = \"file\"", "exp.toml:1: [topology] path: missing (expected the topology file"},
		{"empty path", "kind = \"file\"\npath = \"\"", "exp.toml:3: [topology] path: empty"},
		{"unknown format", "kind = \"file\"\npath = \"topo/ring.dot\"\nformat = \"gml\"", "exp.toml:4: [topology] format: unknown format \"gml\""},
		{"no extension", "kind = \"file\"\npath = \"topo/ring\"", "exp.toml:3: [topology] path: cannot tell the format"},
		{"format on crossbar", "kind = \"crossbar\"\nhosts = 4\nformat = \"dot\"", "exp.toml:4: [topology] format: not used by topology crossbar"},
		{"dims on file", "kind = \"file\"\npath = \"topo/ring.dot\"\ndims = [2]", "exp.toml:4: [topology] dims: not used by topology file (it uses path, format)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			exp := filepath.Join(dir, "exp.toml")
			if err := os.WriteFile(exp, []byte("[topology]\n"+tc.topology+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadTopology(exp)
			if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, tc.want)) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestFileTopologyExperiment: a whole experiment on a file topology gets
// its network and label; dor does not apply to imported networks (only the
// distance routings do), and the error says so against [routing] algorithm.
func TestFileTopologyExperiment(t *testing.T) {
	dir := writeTopologyFiles(t)
	text := strings.Replace(base, "kind = \"crossbar\"\nhosts = 16", "kind = \"file\"\npath = \"topo/ring.dot\"\nformat = \"dot\"", 1)
	file := filepath.Join(dir, "exp.toml")
	e, d, err := parse(file, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "topo", "ring.dot"); e.Topology.Path != want || e.Topology.Format != "dot" {
		t.Errorf("path %q format %q, want %q dot", e.Topology.Path, e.Topology.Format, want)
	}
	d.build(e, newBuildCache())
	if e.label != "file ring.dot h8" || e.net == nil || len(e.net.Hosts) != 8 {
		t.Errorf("label %q, network %v", e.label, e.net)
	}
	// dor on a network without coordinates is OpenSM's port-order dor.
	if len(d.errs) != 0 || e.routing == nil || e.routing.Name() != "dor" {
		t.Errorf("errors %v, routing %v: want OpenSM's dor", d.errs, e.routing)
	}
}
