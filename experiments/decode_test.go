package experiments

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"netsim/internal/sysmem"
	"netsim/nic"
	switching "netsim/switch"
)

// base is a small valid experiment; tests replace its lines to break it.
const base = `name = "small"
seed = 7
[topology]
kind = "crossbar"
hosts = 16
[routing]
algorithm = "dor"
[flow_control]
kind = "credit"
vls = 2
buffer_flits = 32
[switch]
switching = "cut-through"
[traffic]
patterns = ["uniform", "complement"]
packet_flits = 8
[sim]
warmup = 100
measure = 1000
[sweep]
mode = "loads"
loads = [0.25, 0.5]
`

// edit returns base with each old line replaced by new (old must exist).
func edit(t testing.TB, pairs ...string) string {
	t.Helper()
	s := base
	for i := 0; i < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("base has no %q", pairs[i])
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	return s
}

func TestParseValid(t *testing.T) {
	e, err := Parse("small.toml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	want := Experiment{
		File: "small.toml", Name: "small", Seed: 7,
		Routing:     "dor",
		FlowControl: FlowControl{Kind: "credit", VLs: 2, BufferFlits: 32},
		Switch:      Switch{Switching: switching.CutThrough, Speedup: 1, LinkLatency: 1, RoutingDelay: 1, CrossbarDelay: 1, Selection: switching.SelectCredits},
		NIC:         NIC{Dispersion: nic.Static, Threshold: 4, Probability: 0.5, MaxProbes: 32},
		Traffic:     Traffic{Kind: "load", Patterns: []string{"uniform", "complement"}, PacketFlits: 8},
		Sim:         Sim{Warmup: 100, Measure: 1000, Drain: 1000, DeadlockWindow: DefaultDeadlockWindow, MaxMeasure: DefaultMaxMeasure * 1000, Replications: 1, Threads: 1, MaxMemory: sysmem.Limit()},
		Sweep:       Sweep{Mode: ModeLoads, Loads: []float64{0.25, 0.5}, Resolution: DefaultResolution, Tolerance: DefaultTolerance, Search: SearchBisect, Guide: GuideNone},
	}
	want.Topology.Kind, want.Topology.Hosts = "crossbar", 16
	got := *e
	got.net, got.routing, got.patterns, got.label, got.src, got.config = nil, nil, nil, "", nil, ""
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parse:\n got %+v\nwant %+v", got, want)
	}
	if e.Hosts() != 16 || e.TopologyLabel() != "crossbar h16" {
		t.Errorf("hosts %d label %q, want 16 and %q", e.Hosts(), e.TopologyLabel(), "crossbar h16")
	}
}

func TestParseDefaults(t *testing.T) {
	text := `[topology]
kind = "flatfly"
dims = [2, 2]
hosts_per_switch = 2
[routing]
algorithm = "dor"
[flow_control]
kind = "stopgo"
buffer_flits = 40
[traffic]
pattern = "uniform"
[sweep]
`
	e, err := Parse("dir/defaults.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if e.Name != "defaults" || e.Seed != DefaultSeed {
		t.Errorf("name %q seed %d, want \"defaults\" and %d", e.Name, e.Seed, DefaultSeed)
	}
	// Slack with default delays: crossbar 1 + 2·link 1 − 1 = 2 flits.
	if e.FlowControl.StopMark != 38 || e.FlowControl.GoMark != 19 || e.FlowControl.VLs != DefaultVLs {
		t.Errorf("flow control %+v, want stop 38, go 19, %d VL", e.FlowControl, DefaultVLs)
	}
	if e.Sweep.Mode != ModeSaturation || e.Sweep.Resolution != DefaultResolution || e.Sweep.Tolerance != DefaultTolerance {
		t.Errorf("sweep %+v, want saturation defaults", e.Sweep)
	}
	if e.Sim != (Sim{DefaultWarmup, DefaultMeasure, DefaultMeasure, DefaultDeadlockWindow, DefaultMaxMeasure * DefaultMeasure, DefaultReplications, false, 0, false, false, DefaultThreads, sysmem.Limit()}) {
		t.Errorf("sim %+v, want defaults", e.Sim)
	}
	if e.Traffic.Patterns[0] != "uniform" || e.Traffic.PacketFlits != DefaultPacketFlits {
		t.Errorf("traffic %+v", e.Traffic)
	}
	if e.TopologyLabel() != "flatfly 2x2 w1,1 c2" {
		t.Errorf("label %q", e.TopologyLabel())
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		text string
		want string // the first error line, or a prefix of it
	}{
		{"malformed TOML", edit(t, "[routing]", "[routing"), "f.toml:6: invalid TOML: "},
		{"duplicate key", edit(t, "seed = 7", "seed = 7\nseed = 8"), "f.toml:3: invalid TOML: "},
		{"unknown top-level key", edit(t, "seed = 7", "sead = 7"), "f.toml:2: sead: unknown key (did you mean seed? accepted: name, description, seed, "},
		{"unknown section", edit(t, "[sim]", "[simulation]"), "f.toml:17: simulation: unknown key"},
		{"unknown key in section", edit(t, "buffer_flits = 32", "bufer_flits = 32"), "f.toml:11: [flow_control] bufer_flits: unknown key (did you mean buffer_flits? accepted: kind, vls, buffer_flits, stop_mark, go_mark)"},
		{"string for integer", edit(t, "vls = 2", `vls = "two"`), `f.toml:10: [flow_control] vls: expected an integer, got string "two"`},
		{"float for integer", edit(t, "measure = 1000", "measure = 1000.5"), "f.toml:19: [sim] measure: expected an integer, got float 1000.5"},
		{"integer for string", edit(t, `kind = "credit"`, "kind = 1"), "f.toml:9: [flow_control] kind: expected a string, got integer 1"},
		{"table for value", edit(t, "seed = 7", "seed = {a = 1}"), "f.toml:2: seed: expected an integer, got a table"},
		{"section not a table", edit(t, "seed = 7", "seed = 7\nsim = 3", "[sim]\nwarmup = 100\nmeasure = 1000\n", ""), "f.toml:3: sim: expected a table [sim], got integer 3"},
		{"bad list element", edit(t, "loads = [0.25, 0.5]", `loads = [0.25, "x"]`), `f.toml:22: [sweep] loads: element 2: expected a number, got string "x"`},
		{"negative seed", edit(t, "seed = 7", "seed = -1"), "f.toml:2: seed: -1 is out of range (expected ≥ 0)"},
		{"empty name", edit(t, `name = "small"`, `name = " "`), "f.toml:1: name: must not be empty"},
		{"name with a bar", edit(t, `name = "small"`, `name = "a|b"`), `f.toml:1: name: "a|b": name must not hold "|"`},
		{"name with a newline", edit(t, `name = "small"`, `name = "a\nb"`), `f.toml:1: name: "a\nb": name must not hold "\n"`},
		{"missing topology", edit(t, "[topology]\nkind = \"crossbar\"\nhosts = 16\n", ""), "f.toml: [topology] missing section"},
		{"missing kind", edit(t, "kind = \"crossbar\"\n", ""), "f.toml:3: [topology] kind: missing"},
		{"unknown topology", edit(t, `kind = "crossbar"`, `kind = "torus9"`), `f.toml:4: [topology] kind: unknown topology "torus9"`},
		{"topology key for another kind", edit(t, "hosts = 16", "hosts = 16\ndims = [4]"), "f.toml:6: [topology] dims: not used by topology crossbar"},
		{"unknown selection", edit(t, `switching = "cut-through"`, "switching = \"cut-through\"\nselection = \"greedy\""),
			`f.toml:14: [switch] selection: unknown value "greedy" (expected one of: credits, idle)`},
		{"zero hosts", edit(t, "hosts = 16", "hosts = 0"), "f.toml:5: [topology] hosts: 0 is out of range (expected 1..2147483647)"},
		{"compound key named once, on the line of dims", edit(t, "kind = \"crossbar\"\nhosts = 16", "kind = \"flatfly\"\ndims = [4096, 2]\nhosts_per_switch = 1"),
			"f.toml:5: [topology] dims/widths: radix 4097 on 8192 switches gives 33562624 ports, more than the limit of 8388608"},
		{"compound key on the line of widths when only it is given", edit(t, "kind = \"crossbar\"\nhosts = 16", "preset = \"flatfly\"\n\nwidths = [3000000, 1, 1, 1]"),
			"f.toml:6: [topology] dims/widths: radix 9000029 exceeds the limit of 8388608 ports"},
		{"unknown routing", edit(t, `algorithm = "dor"`, `algorithm = "ugal"`), `f.toml:7: [routing] algorithm: unknown routing "ugal" for topology crossbar`},
		{"bad distance extra hops", edit(t, `algorithm = "dor"`, `algorithm = "distance+x"`), `f.toml:7: [routing] algorithm: "distance+x": extra hops E must be a non-negative integer, got "x"`},
		{"deflection without enough hops", edit(t, `algorithm = "dor"`, `algorithm = "deflection+1"`), `f.toml:7: [routing] algorithm: "deflection+1": deflection needs E ≥ 2 extra hops, got 1`},
		{"missing routing", edit(t, "[routing]\nalgorithm = \"dor\"\n", ""), "f.toml: [routing] missing section"},
		{"table path without file", edit(t, `algorithm = "dor"`, "algorithm = \"dor\"\npath = \"t.lft\""), `f.toml:8: [routing] path: only used with algorithm = "file"`},
		{"table format without file", edit(t, `algorithm = "dor"`, "algorithm = \"dor\"\nformat = \"dot\""), `f.toml:8: [routing] format: only used with algorithm = "file"`},
		{"sl2vl without file", edit(t, `algorithm = "dor"`, "algorithm = \"minhop\"\nsl2vl = \"s.dump\""), `f.toml:8: [routing] sl2vl: only used with algorithm = "file"`},
		{"path_sls without file", edit(t, `algorithm = "dor"`, "algorithm = \"minhop\"\npath_sls = \"p.txt\""), `f.toml:8: [routing] path_sls: only used with algorithm = "file"`},
		{"roots with minhop", edit(t, `algorithm = "dor"`, "algorithm = \"minhop\"\nroots = \"r.txt\""), `f.toml:8: [routing] roots: only used with algorithm = "updn", "ftree" or "dmodk"`},
		{"unknown unreachable", edit(t, `algorithm = "dor"`, "algorithm = \"dnup\"\nunreachable = \"drop\""), `f.toml:8: [routing] unreachable: unknown value "drop" (expected "error" or "skip")`},
		{"unreachable with minhop", edit(t, `algorithm = "dor"`, "algorithm = \"minhop\"\nunreachable = \"skip\""), `f.toml:8: [routing] unreachable: only used with algorithm = "file"`},
		{"empty roots", edit(t, `algorithm = "dor"`, "algorithm = \"updn\"\nroots = \"\""), `f.toml:8: [routing] roots: empty (expected the root switches of updn`},
		{"missing roots file", edit(t, `algorithm = "dor"`, "algorithm = \"updn\"\nroots = \"none.txt\""), `f.toml:8: [routing] roots: open none.txt: no such file or directory`},
		{"compute_nodes with dmodk", edit(t, `algorithm = "dor"`, "algorithm = \"dmodk\"\ncompute_nodes = \"cn.txt\""), `f.toml:8: [routing] compute_nodes: only used with algorithm = "ftree"`},
		{"max_reverse_hops with minhop", edit(t, `algorithm = "dor"`, "algorithm = \"minhop\"\nmax_reverse_hops = 1"), `f.toml:8: [routing] max_reverse_hops: only used with algorithm = "ftree"`},
		{"missing compute_nodes file", edit(t, `algorithm = "dor"`, "algorithm = \"ftree\"\ncompute_nodes = \"none.txt\""), `f.toml:8: [routing] compute_nodes: open none.txt: no such file or directory`},
		{"lmc with sssp", edit(t, `algorithm = "dor"`, "algorithm = \"sssp\"\nlmc = 2"), `f.toml:8: [routing] lmc: only used with algorithm = "minhop", "updn" or "dnup"`},
		{"lmc too large", edit(t, `algorithm = "dor"`, "algorithm = \"minhop\"\nlmc = 8"), `f.toml:8: [routing] lmc: 8 is out of range`},
		{"torus_config with minhop", edit(t, `algorithm = "dor"`, "algorithm = \"minhop\"\ntorus_config = \"t.conf\""), `f.toml:8: [routing] torus_config: only used with algorithm = "torus-2QoS"`},
		{"missing torus_config file", edit(t, `algorithm = "dor"`, "algorithm = \"torus-2QoS\"\ntorus_config = \"none.conf\""), `f.toml:8: [routing] torus_config: open none.conf: no such file or directory`},
		{"torus-2QoS without torus_config", edit(t, `algorithm = "dor"`, "algorithm = \"torus-2QoS\""), `f.toml:6: [routing] torus_config: routing torus-2QoS on a crossbar needs its torus-2QoS.conf (sizes and seed links), as OpenSM does`},
		{"unknown pattern", edit(t, `patterns = ["uniform", "complement"]`, `patterns = ["uniform", "tornadoes"]`), `f.toml:15: [traffic] patterns: unknown pattern "tornadoes"`},
		{"tornado on a crossbar", edit(t, `patterns = ["uniform", "complement"]`, `patterns = ["uniform", "tornado"]`), `f.toml:15: [traffic] patterns: pattern tornado needs a network with coordinates`},
		{"bit pattern on 12 hosts", edit(t, "hosts = 16", "hosts = 12"), `f.toml:15: [traffic] patterns: pattern "complement" needs a power-of-two host count, got 12 hosts`},
		{"single pattern key", edit(t, `patterns = ["uniform", "complement"]`, `pattern = "shuffle"`, "hosts = 16", "hosts = 12"), `f.toml:15: [traffic] pattern: pattern "shuffle" needs a power-of-two`},
		{"single pattern key, inline table", edit(t, "[traffic]\npatterns = [\"uniform\", \"complement\"]\npacket_flits = 8\n", "", "seed = 7\n", "seed = 7\ntraffic = { pattern = \"shuffle\", packet_flits = 8 }\n", "hosts = 16", "hosts = 12"), `f.toml:3: [traffic] pattern: pattern "shuffle" needs a power-of-two`},
		{"pattern and patterns", edit(t, "packet_flits = 8", "packet_flits = 8\npattern = \"uniform\""), "f.toml:17: [traffic] pattern: give either pattern or patterns, not both"},
		{"duplicate pattern", edit(t, `"complement"]`, `"uniform"]`), `f.toml:15: [traffic] patterns: pattern "uniform" appears twice`},
		{"empty patterns", edit(t, `patterns = ["uniform", "complement"]`, "patterns = []"), "f.toml:15: [traffic] patterns: empty list"},
		{"unknown flow control", edit(t, `kind = "credit"`, `kind = "ack"`), `f.toml:9: [flow_control] kind: unknown value "ack" (expected one of: credit, stopgo)`},
		{"unknown switching", edit(t, `switching = "cut-through"`, `switching = "store"`), `f.toml:13: [switch] switching: unknown value "store"`},
		{"too many VLs", edit(t, "vls = 2", "vls = 17"), "f.toml:10: [flow_control] vls: 17 is out of range (expected 1..16)"},
		{"cut-through buffer too small", edit(t, "buffer_flits = 32", "buffer_flits = 4"), "f.toml:11: [flow_control] buffer_flits: 4 cannot hold a whole packet"},
		{"stop_mark with credit", edit(t, "buffer_flits = 32", "buffer_flits = 32\nstop_mark = 8"), `f.toml:12: [flow_control] stop_mark: only used with kind = "stopgo"`},
		{"stop_mark overflow", edit(t, `kind = "credit"`, `kind = "stopgo"`, "buffer_flits = 32", "buffer_flits = 32\nstop_mark = 31"), "f.toml:12: [flow_control] stop_mark: 31 lets the buffer overflow (expected ≤ buffer_flits − (sw_alloc_delay + crossbar_delay + 2·link_latency − 1) = 30)"},
		{"go_mark not below stop_mark", edit(t, `kind = "credit"`, `kind = "stopgo"`, "buffer_flits = 32", "buffer_flits = 32\nstop_mark = 10\ngo_mark = 10"), "f.toml:13: [flow_control] go_mark: 10 must be below stop_mark 10"},
		{"stopgo buffer too small", edit(t, `kind = "credit"`, `kind = "stopgo"`, "buffer_flits = 32", "buffer_flits = 8", "[switch]", "[switch]\nlink_latency = 4", "packet_flits = 8", "packet_flits = 4"), "f.toml:11: [flow_control] buffer_flits: 8 is too small for stopgo (expected > 8"},
		{"zero link latency", edit(t, "[switch]", "[switch]\nlink_latency = 0"), "f.toml:13: [switch] link_latency: 0 is out of range (expected 1..65536)"},
		{"zero measure", edit(t, "measure = 1000", "measure = 0"), "f.toml:19: [sim] measure: 0 is out of range"},
		{"max_measure not a multiple", edit(t, "measure = 1000", "measure = 1000\nmax_measure = 2500"), "f.toml:20: [sim] max_measure: must be measure (1000 cycles) times 1 to 1024, got 2500"},
		{"max_measure below measure", edit(t, "measure = 1000", "measure = 1000\nmax_measure = 500"), "f.toml:20: [sim] max_measure: must be measure (1000 cycles) times 1 to 1024, got 500"},
		{"zero replications", edit(t, "measure = 1000", "measure = 1000\nreplications = 0"), "f.toml:20: [sim] replications: 0 is out of range (expected 1..1000)"},
		{"timeline not a number", edit(t, "measure = 1000", "measure = 1000\ntimeline = true"), "f.toml:20: [sim] timeline: expected an integer"},
		{"link_stats not a boolean", edit(t, "measure = 1000", "measure = 1000\nlink_stats = 1"), "f.toml:20: [sim] link_stats: expected a boolean"},
		{"stop_early short measure", edit(t, "measure = 1000", "measure = 20\nstop_early = true"), "f.toml:20: [sim] stop_early: needs measure of at least 32 cycles (the looks come at bins of measure/32), got 20"},
		{"stop_early not a boolean", edit(t, "measure = 1000", "measure = 1000\nstop_early = \"yes\""), "f.toml:20: [sim] stop_early: expected a boolean"},
		{"bound with loads", edit(t, "loads = [0.25, 0.5]", "loads = [0.25, 0.5]\nbound = true"), "f.toml:23: [sweep] bound: only used with mode = \"saturation\""},
		{"bound not a boolean", edit(t, `mode = "loads"`, "mode = \"saturation\"\nbound = 1", "loads = [0.25, 0.5]", ""), "f.toml:22: [sweep] bound: expected a boolean"},
		{"unknown sim key", edit(t, "warmup = 100", "warmup = 100\ncycles = 5"), "f.toml:19: [sim] cycles: unknown key (accepted: warmup, measure, drain, deadlock_window, max_measure, replications, latency_distribution, timeline, link_stats, stop_early, threads, max_memory)"},
		{"load above 1", edit(t, "loads = [0.25, 0.5]", "loads = [0.25, 1.5]"), "f.toml:22: [sweep] loads: element 2: 1.5 is out of range (expected 0 < load ≤ 1)"},
		{"zero load", edit(t, "loads = [0.25, 0.5]", "loads = [0, 0.5]"), "f.toml:22: [sweep] loads: element 1: 0 is out of range"},
		{"duplicate load", edit(t, "loads = [0.25, 0.5]", "loads = [0.25, 0.25]"), "f.toml:22: [sweep] loads: element 2: load 0.25 appears twice"},
		{"loads mode without loads", edit(t, "loads = [0.25, 0.5]\n", ""), `f.toml:20: [sweep] loads: missing or empty (mode = "loads" needs a list`},
		{"unknown mode", edit(t, `mode = "loads"`, `mode = "bisect"`), `f.toml:21: [sweep] mode: unknown value "bisect" (expected one of: loads, saturation)`},
		{"resolution in loads mode", edit(t, `mode = "loads"`, "mode = \"loads\"\nresolution = 64"), `f.toml:22: [sweep] resolution: only used with mode = "saturation"`},
		{"bad tolerance", edit(t, `mode = "loads"`, "mode = \"loads\"\ntolerance = 1.5"), "f.toml:22: [sweep] tolerance: 1.5 is out of range (expected 0 ≤ tolerance < 1)"},
		{"dotted key", edit(t, "seed = 7", "seed = 7\nsweep.resolution = \"fine\"", "[sweep]\nmode = \"loads\"\nloads = [0.25, 0.5]\n", ""), `f.toml:3: [sweep] resolution: expected an integer, got string "fine"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.toml", []byte(tc.text))
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v (%T) is not an *InputError", err, err)
			}
			first, _, _ := strings.Cut(err.Error(), "\n")
			if !strings.HasPrefix(first, tc.want) {
				t.Errorf("error:\n got %s\nwant %s…", err, tc.want)
			}
		})
	}
}

func TestParseReportsEveryError(t *testing.T) {
	text := edit(t, "vls = 2", `vls = "x"`, "warmup = 100", "warmup = -5", "buffer_flits = 32", "bufer = 1")
	_, err := Parse("f.toml", []byte(text))
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{"f.toml:10: [flow_control] vls:", "f.toml:11: [flow_control] bufer:", "f.toml:18: [sim] warmup:"}
	if len(lines) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%s", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("error %d = %q, want prefix %q", i, lines[i], w)
		}
	}
}

func TestLoadAll(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.toml")
	b := filepath.Join(dir, "b.toml")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte(base), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := LoadAll([]string{a}); err != nil {
		t.Fatalf("LoadAll(a): %v", err)
	}
	_, err := LoadAll([]string{a, b})
	if err == nil || !strings.HasPrefix(err.Error(), b+`:1: name: experiment name "small" is also used by `+a) {
		t.Errorf("duplicate names: got %v", err)
	}
	again := dir + string(filepath.Separator) + "." + string(filepath.Separator) + "a.toml"
	link := filepath.Join(dir, "link.toml")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	for _, paths := range [][]string{{a, a}, {a, again}, {a, link}} {
		_, err = LoadAll(paths)
		if want := paths[1] + ": given twice (also as " + a; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("LoadAll(%q): got %v, want %q…", paths, err, want)
		}
	}
	_, err = LoadAll([]string{filepath.Join(dir, "missing.toml")})
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "missing.toml: cannot read") {
		t.Errorf("missing file: got %v", err)
	}
}

func TestQuickStartAndExampleLoad(t *testing.T) {
	if _, err := QuickStart(); err != nil {
		t.Errorf("QuickStart: %v", err)
	}
	e, err := Load("testdata/ff8x8-dor.toml")
	if err != nil {
		t.Fatalf("example: %v", err)
	}
	if e.TopologyLabel() != "flatfly 8x8 w1,1 c8" || e.Hosts() != 512 {
		t.Errorf("example: label %q, %d hosts", e.TopologyLabel(), e.Hosts())
	}
}

// TestSelectionKey: [switch] selection reaches the fabric's configuration,
// the run's description and, when not the default, the results lines; its
// default "credits" leaves the configuration hash as it was before the key
// existed (the full seed-004 table, run before it, resumes), which the
// hash recorded by that run pins.
func TestSelectionKey(t *testing.T) {
	parse := func(text string) *Experiment { return parseOne(t, text) } // exchange_test.go
	with := func(v string) string {
		return edit(t, `switching = "cut-through"`, "switching = \"cut-through\"\nselection = \""+v+"\"")
	}
	plain, credits, idle := parse(base), parse(with("credits")), parse(with("idle"))
	if plain.Switch.Selection != switching.SelectCredits || idle.Switch.Selection != switching.SelectIdle {
		t.Fatalf("selections %q and %q, want credits and idle", plain.Switch.Selection, idle.Switch.Selection)
	}
	if plain.config != credits.config || plain.config == idle.config {
		t.Errorf("hashes %s (no key), %s (credits), %s (idle): want the first two equal, the third different", plain.config, credits.config, idle.config)
	}
	if got := idle.Config(0, 0.5).Selection; got != switching.SelectIdle {
		t.Errorf("fabric selection %q, want idle", got)
	}
	if s := idle.String(); !strings.Contains(s, "cut-through, idle selection, 8-flit packets") {
		t.Errorf("description %q does not name the idle selection", s)
	}
	if s := plain.String(); strings.Contains(s, "selection") {
		t.Errorf("description %q names the default selection", s)
	}
	for _, e := range []*Experiment{plain, idle} {
		var b strings.Builder
		if err := WriteJSON(&b, Record{Kind: KindSaturation, Experiment: e, Pattern: "uniform", Saturation: 0.5}); err != nil {
			t.Fatal(err)
		}
		if has := strings.Contains(b.String(), `"selection":"idle"`); has != (e == idle) {
			t.Errorf("results line %s: selection field %v, want %v", b.String(), has, e == idle)
		}
		if strings.Contains(b.String(), `"selection":"credits"`) {
			t.Errorf("results line %s names the default selection", b.String())
		}
	}
	exps, err := LoadFile(studyPath("seed004", "torus3d.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "2872cfbddeff513b"; exps[0].config != want {
		t.Errorf("studies/seed004/torus3d.toml hashes to %s, want %s (the hash its full-scale results carry)", exps[0].config, want)
	}
}

// TestAllocatorKeys checks [switch] buffers, allocator,
// allocator_iterations and the allocation delays: the defaults keep the
// configuration hash, the results line and the description as they were,
// others change all three and reach the fabric.
func TestAllocatorKeys(t *testing.T) {
	parse := func(text string) *Experiment { return parseOne(t, text) } // exchange_test.go
	with := func(keys string) string {
		return edit(t, `switching = "cut-through"`, "switching = \"cut-through\"\n"+keys)
	}
	plain := parse(base)
	defaults := parse(with("allocator = \"oldest-first\"\nvl_alloc_delay = 0\nsw_alloc_delay = 0\nbuffers = \"fifo\""))
	voq := parse(with("buffers = \"voq\""))
	shared := parse(with("buffers = \"shared\"\nshared_reserve = 8\nshared_alpha = 0.5\nshared_limit = 100"))
	if c := shared.Config(0, 0.5); c.Buffers != switching.BuffersShared || c.SharedReserve != 8 || c.SharedAlpha != 0.5 || c.SharedLimit != 100 || shared.config == voq.config {
		t.Errorf("buffers = shared: fabric %v reserve %d alpha %v limit %d, hash %s (voq %s)", c.Buffers, c.SharedReserve, c.SharedAlpha, c.SharedLimit, shared.config, voq.config)
	}
	var sb strings.Builder
	if err := WriteJSON(&sb, Record{Kind: KindSaturation, Experiment: parse(with("buffers = \"shared\"")), Pattern: "uniform", Saturation: 0.5}); err != nil {
		t.Fatal(err)
	}
	if want := `"buffers":"shared","shared_reserve":8,"shared_alpha":1,"shared_limit":64,`; !strings.Contains(sb.String(), want) {
		t.Errorf("results line %s: want the shared keys in effect, %s", sb.String(), want)
	}
	if voq.config == plain.config || voq.Config(0, 0.5).Buffers != switching.BuffersVOQ || !strings.Contains(voq.String(), "voq buffers") {
		t.Errorf("buffers = voq: hash %s (default %s), fabric %v, description %q", voq.config, plain.config, voq.Config(0, 0.5).Buffers, voq.String())
	}
	islip := parse(with("allocator = \"islip\"\nallocator_iterations = 4"))
	slow := parse(with("vl_alloc_delay = 2\nsw_alloc_delay = 1"))
	if plain.config != defaults.config || plain.config == islip.config || plain.config == slow.config {
		t.Errorf("hashes %s (no keys), %s (defaults), %s (islip), %s (delays): want the first two equal, the others different",
			plain.config, defaults.config, islip.config, slow.config)
	}
	if c := islip.Config(0, 0.5); c.Allocator != switching.AllocISLIP || c.AllocIterations != 4 {
		t.Errorf("fabric allocator %v × %d, want islip × 4", c.Allocator, c.AllocIterations)
	}
	if c := slow.Config(0, 0.5); c.VLAllocDelay != 2 || c.SwAllocDelay != 1 {
		t.Errorf("fabric delays %d, %d, want 2, 1", c.VLAllocDelay, c.SwAllocDelay)
	}
	if s := islip.String(); !strings.Contains(s, "islip allocator × 4") {
		t.Errorf("description %q does not name the allocator", s)
	}
	if s := plain.String(); strings.Contains(s, "allocator") {
		t.Errorf("description %q names the default allocator", s)
	}
	for _, e := range []*Experiment{plain, islip, voq} {
		var b strings.Builder
		if err := WriteJSON(&b, Record{Kind: KindSaturation, Experiment: e, Pattern: "uniform", Saturation: 0.5}); err != nil {
			t.Fatal(err)
		}
		has := strings.Contains(b.String(), `"allocator":"islip","iterations":4`)
		if has != (e == islip) || strings.Contains(b.String(), "oldest-first") {
			t.Errorf("results line %s: allocator fields %v, want %v", b.String(), has, e == islip)
		}
		if has := strings.Contains(b.String(), `"buffers":"voq"`); has != (e == voq) || strings.Contains(b.String(), "fifo") {
			t.Errorf("results line %s: buffers field %v, want %v", b.String(), has, e == voq)
		}
	}
	for _, c := range []struct{ keys, want string }{
		{"allocator_iterations = 2", `[switch] allocator_iterations: only used with allocator = "islip" or "input-first"`},
		{"allocator = \"wavefront\"", `[switch] allocator: unknown value "wavefront"`},
		{"allocator = \"islip\"\nallocator_iterations = 17", "[switch] allocator_iterations: 17 is out of range (expected 1..16)"},
		{"vl_alloc_delay = -1", "[switch] vl_alloc_delay: -1 is out of range"},
		{"buffers = \"output\"", `[switch] buffers: unknown value "output"`},
		{"shared_reserve = 16", `[switch] shared_reserve: only used with buffers = "shared"`},
		{"buffers = \"voq\"\nshared_alpha = 2.0", `[switch] shared_alpha: only used with buffers = "shared"`},
		{"buffers = \"shared\"\nshared_alpha = 0.0", "[switch] shared_alpha: 0 is out of range"},
		{"buffers = \"shared\"\nshared_limit = -1", "[switch] shared_limit: -1 is out of range"},
		{"buffers = \"shared\"\nshared_reserve = 4", "[switch] shared_reserve: virtual cut-through needs a reserve that holds a whole packet (packet_flits = 8), got 4"},
		{"buffers = \"shared\"\nshared_reserve = 33", "[switch] shared_reserve: must be between 1 and buffer_flits (32), got 33"},
		{"buffers = \"shared\"\nspeedup = 2", "[switch] speedup: has no meaning with buffers = \"shared\""},
	} {
		if _, err := ParseFile("f.toml", []byte(with(c.keys))); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.keys, err, c.want)
		}
	}
	many := edit(t, `switching = "cut-through"`, "switching = \"cut-through\"\nbuffers = \"voq\"", "buffer_flits = 32", "buffer_flits = 64", "packet_flits = 8", "packet_flits = 1")
	want := "[switch] buffers: voq keeps 64 flits / shortest packet + 3 = 64/1 + 3 = 67 packets per buffer, more than 64"
	if _, err := ParseFile("f.toml", []byte(many)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a VOQ buffer of 64 1-flit packets: error %v, want %q", err, want)
	}
}

// TestVLChoiceKey: [switch] vl_choice decodes, builds the routing on its
// own VLs under "dynamic" (here distance+2 on a 4×4 FlatFly, which needs 5
// of the 8 configured), reaches the fabric, the hash (only when not the
// default), the description and the results line, and a bad value names
// the key.
func TestVLChoiceKey(t *testing.T) {
	ff := func(keys string) string {
		return edit(t, `switching = "cut-through"`, "switching = \"cut-through\"\n"+keys,
			"kind = \"crossbar\"\nhosts = 16", "kind = \"flatfly\"\ndims = [4, 4]\nhosts_per_switch = 2",
			`algorithm = "dor"`, `algorithm = "distance+2"`, "vls = 2", "vls = 8")
	}
	plain, static, dyn := parseOne(t, ff("")), parseOne(t, ff(`vl_choice = "static"`)), parseOne(t, ff(`vl_choice = "dynamic"`))
	if plain.config != static.config || plain.config == dyn.config {
		t.Errorf("hashes %s (no key), %s (static), %s (dynamic): want the first two equal, the third different", plain.config, static.config, dyn.config)
	}
	if c := dyn.Config(0, 0.5); c.VLChoice != switching.VLDynamic || c.VLs != 8 || c.Routing.VLs() != 5 || plain.Config(0, 0.5).VLChoice != switching.VLStatic {
		t.Errorf("dynamic: fabric VL choice %v on %d VLs, routing on %d", c.VLChoice, c.VLs, c.Routing.VLs())
	}
	if c := dyn.Config(0, 0.5); c.Validate() != nil {
		t.Errorf("dynamic: %v", c.Validate())
	}
	if !strings.Contains(dyn.String(), "dynamic VL choice") || strings.Contains(plain.String(), "VL choice") {
		t.Errorf("descriptions %q, %q", dyn.String(), plain.String())
	}
	for _, e := range []*Experiment{plain, dyn} {
		var b strings.Builder
		if err := WriteJSON(&b, Record{Kind: KindSaturation, Experiment: e, Pattern: "uniform", Saturation: 0.5}); err != nil {
			t.Fatal(err)
		}
		if has := strings.Contains(b.String(), `"vl_choice":"dynamic"`); has != (e == dyn) || strings.Contains(b.String(), "static") {
			t.Errorf("results line %s: vl_choice field %v, want %v", b.String(), has, e == dyn)
		}
	}
	if _, err := ParseFile("f.toml", []byte(ff(`vl_choice = "adaptive"`))); err == nil || !strings.Contains(err.Error(), `[switch] vl_choice: unknown value "adaptive" (expected one of: static, dynamic)`) {
		t.Errorf("vl_choice = adaptive: error %v", err)
	}
}
