package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"netsim/topologies"
)

// ff2x2 is an experiment on a 2×2 FlatFly with one host per switch.
const ff2x2 = `[topology]
kind = "flatfly"
dims = [2, 2]
hosts_per_switch = 1
[routing]
algorithm = "dor"
[traffic]
patterns = ["uniform"]
`

func TestTopoCommands(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "xbar.toml", small)
	tests := []struct {
		name         string
		args         []string
		code         int
		stdout, errs string
	}{
		{"no subcommand", []string{"topo"}, exitUsage, "", "netsim topo: missing subcommand"},
		{"unknown subcommand", []string{"topo", "draw"}, exitUsage, "", `unknown subcommand "draw"`},
		{"topo -h", []string{"topo", "-h"}, exitOK, "netsim topo export (FILE.toml | --preset NAME) [-o OUT.dot] [--routes | --lft]", ""},
		{"help topo", []string{"help", "topo"}, exitOK, "--routes       add the routing", ""},
		{"help lists topo", []string{"help"}, exitOK, "netsim topo export (FILE.toml | --preset NAME)", ""},
		{"export -h", []string{"topo", "export", "-h"}, exitOK, "ORCS dot format", ""},
		{"export no file", []string{"topo", "export"}, exitUsage, "", "netsim topo export: need one experiment file or --preset NAME, got 0 files"},
		{"export two files", []string{"topo", "export", file, file}, exitUsage, "", "need one experiment file or --preset NAME, got 2 files"},
		{"export file and preset", []string{"topo", "export", "--preset", "flatfly", file}, exitUsage, "", "give an experiment file or --preset, not both"},
		{"export preset routes", []string{"topo", "export", "--preset", "myrinet512", "--routes"}, exitUsage, "", "--routes needs an experiment file with a [routing] section, not --preset"},
		{"export unknown preset", []string{"topo", "export", "--preset", "myrinet"}, exitUsage, "",
			`netsim topo export: --preset: unknown preset "myrinet" (known: torus3d, torus4d, flatfly, hypercube, dragonfly, sfxff1, sfxff2, myrinet512, deimos)`},
		{"export unknown flag", []string{"topo", "export", "--json", file}, exitUsage, "", "unknown flag --json"},
		{"export missing file", []string{"topo", "export", filepath.Join(dir, "none.toml")}, exitUsage, "", "none.toml: cannot read"},
		{"export bad -o", []string{"topo", "export", file, "-o", filepath.Join(dir, "no", "such", "x.dot")}, exitUsage, "", "netsim topo export: -o: open"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := netsim(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errs)
			}
			if !strings.Contains(out, tc.stdout) || !strings.Contains(errs, tc.errs) {
				t.Errorf("stdout %q stderr %q, want %q and %q", out, errs, tc.stdout, tc.errs)
			}
			if (tc.stdout == "" && out != "") || (tc.errs == "" && errs != "") {
				t.Errorf("unexpected output: stdout %q stderr %q", out, errs)
			}
		})
	}
}

func TestTopoExport(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "xbar.toml", small)
	code, out, errs := netsim(t, "topo", "export", file)
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.HasPrefix(out, "digraph network {\n") || strings.Count(out, " -> ") != 32 ||
		!strings.Contains(out, "\t\"S1\" -> \"H16\" [ srcport = 16 ];\n") || !strings.Contains(out, "\t\"H16\" -> \"S1\" [ dstport = 16 ];\n") {
		t.Errorf("crossbar of 16 hosts exported as\n%s", out)
	}

	// -o before the file; a file with only [topology]; the output reads back.
	topo := writeFile(t, dir, "ring.toml", "[topology]\nkind = \"ring\"\nswitches = 5\nwidths = [2]\nhosts_per_switch = 3\n")
	dot := filepath.Join(dir, "ring.dot")
	code, out, errs = netsim(t, "topo", "export", "-o", dot, topo)
	if code != exitOK || out != "" || errs != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	f, err := os.Open(dot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	net, routes, err := topologies.ReadDot(f, dot)
	if err != nil {
		t.Fatal(err)
	}
	if len(net.Switches) != 5 || len(net.Hosts) != 15 || net.Links() != 10 || net.HostsPerSwitch != 3 || routes != nil {
		t.Errorf("read back %d switches %d hosts %d links C %d routes %v; want 5, 15, 10, 3, none",
			len(net.Switches), len(net.Hosts), net.Links(), net.HostsPerSwitch, routes)
	}

	// --routes: DOR on a 2×2 FlatFly. Switch 0 = (0,0) reaches host 1 on
	// (1,0) and host 3 on (1,1) through dimension 0 first (port 1, to
	// switch 1), and host 2 on (0,1) through dimension 1 (port 2).
	ff := writeFile(t, dir, "ff.toml", ff2x2)
	code, out, errs = netsim(t, "topo", "export", ff, "--routes")
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{
		"\t\"S1\" -> \"H1\" [ comment = \"H1\", srcport = 1 ];\n",
		"\t\"S1\" -> \"S2\" [ comment = \"H2,H4\", srcport = 2, dstport = 2 ];\n",
		"\t\"S1\" -> \"S3\" [ comment = \"H3\", srcport = 3, dstport = 3 ];\n",
		"\t\"H4\" -> \"S4\" [ comment = \"*\", dstport = 1 ];\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// --routes needs the whole experiment.
	code, _, errs = netsim(t, "topo", "export", "--routes", topo)
	if code != exitUsage || !strings.Contains(errs, "ring.toml: [routing] missing section") {
		t.Errorf("--routes on a topology-only file: exit %d, stderr %q", code, errs)
	}
}

func TestTopoExportFile(t *testing.T) {
	dir := t.TempDir()
	sample, err := filepath.Abs("../../topologies/testdata/fabric.ibnetdiscover")
	if err != nil {
		t.Fatal(err)
	}
	file := writeFile(t, dir, "fabric.toml", "[topology]\nkind = \"file\"\npath = \""+sample+"\"\nformat = \"ibnetdiscover\"\n")
	code, out, errs := netsim(t, "topo", "export", file)
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	// Names and InfiniBand port numbers survive: A[15] ↔ B[16].
	for _, want := range []string{
		"\t\"S-0002c90200421e6a\" -> \"S-0002c90200421f10\" [ srcport = 15, dstport = 16 ];\n",
		"\t\"H-0002c9030001d6c4[2]\" -> \"S-0002c90200421f10\" [ dstport = 3 ];\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	bad := writeFile(t, dir, "bad.toml", "[topology]\nkind = \"file\"\npath = \"fabric.toml\"\n")
	code, _, errs = netsim(t, "topo", "export", bad)
	if want := "bad.toml:3: [topology] path: cannot tell the format of"; code != exitUsage || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q, want %q", code, errs, want)
	}
}

// TestTopoExportLFT: --lft writes the forwarding tables of a table routing
// as LFT text, refuses a routing without tables, and the text runs as
// [routing] algorithm = "file".
func TestTopoExportLFT(t *testing.T) {
	dir := t.TempDir()
	ff := writeFile(t, dir, "ff.toml", strings.Replace(ff2x2, `algorithm = "dor"`, `algorithm = "minhop"`, 1))
	lft := filepath.Join(dir, "ff.lft")
	code, _, errs := netsim(t, "topo", "export", ff, "--lft", "-o", lft)
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	data, err := os.ReadFile(lft)
	if err != nil {
		t.Fatal(err)
	}
	// Switch S1 sends host H1 out of its host port 1 and H4 (switch 4, two hops) out of port 2 or 3.
	if !strings.Contains(string(data), "Unicast lids [0x1-0x4] of switch Lid 5 guid 0x0002c90300000001 ('S1'):\n") ||
		!strings.Contains(string(data), "0x0001 001 : (Channel Adapter portguid 0x0002c90400000001: 'H1')\n") {
		t.Errorf("LFT text:\n%s", data)
	}
	back := writeFile(t, dir, "back.toml", strings.Replace(ff2x2, `algorithm = "dor"`, "algorithm = \"file\"\npath = \"ff.lft\"", 1))
	if code, _, errs := netsim(t, "validate", back); code != exitOK {
		t.Errorf("validate of the file routing: exit %d, stderr %q", code, errs)
	}
	dor := writeFile(t, dir, "dor.toml", ff2x2)
	if code, _, errs := netsim(t, "topo", "export", dor, "--lft"); code != exitUsage || !strings.Contains(errs, "has no forwarding tables") {
		t.Errorf("--lft with dor: exit %d, stderr %q", code, errs)
	}
}

// TestDotRoutingFileErrorLine: a dot file written by topo export --routes
// runs as [routing] algorithm = "file", and when one of its routing
// comments is edited into a contradiction, netsim validate names the dot
// file's line.
func TestDotRoutingFileErrorLine(t *testing.T) {
	dir := t.TempDir()
	ff := writeFile(t, dir, "ff.toml", strings.Replace(ff2x2, `algorithm = "dor"`, `algorithm = "minhop"`, 1))
	dot := filepath.Join(dir, "ff.dot")
	if code, _, errs := netsim(t, "topo", "export", ff, "--routes", "-o", dot); code != exitOK {
		t.Fatalf("export: exit %d, stderr %q", code, errs)
	}
	file := writeFile(t, dir, "file.toml", strings.Replace(ff2x2, `algorithm = "dor"`, "algorithm = \"file\"\npath = \"ff.dot\"", 1))
	if code, _, errs := netsim(t, "validate", file); code != exitOK {
		t.Fatalf("validate of the exported routing: exit %d, stderr %q", code, errs)
	}
	data, err := os.ReadFile(dot)
	if err != nil {
		t.Fatal(err)
	}
	// S1 already sends H4 to S2 (port 2, line 3); line 4 sends it to S3 too.
	const edge = `"S1" -> "S3" [ comment = "H3",`
	lines := strings.Split(string(data), "\n")
	if len(lines) < 4 || !strings.Contains(lines[3], edge) {
		t.Fatalf("line 4 of the export is %q, want the edge %s", lines[3], edge)
	}
	writeFile(t, dir, "ff.dot", strings.Replace(string(data), edge, `"S1" -> "S3" [ comment = "H3,H4",`, 1))
	code, _, errs := netsim(t, "validate", file)
	if want := `ff.dot:4: switch "S1" routes host "H4" on several ports (3 here and 2 on line 3; expected one)`; code != exitUsage || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q, want %q", code, errs, want)
	}
}
