package experiments

import (
	"flag"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"netsim/topologies"
)

var updateDocs = flag.Bool("update", false, "rewrite the generated key tables of docs/experiment-file.md")

// TestSchema checks the schema's entries: each has a doc, a default of its
// type, a range that holds its default, and allowed values that hold it;
// names are unique within a section; sections are known.
func TestSchema(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range Schema() {
		id := k.Section + "." + k.Name
		if seen[id] {
			t.Errorf("%s: twice in the schema", id)
		}
		seen[id] = true
		if k.Doc == "" {
			t.Errorf("%s: no doc", id)
		}
		if k.Section != "" && !slices.Contains(sectionNames(), k.Section) {
			t.Errorf("%s: unknown section", id)
		}
		switch def := k.Default.(type) {
		case nil: // an optional key, or one whose DefaultDoc says what it is
			if k.DefaultDoc == "" && (k.Type == TypeNumber || k.Type == TypeBool || k.Type == TypeTable) {
				t.Errorf("%s: no default and no DefaultDoc", id)
			}
		case bool:
			if k.Type != TypeBool {
				t.Errorf("%s: boolean default for a %v", id, k.Type)
			}
		case int64:
			if k.Type != TypeInt {
				t.Errorf("%s: integer default for a %v", id, k.Type)
			}
			if (def < k.Min || def > k.Max) && k.DefaultDoc == "" {
				t.Errorf("%s: default %d outside %d..%d", id, def, k.Min, k.Max)
			}
		case float64:
			if k.Type != TypeNumber {
				t.Errorf("%s: number default for a %v", id, k.Type)
			}
			if k.Range != nil && !k.Range.Holds(def) {
				t.Errorf("%s: default %v outside %v", id, def, k.Range)
			}
		case string:
			if k.Type != TypeString {
				t.Errorf("%s: string default for a %v", id, k.Type)
			}
			if k.Values != nil && !slices.Contains(k.Values, def) {
				t.Errorf("%s: default %q not among %q", id, def, k.Values)
			}
		default:
			t.Errorf("%s: default of type %T", id, def)
		}
		if (k.Type == TypeInt || k.Type == TypeInts) && k.Min > k.Max {
			t.Errorf("%s: range %d..%d is empty", id, k.Min, k.Max)
		}
		if k.Range != nil && (k.Type != TypeNumber && k.Type != TypeNumbers || !(k.Range.Lo < k.Range.Hi)) {
			t.Errorf("%s: range %v on a %v", id, k.Range, k.Type)
		}
	}
}

// TestInterval checks the ends of number ranges and how they are written.
func TestInterval(t *testing.T) {
	for _, c := range []struct {
		iv      Interval
		text    string
		expect  string
		in, out []float64
	}{
		{Interval{Lo: 0, Hi: 1}, "[0, 1]", "0 ≤ p ≤ 1", []float64{0, 0.5, 1}, []float64{-0.1, 1.1}},
		{Interval{Lo: 0, Hi: 1, LoOpen: true}, "(0, 1]", "0 < p ≤ 1", []float64{1e-9, 1}, []float64{0, 1.0000001}},
		{Interval{Lo: 0, Hi: 1, HiOpen: true}, "[0, 1)", "0 ≤ p < 1", []float64{0, 0.999}, []float64{1, -1e-9}},
	} {
		if got := c.iv.String(); got != c.text {
			t.Errorf("%+v: String() = %q, want %q", c.iv, got, c.text)
		}
		if got := c.iv.expect("p"); got != c.expect {
			t.Errorf("%+v: expect = %q, want %q", c.iv, got, c.expect)
		}
		for _, x := range c.in {
			if !c.iv.Holds(x) {
				t.Errorf("%v does not hold %v", c.iv, x)
			}
		}
		for _, x := range c.out {
			if c.iv.Holds(x) {
				t.Errorf("%v holds %v", c.iv, x)
			}
		}
	}
}

// TestSchemaTopology checks that the keys of [topology] are the fields of
// topologies.Spec (their toml tags). (The schema's order, in which sweeps
// enumerate variants, is older than the field order.)
func TestSchemaTopology(t *testing.T) {
	if got, want := slices.Sorted(slices.Values(sectionKeys("topology"))), slices.Sorted(slices.Values(topologies.Keys())); !slices.Equal(got, want) {
		t.Errorf("schema [topology] keys\n%q\ntopologies.Spec's\n%q", got, want)
	}
}

// TestSectionKeysOrder pins the order of each section's keys: sweeps
// enumerate variants in it, so changing it changes the order of results
// and of follow searches.
func TestSectionKeysOrder(t *testing.T) {
	want := map[string]string{
		"topology":     "preset kind dims widths hosts_per_switch hosts switches ports k n m w oversubscription box_hosts chain_links path format dimension width group_size global_per_switch arrangement omit_one_global q factors b links seed",
		"":             "name description seed include topology routing flow_control switch nic traffic sim sweep congestion",
		"routing":      "algorithm path format sl2vl unreachable roots path_sls lmc compute_nodes io_nodes max_reverse_hops torus_config",
		"flow_control": "kind vls buffer_flits stop_mark go_mark",
		"switch":       "switching speedup link_latency routing_delay crossbar_delay selection vl_alloc_delay sw_alloc_delay allocator allocator_iterations buffers shared_reserve shared_alpha shared_limit vl_choice link_latencies host_link_latency layout cycles_per_meter",
		"nic":          "dispersion threshold probability max_probes receive_rate route_lag",
		"traffic":      "patterns pattern packet_flits kind messages message_bytes mtu_bytes flit_bytes bisections ranks placement placement_file halo_grid trace repeat link_gbps hotspot_fraction hotspot_hosts burst idle message_size outstanding reply_flits matrix",
		"sim":          "warmup measure drain deadlock_window max_measure replications latency_distribution timeline link_stats stop_early threads max_memory",
		"sweep":        "mode loads resolution tolerance search guide bound",
		"congestion":   "patterns pattern runs commsize subset metrics level first second part_commsize paths",
	}
	for sec, w := range want {
		if got := strings.Join(sectionKeys(sec), " "); got != w {
			t.Errorf("[%s] keys: %s, want %s", sec, got, w)
		}
	}
}

// TestSuggest checks the near misses unknown keys are told of.
func TestSuggest(t *testing.T) {
	accepted := sectionKeys("flow_control")
	tests := []struct{ key, want string }{
		{"bufer_flits", "buffer_flits"},
		{"vlz", "vls"},
		{"VLs", "vls"},
		{"kinds", "kind"},
		{"knid", "kind"},
		{"buffer", ""},
		{"x", ""},
		{"stop", ""},
		{"go_mrak", "go_mark"},
	}
	for _, tc := range tests {
		if got := suggest(tc.key, accepted); got != tc.want {
			t.Errorf("suggest(%q) = %q, want %q", tc.key, got, tc.want)
		}
	}
}

// TestUnknownKeyHints checks the messages of unknown keys: a near miss,
// and a key of another section.
func TestUnknownKeyHints(t *testing.T) {
	base := "[topology]\nkind = \"ring\"\nswitches = 4\nhosts_per_switch = 1\n[routing]\nalgorithm = \"dor\"\n[traffic]\npatterns = [\"uniform\"]\n"
	tests := []struct{ extra, want string }{
		{"[switch]\nspeedpu = 2\n", "f.toml:10: [switch] speedpu: unknown key (did you mean speedup? accepted: switching, "},
		{"[switch]\nvls = 2\n", "f.toml:10: [switch] vls: unknown key (vls is a key of [flow_control]; accepted: switching, "},
		{"warmup = 5\n", "f.toml:1: warmup: unknown key (warmup is a key of [sim]; accepted: name, "},
		{"[sim]\nwarmpu = 5\n", "f.toml:10: [sim] warmpu: unknown key (did you mean warmup? accepted: warmup, measure, drain, deadlock_window, max_measure, replications, latency_distribution, timeline, link_stats, stop_early, threads, max_memory)"},
	}
	for _, tc := range tests {
		text := base + tc.extra
		if !strings.HasPrefix(tc.extra, "[") {
			text = tc.extra + base
		}
		_, err := Parse("f.toml", []byte(text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.extra, err, tc.want)
		}
	}
}

// TestKeyReference checks that the key tables of docs/experiment-file.md
// are those the schema generates (-update rewrites them).
func TestKeyReference(t *testing.T) {
	const path = "../docs/experiment-file.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)(<!-- keys of ([a-z_ ]+): generated from experiments\.Schema[^\n]*-->\n)(.*?)(<!-- end of keys -->)`)
	found := map[string]bool{}
	doc := block.ReplaceAllStringFunc(string(b), func(m string) string {
		g := block.FindStringSubmatch(m)
		sec := g[2]
		if sec == "top level" {
			sec = ""
		}
		found[sec] = true
		return g[1] + "\n" + KeyReference(sec) + "\n" + g[4]
	})
	for _, sec := range append([]string{""}, sectionNames()...) {
		if !found[sec] {
			t.Errorf("%s: no generated key table of [%s]", path, sec)
		}
	}
	if doc == string(b) {
		return
	}
	if *updateDocs {
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: key tables differ from the schema's: run go test ./experiments -run TestKeyReference -update", path)
}

// TestOnePass checks that the independent problems of a file come in one
// pass: a section that decodes cleanly is built even when another does
// not.
func TestOnePass(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"routing and patterns with a bad [sim]",
			"[topology]\nkind = \"ring\"\nswitches = 4\nhosts_per_switch = 1\n[routing]\nalgorithm = \"dorr\"\n[traffic]\npatterns = [\"uniform\", \"bogus\"]\n[sim]\nwarmup = -1\n",
			[]string{"f.toml:6: [routing] algorithm: unknown routing \"dorr\"", "f.toml:8: [traffic] patterns: unknown pattern \"bogus\"", "f.toml:10: [sim] warmup: -1 is out of range"}},
		{"an unused topology key with a bad [flow_control]",
			"[topology]\nkind = \"dragonfly\"\ngroup_size = 4\nglobal_per_switch = 4\nhosts_per_switch = 2\ndims = [4]\n[routing]\nalgorithm = \"static\"\n[flow_control]\nvls = 0\n[traffic]\npatterns = [\"uniform\"]\n",
			[]string{"f.toml:6: [topology] dims: not used by topology dragonfly", "f.toml:10: [flow_control] vls: 0 is out of range"}},
		{"a bad and an unused topology key",
			"[topology]\nkind = \"dragonfly\"\ngroup_size = 0\ndims = [4]\nglobal_per_switch = 4\nhosts_per_switch = 2\nwidths = [1]\n[routing]\nalgorithm = \"static\"\n[flow_control]\nvls = 0\n[traffic]\npatterns = [\"uniform\"]\n",
			[]string{"f.toml:3: [topology] group_size: 0 is out of range", "f.toml:4: [topology] dims: not used by topology dragonfly", "f.toml:7: [topology] widths: not used by topology dragonfly", "f.toml:11: [flow_control] vls: 0 is out of range"}},
		{"no routing without its VLs",
			"[topology]\nkind = \"ring\"\nswitches = 4\nhosts_per_switch = 1\n[routing]\nalgorithm = \"dorr\"\n[flow_control]\nvls = 99\n[traffic]\npatterns = [\"bogus\"]\n",
			[]string{"f.toml:8: [flow_control] vls: 99 is out of range", "f.toml:10: [traffic] patterns: unknown pattern \"bogus\""}},
	}
	for _, tc := range tests {
		_, err := Parse("f.toml", []byte(tc.text))
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		msgs := strings.Split(err.Error(), "\n")
		if len(msgs) != len(tc.want) {
			t.Errorf("%s: %d problems, want %d:\n%v", tc.name, len(msgs), len(tc.want), err)
			continue
		}
		for i, w := range tc.want {
			if !strings.HasPrefix(msgs[i], w) {
				t.Errorf("%s: problem %d is %q, want %q…", tc.name, i+1, msgs[i], w)
			}
		}
	}
}
