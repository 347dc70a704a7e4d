package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// linksFile is a 4×4 FlatFly (16 switches of 3 + 3 switch ports and 2
// hosts) with link_stats, two loads of complement on 2 VLs.
const linksFile = `name = "lk"
[topology]
kind = "flatfly"
dims = [4, 4]
hosts_per_switch = 2
[routing]
algorithm = "dor"
[flow_control]
vls = 2
[traffic]
patterns = ["complement"]
[sim]
warmup = 500
measure = 1000
link_stats = true
[sweep]
mode = "loads"
loads = [0.2, 0.6]
`

// TestRunLinkStats: netsim run -o DIR with [sim] link_stats writes each
// point's links into DIR/links/ — a CSV row per link and VL and per link,
// the charts, a Graphviz graph of the links between switches — and a
// rerun that resumes writes nothing more; without -o it is refused.
func TestRunLinkStats(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "lk.toml", linksFile)
	out := filepath.Join(dir, "out")
	if code, _, errs := netsim(t, "run", "-q", file, "-o", out); code != exitOK {
		t.Fatalf("run: exit %d, %s", code, errs)
	}
	var names []string
	entries, err := os.ReadDir(filepath.Join(out, "links"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		names = append(names, e.Name())
	}
	var want []string
	for _, load := range []string{"0.2", "0.6"} {
		for _, suffix := range []string{"-heatmap.png", "-heatmap.svg", "-sorted.png", "-sorted.svg", ".csv", ".dot"} {
			want = append(want, "lk_complement_"+load+suffix)
		}
	}
	if !slices.Equal(names, want) {
		t.Fatalf("links/ holds %q, want %q", names, want)
	}
	f, err := os.Open(filepath.Join(out, "links", "lk_complement_0.6.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// 16 switches × 8 ports and 32 hosts' links, each 2 VLs and all.
	links := 16*8 + 32
	if len(rows) != 1+3*links || strings.Join(rows[0], ",") != "from,from_port,to,to_port,dim,vl,flits,utilisation,stalled" {
		t.Fatalf("%d rows, header %q; want %d", len(rows), rows[0], 1+3*links)
	}
	busy := 0
	for _, r := range rows[1:] {
		if r[5] == "all" && r[0] != "" && strings.HasPrefix(r[2], "switch") && strings.HasPrefix(r[0], "switch") && r[7] > "0.9" {
			busy++
		}
	}
	// Complement at 0.6 under DOR: each switch's 2 hosts send to one
	// switch over one link (dimension 0 first), which carries 1.2 flits a
	// cycle's worth of demand and so runs full.
	if busy == 0 {
		t.Errorf("no link between switches ran above 0.9 at load 0.6 of complement")
	}
	dot, err := os.ReadFile(filepath.Join(out, "links", "lk_complement_0.6.dot"))
	if err != nil || strings.Count(string(dot), " -> ") != 16*6 {
		t.Errorf("graph with %d edges (%v), want %d", strings.Count(string(dot), " -> "), err, 16*6)
	}
	// Resumed: nothing simulated, nothing written again.
	os.RemoveAll(filepath.Join(out, "links"))
	if code, _, errs := netsim(t, "run", "-q", file, "-o", out); code != exitOK {
		t.Fatalf("rerun: exit %d, %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(out, "links")); !os.IsNotExist(err) {
		t.Errorf("the resumed run wrote links/ (%v)", err)
	}
	if code, _, errs := netsim(t, "run", "-q", file); code != exitUsage || !strings.Contains(errs, "[sim] link_stats needs -o DIR") {
		t.Errorf("without -o: exit %d, %s", code, errs)
	}
}
