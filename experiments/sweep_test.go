package experiments

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	switching "netsim/switch"
)

// sweepFile is a small experiment sweeping three keys: 2 × 2 × 2 variants.
const sweepFile = `name = "sw"
seed = 5
[topology]
kind = "flatfly"
dims = [[2, 2], [4, 2]]
hosts_per_switch = 2
[routing]
algorithm = ["dor", "distance+2"]
[flow_control]
vls = 4
buffer_flits = [16, 64]
[traffic]
patterns = ["uniform", "complement"]
packet_flits = 8
[sim]
warmup = 100
measure = 300
[sweep]
loads = [0.25]
`

func TestSweepExpansion(t *testing.T) {
	exps, err := ParseFile("sw.toml", []byte(sweepFile))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range exps {
		got = append(got, fmt.Sprintf("%s|%s|%s|%d|%s", e.Variant, e.label, e.Routing, e.FlowControl.BufferFlits, e.Params[0].Key))
	}
	want := []string{
		"topology.dims=[2,2];routing.algorithm=dor;flow_control.buffer_flits=16|flatfly 2x2 w1,1 c2|dor|16|topology.dims",
		"topology.dims=[2,2];routing.algorithm=dor;flow_control.buffer_flits=64|flatfly 2x2 w1,1 c2|dor|64|topology.dims",
		"topology.dims=[2,2];routing.algorithm=distance+2;flow_control.buffer_flits=16|flatfly 2x2 w1,1 c2|distance+2|16|topology.dims",
		"topology.dims=[2,2];routing.algorithm=distance+2;flow_control.buffer_flits=64|flatfly 2x2 w1,1 c2|distance+2|64|topology.dims",
		"topology.dims=[4,2];routing.algorithm=dor;flow_control.buffer_flits=16|flatfly 4x2 w1,1 c2|dor|16|topology.dims",
		"topology.dims=[4,2];routing.algorithm=dor;flow_control.buffer_flits=64|flatfly 4x2 w1,1 c2|dor|64|topology.dims",
		"topology.dims=[4,2];routing.algorithm=distance+2;flow_control.buffer_flits=16|flatfly 4x2 w1,1 c2|distance+2|16|topology.dims",
		"topology.dims=[4,2];routing.algorithm=distance+2;flow_control.buffer_flits=64|flatfly 4x2 w1,1 c2|distance+2|64|topology.dims",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("variants:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Variants with the same [topology] share one network, and with the same
	// routing one routing; the configuration hash tells every variant apart.
	if exps[0].net != exps[3].net || exps[0].net == exps[4].net {
		t.Error("networks not shared exactly between variants of equal [topology]")
	}
	if exps[0].routing != exps[1].routing || exps[0].routing == exps[2].routing {
		t.Error("routings not shared exactly between variants of equal topology and algorithm")
	}
	hashes := map[string]bool{}
	for _, e := range exps {
		hashes[e.config] = true
		if e.Name != "sw" || len(e.Params) != 3 || e.Hosts() != 2*len(e.net.Switches) {
			t.Errorf("variant %s: name %q, %d params", e.Variant, e.Name, len(e.Params))
		}
	}
	if len(hashes) != len(exps) {
		t.Errorf("%d distinct configuration hashes for %d variants", len(hashes), len(exps))
	}
	if !reflect.DeepEqual(exps[5].Params[0].Value, []any{int64(4), int64(2)}) || exps[5].Params[2].Value != int64(64) {
		t.Errorf("params of variant 5: %#v", exps[5].Params)
	}
	if got := string(paramsJSON(exps[5].Params)); got != `{"topology.dims":[4,2],"routing.algorithm":"dor","flow_control.buffer_flits":64}` {
		t.Errorf("params JSON %s", got)
	}
	// The expansion does not depend on anything but the text.
	again, err := ParseFile("sw.toml", []byte(sweepFile))
	if err != nil || len(again) != len(exps) || again[6].Variant != exps[6].Variant || again[6].config != exps[6].config {
		t.Errorf("second expansion differs: %v", err)
	}
	if _, err := Parse("sw.toml", []byte(sweepFile)); err == nil || !strings.Contains(err.Error(),
		"sw.toml: sweeps topology.dims, routing.algorithm, flow_control.buffer_flits: 8 variants, expected a single experiment") {
		t.Errorf("Parse of a sweep: %v", err)
	}
}

func TestSweepNotSwept(t *testing.T) {
	// patterns is a list of patterns, not a sweep; a single value in a
	// list is a sweep of one variant; booleans and strings sweep too.
	text := strings.Replace(sweepFile, "dims = [[2, 2], [4, 2]]", "dims = [2, 2]", 1)
	text = strings.Replace(text, `algorithm = ["dor", "distance+2"]`, `algorithm = ["dor"]`, 1)
	text = strings.Replace(text, "buffer_flits = [16, 64]", "buffer_flits = 16\n[switch]\nswitching = [\"wormhole\", \"cut-through\"]", 1)
	exps, err := ParseFile("sw.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(exps) != 2 || exps[0].Variant != "routing.algorithm=dor;switch.switching=wormhole" ||
		exps[1].Switch.Switching != switching.CutThrough || len(exps[1].Traffic.Patterns) != 2 {
		t.Errorf("got %d variants, first %q", len(exps), exps[0].Variant)
	}
}

func TestFormatValue(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{"dor", "dor"}, {"", `""`}, {"a;b", `"a;b"`}, {"x y", `"x y"`}, {int64(-3), "-3"},
		{0.25, "0.25"}, {true, "true"}, {[]any{int64(4), int64(4)}, "[4,4]"},
	} {
		if got := formatValue(tc.v); got != tc.want {
			t.Errorf("formatValue(%#v) = %s, want %s", tc.v, got, tc.want)
		}
	}
}

func TestSweepErrors(t *testing.T) {
	rep := func(pairs ...string) string {
		s := sweepFile
		for i := 0; i < len(pairs); i += 2 {
			if !strings.Contains(s, pairs[i]) {
				t.Fatalf("no %q", pairs[i])
			}
			s = strings.Replace(s, pairs[i], pairs[i+1], 1)
		}
		return s
	}
	tests := []struct {
		name string
		text string
		want []string // every error line
	}{
		{"element out of range", rep("buffer_flits = [16, 64]", "buffer_flits = [16, 0]"),
			[]string{"f.toml:11: [flow_control] buffer_flits: sweep value 2 (0): 0 is out of range (expected 1..32767)"}},
		{"element of the wrong type", rep(`["dor", "distance+2"]`, `["dor", 3]`),
			[]string{"f.toml:8: [routing] algorithm: sweep value 2 (3): expected a string, got integer 3"}},
		{"bad element of a dims sweep", rep("[[2, 2], [4, 2]]", "[[2, 2], [4, 0]]"),
			[]string{"f.toml:5: [topology] dims: sweep value 2 ([4,0]): element 2: 0 is out of range (expected 1..2147483647)"}},
		{"swept key of a compound problem", rep("[[2, 2], [4, 2]]", "[[2, 2], [4096, 2]]", "hosts_per_switch = 2", "hosts_per_switch = 1"),
			[]string{"f.toml:5: [topology] dims/widths: sweep value 2 ([4096,2]): radix 4097 on 8192 switches gives 33562624 ports, more than the limit of 8388608"}},
		{"duplicate value", rep("buffer_flits = [16, 64]", "buffer_flits = [16, 64, 16]"),
			[]string{"f.toml:11: [flow_control] buffer_flits: sweep value 3 (16) appears twice"}},
		{"empty sweep", rep("vls = 4", "vls = []"),
			[]string{"f.toml:10: [flow_control] vls: empty sweep (expected one value, or an array of the values to sweep)"}},
		{"arrays mixed with values", rep("[[2, 2], [4, 2]]", "[[2, 2], 4]"),
			[]string{"f.toml:5: [topology] dims: mixes arrays and single values (a sweep over dims is an array of arrays, as in dims = [[4, 4], [8, 8]])"}},
		{"unknown routing in one variant", rep(`["dor", "distance+2"]`, `["dor", "ugal"]`),
			[]string{`f.toml:8: [routing] algorithm: sweep value 2 (ugal): unknown routing "ugal" for topology flatfly`}},
		{"problems found decoding and building",
			rep(`["dor", "distance+2"]`, `["dor", "ugal"]`, "buffer_flits = [16, 64]", "buffer_flits = [16, 0]"),
			[]string{`f.toml:8: [routing] algorithm: sweep value 2 (ugal): unknown routing "ugal" for topology flatfly`,
				"f.toml:11: [flow_control] buffer_flits: sweep value 2 (0): 0 is out of range"}},
		{"problem of a combination", rep("packet_flits = 8", "packet_flits = [8, 32]"),
			[]string{"f.toml:11: [flow_control] buffer_flits: with flow_control.buffer_flits=16;traffic.packet_flits=32: 16 cannot hold a whole packet"}},
		{"problem of every variant, once", rep("measure = 300", "measure = 0"),
			[]string{"f.toml:17: [sim] measure: 0 is out of range"}},
		{"no sweep in [sim]", rep("measure = 300", "measure = [300, 600]"),
			[]string{"f.toml:17: [sim] measure: expected an integer, got an array (only the keys of [topology], [routing], [flow_control], [switch], [traffic] and [nic] can be swept)"}},
		{"pattern list is not a sweep", rep(`patterns = ["uniform", "complement"]`, `pattern = ["uniform", "complement"]`),
			[]string{"f.toml:13: [traffic] pattern: expected a string, got an array (several patterns are given as patterns = [...])"}},
		{"too many variants", rep("vls = 4", "vls = 4\n[switch]\nspeedup = ["+ints(60)+"]\nlink_latency = ["+ints(60)+"]\nrouting_delay = ["+ints(60)+"]"),
			[]string{"f.toml:5: the sweeps make more than 100000 variants"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseFile("f.toml", []byte(tc.text))
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("%v is not an *InputError", err)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tc.want) {
				t.Fatalf("%d errors, want %d:\n%s", len(lines), len(tc.want), err)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("error %d:\n got %s\nwant %s…", i+1, lines[i], w)
				}
			}
		})
	}
}

// ints returns "1, 2, ..., n".
func ints(n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprint(i + 1)
	}
	return strings.Join(s, ", ")
}

// TestExampleSweep: the sweep of docs/cli.md's walk-through includes its hardware file
// and expands into four variants.
func TestExampleSweep(t *testing.T) {
	exps, err := LoadFile("testdata/ff4x4-sweep.toml")
	if err != nil {
		t.Fatal(err)
	}
	if len(exps) != 4 || exps[3].Variant != "routing.algorithm=distance+2;flow_control.buffer_flits=64" ||
		exps[3].Hosts() != 64 || exps[3].FlowControl.VLs != 4 || exps[3].Sim.Measure != 5000 || len(Plan(exps)) != 8 {
		t.Errorf("%d variants, last %q", len(exps), exps[len(exps)-1].Variant)
	}
}
