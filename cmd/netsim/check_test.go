package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// ring4 is a ring of 4 switches with minimal routing and no dateline: its
// channel dependency graph has a cycle.
const ring4 = `name = "ring4"
[topology]
kind = "ring"
switches = 4
hosts_per_switch = 1
[routing]
algorithm = "dor-nodateline"
[traffic]
patterns = ["uniform"]
`

func TestCheckCommand(t *testing.T) {
	dir := t.TempDir()
	ff := filepath.Join("..", "..", "experiments", "testdata", "ff8x8-dor.toml")
	ring := writeFile(t, dir, "ring.toml", ring4)
	bad := writeFile(t, dir, "bad.toml", strings.Replace(ring4, "switches = 4", "switchez = 4", 1))
	// FlatFly 8×8, 8 hosts per switch, DOR on 2 VLs (VL = destination's
	// local index mod 2). Per VL: 448 directed links; each of the 512 hosts
	// injects towards 14 first-hop ports and ejects to the 3 or 4 other
	// hosts of its switch on that VL (8960 dependencies); a dimension-0
	// link leads to 7 dimension-1 links or 4 hosts, a dimension-1 link to
	// 4 hosts (448·15 = 6720): 2·(8960 + 6720) = 31360.
	ffLine := ff + ": dor on flatfly 8x8 w1,1 c8, 2 VLs: 1792 channels (+1024 injection, 512 ejection), 31360 dependencies, 1 layer needed: deadlock-free (acyclic CDG)\n"
	// Ring of 4: ports 0 host, 1 the +1 way, 2 the −1 way. Packets 2 hops
	// away (a tie) go the +1 way, so the + links depend on each other.
	ringOut := ring + `: dor-nodateline on ring 4 w1 c1, 1 VL: 8 channels (+4 injection, 4 ejection), 20 dependencies, 1 layer needed: CYCLE of 4 channels, may deadlock:
  switch 0 port 1 -> switch 1 port 2 VL 0
  switch 1 port 1 -> switch 2 port 2 VL 0
  switch 2 port 1 -> switch 3 port 2 VL 0
  switch 3 port 1 -> switch 0 port 2 VL 0
`
	// Minimal routing on a ring of 6 on 4 VLs: statically the tables'
	// one layer is copied by destination (VL = destination mod 4), and no
	// copy closes a cycle; with dynamic VL choice every packet may take
	// any VL at every hop, and the one class keeps the ring's cycle.
	minhop := strings.NewReplacer("switches = 4", "switches = 6", "dor-nodateline", "minhop", "[traffic]", "[flow_control]\nvls = 4\n[traffic]").Replace(ring4)
	static := writeFile(t, dir, "static.toml", minhop)
	dynamic := writeFile(t, dir, "dynamic.toml", strings.Replace(minhop, "[traffic]", "[switch]\nvl_choice = \"dynamic\"\n[traffic]", 1))
	staticOut := static + ": minhop on ring 6 w1 c1, 4 VLs: 28 channels (+22 injection, 6 ejection), 58 dependencies, 1 layer needed: deadlock-free (acyclic CDG)\n"
	dynamicOut := dynamic + `: minhop on ring 6 w1 c1, 4 VLs in 1 dynamic VL class: 12 channels (+6 injection, 6 ejection), 36 dependencies, 1 layer needed: CYCLE of 6 channels, may deadlock:
  switch 0 port 2 -> switch 5 port 1 class 0
  switch 5 port 2 -> switch 4 port 1 class 0
  switch 4 port 2 -> switch 3 port 1 class 0
  switch 3 port 2 -> switch 2 port 1 class 0
  switch 2 port 2 -> switch 1 port 1 class 0
  switch 1 port 2 -> switch 0 port 1 class 0
`
	tests := []cliCase{
		{"static copies", []string{"check", static}, exitOK, staticOut, ""},
		{"dynamic classes", []string{"check", dynamic}, exitFailed, dynamicOut, ""},
		{"--set dynamic", []string{"check", "--set", "switch.vl_choice=dynamic", static}, exitFailed, strings.Replace(dynamicOut, dynamic, static, 1), ""},
		{"--set static", []string{"check", dynamic, "--set", "switch.vl_choice=static"}, exitOK, strings.Replace(staticOut, static, dynamic, 1), ""},
		{"--set bad value", []string{"check", static, "--set", "switch.vl_choice=adaptive"}, exitUsage, "",
			`--set switch.vl_choice=adaptive: [switch] vl_choice: unknown value "adaptive" (expected one of: static, dynamic)`},
		{"--set no value", []string{"check", static, "--set", "vls"}, exitUsage, "",
			`netsim check: invalid value "vls" for flag --set: expected SECTION.KEY=VALUE (such as switch.vl_choice=dynamic), got "vls"`},
		{"acyclic", []string{"check", ff}, exitOK, ffLine, ""},
		{"acyclic -j 1", []string{"check", "-j", "1", ff}, exitOK, ffLine, ""},
		{"cycle", []string{"check", ring}, exitFailed, ringOut, ""},
		{"both", []string{"check", ff, ring, "-j", "2"}, exitFailed, ffLine + ringOut, ""},
		{"after --", []string{"check", "--", ff}, exitOK, ffLine, ""},
		{"-h", []string{"check", "-h"}, exitOK, helpOf("check"), ""},
		{"help check", []string{"help", "check"}, exitOK, helpOf("check"), ""},
		{"no file", []string{"check"}, exitUsage, "", "netsim check: need at least one experiment file"},
		{"bad flag", []string{"check", "--json", ff}, exitUsage, "", "netsim check: unknown flag --json"},
		{"negative -j", []string{"check", "-j", "-2", ff}, exitUsage, "", "netsim check: -j: -2 is not a valid number of jobs"},
		{"missing file", []string{"check", ff, filepath.Join(dir, "none.toml")}, exitUsage, "", filepath.Join(dir, "none.toml") + ": cannot read"},
		{"bad key", []string{"check", ring, bad}, exitUsage, "", bad + ":4: [topology] switchez: unknown key"},
	}
	runCLICases(t, tests)
}

// TestCheckSeed004Scaled runs the deadlock check on every routing of the
// scaled seed-004 files — each algorithm of seed 004 §3 on a network of
// its family — and wants every one of the 63 variants reported acyclic,
// each once.
func TestCheckSeed004Scaled(t *testing.T) {
	files, err := filepath.Glob(studyPath("seed004", "scaled", "*.toml"))
	if err != nil || len(files) != 7 {
		t.Fatalf("scaled seed-004 files: %v (err %v), want 7", files, err)
	}
	code, out, errs := netsim(t, append([]string{"check", "-j", "2"}, files...)...)
	if code != exitOK {
		t.Fatalf("exit %d, want %d; stderr %q; stdout\n%s", code, exitOK, errs, out)
	}
	want := map[string]int{
		"dragonfly": 17, "flatfly": 13, "hypercube": 5, "sfxff1": 13, "sfxff2": 13, "torus3d": 1, "torus4d": 1,
	}
	seen := map[string]bool{}
	got := map[string]int{}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		file, _, ok := strings.Cut(line, ".toml [routing.algorithm=")
		if !ok {
			// A one-routing file names no variant.
			file, _, ok = strings.Cut(line, ".toml: ")
		}
		if !ok || !strings.HasSuffix(line, ": deadlock-free (acyclic CDG)") {
			t.Errorf("unexpected line %q", line)
			continue
		}
		if seen[line] {
			t.Errorf("line reported twice: %q", line)
		}
		seen[line] = true
		got[filepath.Base(file)]++
	}
	for f, n := range want {
		if got[f] != n {
			t.Errorf("%s: %d routings reported deadlock-free, want %d", f, got[f], n)
		}
	}
}

// TestSetFlag: --set reaches run and validate as it reaches check: an
// array sweeps the key (two variants, their points listed by --dry-run),
// and a bad value is a usage error naming the argument.
func TestSetFlag(t *testing.T) {
	file := writeFile(t, t.TempDir(), "ring.toml", ring4)
	sweep := `routing.algorithm=["dor-nodateline", "distance"]`
	code, out, errOut := netsim(t, "validate", file, "--set", sweep, "--set", "switch.vl_choice=dynamic")
	if code != exitOK || !strings.Contains(out, "2 variants") {
		t.Errorf("validate --set: exit %d, %q %q, want ok with 2 variants", code, out, errOut)
	}
	code, out, errOut = netsim(t, "run", "--dry-run", "--set", sweep, file)
	if code != exitOK || !strings.Contains(out, "routing.algorithm=distance") || !strings.Contains(out, "routing.algorithm=dor-nodateline") {
		t.Errorf("run --dry-run --set: exit %d, %q %q, want both routings' points", code, out, errOut)
	}
	code, _, errOut = netsim(t, "run", "--dry-run", "--set", "flow_control.vls=0", file)
	if code != exitUsage || !strings.Contains(errOut, "--set flow_control.vls=0: [flow_control] vls: 0 is out of range") {
		t.Errorf("run --set flow_control.vls=0: exit %d, %q", code, errOut)
	}
}

// TestCheckRootsAndDnUp runs netsim check on experiment files that use the
// OpenSM-style keys on built networks: updn with a roots file (adjacent
// roots: deadlock-free; opposite roots on a ring: refused, or with
// unreachable = "skip" checked over the pairs they connect), dnup and
// ftree with roots on a fat tree.
func TestCheckRootsAndDnUp(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "adjacent", "S1\nS2\n")
	writeFile(t, dir, "opposite", "S1\nS4\n")
	writeFile(t, dir, "top", "S5\nS6\nS7\nS8\n") // the 4-ary 2-tree's top level (after its 4 leaves)
	ring := "[topology]\nkind = \"ring\"\nswitches = 6\nhosts_per_switch = 1\n"
	tree := "[topology]\nkind = \"fattree\"\nk = 4\nn = 2\n"
	file := func(name, topo, routing string) string {
		return writeFile(t, dir, name+".toml", "name = \""+name+"\"\n"+topo+"[routing]\n"+routing+"\n[traffic]\npatterns = [\"uniform\"]\n")
	}
	for _, c := range []struct {
		name, topo, routing string
		code                int
		out, errs           string
	}{
		{"updn-adjacent", ring, "algorithm = \"updn\"\nroots = \"adjacent\"", exitOK, "deadlock-free", ""},
		{"updn-opposite", ring, "algorithm = \"updn\"\nroots = \"opposite\"", exitUsage, "", "has no up*/down* path"},
		{"updn-opposite-skip", ring, "algorithm = \"updn\"\nroots = \"opposite\"\nunreachable = \"skip\"", exitOK, "ordered pairs of hosts unreachable by the tables", ""},
		{"dnup", tree, "algorithm = \"dnup\"", exitOK, "deadlock-free", ""},
		{"ftree-roots", tree, "algorithm = \"ftree\"\nroots = \"top\"", exitOK, "deadlock-free", ""},
		{"ftree-leaf-roots", tree, "algorithm = \"ftree\"\nroots = \"adjacent\"", exitUsage, "", "the roots do not make the network a fat tree"},
	} {
		code, out, errs := netsim(t, "check", file(c.name, c.topo, c.routing))
		if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errs, c.errs) {
			t.Errorf("%s: exit %d (want %d)\nstdout %s\nstderr %s", c.name, code, c.code, out, errs)
		}
	}
}

// TestCheckNewEngines runs netsim check on experiment files that use the
// engines and keys of issue 40 from TOML: nue on a ring within 2 VLs,
// torus-2QoS on a torus with a torus-2QoS.conf naming its switches, ftree
// with compute and I/O node lists, and updn with 2 LIDs per host (the
// check covers every LID's routes); each is deadlock-free.
func TestCheckNewEngines(t *testing.T) {
	dir := t.TempDir()
	// The switches of a built 5×5 torus are S1… in coordinate order (x
	// fastest); hosts are H1… one a switch.
	writeFile(t, dir, "torus.conf", "torus 5 5 1\nxp_link S1 S2\nyp_link S1 S6\n")
	writeFile(t, dir, "cn.txt", "# compute nodes\nH1\nH2\nH3\nH5\nH6\nH7\nH8\n")
	writeFile(t, dir, "io.txt", "H4\n")
	for _, c := range []struct{ name, topo, routing string }{
		{"nue", "kind = \"ring\"\nswitches = 8\nhosts_per_switch = 1", "algorithm = \"nue\""},
		{"torus-2QoS", "kind = \"torus\"\ndims = [5, 5]\nhosts_per_switch = 1", "algorithm = \"torus-2QoS\"\ntorus_config = \"torus.conf\""},
		{"ftree", "kind = \"fattree\"\nk = 4\nn = 2", "algorithm = \"ftree\"\ncompute_nodes = \"cn.txt\"\nio_nodes = \"io.txt\""},
		{"updn-lmc", "kind = \"torus\"\ndims = [4, 4]\nhosts_per_switch = 1", "algorithm = \"updn\"\nlmc = 1"},
	} {
		file := writeFile(t, dir, c.name+".toml", "name = \""+c.name+"\"\n[topology]\n"+c.topo+"\n[routing]\n"+c.routing+
			"\n[flow_control]\nvls = 2\n[traffic]\npattern = \"uniform\"\n")
		code, out, errs := netsim(t, "check", file)
		if code != exitOK || !strings.HasSuffix(strings.TrimSpace(out), "deadlock-free (acyclic CDG)") {
			t.Errorf("%s: exit %d:\n%s%s", c.name, code, out, errs)
		}
	}
}
