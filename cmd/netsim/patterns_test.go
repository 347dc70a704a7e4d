package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// saturations returns the saturation of each routing variant and pattern
// of a results file, by "variant|pattern".
func saturations(t *testing.T, results string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(results), "\n") {
		var l struct {
			Kind, Variant, Pattern string
			Saturation             float64
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		if l.Kind == "saturation" {
			out[l.Variant+"|"+l.Pattern] = l.Saturation
		}
	}
	return out
}

// pointLine is what the tests read of a results line.
type pointLine struct {
	Generated  float64 `json:"generated"`
	LatencyAvg float64 `json:"latency_avg"`
}

// onePoint runs an experiment file of one point and returns its line.
func onePoint(t *testing.T, path string) pointLine {
	t.Helper()
	code, out, errs := netsim(t, "run", "--json", path)
	if code != exitOK {
		t.Fatalf("%s: exit %d: %s", path, code, errs)
	}
	var l pointLine
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &l); err != nil {
		t.Fatal(err)
	}
	return l
}

// TestTornadoBound: tornado on a ring of 8 and an 8×8 torus under
// dimension order puts 3 flows on every link of one direction (each host
// goes ⌈8/2⌉ − 1 = 3 switches on), so netsim load gives the known bound of
// 1/3 (neighbor, one flow a link: 1); the simulated saturation lies below
// it.
func TestTornadoBound(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, topo string }{
		{"ring", "kind = \"ring\"\nswitches = 8"},
		{"torus", "kind = \"torus\"\ndims = [8, 8]"},
	} {
		file := writeFile(t, dir, c.name+".toml", `name = "`+c.name+`"
[topology]
`+c.topo+`
hosts_per_switch = 1
[routing]
algorithm = "dor"
[flow_control]
vls = 2
[traffic]
patterns = ["tornado", "neighbor"]
packet_flits = 4
[sim]
warmup = 2000
measure = 4000
[sweep]
resolution = 24
`)
		code, out, errs := netsim(t, "load", file)
		if code != exitOK || !strings.Contains(out, "tornado    3.0000     33.3") || !strings.Contains(out, "neighbor    1.0000    100.0") {
			t.Errorf("%s: load: exit %d:\n%s%s", c.name, code, out, errs)
		}
		outDir := filepath.Join(dir, c.name)
		if code, _, errs := netsim(t, "run", "-q", "-o", outDir, file); code != exitOK {
			t.Fatalf("%s: run: exit %d: %s", c.name, code, errs)
		}
		sat := saturations(t, readFile(t, filepath.Join(outDir, "results.jsonl")))
		// Simulated, dimension order on 2 VLs stays below the bound: the
		// ring of 8 saturates at about 0.25, the torus at about 0.21
		// (injection competes with the through traffic of every switch).
		if s := sat["|tornado"]; s < 0.5/3 || s > 1.0/3+1e-9 {
			t.Errorf("%s: tornado saturates at %g, want at most its bound of 1/3 and at least half of it", c.name, s)
		}
	}
}

// TestDragonflyAdversarial: every host of group g sending to group g + 1
// crosses the one global link between the two groups under minimal
// routing, so it saturates near 1/(hosts per group) = 1/8; the adaptive
// GSID spreads over other groups and does much better; adversarial+3
// behaves alike.
func TestDragonflyAdversarial(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "df.toml", `name = "df"
[topology]
kind = "dragonfly"
group_size = 4
global_per_switch = 2
hosts_per_switch = 2
omit_one_global = true
[routing]
algorithm = ["static", "GSID"]
[flow_control]
vls = 6
buffer_flits = 32
[traffic]
patterns = ["adversarial", "adversarial+3"]
packet_flits = 8
[sim]
warmup = 1000
measure = 2000
[sweep]
resolution = 16
`)
	outDir := filepath.Join(dir, "out")
	if code, _, errs := netsim(t, "run", "-q", "-o", outDir, file); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	sat := saturations(t, readFile(t, filepath.Join(outDir, "results.jsonl")))
	for _, p := range []string{"adversarial", "adversarial+3"} {
		st, g := sat["routing.algorithm=static|"+p], sat["routing.algorithm=GSID|"+p]
		if st < 0.0625 || st > 0.1875 {
			t.Errorf("%s: static saturates at %g, want about 1/8", p, st)
		}
		if g < 2*st {
			t.Errorf("%s: GSID saturates at %g, static at %g: want at least twice", p, g, st)
		}
	}
}

// TestPatternKeys: hotspot's keys and the matrix file from TOML, and
// their errors.
func TestPatternKeys(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "m.csv", "src,dst,weight\nH1,H2,1\nH3,H4,1\nH2,H1,2\nH2,H4,2\n")
	writeFile(t, dir, "m3.csv", "H1,H2,1\nH2,H3,-1\n")
	base := `name = "p"
[topology]
kind = "crossbar"
hosts = 4
[routing]
algorithm = "dor"
[traffic]
`
	good := writeFile(t, dir, "good.toml", base+`patterns = ["hotspot", "matrix", "randpair"]
hotspot_fraction = 0.5
hotspot_hosts = 2
matrix = "m.csv"
[sweep]
loads = [0.2]
`)
	code, out, errs := netsim(t, "run", "--json", good)
	if code != exitOK || strings.Count(out, `"kind":"point"`) != 3 || !strings.Contains(out, `"sources":3`) {
		t.Errorf("run: exit %d:\n%s%s", code, out, errs)
	}
	runCLICases(t, []cliCase{
		{"hotspot key without hotspot", []string{"validate", writeFile(t, dir, "a.toml", base+"patterns = [\"uniform\"]\nhotspot_hosts = 2\n")}, exitUsage, "", `[traffic] hotspot_hosts: only used with pattern "hotspot"`},
		{"matrix without file", []string{"validate", writeFile(t, dir, "b.toml", base+"patterns = [\"matrix\"]\n")}, exitUsage, "", "pattern matrix needs a traffic matrix file ([traffic] matrix)"},
		{"bad matrix", []string{"validate", writeFile(t, dir, "c.toml", base+"patterns = [\"matrix\"]\nmatrix = \"m2.csv\"\n")}, exitUsage, "", "m2.csv"},
		{"bad matrix line", []string{"validate", writeFile(t, dir, "d.toml", base+"patterns = [\"matrix\"]\nmatrix = \"m3.csv\"\n")}, exitUsage, "", "m3.csv:2: bad weight \"-1\""},
	})
}

// TestLinkClasses: latencies per link class and for host links. Under
// neighbor traffic on a ring every packet crosses one switch link and two
// host links, so at a low load its latency grows by exactly what the
// classes add; on a Dragonfly slow global links slow adversarial traffic,
// which crosses them, and not a pattern that stays in a group. Topologies
// without classes, or the wrong count, are refused.
func TestLinkClasses(t *testing.T) {
	dir := t.TempDir()
	ring := func(name, extra string) string {
		return writeFile(t, dir, name+".toml", `name = "`+name+`"
[topology]
kind = "ring"
switches = 8
hosts_per_switch = 1
[routing]
algorithm = "dor"
[flow_control]
vls = 2
[switch]
`+extra+`
[traffic]
pattern = "neighbor"
packet_flits = 4
[sweep]
loads = [0.02]
`)
	}
	base := onePoint(t, ring("base", "")).LatencyAvg
	slow := onePoint(t, ring("slow", "link_latencies = [10]\nhost_link_latency = 4")).LatencyAvg
	if d := slow - base; d < 9+2*3-0.5 || d > 9+2*3+0.5 {
		t.Errorf("neighbor on a ring: latency %g with link_latencies = [10] and host links of 4, %g with 1: want 15 more", slow, base)
	}
	df := func(name, pattern, extra string) string {
		return writeFile(t, dir, name+".toml", `name = "`+name+`"
[topology]
kind = "dragonfly"
group_size = 4
global_per_switch = 2
hosts_per_switch = 2
omit_one_global = true
[routing]
algorithm = "static"
[flow_control]
vls = 2
[switch]
`+extra+`
[traffic]
pattern = "`+pattern+`"
packet_flits = 4
[sweep]
loads = [0.02]
`)
	}
	if a, b := onePoint(t, df("adv", "adversarial", "")).LatencyAvg, onePoint(t, df("advslow", "adversarial", "link_latencies = [1, 30]")).LatencyAvg; b-a < 29 {
		t.Errorf("adversarial on a Dragonfly: latency %g with global links of 30, %g with 1: want at least 29 more", b, a)
	}
	runCLICases(t, []cliCase{
		{"no classes", []string{"validate", writeFile(t, dir, "random.toml", `[topology]
kind = "random"
switches = 8
hosts_per_switch = 1
links = 12
[routing]
algorithm = "minhop"
[switch]
link_latencies = [2, 3]
[traffic]
pattern = "uniform"
`)}, exitUsage, "", "[switch] link_latencies: the link of switch"},
		{"tree levels", []string{"validate", writeFile(t, dir, "tree.toml", `[topology]
kind = "fattree"
k = 4
n = 3
[routing]
algorithm = "ftree"
[switch]
link_latencies = [2]
[traffic]
pattern = "uniform"
`)}, exitUsage, "", "topology fattree has 2 link classes (levels 0–1, levels 1–2), got 1 latencies"},
		{"wrong count", []string{"validate", ring("bad", "link_latencies = [2, 3]")}, exitUsage, "", "[switch] link_latencies: topology ring has 1 link classes (dimension 0), got 2 latencies"},
	})
}

// TestOnOffInjection: bursty injection at the same mean load raises
// latency (packets come in clumps), keeps the offered load, and its keys
// are checked.
func TestOnOffInjection(t *testing.T) {
	dir := t.TempDir()
	file := func(name, extra string) string {
		return writeFile(t, dir, name+".toml", `name = "`+name+`"
[topology]
kind = "flatfly"
dims = [4, 4]
hosts_per_switch = 2
[routing]
algorithm = "dor"
[traffic]
pattern = "uniform"
packet_flits = 4
`+extra+`
[sim]
warmup = 2000
measure = 20000
[sweep]
loads = [0.3]
`)
	}
	p0, p1 := onePoint(t, file("steady", "")), onePoint(t, file("bursty", "burst = 100\nidle = 200"))
	g0, l0, g1, l1 := p0.Generated, p0.LatencyAvg, p1.Generated, p1.LatencyAvg
	if g1 < 0.27 || g1 > 0.33 || g0 < 0.27 || g0 > 0.33 {
		t.Errorf("generated loads %g (Bernoulli) and %g (on/off), want both about 0.3", g0, g1)
	}
	if l1 < 1.5*l0 {
		t.Errorf("latency %g with bursts, %g without: want clearly more", l1, l0)
	}
	runCLICases(t, []cliCase{
		{"burst alone", []string{"validate", file("b1", "burst = 10")}, exitUsage, "", "[traffic] burst: needs idle too"},
		{"too dense", []string{"run", file("b2", "burst = 10\nidle = 1000")}, exitFailed, "", "more than 1"},
	})
}

// TestMessageInjection: messages of 64 flits in packets of 16 keep the
// offered load and raise latency (four packets queue together), and a bad
// histogram file is reported on its line.
func TestMessageInjection(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "h.csv", "16,1\n16,2\n")
	file := func(name, extra string) string {
		return writeFile(t, dir, name+".toml", `name = "`+name+`"
[topology]
kind = "flatfly"
dims = [4, 4]
hosts_per_switch = 2
[routing]
algorithm = "dor"
[traffic]
pattern = "uniform"
packet_flits = 16
`+extra+`
[sim]
warmup = 2000
measure = 20000
[sweep]
loads = [0.3]
`)
	}
	p0, p1 := onePoint(t, file("packets", "")), onePoint(t, file("messages", `message_size = "fixed 64"`))
	g0, l0, g1, l1 := p0.Generated, p0.LatencyAvg, p1.Generated, p1.LatencyAvg
	if g1 < 0.27 || g1 > 0.33 {
		t.Errorf("generated load %g with messages (%g without), want about 0.3", g1, g0)
	}
	if l1 < 1.3*l0 {
		t.Errorf("latency %g with messages of 4 packets, %g with single packets: want clearly more", l1, l0)
	}
	runCLICases(t, []cliCase{
		{"bad histogram", []string{"validate", file("h", `message_size = "histogram h.csv"`)}, exitUsage, "", "h.csv:2: length 16 given twice"},
		{"bad spec", []string{"validate", file("s", `message_size = "normal 5"`)}, exitUsage, "", `[traffic] message_size: message sizes "normal 5": unknown distribution "normal"`},
	})
}
