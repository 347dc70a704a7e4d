package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"netsim/internal/ibsim"
	"netsim/topologies"
)

// openSMFabric starts ibsim on spec's network (ibsim.StartTest), has OpenSM's minhop
// give it LIDs (with extra options), and saves ibnetdiscover's output as
// DIR/fabric.ibnetdiscover. It returns the fabric, the directory, the
// output, and the directory of that OpenSM run's dumps.
func openSMFabric(t *testing.T, spec topologies.Spec, extra ...string) (f *ibsim.Fabric, dir string, disc []byte, minhop string) {
	t.Helper()
	built, err := topologies.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	f = ibsim.StartTest(t, built)
	dir = f.Dir()
	if minhop, err = f.OpenSM("minhop", extra...); err != nil {
		t.Fatal(err)
	}
	if disc, err = f.Run("ibnetdiscover"); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "fabric.ibnetdiscover", string(disc))
	return f, dir, disc, minhop
}

// fabricExperiment writes DIR/NAME.toml: the fabric DIR/fabric.ibnetdiscover
// routed by tables read from a file (routing: the [routing] keys after
// algorithm = "file"), more sections, patterns, and one short point at
// load.
func fabricExperiment(t *testing.T, dir, name, routing, more, patterns, load string) string {
	t.Helper()
	return writeFile(t, dir, name+".toml", `name = "`+name+`"
[topology]
kind = "file"
path = "fabric.ibnetdiscover"
format = "ibnetdiscover"
[routing]
algorithm = "file"
`+routing+`
`+more+`
[traffic]
patterns = [`+patterns+`]
packet_flits = 4
[sim]
warmup = 500
measure = 1000
[sweep]
loads = [`+load+`]
`)
}

// TestOpenSMFabric does what a user with a real InfiniBand cluster does,
// on a fabric simulated by ibsim: saves ibnetdiscover's output and the
// subnet manager's dumps (OpenSM's minhop, then DFSSSP with QoS, its SL2VL
// tables and its path records), writes experiment files naming them, and
// runs netsim check and netsim run on them. minhop on the ring is cyclic
// (OpenSM runs it on VL 0), DFSSSP with its SLs is deadlock-free, and a
// simulation of DFSSSP's tables delivers what it is offered at a low load.
func TestOpenSMFabric(t *testing.T) {
	f, dir, disc, minhop := openSMFabric(t, topologies.Spec{Kind: "ring", Switches: 5, HostsPerSwitch: 2})
	net, _, err := topologies.ReadIBNetDiscover(bytes.NewReader(disc), "fabric.ibnetdiscover")
	if err != nil {
		t.Fatal(err)
	}
	dfsssp := filepath.Join(dir, "dfsssp")
	if err := os.Mkdir(dfsssp, 0o755); err != nil {
		t.Fatal(err)
	}
	stop, err := f.Daemon("dfsssp", "-Q", "-D", "0x47", "--dump_files_dir", dfsssp)
	if err != nil {
		t.Fatal(err)
	}
	records, err := f.PathRecords(net)
	stop()
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dfsssp, "paths.saquery", string(records))

	experiment := func(name, routing string) string {
		return fabricExperiment(t, dir, name, routing, "[flow_control]\nvls = 8", `"uniform"`, "0.2")
	}
	minhopFile := experiment("minhop", `path = "`+filepath.Join(minhop, "opensm-lfts.dump")+`"`)
	dfssspFile := experiment("dfsssp", `path = "dfsssp/opensm-lfts.dump"
sl2vl = "dfsssp/opensm-sl2vl.dump"
path_sls = "dfsssp/paths.saquery"`)

	code, out, errs := netsim(t, "check", minhopFile)
	if code != exitFailed || !strings.Contains(out, "1 layer needed: CYCLE") {
		t.Errorf("check of OpenSM's minhop on a ring: exit %d, want %d and a cycle on 1 layer:\n%s%s", code, exitFailed, out, errs)
	}
	t.Logf("minhop: %s", out)
	if want := `port 4 -> switch "S`; !strings.Contains(out, want) || !strings.Contains(out, "(GUID 0x00000000002000") {
		t.Errorf("the cycle is not in the fabric's names (node description, GUID, InfiniBand port): want %q", want)
	}
	code, out, errs = netsim(t, "check", dfssspFile)
	t.Logf("dfsssp: %s", out)
	if code != exitOK || !strings.Contains(out, "deadlock-free") {
		t.Errorf("check of OpenSM's dfsssp with its SLs: exit %d, want %d, deadlock-free:\n%s%s", code, exitOK, out, errs)
	}
	outDir := filepath.Join(dir, "out")
	if code, _, errs = netsim(t, "run", dfssspFile, "-o", outDir); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	results := string(readOut(t, outDir, "results.jsonl"))
	t.Logf("results: %s", results)
	if !strings.Contains(results, `"routing":"file"`) || !strings.Contains(results, `"stable":true`) {
		t.Errorf("results of DFSSSP's tables at load 0.2: want a stable point:\n%s", results)
	}
	// A table that names a GUID the fabric lacks is refused with the line.
	lfts, err := os.ReadFile(filepath.Join(minhop, "opensm-lfts.dump"))
	if err != nil {
		t.Fatal(err)
	}
	guid := net.IB.Switches[0].GUID
	writeFile(t, dir, "alien.lft", strings.Replace(string(lfts), "guid 0x"+guid, "guid 0x00000000deadbeef", 1))
	alien := experiment("alien", `path = "alien.lft"`)
	if code, _, errs = netsim(t, "check", alien); code != exitUsage || !strings.Contains(errs, "alien.lft:") || !strings.Contains(errs, "switch GUID 0x00000000deadbeef") {
		t.Errorf("alien GUID: exit %d, stderr %q", code, errs)
	}
}

// TestOpenSMPartial simulates tables that leave pairs of hosts
// unreachable, as OpenSM's dnup computes on a Deimos-like chain of fat
// trees (its down/up rule finds no path between some boxes): refused by
// default, naming the pair; accepted with [routing] unreachable = "skip",
// which lists the pairs, checks the others for deadlock and simulates
// traffic among the reachable pairs only; netsim load refuses them.
func TestOpenSMPartial(t *testing.T) {
	f, dir, _, _ := openSMFabric(t, topologies.Spec{Kind: "deimos", Ports: 8, BoxHosts: []int{6, 4, 6}, ChainLinks: 2})
	dumps, err := f.OpenSM("dnup")
	if err != nil {
		t.Fatal(err)
	}
	lfts := filepath.Join(dumps, "opensm-lfts.dump")
	experiment := func(name, extra string) string {
		return fabricExperiment(t, dir, name, `path = "`+lfts+`"
`+extra, "", `"uniform", "randperm"`, "0.1")
	}
	code, _, errs := netsim(t, "check", experiment("strict", ""))
	if code != exitUsage || !strings.Contains(errs, "opensm-lfts.dump:") || !strings.Contains(errs, "has no port for host") {
		t.Fatalf("dnup's partial tables without unreachable = \"skip\": exit %d, stderr %q", code, errs)
	}
	skip := experiment("skip", `unreachable = "skip"`)
	code, out, errs := netsim(t, "check", skip)
	t.Logf("check: %s%s", out, errs)
	if code != exitOK || !strings.Contains(out, "ordered pairs of hosts unreachable by the tables") || !strings.Contains(out, "deadlock-free") {
		t.Errorf("check with unreachable = \"skip\": exit %d:\n%s%s", code, out, errs)
	}
	if code, _, errs = netsim(t, "load", skip); code != exitFailed || !strings.Contains(errs, "channel loads need every pair connected") {
		t.Errorf("load of partial tables: exit %d, stderr %q", code, errs)
	}
	outDir := filepath.Join(dir, "out")
	code, _, errs = netsim(t, "run", skip, "-o", outDir)
	if code != exitOK || !strings.Contains(errs, "traffic and loads are over the reachable pairs") {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(readOut(t, outDir, "results.jsonl"))), "\n") {
		t.Logf("%s", line)
		if !strings.Contains(line, `"unreachable_pairs":`) || !strings.Contains(line, `"sources":`) || !strings.Contains(line, `"stable":true`) {
			t.Errorf("a point at load 0.1 over the reachable pairs: want stable, with sources and unreachable_pairs:\n%s", line)
		}
	}
}

// TestOpenSMLMCDispersion simulates OpenSM's minhop tables with LMC 1 on
// a fat tree, each NIC drawing one of a destination's two LIDs per packet
// ([nic] dispersion = "random", the path-selection policy): the check
// covers both LIDs' routes and is acyclic, and a low load is stable.
func TestOpenSMLMCDispersion(t *testing.T) {
	_, dir, _, dumps := openSMFabric(t, topologies.Spec{Kind: "fattree", K: 4, N: 2}, "-l", "1")
	file := fabricExperiment(t, dir, "lmc", `path = "`+filepath.Join(dumps, "opensm-lfts.dump")+`"`,
		"[nic]\ndispersion = [\"static\", \"random\"]", `"uniform"`, "0.2")
	code, out, errs := netsim(t, "check", file)
	if code != exitOK || strings.Count(out, "deadlock-free") != 2 {
		t.Errorf("check: exit %d:\n%s%s", code, out, errs)
	}
	outDir := filepath.Join(dir, "out")
	if code, _, errs = netsim(t, "run", file, "-o", outDir); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	results := string(readOut(t, outDir, "results.jsonl"))
	if strings.Count(results, `"stable":true`) != 2 {
		t.Errorf("both dispersions at load 0.2: want stable points:\n%s", results)
	}

	// netsim's minhop with lmc = 1 computes OpenSM's tables: the same
	// results, point for point.
	own := strings.Replace(strings.Replace(readFile(t, file), `algorithm = "file"`, "algorithm = \"minhop\"\nlmc = 1", 1),
		`path = "`+filepath.Join(dumps, "opensm-lfts.dump")+`"`, "", 1)
	ownFile := writeFile(t, dir, "own.toml", own)
	ownDir := filepath.Join(dir, "own")
	if code, _, errs = netsim(t, "run", ownFile, "-o", ownDir); code != exitOK {
		t.Fatalf("run minhop lmc 1: exit %d: %s", code, errs)
	}
	got := map[string]bool{}
	for _, l := range strings.Split(string(readOut(t, ownDir, "results.jsonl")), "\n") {
		got[measured(l)] = true
	}
	for _, l := range strings.Split(results, "\n") {
		if !got[measured(l)] {
			t.Errorf("a point of OpenSM's tables has no equal among minhop lmc = 1's: %s", l)
		}
	}
}

// measured returns the measured fields of a results line, from
// "offered" on, without the routing and the configuration hash.
func measured(line string) string {
	if i := strings.Index(line, `"offered"`); i >= 0 {
		return line[i:]
	}
	return line
}
