package experiments

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: no experiment file, however malformed, makes Parse panic;
// it returns an experiment or an error.
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.toml")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(QuickStartText()))
	f.Add([]byte("[topology]\nkind = \"ring\"\nswitches = 3\nhosts_per_switch = 1\n[routing]\nalgorithm = \"dor-nodateline\"\n[traffic]\npattern = \"uniform\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := Parse("fuzz.toml", data)
		if (e == nil) == (err == nil) {
			t.Fatalf("Parse returned experiment %v and error %v", e, err)
		}
	})
}

// FuzzReadResults: no results file, however malformed, makes the reader
// panic; a torn last line is only ever the last, and what it reads can
// be stored for resuming without panicking.
func FuzzReadResults(f *testing.F) {
	exps := testExperiments(f)
	var b bytes.Buffer
	for _, r := range []Record{
		{Kind: KindPoint, Experiment: exps[0], Pattern: exps[0].Traffic.Patterns[0], Offered: 0.5},
		{Kind: KindSaturation, Experiment: exps[0], Pattern: exps[0].Traffic.Patterns[0], Saturation: 0.4},
		{Kind: KindError, Experiment: exps[0], Pattern: exps[0].Traffic.Patterns[0], Offered: 0.6, Err: errors.New("boom")},
	} {
		if err := WriteJSON(&b, r); err != nil {
			f.Fatal(err)
		}
	}
	f.Add(b.Bytes())
	f.Add(b.Bytes()[:b.Len()-7]) // torn
	f.Add([]byte("{\"kind\":\"workload\",\"point\":\"x||alltoall|workload\",\"experiment\":\"x\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines, torn, err := ReadResults(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			return
		}
		if torn >= 0 && (torn > int64(len(data)) || bytes.IndexByte(data[torn:], '\n') >= 0 && bytes.IndexByte(data[torn:], '\n') != len(data)-int(torn)-1) {
			t.Fatalf("torn line at %d of %d bytes is not the last", torn, len(data))
		}
		_, _ = NewStore(exps, lines)
	})
}

// FuzzIncludes: no pair of files, the first including the second, makes
// loading panic or hang: it returns experiments or an error.
func FuzzIncludes(f *testing.F) {
	hw, err := os.ReadFile("testdata/ff4x4-hw.toml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte("name = \"x\"\ninclude = [\"b.toml\"]\n[routing]\nalgorithm = \"dor\"\n"), hw)
	f.Add([]byte("include = [\"b.toml\", \"b.toml\"]\n"), []byte("include = [\"b.toml\"]\n"))
	f.Add([]byte("include = \"b.toml\"\n"), []byte("a = [[[[[[1]]]]]]\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "b.toml"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		exps, err := ParseFile(filepath.Join(dir, "a.toml"), a)
		if (exps == nil) == (err == nil) {
			t.Fatalf("ParseFile returned %d experiments and error %v", len(exps), err)
		}
	})
}

// FuzzSweep: no --set value makes the override parser or the sweep
// expansion panic; a sweep gives at most maxVariants variants.
func FuzzSweep(f *testing.F) {
	base, err := os.ReadFile("testdata/ff4x4-sweep.toml")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"routing.algorithm=[\"dor\", \"distance\"]", "flow_control.vls=[1, 2, 4]", "seed=7",
		"switch.link_latencies=[[1, 2], [2, 1]]", "sim.warmup=[", "traffic.patterns=[\"uniform\"]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, set string) {
		o, err := ParseOverride(set)
		if err != nil {
			return
		}
		exps, err := ParseFile("testdata/ff4x4-sweep.toml", base, o)
		if err == nil && len(exps) > maxVariants {
			t.Fatalf("%d variants", len(exps))
		}
	})
}
