package experiments

import (
	"reflect"
	"strings"
	"testing"

	"netsim/congestion"
)

const congestionFile = `name = "cg"
seed = 9
[topology]
kind = "crossbar"
hosts = 16
[routing]
algorithm = ["dor", "distance"]
[congestion]
patterns = ["bisect", "ptrnvsptrn"]
runs = 50
commsize = 12
subset = "rand"
metrics = ["hist_acc_band"]
level = 0
first = "tree"
second = "null"
part_commsize = 8
paths = "dest"
`

func TestCongestionSection(t *testing.T) {
	exps, err := ParseFile("cg.toml", []byte(congestionFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(exps) != 2 || exps[0].Routing != "dor" || exps[1].Routing != "distance" {
		t.Fatalf("variants %d, want dor and distance", len(exps))
	}
	want := &congestion.Spec{Patterns: []string{"bisect", "ptrnvsptrn"}, Runs: 50, Commsize: 12, Subset: "rand",
		Metrics: []string{"hist_acc_band"}, Level: 0, First: "tree", Second: "null", PartCommsize: 8, Policy: "dest", Seed: 9}
	if got := exps[1].Congestion; !reflect.DeepEqual(got, want) {
		t.Errorf("spec %+v, want %+v", got, want)
	}
	// Defaults.
	e, err := Parse("d.toml", []byte("[topology]\nkind = \"crossbar\"\nhosts = 4\n[routing]\nalgorithm = \"dor\"\n[congestion]\npattern = \"rand\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	def := &congestion.Spec{Patterns: []string{"rand"}, Runs: congestion.DefaultRuns, Subset: "linear_bfs", Level: -1, Policy: "first", Seed: DefaultSeed}
	if !reflect.DeepEqual(e.Congestion, def) {
		t.Errorf("defaults %+v, want %+v", e.Congestion, def)
	}
}

func TestCongestionSectionErrors(t *testing.T) {
	tests := []struct {
		old, new, want string
	}{
		{`paths = "dest"`, `paths = "ecmp"`, `cg.toml:18: [congestion] paths: `},
		{`level = 0`, `level = -2`, `cg.toml:14: [congestion] level: `},
		{`subset = "rand"`, `subset = "bfs"`, `cg.toml:12: [congestion] subset: `},
		{`part_commsize = 8`, `part_commsize = 12`, `cg.toml:17: [congestion] part_commsize: 12 is out of range`},
		{`second = "null"`, `second = "ptrnvsptrn"`, `cg.toml:16: [congestion] second: unknown pattern "ptrnvsptrn"`},
		{`runs = 50`, `runs = 0`, `cg.toml:10: [congestion] runs: `},
		{`patterns = ["bisect", "ptrnvsptrn"]`, `patterns = ["bisect"]`, `[congestion] first: first, second and part_commsize are only used with the pattern ptrnvsptrn`},
	}
	for _, tt := range tests {
		text := strings.Replace(congestionFile, tt.old, tt.new, 1)
		_, err := ParseFile("cg.toml", []byte(text))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.new, err, tt.want)
		}
	}
	// Without [congestion], [traffic] stays required.
	_, err := Parse("t.toml", []byte("[topology]\nkind = \"crossbar\"\nhosts = 4\n[routing]\nalgorithm = \"dor\"\n"))
	if err == nil || !strings.Contains(err.Error(), "[traffic]") {
		t.Errorf("missing [traffic]: %v", err)
	}
}
