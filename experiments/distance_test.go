package experiments

import "testing"

// TestParseDistanceRouting: the topology-agnostic routings of seed 004 §3.7
// are accepted from TOML on any topology kind and use the configured VLs,
// as far as their paths reach (a crossbar's need one).
func TestParseDistanceRouting(t *testing.T) {
	for _, tc := range []struct {
		algorithm, topology, name string
		vls                       int
	}{
		{"distance", "kind = \"crossbar\"\nhosts = 16", "distance", 1},
		{"deflection+2", "kind = \"ring\"\nswitches = 8\nhosts_per_switch = 2", "deflection+2", 2},
		{"distance+3", "kind = \"flatfly\"\ndims = [4, 4]\nhosts_per_switch = 1", "distance+3", 2},
	} {
		text := edit(t, `algorithm = "dor"`, `algorithm = "`+tc.algorithm+`"`, "kind = \"crossbar\"\nhosts = 16", tc.topology)
		e, err := Parse("f.toml", []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", tc.algorithm, err)
		}
		if e.routing == nil || e.routing.Name() != tc.name || e.routing.VLs() != tc.vls {
			t.Errorf("%s: routing %v, want %s on %d VLs", tc.algorithm, e.routing, tc.name, tc.vls)
		}
	}
}
