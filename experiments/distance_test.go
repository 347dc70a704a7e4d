package experiments

import "testing"

// TestParseDistanceRouting: the topology-agnostic routings of seed 004 §3.7
// are accepted from TOML on any topology kind and use the configured VLs.
func TestParseDistanceRouting(t *testing.T) {
	for _, tc := range []struct{ algorithm, topology, name string }{
		{"distance", "kind = \"crossbar\"\nhosts = 16", "distance"},
		{"deflection+2", "kind = \"ring\"\nswitches = 8\nhosts_per_switch = 2", "deflection+2"},
		{"distance+3", "kind = \"flatfly\"\ndims = [4, 4]\nhosts_per_switch = 1", "distance+3"},
	} {
		text := edit(t, `algorithm = "dor"`, `algorithm = "`+tc.algorithm+`"`, "kind = \"crossbar\"\nhosts = 16", tc.topology)
		e, err := Parse("f.toml", []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", tc.algorithm, err)
		}
		if e.routing == nil || e.routing.Name() != tc.name || e.routing.VLs() != 2 {
			t.Errorf("%s: routing %v, want %s on 2 VLs", tc.algorithm, e.routing, tc.name)
		}
	}
}
