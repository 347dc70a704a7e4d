package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBench runs two cases of netsim bench, shortened, each in a process
// of its own: a JSON line per case with the point's measurements and the
// rates derived from them, and the table; --threads 2 moves the same
// flits and says so; an unknown case and no threads are refused.
func TestBench(t *testing.T) {
	code, out, errs := netsim(t, "bench", "--case", "torus-8x8-1flit,flatfly-8x8-c8-1flit", "--scale", "0.01", "--json")
	if code != exitOK {
		t.Fatalf("bench: exit %d, %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	for i, want := range []struct {
		name   string
		hosts  int
		cycles int64
	}{{"torus-8x8-1flit", 64, 2000}, {"flatfly-8x8-c8-1flit", 512, 200}} {
		var r benchResult
		if err := json.Unmarshal([]byte(lines[i]), &r); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if r.Case != want.name || r.Hosts != want.hosts || r.Cycles != want.cycles || r.FlitHops <= 0 || r.Events <= 0 ||
			!(r.CPU > 0) || r.PeakRSS <= 0 || r.NsPerFlitHop != r.CPU*1e9/float64(r.FlitHops) ||
			r.FlitHopsPerCPUSecond != float64(r.FlitHops)/r.CPU || !strings.HasPrefix(r.Build, "netsim ") {
			t.Errorf("line %d: %+v, want %s on %d hosts over %d cycles", i+1, r, want.name, want.hosts, want.cycles)
		}
	}
	code, out, _ = netsim(t, "bench", "--case", "torus-8x8-1flit", "--scale", "0.005")
	if code != exitOK || !strings.HasPrefix(out, "case ") || !strings.Contains(out, "\ntorus-8x8-1flit             64     1000 ") {
		t.Errorf("table: exit %d\n%s", code, out)
	}
	// --threads: the same point on two threads, said in the line.
	var one, two benchResult
	for _, c := range []struct {
		threads string
		r       *benchResult
	}{{"1", &one}, {"2", &two}} {
		code, out, errs := netsim(t, "bench", "--case", "torus-8x8-1flit", "--scale", "0.005", "--threads", c.threads, "--json")
		if code != exitOK {
			t.Fatalf("bench --threads %s: exit %d, %s", c.threads, code, errs)
		}
		if err := json.Unmarshal([]byte(strings.TrimSpace(out)), c.r); err != nil {
			t.Fatal(err)
		}
	}
	if one.Threads != 1 || two.Threads != 2 || two.FlitHops != one.FlitHops || two.Cycles != one.Cycles {
		t.Errorf("--threads 2: %+v, want the flit-hops and cycles of --threads 1, %+v", two, one)
	}
	if code, _, errs := netsim(t, "bench", "--threads", "0"); code != exitUsage || !strings.Contains(errs, "--threads") {
		t.Errorf("--threads 0: exit %d, %s", code, errs)
	}
	if code, _, errs := netsim(t, "bench", "--case", "nope"); code != exitUsage || !strings.Contains(errs, `no case "nope"`) {
		t.Errorf("unknown case: exit %d, %s", code, errs)
	}
}
