package experiments

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	switching "netsim/switch"
)

// writeFiles writes name → text files under dir (creating subdirectories)
// and returns dir.
func writeFiles(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// hardware is a base file describing a network and its flow control.
const hardware = `name = "hardware"
seed = 9
[topology]
kind = "crossbar"
hosts = 16
[flow_control]
vls = 2
buffer_flits = 32
[traffic]
patterns = ["uniform"]
packet_flits = 8
`

func TestIncludeMerges(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"base/hardware.toml": hardware,
		"base/deep.toml":     "include = [\"hardware.toml\"]\n[flow_control]\nvls = 3\n",
		"base/other.toml":    "[flow_control]\nvls = 4\n[sim]\nwarmup = 50\n",
		"exp.toml": `include = ["base/deep.toml", "base/other.toml"]
[routing]
algorithm = "dor"
[flow_control]
buffer_flits = 64
[sweep]
loads = [0.5]
`,
	})
	e, err := Load(filepath.Join(dir, "exp.toml"))
	if err != nil {
		t.Fatal(err)
	}
	// vls: hardware 2 < deep 3 (includer) < other 4 (later include);
	// buffer_flits: the experiment's own; the name is never inherited.
	if e.Name != "exp" || e.Seed != 9 || e.Hosts() != 16 || e.FlowControl.VLs != 4 || e.FlowControl.BufferFlits != 64 ||
		e.Sim.Warmup != 50 || e.Routing != "dor" || e.Traffic.PacketFlits != 8 {
		t.Errorf("merged: name %q seed %d hosts %d vls %d buffer %d warmup %d routing %q packet %d",
			e.Name, e.Seed, e.Hosts(), e.FlowControl.VLs, e.FlowControl.BufferFlits, e.Sim.Warmup, e.Routing, e.Traffic.PacketFlits)
	}
	// A single string is accepted, and a file included twice (diamond) is
	// not a cycle.
	dir2 := writeFiles(t, t.TempDir(), map[string]string{
		"hw.toml": hardware,
		"a.toml":  "include = \"hw.toml\"\n",
		"b.toml":  "include = \"hw.toml\"\n[routing]\nalgorithm = \"dor\"\n",
		"x.toml":  "include = [\"a.toml\", \"b.toml\"]\n",
	})
	if e, err := Load(filepath.Join(dir2, "x.toml")); err != nil || e.Routing != "dor" || e.Name != "x" {
		t.Errorf("diamond include: %v", err)
	}
}

func TestIncludeErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string // error lines, relative to the directory
	}{
		{"unknown key in the base", map[string]string{
			"base.toml": strings.Replace(hardware, "vls = 2", "vlz = 2", 1),
			"exp.toml":  "include = [\"base.toml\"]\n[routing]\nalgorithm = \"dor\"\n"},
			[]string{"base.toml:7: [flow_control] vlz: unknown key"}},
		{"bad value in the base, overridden", map[string]string{
			"base.toml": strings.Replace(hardware, "vls = 2", "vls = 0", 1),
			"exp.toml":  "include = [\"base.toml\"]\n[routing]\nalgorithm = \"dor\"\n[flow_control]\nvls = 1\n"},
			nil},
		{"errors in both files, each at its line", map[string]string{
			"base.toml": strings.Replace(hardware, "hosts = 16", "hosts = 0", 1),
			"exp.toml":  "include = [\"base.toml\"]\n[routing]\nalgorithm = \"dor\"\n[flow_control]\nvls = 99\n"},
			[]string{"exp.toml:5: [flow_control] vls: 99 is out of range", "base.toml:5: [topology] hosts: 0 is out of range"}},
		{"builder error in the base", map[string]string{
			"base.toml": strings.Replace(hardware, "hosts = 16", "hosts = 16\ndims = [4]", 1),
			"exp.toml":  "include = [\"base.toml\"]\n[routing]\nalgorithm = \"dor\"\n"},
			[]string{"base.toml:6: [topology] dims: not used by topology crossbar"}},
		{"missing key in a section of the base", map[string]string{
			"base.toml": strings.Replace(hardware, "kind = \"crossbar\"\n", "", 1),
			"exp.toml":  "include = [\"base.toml\"]\n[routing]\nalgorithm = \"dor\"\n"},
			[]string{"base.toml:3: [topology] kind: missing"}},
		{"cycle", map[string]string{
			"a.toml":   "include = [\"b.toml\"]\n",
			"b.toml":   "seed = 1\ninclude = [\"a.toml\"]\n",
			"exp.toml": "include = [\"a.toml\"]\n"},
			[]string{"b.toml:2: include: cycle: DIR/a.toml → DIR/b.toml → DIR/a.toml"}},
		{"self include", map[string]string{"exp.toml": "include = [\"exp.toml\"]\n"},
			[]string{"exp.toml:1: include: cycle: DIR/exp.toml → DIR/exp.toml"}},
		{"missing file", map[string]string{"exp.toml": "seed = 1\ninclude = [\"none.toml\"]\n"},
			[]string{"exp.toml:2: include: cannot read DIR/none.toml: no such file or directory"}},
		{"not a list of names", map[string]string{"exp.toml": "include = [1]\n"},
			[]string{"exp.toml:1: include: element 1: expected a file name, got integer 1"}},
		{"syntax error in the base", map[string]string{
			"base.toml": "[topology\n",
			"exp.toml":  "include = [\"base.toml\"]\n"},
			[]string{"base.toml:1: invalid TOML"}},
		{"nesting too deep", map[string]string{"exp.toml": "seed = 1\na = " + strings.Repeat("{b = ", 100) + "1" + strings.Repeat("}", 100) + "\n"},
			[]string{"exp.toml:2: tables and arrays nested more than 64 deep"}},
		{"nesting too deep in an include", map[string]string{"exp.toml": "include = [\"deep.toml\"]\n", "deep.toml": "\n\na = " + strings.Repeat("[", 65) + strings.Repeat("]", 65) + "\n"},
			[]string{"deep.toml:3: tables and arrays nested more than 64 deep"}},
		{"brackets in strings and comments do not nest", map[string]string{"exp.toml": strings.Replace(hardware, "seed = 9", "seed = 9\ndescription = \""+strings.Repeat("[", 100)+"\" # "+strings.Repeat("{", 100)+"\nx = '''"+strings.Repeat("[", 100)+"'''", 1)},
			[]string{"exp.toml: [routing] missing section", "exp.toml:4: x: unknown key"}},
		{"a device", map[string]string{"exp.toml": "include = [\"/dev/zero\"]\n"},
			[]string{"exp.toml:1: include: cannot read /dev/zero: not a regular file (a device)"}},
		{"a directory", map[string]string{"exp.toml": "include = [\".\"]\n"},
			[]string{"exp.toml:1: include: cannot read DIR: not a regular file (a directory)"}},
		{"too large", map[string]string{"exp.toml": "include = [\"big.toml\"]\n", "big.toml": "# " + strings.Repeat("x", MaxFileBytes) + "\n"},
			[]string{"exp.toml:1: include: cannot read DIR/big.toml: file too large: more than the 16 MiB netsim reads"}},
		{"an escaped quote in a multi-line string", map[string]string{"exp.toml": "seed = 1\nq = \"\"\"a\\\"\"\"b\"\"\"\na = " + strings.Repeat("[", 70) + strings.Repeat("]", 70) + "\n"},
			[]string{"exp.toml:3: tables and arrays nested more than 64 deep"}},
		{"quotes before the closing ones", map[string]string{"exp.toml": "seed = 1\na = [\"\"\"x\"\"\"\", " + strings.Repeat("[", 70) + strings.Repeat("]", 70) + "]\n"},
			[]string{"exp.toml:2: tables and arrays nested more than 64 deep"}},
		{"sweep error in the base", map[string]string{
			"base.toml": strings.Replace(hardware, "vls = 2", "vls = [2, 2]", 1),
			"exp.toml":  "include = [\"base.toml\"]\n[routing]\nalgorithm = \"dor\"\n"},
			[]string{"base.toml:7: [flow_control] vls: sweep value 2 (2) appears twice"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, t.TempDir(), tc.files)
			_, err := LoadFile(filepath.Join(dir, "exp.toml"))
			if tc.want == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tc.want) {
				t.Fatalf("%d errors, want %d:\n%s", len(lines), len(tc.want), err)
			}
			for i, w := range tc.want {
				w = strings.ReplaceAll(w, "DIR", dir)
				if !strings.HasPrefix(lines[i], filepath.Join(dir, w)) && !strings.HasPrefix(lines[i], w) {
					t.Errorf("error %d:\n got %s\nwant %s…", i+1, lines[i], filepath.Join(dir, w))
				}
			}
		})
	}
}

// TestIncludeOnce: files that each include the next one twice, 40 levels
// deep (2⁴⁰ includes if each were read again), load at once, every file
// read and decoded once.
func TestIncludeOnce(t *testing.T) {
	files := map[string]string{}
	for k := range 40 {
		next := fmt.Sprintf("l%d.toml", k+1)
		files[fmt.Sprintf("l%d.toml", k)] = fmt.Sprintf("include = [%q, %q]\n", next, next)
	}
	files["l40.toml"] = hardware + "[routing]\nalgorithm = \"minhop\"\n"
	files["exp.toml"] = "name = \"deep\"\ninclude = [\"l0.toml\"]\n"
	dir := writeFiles(t, t.TempDir(), files)
	done := make(chan error, 1)
	go func() {
		_, err := LoadFile(filepath.Join(dir, "exp.toml"))
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("40 levels of double includes did not load in 20 s")
	}
}

// TestIncludePathRelative: a topology file named in an included file is
// found relative to that file, and LoadTopology follows includes.
func TestIncludePathRelative(t *testing.T) {
	dir := writeTopologyFiles(t)
	writeFiles(t, dir, map[string]string{
		"topo/net.toml": "[topology]\nkind = \"file\"\npath = \"ring.dot\"\n",
		"exp.toml":      "include = [\"topo/net.toml\"]\n",
		"sweep.toml":    "include = [\"topo/net.toml\"]\n[topology]\nformat = [\"dot\", \"ibnetdiscover\"]\n",
	})
	net, err := LoadTopology(filepath.Join(dir, "exp.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(net.Switches) != 4 || len(net.Hosts) != 8 {
		t.Errorf("%d switches, %d hosts; want 4 and 8", len(net.Switches), len(net.Hosts))
	}
	_, err = LoadTopology(filepath.Join(dir, "sweep.toml"))
	if want := filepath.Join(dir, "sweep.toml") + ":3: [topology] format: sweeps 2 values; a topology command takes one network"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("topology sweep: got %v, want %s…", err, want)
	}
}

// TestOverrides: --set values win over the file and its includes, make
// sweeps when given arrays, and their errors name the argument.
func TestOverrides(t *testing.T) {
	set := func(args ...string) []Override {
		var out []Override
		for _, a := range args {
			o, err := ParseOverride(a)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, o)
		}
		return out
	}
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"hw.toml":   "[flow_control]\nvls = 4\n",
		"main.toml": strings.Replace(strings.Replace(base, `name = "small"`, `name = "small"`+"\ninclude = [\"hw.toml\"]", 1), "vls = 2\n", "", 1),
	})
	main := filepath.Join(dir, "main.toml")
	exps, err := LoadFile(main, set("switch.vl_choice=dynamic", "flow_control.vls=8", "seed=9", `routing.algorithm=["dor", "distance"]`)...)
	if err != nil {
		t.Fatal(err)
	}
	if len(exps) != 2 || exps[0].Switch.VLChoice != switching.VLDynamic || exps[0].FlowControl.VLs != 8 || exps[0].Seed != 9 || exps[1].Routing != "distance" {
		t.Fatalf("overridden: %d variants, %v", len(exps), exps)
	}
	plain, err := LoadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	if plain[0].FlowControl.VLs != 4 || plain[0].Switch.VLChoice != switching.VLStatic {
		t.Errorf("without overrides: %v", plain[0])
	}
	for _, c := range []struct{ arg, want string }{
		{"switch.vl_choice=adaptive", `--set switch.vl_choice=adaptive: [switch] vl_choice: unknown value "adaptive" (expected one of: static, dynamic)`},
		{"switch.buffer=3", "--set switch.buffer=3: [switch] buffer: unknown key"},
		{"flow_control.vls=0", "--set flow_control.vls=0: [flow_control] vls: 0 is out of range"},
	} {
		if _, err := LoadFile(main, set(c.arg)...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--set %s: error %v, want %q", c.arg, err, c.want)
		}
	}
	// A relative path given on the command line is the current
	// directory's, not the experiment file's.
	if _, err := LoadFile(main, set("routing.algorithm=file", "routing.path=sub/t.lft")...); err == nil || !strings.Contains(err.Error(), "sub/t.lft") || strings.Contains(err.Error(), "--set routing.path=sub/sub") || strings.Contains(err.Error(), dir) {
		t.Errorf("--set routing.path=sub/t.lft: error %v, want the path relative to the current directory", err)
	}
	if o, err := ParseOverride(" switch . vl_choice = dynamic "); err != nil || o.Section != "switch" || o.Key != "vl_choice" || o.Value != "dynamic" {
		t.Errorf("spaces: %+v, %v", o, err)
	}
	for _, arg := range []string{"vls", "=4", ".vls=4", "flow_control.=4", "a.b.c=1", "include=other.toml"} {
		if _, err := ParseOverride(arg); err == nil {
			t.Errorf("ParseOverride(%q) accepted", arg)
		}
	}
}
