package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRequestReplyCLI runs request–reply traffic from TOML: a saturation
// search per limit of outstanding requests on a 16-host crossbar. Every
// point has its round trip; with one request in flight a host sends at
// most a packet per round trip (Little's law), so no stable load exceeds
// packet_flits / rtt_avg, and the saturation is lower than with eight
// (which the crossbar's own limit caps).
func TestRequestReplyCLI(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "rr.toml", `name = "rr"
seed = 5
[topology]
kind = "crossbar"
hosts = 16
[routing]
algorithm = "minhop"
[traffic]
patterns = ["uniform"]
packet_flits = 8
outstanding = [1, 8]
reply_flits = 2
[sim]
warmup = 2000
measure = 4000
[sweep]
resolution = 40
`)
	code, _, errs := netsim(t, "run", "-q", path, "-o", filepath.Join(dir, "out"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(filepath.Join(dir, "out", "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sat := map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var l struct {
			Kind, Variant string
			Saturation    float64
			RTT           *float64 `json:"rtt_avg"`
			Offered       float64
			Stable        bool
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		switch l.Kind {
		case "saturation":
			sat[l.Variant] = l.Saturation
		case "point":
			if l.RTT == nil || *l.RTT < 2*8 {
				t.Fatalf("%s at %.3f: rtt_avg %v, want a round trip of at least 16 cycles", l.Variant, l.Offered, l.RTT)
			}
			if l.Variant == "traffic.outstanding=1" && l.Stable && l.Offered**l.RTT > 8*1.02 {
				t.Errorf("one outstanding, stable at %.3f with a round trip of %.1f cycles: more than a packet of 8 flits a round trip", l.Offered, *l.RTT)
			}
		}
	}
	one, eight := sat["traffic.outstanding=1"], sat["traffic.outstanding=8"]
	t.Logf("saturation: outstanding 1: %.3f, 8: %.3f", one, eight)
	// One request a round trip of at least 8 + 2 flit times and the
	// latencies.
	if one <= 0 || one > 8.0/10 || eight <= one {
		t.Errorf("saturation %.3f with 1 outstanding, %.3f with 8: want the second above", one, eight)
	}
}
