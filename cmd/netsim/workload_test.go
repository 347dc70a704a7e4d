package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// workloadLine is what the tests read of a workload results line.
type workloadLine struct {
	Kind, Pattern, Trace, Placement string
	Variant                         string
	Ranks                           int
	MessageBytes                    int64   `json:"message_bytes"`
	Completion                      int64   `json:"completion"`
	Bound                           int64   `json:"lower_bound"`
	Efficiency                      float64 `json:"efficiency"`
	RankCompletion                  []int64 `json:"rank_completion"`
}

// workloadLines runs the experiment file path with -o dir and returns its
// workload lines.
func workloadLines(t *testing.T, path, dir string) []workloadLine {
	t.Helper()
	code, _, errs := netsim(t, "run", "-q", path, "-o", dir)
	if code != exitOK {
		t.Fatalf("%s: exit %d: %s", path, code, errs)
	}
	data, err := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []workloadLine
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var l workloadLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		if l.Kind != "workload" {
			t.Fatalf("a %s line: %s", l.Kind, line)
		}
		out = append(out, l)
	}
	return out
}

const collectivesFile = `name = "collectives"
[topology]
kind = "fattree"
k = 4
n = 2
[routing]
algorithm = "dmodk"
[flow_control]
buffer_flits = 64
[traffic]
kind = "workload"
patterns = ["alltoall", "allreduce-ring", "allreduce-rd", "bcast", "halo3d"]
message_bytes = 32768
mtu_bytes = 1024
flit_bytes = 16
placement = "%s"
`

// TestCollectivesCLI runs the collectives from TOML on a fat tree of full
// bisection under every placement. Placed linearly or by switch, every
// step of each collective is a shift that d-mod-k routes without
// contention, and each reaches 90 % of its injection bound (with
// 2,048-flit messages, latency is a few per cent); placed at random the
// steps become random permutations, which collide on the up-links of
// static routing, and they take longer. A second run resumes every
// result.
func TestCollectivesCLI(t *testing.T) {
	for _, place := range []string{"linear", "random", "by_switch"} {
		dir := t.TempDir()
		path := writeFile(t, dir, "c.toml", strings.Replace(collectivesFile, "%s", place, 1))
		lines := workloadLines(t, path, filepath.Join(dir, "out"))
		if len(lines) != 5 {
			t.Fatalf("%s: %d lines, want 5", place, len(lines))
		}
		for _, l := range lines {
			t.Logf("%s %s: %d cycles, bound %d, efficiency %.3f", place, l.Pattern, l.Completion, l.Bound, l.Efficiency)
			least := 0.9
			if place == "random" {
				least = 0.3
			}
			if l.Bound <= 0 || l.Completion < l.Bound || l.Efficiency < least || len(l.RankCompletion) != 16 || l.Ranks != 16 {
				t.Errorf("%s %s: completion %d, bound %d, efficiency %.3f, %d ranks: want at least %.0f %% of the bound, 16 ranks",
					place, l.Pattern, l.Completion, l.Bound, l.Efficiency, len(l.RankCompletion), 100*least)
			}
		}
		code, _, errs := netsim(t, "run", path, "-o", filepath.Join(dir, "out"))
		if code != exitOK || !strings.Contains(errs, "resuming from 5 workloads") {
			t.Errorf("%s: rerun: exit %d, stderr %q, want 5 results resumed", place, code, errs)
		}
	}
}

// TestWorkloadShards runs a sweep of workloads in two shards, each
// writing its table and charts (one with a single message size for some
// workloads: a chart of one point), and merges them: the lines of an
// unsharded run, byte for byte.
func TestWorkloadShards(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "c.toml", strings.Replace(strings.Replace(collectivesFile, "%s", "random", 1),
		"message_bytes = 32768", "message_bytes = [1024, 8192]", 1))
	for _, args := range [][]string{{"-o", "full"}, {"-o", "s0", "--shard", "0/2"}, {"-o", "s1", "--shard", "1/2"}} {
		args[1] = filepath.Join(dir, args[1])
		if code, _, errs := netsim(t, append([]string{"run", "-q", path}, args...)...); code != exitOK {
			t.Fatalf("run %v: exit %d: %s", args, code, errs)
		}
	}
	merged := filepath.Join(dir, "merged.jsonl")
	if code, _, errs := netsim(t, "merge", filepath.Join(dir, "s0", "results.jsonl"), filepath.Join(dir, "s1", "results.jsonl"), "-o", merged, "--check", path); code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	if a, b := string(readOut(t, dir, "merged.jsonl")), string(readOut(t, filepath.Join(dir, "full"), "results.jsonl")); a != b || strings.Count(a, "\n") != 10 {
		t.Errorf("merged shards differ from the unsharded run, or not 10 lines:\n%s\nwant\n%s", a, b)
	}
}

// TestTraceReplayCLI replays the shipped ring-exchange traces, converted
// DUMPI included, from TOML: each completes, and the 64 KiB ring takes
// longer than the 4 KiB one by about the flits added.
func TestTraceReplayCLI(t *testing.T) {
	dir := t.TempDir()
	testdata, err := filepath.Abs("../../workload/testdata")
	if err != nil {
		t.Fatal(err)
	}
	var dumps []string
	for r := range 4 {
		dumps = append(dumps, filepath.Join(testdata, "dumpi-ring-000"+string(rune('0'+r))+".txt"))
	}
	conv := filepath.Join(dir, "dumpi.trace")
	if code, _, errs := netsim(t, append(append([]string{"trace", "convert"}, dumps...), "-o", conv)...); code != exitOK {
		t.Fatalf("trace convert: exit %d: %s", code, errs)
	}
	path := writeFile(t, dir, "t.toml", `name = "replay"
[topology]
kind = "torus"
dims = [4, 4]
hosts_per_switch = 1
[routing]
algorithm = "dor"
[flow_control]
vls = 2
[traffic]
kind = "workload"
patterns = ["trace"]
trace = ["`+filepath.Join(testdata, "ring8-4KiB.trace")+`", "`+filepath.Join(testdata, "ring8-64KiB.trace")+`", "`+conv+`"]
flit_bytes = 64
link_gbps = 100
`)
	lines := workloadLines(t, path, filepath.Join(dir, "out"))
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3", len(lines))
	}
	byTrace := map[string]workloadLine{}
	for _, l := range lines {
		byTrace[l.Trace] = l
		t.Logf("%s: %d ranks, %d cycles", l.Trace, l.Ranks, l.Completion)
	}
	small, large := byTrace["ring8-4KiB.trace"].Completion, byTrace["ring8-64KiB.trace"].Completion
	// Two exchanges of 1,024 − 64 more flits each: the difference, give
	// or take the network's contention.
	if d := large - small; d < 2*(1024-64) || d > 3*(1024-64) {
		t.Errorf("64 KiB took %d cycles more than 4 KiB, want about %d", d, 2*(1024-64))
	}
	if l := byTrace["dumpi.trace"]; l.Ranks != 4 || l.Completion <= 0 {
		t.Errorf("converted DUMPI trace: %+v", l)
	}
}

func TestWorkloadBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.trace", "netsim-trace 1\nranks 2\nrank 0\nsend 1 8\nrank 1\nrecv 0 8 x\n")
	base := `name = "w"
[topology]
kind = "crossbar"
hosts = 4
[routing]
algorithm = "minhop"
[traffic]
kind = "workload"
`
	runCLICases(t, []cliCase{
		{"bad trace", []string{"validate", writeFile(t, dir, "a.toml", base+"patterns = [\"trace\"]\ntrace = \"bad.trace\"\n")}, exitUsage, "",
			"[traffic] trace: " + bad + ":6: recv: bad tag \"x\" (expected 0 to 2147483647 or any)"},
		{"too many ranks", []string{"validate", writeFile(t, dir, "b.toml", base+"patterns = [\"alltoall\"]\nranks = 5\n")}, exitUsage, "",
			"[traffic] patterns: alltoall: ranks = 5, more than the 4 hosts"},
		{"unknown workload", []string{"validate", writeFile(t, dir, "c.toml", base+"patterns = [\"allreduce\"]\n")}, exitUsage, "",
			"[traffic] patterns: unknown workload \"allreduce\" (known: alltoall, allreduce-ring, allreduce-rd, bcast, halo3d, trace)"},
		{"load key", []string{"validate", writeFile(t, dir, "d.toml", base+"patterns = [\"bcast\"]\npacket_flits = 4\n")}, exitUsage, "",
			"[traffic] packet_flits: not used with kind = \"workload\""},
		{"workload key with load", []string{"validate", writeFile(t, dir, "e.toml", strings.Replace(base, "kind = \"workload\"\n", "", 1)+"patterns = [\"uniform\"]\nplacement = \"random\"\n")}, exitUsage, "",
			"[traffic] placement: only used with kind = \"workload\""},
		{"placement file", []string{"validate", writeFile(t, dir, "f.toml", base+"patterns = [\"bcast\"]\nplacement = \"file\"\nplacement_file = \"hosts.txt\"\n")}, exitUsage, "",
			"hosts.txt: no such file"},
		{"sweep key", []string{"validate", writeFile(t, dir, "g.toml", base+"patterns = [\"bcast\"]\n[sweep]\nloads = [0.1]\n")}, exitUsage, "",
			"[sweep] loads: not used with kind = \"workload\" (a workload is one task per pattern, not a load sweep)"},
		{"dumpi convert error", []string{"trace", "convert", writeFile(t, dir, "d-0000.txt", "MPI_Comm_split entering at walltime 1.000000000, cputime 0.000000000 seconds in thread 0.\nMPI_Comm_split returning at walltime 1.000000100, cputime 0.000000000 seconds in thread 0.\n"), "-o", filepath.Join(dir, "x.trace")}, exitUsage, "",
			"d-0000.txt:1: MPI_Comm_split: unsupported MPI call"},
	})
}

// TestWorkloadsDocExample: the experiment docs/workloads.md opens with is
// docs/example/collectives.toml, and it validates.
func TestWorkloadsDocExample(t *testing.T) {
	const example = "docs/example/collectives.toml"
	file := readRepo(t, example)
	if !strings.Contains(readRepo(t, "docs/workloads.md"), "```toml\n"+file+"```\n") {
		t.Errorf("docs/workloads.md does not show %s", example)
	}
	code, out, errs := netsim(t, "validate", filepath.Join(repoRoot, example))
	if code != exitOK || !strings.Contains(out, "30 workloads") {
		t.Errorf("validate: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestWorkloadKeys: the workload keys of [traffic] act from TOML — repeat
// runs each program again (three broadcasts take about three times one),
// halo_grid shapes halo3d, placement_file places the ranks, link_gbps
// sets the µs of a cycle — and netsim trace info describes a trace.
func TestWorkloadKeys(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "hosts.txt", "# rank 0 on host 15, and so on\n15\n14\n13\n12\n11\n10\n9\n8\n7\n6\n5\n4\n3\n2\n1\n0\n")
	file := func(name, extra string) string {
		return writeFile(t, dir, name, strings.Replace(strings.Replace(collectivesFile, "%s", "file", 1),
			`patterns = ["alltoall", "allreduce-ring", "allreduce-rd", "bcast", "halo3d"]`, `patterns = ["bcast", "halo3d"]`, 1)+
			"placement_file = \"hosts.txt\"\nhalo_grid = [4, 2, 2]\nlink_gbps = 200\n"+extra)
	}
	once := workloadLines(t, file("once.toml", ""), filepath.Join(dir, "once"))
	thrice := workloadLines(t, file("thrice.toml", "repeat = 3\n"), filepath.Join(dir, "thrice"))
	for i, l := range thrice {
		one := once[i]
		if l.Pattern != one.Pattern || l.Placement != "file hosts.txt" || float64(l.Completion) < 2.9*float64(one.Completion) || float64(l.Completion) > 3.1*float64(one.Completion) {
			t.Errorf("%s: %d cycles repeated 3 times, %d once (placement %q)", l.Pattern, l.Completion, one.Completion, l.Placement)
		}
	}
	data := string(readOut(t, filepath.Join(dir, "thrice"), "results.jsonl"))
	// 16-byte flits at 200 Gb/s: 0.64 ns a cycle.
	for _, want := range []string{`"repeat":3`, `"cycle_ns":0.64`, `"placement":"file hosts.txt"`} {
		if !strings.Contains(data, want) {
			t.Errorf("results lack %s:\n%s", want, data)
		}
	}
	code, out, errs := netsim(t, "trace", "info", "../../workload/testdata/ring8-4KiB.trace")
	if code != exitOK || out != "ring8-4KiB.trace: 8 ranks, 64 operations, 16 messages, 65536 bytes sent, 8.000 µs of computing (all ranks)\n" {
		t.Errorf("trace info: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
