package main

import (
	"encoding/json"
	"strings"
	"testing"
)

const exchangeExperiment = `name = "ebb"
[topology]
kind = "clos"
ports = 8
hosts = 16
[routing]
algorithm = "source"
[flow_control]
kind = "stopgo"
buffer_flits = 24
[switch]
switching = "wormhole"
[nic]
dispersion = "probing"
max_probes = 4
[traffic]
kind = "bisection_exchange"
messages = 2
message_bytes = 2048
mtu_bytes = 512
flit_bytes = 64
bisections = 2
`

func TestRunExchange(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "ebb.toml", exchangeExperiment)
	code, out, errOut := netsim(t, "run", "--json", "-q", f)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Kind, Dispersion, Pattern string
		Hosts                     int
		Min, Avg, Max             float64
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	if r.Kind != "ebb" || r.Dispersion != "probing" || !strings.Contains(out, `"max_probes":4,`) || !strings.Contains(out, `"probes":`) || r.Pattern != "bisection" || r.Hosts != 16 ||
		!(0 < r.Min && r.Min <= r.Avg && r.Avg <= r.Max && r.Max <= 1) {
		t.Errorf("bad line %q", out)
	}
	code, out, _ = netsim(t, "run", "-q", f)
	if code != exitOK || !strings.Contains(out, "16 hosts  probing  bisection ×2  EBB min") {
		t.Errorf("text output (exit %d): %q", code, out)
	}
	code, out, _ = netsim(t, "validate", f)
	if code != exitOK || !strings.HasSuffix(strings.TrimSpace(out), "ok (1 exchange)") {
		t.Errorf("validate (exit %d): %q", code, out)
	}
	code, out, _ = netsim(t, "run", "--dry-run", f)
	if code != exitOK || !strings.Contains(out, "ebb  -  bisection  exchange\n") {
		t.Errorf("--dry-run (exit %d): %q", code, out)
	}
}
