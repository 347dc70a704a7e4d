package experiments

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"netsim/routing"
	"netsim/topologies"
)

// TestParseTableEngines: the table engines are accepted from TOML, and
// [routing] algorithm = "file" reads tables exported by one of them, with
// path relative to the experiment file.
func TestParseTableEngines(t *testing.T) {
	ring := "kind = \"ring\"\nswitches = 4\nhosts_per_switch = 2"
	for _, alg := range []string{"minhop", "updn", "sssp", "p2sssp", "dfsssp", "lash"} {
		text := edit(t, `algorithm = "dor"`, `algorithm = "`+alg+`"`, "kind = \"crossbar\"\nhosts = 16", ring)
		e, err := Parse("f.toml", []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", alg, err)
		}
		if e.routing == nil || e.routing.Name() != alg {
			t.Errorf("%s: routing %v", alg, e.routing)
		}
	}
	// Export dfsssp's tables, then simulate them as a file.
	net, err := topologies.Build(topologies.Spec{Kind: "ring", Switches: 4, HostsPerSwitch: 2})
	if err != nil {
		t.Fatal(err)
	}
	r, err := routing.New(routing.Spec{Algorithm: "dfsssp", VLs: 2}, net)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := routing.WriteLFT(&buf, r.(*routing.Tables), net); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ring.lft"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	text := edit(t, `algorithm = "dor"`, "algorithm = \"file\"\npath = \"ring.lft\"\nformat = \"lft\"", "kind = \"crossbar\"\nhosts = 16", ring)
	e, err := Parse(filepath.Join(dir, "f.toml"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if tab, ok := e.routing.(*routing.Tables); !ok || tab.Layers() != 2 || e.RoutingPath != filepath.Join(dir, "ring.lft") {
		t.Errorf("file routing %v (path %s), want tables on 2 layers", e.routing, e.RoutingPath)
	}
	for _, tc := range []struct{ routing, want string }{
		{"algorithm = \"file\"\nformat = \"csv\"", "format"},
		{"algorithm = \"file\"", "path: missing"},
		{"algorithm = \"dmodk\"", "tree families"},
	} {
		text := edit(t, `algorithm = "dor"`, tc.routing, "kind = \"crossbar\"\nhosts = 16", ring)
		if _, err := Parse(filepath.Join(dir, "f.toml"), []byte(text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.routing, err, tc.want)
		}
	}
}

// TestHashFileContents checks that the files an experiment reads enter
// its config hash by name and contents: the same tables in another
// directory give the same hash, regenerated tables another one.
func TestHashFileContents(t *testing.T) {
	ring := "kind = \"ring\"\nswitches = 4\nhosts_per_switch = 2"
	net, err := topologies.Build(topologies.Spec{Kind: "ring", Switches: 4, HostsPerSwitch: 2})
	if err != nil {
		t.Fatal(err)
	}
	hash := func(dir string, alg string) string {
		r, err := routing.New(routing.Spec{Algorithm: alg, VLs: 1}, net)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := routing.WriteLFT(&buf, r.(*routing.Tables), net); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "ring.lft"), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		text := edit(t, `algorithm = "dor"`, "algorithm = \"file\"\npath = \"ring.lft\"", "kind = \"crossbar\"\nhosts = 16", ring)
		e, err := Parse(filepath.Join(dir, "f.toml"), []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return e.config
	}
	a, b := hash(t.TempDir(), "minhop"), hash(t.TempDir(), "minhop")
	c := hash(t.TempDir(), "updn")
	if a != b || a == c {
		t.Errorf("hashes: minhop %s and %s (want equal), updn %s (want different)", a, b, c)
	}
}
