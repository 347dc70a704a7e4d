package experiments

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// exchangeFile is a small bisection exchange on a 64-host Clos of 16-port
// crossbars; it sweeps the dispersion.
const exchangeFile = `name = "ebb"
[topology]
kind = "clos"
ports = 16
hosts = 64
[routing]
algorithm = "source"
[flow_control]
kind = "stopgo"
buffer_flits = 24
stop_mark = 18
go_mark = 9
[switch]
switching = "wormhole"
[nic]
dispersion = ["static", "random", "adaptive"]
[traffic]
kind = "bisection_exchange"
patterns = ["bisection", "bridge"]
messages = 4
message_bytes = 4096
mtu_bytes = 1024
flit_bytes = 64
bisections = 3
`

// exchangeJSON runs exps with jobs jobs and returns the JSON lines of the run.
func exchangeJSON(t *testing.T, exps []*Experiment, jobs int) string {
	t.Helper()
	var out bytes.Buffer
	err := Runner{Jobs: jobs}.Run(context.Background(), exps, func(r Record) error { return WriteJSON(&out, r) })
	if err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestExchangeRun(t *testing.T) {
	exps, err := ParseFile("ebb.toml", []byte(exchangeFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(exps) != 3 || len(Plan(exps)) != 6 {
		t.Fatalf("%d variants, %d tasks; want 3 and 6", len(exps), len(Plan(exps)))
	}
	out := exchangeJSON(t, exps, 2)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d lines, want 6 (3 dispersions × 2 patterns):\n%s", len(lines), out)
	}
	want := []struct{ disp, pattern string }{
		{"static", "bisection"}, {"static", "bridge"}, {"random", "bisection"},
		{"random", "bridge"}, {"adaptive", "bisection"}, {"adaptive", "bridge"},
	}
	for i, l := range lines {
		var r struct {
			Kind, Dispersion, Pattern, Point, Variant string
			Hosts, Patterns, Packets                  int
			OutOfOrder                                int `json:"out_of_order"`
			Min, Avg, Max                             float64
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("line %d: %v: %s", i, err, l)
		}
		np := map[string]int{"bisection": 3, "bridge": 1}[r.Pattern]
		if r.Kind != "ebb" || r.Dispersion != want[i].disp || r.Pattern != want[i].pattern || r.Hosts != 64 || r.Patterns != np {
			t.Errorf("line %d: %s", i, l)
		}
		if key := "ebb|" + r.Variant + "|" + r.Pattern + "|ebb"; r.Point != key {
			t.Errorf("line %d: point %q, want %q", i, r.Point, key)
		}
		if !(0.2 < r.Min && r.Min <= r.Avg && r.Avg <= r.Max && r.Max < 1) || r.Packets != np*64*4*4 {
			t.Errorf("line %d: implausible numbers: %s", i, l)
		}
		if (r.Dispersion == "static") != (r.OutOfOrder == 0) && r.Pattern == "bisection" {
			t.Errorf("line %d: out of order %d with %s dispersion", i, r.OutOfOrder, r.Dispersion)
		}
	}
	// Determinism: the same file gives the same lines with any number of
	// jobs.
	if again := exchangeJSON(t, exps, 1); again != out {
		t.Errorf("not deterministic:\n%s\n%s", out, again)
	}
}

func TestExchangeErrors(t *testing.T) {
	tests := []struct {
		name, old, new, want string
	}{
		{"dispersion", `dispersion = ["static", "random", "adaptive"]`, `dispersion = "probe"`,
			`ebb.toml:16: [nic] dispersion: unknown value "probe"`},
		{"probability", `dispersion = ["static", "random", "adaptive"]`, "dispersion = \"adaptive\"\nprobability = 1.5",
			"ebb.toml:17: [nic] probability: 1.5 is out of range"},
		{"threshold unused", `dispersion = ["static", "random", "adaptive"]`, "dispersion = \"random\"\nthreshold = 3",
			"ebb.toml:17: [nic] threshold: only used with dispersion = \"adaptive\" or \"probing\""},
		{"max_probes unused", `dispersion = ["static", "random", "adaptive"]`, "dispersion = \"adaptive\"\nmax_probes = 3",
			"ebb.toml:17: [nic] max_probes: only used with dispersion = \"probing\""},
		{"max_probes range", `dispersion = ["static", "random", "adaptive"]`, "dispersion = \"probing\"\nmax_probes = 0",
			"ebb.toml:17: [nic] max_probes:"},
		{"receive_rate zero", `dispersion = ["static", "random", "adaptive"]`, "dispersion = \"static\"\nreceive_rate = 0",
			"ebb.toml:17: [nic] receive_rate: 0 is out of range (expected 0 < receive_rate ≤ 1)"},
		{"receive_rate above 1", `dispersion = ["static", "random", "adaptive"]`, "dispersion = \"static\"\nreceive_rate = 1.1",
			"ebb.toml:17: [nic] receive_rate: 1.1 is out of range"},
		{"receive_rate type", `dispersion = ["static", "random", "adaptive"]`, "dispersion = \"static\"\nreceive_rate = \"fast\"",
			"ebb.toml:17: [nic] receive_rate:"},
		{"route_lag range", `dispersion = ["static", "random", "adaptive"]`, "dispersion = \"adaptive\"\nroute_lag = -1",
			"ebb.toml:17: [nic] route_lag: -1 is out of range"},
		{"route_lag on load", "dispersion = [\"static\", \"random\", \"adaptive\"]\n[traffic]\nkind = \"bisection_exchange\"\npatterns = [\"bisection\", \"bridge\"]\nmessages = 4\nmessage_bytes = 4096\nmtu_bytes = 1024\nflit_bytes = 64\nbisections = 3",
			"dispersion = \"adaptive\"\nroute_lag = 2\n[traffic]\nkind = \"load\"\npattern = \"uniform\"",
			"[nic] route_lag: only used with [traffic] kind = \"bisection_exchange\""},
		{"pattern", `patterns = ["bisection", "bridge"]`, `patterns = ["uniform"]`,
			`ebb.toml:19: [traffic] patterns: unknown exchange pattern "uniform"`},
		{"mtu", `mtu_bytes = 1024`, `mtu_bytes = 16`, "ebb.toml:22: [traffic] mtu_bytes: 16 is less than flit_bytes = 64"},
		{"message packets", `message_bytes = 4096`, `message_bytes = 1099511627776`, "ebb.toml:21: [traffic] message_bytes: 1099511627776 bytes are 1073741824 packets of mtu_bytes = 1024, more than the 1048576 a message may have"},
		{"packet_flits", `messages = 4`, "messages = 4\npacket_flits = 3", "ebb.toml:21: [traffic] packet_flits: not used with kind"},
		{"sim phase", `messages = 4`, "messages = 4\n[sim]\nwarmup = 100", "ebb.toml:22: [sim] warmup: not used with kind = \"bisection_exchange\""},
		{"link stats", `messages = 4`, "messages = 4\n[sim]\nlink_stats = true", "ebb.toml:22: [sim] link_stats: not used with kind = \"bisection_exchange\""},
		{"sweep", `messages = 4`, "messages = 4\n[sweep]\nmode = \"saturation\"", "ebb.toml:22: [sweep] mode: not used with kind = \"bisection_exchange\""},
		{"exchange key on load", `kind = "bisection_exchange"`, `kind = "load"`, "[traffic] messages: only used with kind = \"bisection_exchange\""},
		{"not multipath", `algorithm = "source"`, `algorithm = "distance"`, "ebb.toml:16: [nic] dispersion: sweep value 2 (random): random needs a multipath source routing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Replace(exchangeFile, tc.old, tc.new, 1)
			if text == exchangeFile {
				t.Fatalf("edit %q not applied", tc.old)
			}
			_, err := ParseFile("ebb.toml", []byte(text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

// parseOne parses text as ebb.toml, which must define one experiment.
func parseOne(t *testing.T, text string) *Experiment {
	t.Helper()
	exps, err := ParseFile("ebb.toml", []byte(text))
	if err != nil || len(exps) != 1 {
		t.Fatalf("%d experiments, error %v", len(exps), err)
	}
	return exps[0]
}

// TestReceiveRateKey: [nic] receive_rate reaches the NICs (a slower
// receive side lowers the bisection bandwidth), its default 1 leaves the
// configuration hash as it was, and another value changes it.
func TestReceiveRateKey(t *testing.T) {
	base := strings.Replace(exchangeFile, `dispersion = ["static", "random", "adaptive"]`, `dispersion = "static"`, 1)
	plain := parseOne(t, base)
	one := parseOne(t, strings.Replace(base, `dispersion = "static"`, "dispersion = \"static\"\nreceive_rate = 1", 1))
	slow := parseOne(t, strings.Replace(base, `dispersion = "static"`, "dispersion = \"static\"\nreceive_rate = 0.5", 1))
	if slow.NIC.ReceiveRate != 0.5 || one.NIC.ReceiveRate != 0 {
		t.Fatalf("receive rates %v and %v, want 0.5 and 0 (the default)", slow.NIC.ReceiveRate, one.NIC.ReceiveRate)
	}
	if configHash(plain) != configHash(one) || configHash(plain) == configHash(slow) {
		t.Errorf("hashes %s (no key), %s (1), %s (0.5): want the first two equal, the third different", configHash(plain), configHash(one), configHash(slow))
	}
	avg := func(e *Experiment) float64 {
		var r struct {
			Avg         float64
			ReceiveRate *float64 `json:"receive_rate"`
		}
		line := strings.SplitN(exchangeJSON(t, []*Experiment{e}, 1), "\n", 2)[0]
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if (r.ReceiveRate == nil) != (e.NIC.ReceiveRate == 0) || r.ReceiveRate != nil && *r.ReceiveRate != e.NIC.ReceiveRate {
			t.Errorf("line %s: receive_rate does not match %v", line, e.NIC.ReceiveRate)
		}
		return r.Avg
	}
	if a, b := avg(plain), avg(slow); !(b < 0.5 && b < a-0.05) {
		t.Errorf("bisection avg %v with receive_rate 0.5, %v without; want it below 0.5 and 0.05 below", b, a)
	}
}

// TestRouteLagKey: [nic] route_lag reaches the NICs (adaptive routes
// chosen 8 packets ahead change more often and lose bandwidth on the
// bridge), is reported in the JSON line, and its default 0 leaves the
// configuration hash as it was.
func TestRouteLagKey(t *testing.T) {
	base := strings.Replace(exchangeFile, `dispersion = ["static", "random", "adaptive"]`, `dispersion = "adaptive"`, 1)
	base = strings.Replace(base, `patterns = ["bisection", "bridge"]`, `patterns = ["bridge"]`, 1)
	base = strings.Replace(base, "messages = 4\n", "messages = 64\n", 1)
	plain := parseOne(t, base)
	zero := parseOne(t, strings.Replace(base, `dispersion = "adaptive"`, "dispersion = \"adaptive\"\nroute_lag = 0", 1))
	lagged := parseOne(t, strings.Replace(base, `dispersion = "adaptive"`, "dispersion = \"adaptive\"\nroute_lag = 8", 1))
	if lagged.NIC.RouteLag != 8 || lagged.dispersion().Lag != 8 || zero.NIC.RouteLag != 0 {
		t.Fatalf("route lags %d (→ %d) and %d, want 8 and 0", lagged.NIC.RouteLag, lagged.dispersion().Lag, zero.NIC.RouteLag)
	}
	if r := parseOne(t, strings.Replace(base, `dispersion = "adaptive"`, "dispersion = \"random\"\nroute_lag = 2", 1)); r.dispersion().Lag != 2 {
		t.Errorf("random with route_lag 2: lag %d, want 2 (accepted: the pipeline exists whatever the dispersion)", r.dispersion().Lag)
	}
	if configHash(plain) != configHash(zero) || configHash(plain) == configHash(lagged) {
		t.Errorf("hashes %s (no key), %s (0), %s (8): want the first two equal, the third different", configHash(plain), configHash(zero), configHash(lagged))
	}
	type line struct {
		Avg          float64
		RouteLag     *int  `json:"route_lag"`
		RouteChanges int64 `json:"route_changes"`
	}
	run := func(e *Experiment) line {
		var r line
		l := strings.TrimSpace(exchangeJSON(t, []*Experiment{e}, 1))
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if (r.RouteLag == nil) != (e.NIC.RouteLag == 0) || r.RouteLag != nil && *r.RouteLag != e.NIC.RouteLag {
			t.Errorf("line %s: route_lag does not match %d", l, e.NIC.RouteLag)
		}
		return r
	}
	a, b := run(plain), run(lagged)
	t.Logf("bridge: route_lag 0 %.3f (%d changes), 8 %.3f (%d changes)", a.Avg, a.RouteChanges, b.Avg, b.RouteChanges)
	if !(b.Avg < a.Avg-0.05 && b.RouteChanges > a.RouteChanges) {
		t.Errorf("bridge: route_lag 8 gives %.3f with %d changes, 0 gives %.3f with %d; want 0.05 less bandwidth and more changes",
			b.Avg, b.RouteChanges, a.Avg, a.RouteChanges)
	}
}
