package experiments

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"netsim/routing"
	"netsim/topologies"
)

// docExample is a TOML block of docs/experiment-file.md and the line its
// fence opens on.
type docExample struct {
	text string
	line int
}

// docExamples returns the TOML blocks of the markdown text.
func docExamples(text string) []docExample {
	var out []docExample
	var cur *strings.Builder
	start := 0
	for i, line := range strings.Split(text, "\n") {
		switch {
		case cur == nil && line == "```toml":
			cur, start = &strings.Builder{}, i+1
		case cur != nil && strings.HasPrefix(line, "```"):
			out = append(out, docExample{cur.String(), start})
			cur = nil
		case cur != nil:
			cur.WriteString(line + "\n")
		}
	}
	return out
}

// docBase completes an example of docs/experiment-file.md that shows only
// some sections into an experiment file: the sections the example lacks
// come from here (a 4×4 FlatFly routed by dor), and it names the example.
const docBase = `
name = "doc"
[topology]
kind = "flatfly"
dims = [4, 4]
hosts_per_switch = 2
[routing]
algorithm = "dor"
[flow_control]
vls = 4
[traffic]
patterns = ["uniform"]
[sim]
warmup = 100
measure = 100
[sweep]
loads = [0.5]
`

// docContexts are the sections an example needs beyond docBase, by a line
// of the example: what its prose says it assumes.
var docContexts = map[string]string{
	`algorithm = "mixed-ador"   # 4-D FlatFly: 4 orders × VL 0/1`:                                  "[topology]\nkind = \"flatfly\"\ndims = [2, 2, 2, 2]\nhosts_per_switch = 1",
	`path = "deimos.lft"   # OpenSM's opensm-lfts.dump or opensm.fdbs, dump_fts or ibroute output`: "[topology]\npreset = \"deimos\"",
	`receive_rate = 0.91`:         "[topology]\npreset = \"myrinet512\"\n[routing]\nalgorithm = \"source\"",
	`route_lag = 4`:               "[topology]\npreset = \"myrinet512\"\n[routing]\nalgorithm = \"source\"\n[traffic]\nkind = \"bisection_exchange\"\npatterns = [\"bisection\"]\n[sim]\n[sweep]",
	`kind = "bisection_exchange"`: "[sim]\n[sweep]",
	`kind = "workload"`:           "[sim]\n[sweep]",
	`torus_config = "torus-2QoS.conf"   # torus 4 4 1 / xp_link 0x… 0x… / xm_link … / yp_link … / ym_link …`: "[topology]\nkind = \"torus\"\ndims = [4, 4]\nhosts_per_switch = 1",
}

// TestExperimentFileExamples reads every TOML example of
// docs/experiment-file.md: a whole file as it is, an example of
// [topology] alone as netsim topo reads it (ParseTopology), others
// completed by docBase and the context the prose gives (docContexts). An
// example must read and build without error, so the page cannot show a
// key, value or combination netsim refuses.
func TestExperimentFileExamples(t *testing.T) {
	page, err := os.ReadFile("../docs/experiment-file.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := docExamples(string(page))
	if len(examples) < 10 {
		t.Fatalf("%d TOML examples in docs/experiment-file.md, expected at least 10", len(examples))
	}
	dir := t.TempDir()
	writeDocFixtures(t, dir)
	for _, ex := range examples {
		// An example of alternatives, one `topology = {...}` per line, is
		// read line by line.
		texts := []string{ex.text}
		if strings.HasPrefix(ex.text, "topology = {") {
			texts = strings.SplitAfter(strings.TrimSuffix(ex.text, "\n"), "\n")
		}
		for _, text := range texts {
			if err := readDocExample(t, dir, text); err != nil {
				t.Errorf("docs/experiment-file.md:%d: the example\n%s\ndoes not read: %v", ex.line, text, err)
			}
		}
	}
}

// readDocExample reads one example, written to a file of dir.
func readDocExample(t *testing.T, dir, text string) error {
	t.Helper()
	var ex map[string]any
	if _, err := toml.Decode(text, &ex); err != nil {
		return err
	}
	path := filepath.Join(dir, "example.toml")
	if _, ok := ex["name"]; ok {
		_, err := ParseFile(path, []byte(text))
		return err
	}
	if slices.Equal(slices.Collect(maps.Keys(ex)), []string{"topology"}) {
		_, err := ParseTopology(path, []byte(text))
		return err
	}
	var base map[string]any
	if _, err := toml.Decode(docBase, &base); err != nil {
		t.Fatal(err)
	}
	context := ""
	for line, c := range docContexts {
		if strings.Contains(text, line) {
			context = c
		}
	}
	var ctx map[string]any
	if _, err := toml.Decode(context, &ctx); err != nil {
		t.Fatal(err)
	}
	merged := mergeSections(mergeSections(base, ctx), ex)
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(merged); err != nil {
		t.Fatal(err)
	}
	_, err := ParseFile(path, buf.Bytes())
	return err
}

// mergeSections returns base with the sections of over: an empty section
// removes base's (an exchange has no [sim] or [sweep]), one that names a
// topology (kind or preset) replaces it, others are merged key by key.
func mergeSections(base, over map[string]any) map[string]any {
	out := maps.Clone(base)
	for k, v := range over {
		sec, ok := v.(map[string]any)
		old, had := out[k].(map[string]any)
		if ok && len(sec) == 0 {
			delete(out, k)
			continue
		}
		if !ok || !had || sec["kind"] != nil && k == "topology" || sec["preset"] != nil {
			out[k] = v
			continue
		}
		m := maps.Clone(old)
		maps.Copy(m, sec)
		out[k] = m
	}
	return out
}

// writeDocFixtures writes the files the examples name into dir: the
// included base ff4x4-hw.toml, an ibnetdiscover dump and deimos.lft.
func writeDocFixtures(t *testing.T, dir string) {
	t.Helper()
	hw := strings.Replace(docBase, `name = "doc"`, "", 1)
	files := map[string][]byte{"ff4x4-hw.toml": []byte(hw)}
	ib, err := os.ReadFile("../topologies/testdata/fabric.ibnetdiscover")
	if err != nil {
		t.Fatal(err)
	}
	files["fabric.ibnetdiscover"] = ib
	net, err := topologies.Build(topologies.Spec{Preset: "deimos"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := routing.New(routing.Spec{Algorithm: "minhop", VLs: 1}, net)
	if err != nil {
		t.Fatal(err)
	}
	var lft bytes.Buffer
	if err := routing.WriteLFT(&lft, r.(*routing.Tables), net); err != nil {
		t.Fatal(err)
	}
	files["deimos.lft"] = lft.Bytes()
	// One step of a ring allreduce on docBase's 32 hosts: i to i + 1.
	var step strings.Builder
	step.WriteString("src,dst,weight\n")
	for i := range 32 {
		fmt.Fprintf(&step, "%d,%d,1\n", i, (i+1)%32)
	}
	files["allreduce-step.csv"] = []byte(step.String())
	// A trace: a ring exchange on docBase's 32 hosts.
	var trace strings.Builder
	trace.WriteString("netsim-trace 1\nranks 32\n")
	for i := range 32 {
		fmt.Fprintf(&trace, "rank %d\nirecv 1 %d 4096\nisend 2 %d 4096\nwaitall\n", i, (i+31)%32, (i+1)%32)
	}
	files["app.trace"] = []byte(trace.String())
	// A torus-2QoS.conf for the 4×4 torus, naming its switches.
	torus, err := topologies.Build(topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 1})
	if err != nil {
		t.Fatal(err)
	}
	names, _ := torus.DisplayNames()
	at := map[[2]int32]string{}
	for s, sw := range torus.Switches {
		at[[2]int32{sw.Coord[0], sw.Coord[1]}] = names[s]
	}
	files["torus-2QoS.conf"] = []byte(fmt.Sprintf("torus 4 4 1\nxp_link %s %s\nxm_link %s %s\nyp_link %s %s\nym_link %s %s\n",
		at[[2]int32{0, 0}], at[[2]int32{1, 0}], at[[2]int32{0, 0}], at[[2]int32{3, 0}], at[[2]int32{0, 0}], at[[2]int32{0, 1}], at[[2]int32{0, 0}], at[[2]int32{0, 3}]))
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestExperimentFileErrors checks the error messages the prose of
// docs/experiment-file.md quotes: each is on the page and is what netsim
// says about the file that shows the problem.
func TestExperimentFileErrors(t *testing.T) {
	page, err := os.ReadFile("../docs/experiment-file.md")
	if err != nil {
		t.Fatal(err)
	}
	prose := strings.Join(strings.Fields(string(page)), " ")
	sweeps := strings.NewReplacer("vls = 4", "vls = 4\nbuffer_flits = [16, 0]",
		`patterns = ["uniform"]`, `patterns = ["uniform"]`+"\npacket_flits = [16, 32]").Replace(docBase)
	for _, c := range []struct{ quote, file string }{
		{"[flow_control] buffer_flits: sweep value 2 (0): 0 is out of range", sweeps},
		{"with flow_control.buffer_flits=16;traffic.packet_flits=32: 16 cannot hold a whole packet", sweeps},
	} {
		if !strings.Contains(prose, "`"+c.quote) {
			t.Errorf("docs/experiment-file.md does not quote %q", c.quote)
		}
		_, err := ParseFile(filepath.Join(t.TempDir(), "f.toml"), []byte(c.file))
		if err == nil || !strings.Contains(err.Error(), c.quote) {
			t.Errorf("the file\n%s\ngives %v, want an error with %q", c.file, err, c.quote)
		}
	}
}
