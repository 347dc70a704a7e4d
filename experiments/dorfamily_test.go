package experiments

import (
	"strings"
	"testing"
)

// TestParseDORFamily: the DOR family of seed 004 §3.3 is accepted from TOML
// on FlatFlies and Slim Fly × FlatFly products, and too few VLs is reported
// against [flow_control] vls.
func TestParseDORFamily(t *testing.T) {
	const (
		ff4 = "kind = \"flatfly\"\ndims = [2, 2, 2, 2]\nhosts_per_switch = 1"
		sff = "kind = \"product\"\nhosts_per_switch = 1\n" +
			"[[topology.factors]]\nkind = \"slimfly\"\nq = 3\n" +
			"[[topology.factors]]\nkind = \"flatfly\"\ndims = [2]"
	)
	for _, tc := range []struct {
		algorithm, topology, vls string
		need                     int
		err                      string
	}{
		{"mixed-ador", ff4, "vls = 8", 8, ""},
		{"twisted-dor", ff4, "vls = 2", 2, ""},
		{"dor", sff, "vls = 2", 2, ""},
		{"twisted-mixed-dor", sff, "vls = 8", 4, ""},
		{"mixed-ador", ff4, "vls = 4", 0, "f.toml:11: [flow_control] vls: routing mixed-ador needs at least 8 virtual lanes, got 4"},
		{"dor", sff, "vls = 1", 0, "[flow_control] vls: routing dor needs at least 2 virtual lanes, got 1"},
	} {
		text := edit(t, `algorithm = "dor"`, `algorithm = "`+tc.algorithm+`"`, "vls = 2", tc.vls, "kind = \"crossbar\"\nhosts = 16", tc.topology,
			`patterns = ["uniform", "complement"]`, `patterns = ["uniform"]`)
		e, err := Parse("f.toml", []byte(text))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %s", tc.algorithm, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.algorithm, err)
		}
		if e.routing == nil || e.routing.Name() != tc.algorithm || e.routing.VLs() != tc.need {
			t.Errorf("%s: routing %v, want %s on %d VLs", tc.algorithm, e.routing, tc.algorithm, tc.need)
		}
	}
}
