package experiments

import (
	"strings"
	"testing"
)

// TestParseDragonflySlimFlyRouting: the Dragonfly and Slim Fly routings of
// seed 004 §3.5–3.6 are accepted from TOML on their topology, and too few
// VLs or a routing of the other family are reported on the key's line.
func TestParseDragonflySlimFlyRouting(t *testing.T) {
	const dragonfly = "kind = \"dragonfly\"\ngroup_size = 4\nglobal_per_switch = 2\nhosts_per_switch = 2\narrangement = \"palmtree\"\nomit_one_global = true"
	const slimfly = "kind = \"slimfly\"\nq = 4\nhosts_per_switch = 2"
	for _, tc := range []struct {
		algorithm, topology string
		vls, need           int
		want                string // error, "" for none
	}{
		{"static", dragonfly, 2, 2, ""},
		{"GSID", dragonfly, 6, 6, ""},
		{"SD", dragonfly, 8, 6, ""},
		{"minimal", slimfly, 2, 2, ""},
		{"GI", dragonfly, 4, 6, "f.toml:14: [flow_control] vls: routing GI needs at least 6 virtual lanes, got 4"},
		{"minimal", dragonfly, 2, 2, `f.toml:11: [routing] algorithm: unknown routing "minimal" for topology dragonfly`},
		{"GSID", slimfly, 6, 6, `f.toml:8: [routing] algorithm: unknown routing "GSID" for topology slimfly`},
	} {
		text := edit(t, `algorithm = "dor"`, `algorithm = "`+tc.algorithm+`"`, "kind = \"crossbar\"\nhosts = 16", tc.topology,
			"vls = 2", "vls = "+string(rune('0'+tc.vls)))
		e, err := Parse("f.toml", []byte(text))
		if tc.want != "" {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want %q", tc.algorithm, err, tc.want)
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
