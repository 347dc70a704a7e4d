package experiments

import (
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
