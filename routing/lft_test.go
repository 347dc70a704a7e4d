package routing

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"netsim/topologies"
)

// checkLFTServiceLevels checks the SL blocks of LFT text against the SLs
// r's Source gives: line "0x%04x %03d" of switch S's block is the SL of
// packets from S's first host to LID − 1.
func checkLFTServiceLevels(t *testing.T, text string, r Routing, net *topologies.Network) {
	t.Helper()
	first := map[int]int{} // switch → its first host
	for h := len(net.Hosts) - 1; h >= 0; h-- {
		first[int(net.Hosts[h].Switch)] = h
	}
	sw, lines := -1, 0
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "SL of paths from switch") {
			sw = -1
			if _, err := fmt.Sscanf(line[strings.LastIndex(line, "('S"):], "('S%d')", &sw); err != nil {
				t.Fatalf("SL header %q: %v", line, err)
			}
			sw--
			continue
		}
		var lid, sl int
		if n, _ := fmt.Sscanf(line, "0x%x %d", &lid, &sl); n != 2 || sw < 0 || strings.Contains(line, ":") {
			if strings.HasPrefix(line, "Unicast") {
				sw = -1
			}
			continue
		}
		if _, want, _ := r.Source(first[sw], lid-1); sl != want {
			t.Fatalf("%s: switch %d to LID %d: SL %d in the LFT, Source gives %d", r.Name(), sw, lid, sl, want)
		}
		lines++
	}
	want := 0 // one layer: no SL blocks
	if r.SLs() > 1 {
		want = len(net.Switches) * len(net.Hosts)
	}
	if lines != want {
		t.Fatalf("%s: %d SL lines, want %d", r.Name(), lines, want)
	}
}

// tableCase is a table engine on a small network, for the tests that
// write and read its tables.
type tableCase struct {
	alg  string
	spec topologies.Spec
}

// tableCases returns the table engines the LFT tests write and read: with
// layers (dfsssp), on an irregular network (updn), and on a fat tree
// (dmodk).
func tableCases() []tableCase {
	return []tableCase{
		{"dfsssp", topologies.Spec{Kind: "ring", Switches: 5, HostsPerSwitch: 2}},
		{"updn", topologies.Spec{Kind: "random", Switches: 10, HostsPerSwitch: 2, Links: 16, Seed: 5}},
		{"dmodk", topologies.Spec{Kind: "fattree", K: 4, N: 2}},
	}
}

// build returns tc's network and the engine's tables on it, with 4 VLs.
func (tc tableCase) build(t *testing.T) (*topologies.Network, *Tables) {
	t.Helper()
	net := mustBuild(t, tc.spec)
	r, err := New(Spec{Algorithm: tc.alg, VLs: 4}, net)
	if err != nil {
		t.Fatal(err)
	}
	return net, r.(*Tables)
}

func TestTablesRoundTrip(t *testing.T) {
	for _, tc := range tableCases() {
		net, orig := tc.build(t)
		r := Routing(orig)
		dir := t.TempDir()
		var lft, dot bytes.Buffer
		if err := WriteLFT(&lft, orig, net); err != nil {
			t.Fatal(err)
		}
		checkLFTServiceLevels(t, lft.String(), r, net)
		if err := topologies.WriteDot(&dot, net, PortDestinations(r, net)); err != nil {
			t.Fatal(err)
		}
		for _, f := range []struct {
			name string
			data []byte
		}{{"t.lft", lft.Bytes()}, {"t.dot", dot.Bytes()}} {
			path := filepath.Join(dir, f.name)
			if err := os.WriteFile(path, f.data, 0o644); err != nil {
				t.Fatal(err)
			}
			back, err := New(Spec{Algorithm: "file", Path: path, VLs: 4}, net)
			if err != nil {
				t.Fatalf("%s %s: %v", tc.alg, f.name, err)
			}
			got := back.(*Tables)
			if !slices.Equal(got.lft, orig.lft) {
				t.Errorf("%s %s: forwarding tables differ after the round trip", tc.alg, f.name)
			}
			// The dot format carries no layers; the LFT text does.
			if f.name == "t.lft" && (got.Layers() != orig.Layers() || !slices.Equal(got.layer, orig.layer)) {
				t.Errorf("%s: layers %d → %d or path layers differ after the round trip", tc.alg, orig.Layers(), got.Layers())
			}
		}
		if tc.alg == "dfsssp" && (orig.Layers() != 2 || r.SLs() != 2) {
			t.Errorf("dfsssp on the 5-ring: %d layers and %d SLs, want 2", orig.Layers(), r.SLs())
		}
	}
}

// TestReadLFTIbroute reads ibroute's format (name without quotes, switch
// LIDs and port 0) for a two-switch network.
func TestReadLFTIbroute(t *testing.T) {
	net := mustBuild(t, topologies.Spec{Kind: "flatfly", Dims: []int{2}, HostsPerSwitch: 1})
	link := func(s int) int {
		for p, port := range net.Switches[s].Ports {
			if port.Kind == topologies.SwitchPort {
				return p + 1
			}
		}
		return -1
	}
	host := func(s int) int { return int(net.Hosts[s].Port) + 1 }
	text := "Unicast lids [0x0-0x4] of switch Lid 3 guid 0x0000000000000001 (S1):\n" +
		"  Lid  Out   Destination\n       Port     Info \n" +
		lidLine(1, host(0), "Channel Adapter portguid 0x11: 'H1'") +
		lidLine(2, link(0), "Channel Adapter portguid 0x12: 'H2'") +
		lidLine(3, 0, "Switch portguid 0x01: 'S1'") +
		lidLine(4, link(0), "Switch portguid 0x02: 'S2'") +
		"4 valid lids dumped \n" +
		"Unicast lids [0x0-0x4] of switch Lid 4 guid 0x0000000000000002 (S2):\n" +
		lidLine(1, link(1), "Channel Adapter portguid 0x11: 'H1'") +
		lidLine(2, host(1), "Channel Adapter portguid 0x12: 'H2'")
	tab, err := ReadLFT(strings.NewReader(text), "x.lft", net, 1)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Port(0, 1) != link(0)-1 || tab.Port(1, 0) != link(1)-1 || tab.Port(1, 1) != host(1)-1 {
		t.Errorf("ports %d %d %d", tab.Port(0, 1), tab.Port(1, 0), tab.Port(1, 1))
	}
	// OpenSM's opensm-lfts.dump: quoted names, "#" before the node, "N lids dumped".
	opensm := strings.NewReplacer("[0x0-0x4]", "[0-4]", " : (", " # ", ")\n", "\n", "(S1):", "('S1'):", "(S2):", "('S2'):",
		"valid lids dumped", "lids dumped", "portguid 0x", "portguid 0x016").Replace(text)
	tab2, err := ReadLFT(strings.NewReader(opensm), "opensm-lfts.dump", net, 1)
	if err != nil {
		t.Fatalf("%v in\n%s", err, opensm)
	}
	if !slices.Equal(tab2.lft, tab.lft) {
		t.Errorf("OpenSM dump read as %v, ibroute text as %v", tab2.lft, tab.lft)
	}
	// A missing entry and an unknown switch are errors naming the file.
	cut := strings.Replace(text, lidLine(2, link(0), "Channel Adapter portguid 0x12: 'H2'"), "", 1)
	_, err = ReadLFT(strings.NewReader(cut), "x.lft", net, 1)
	if err == nil || err.Error() != `x.lft:1: switch "S1" has no port for host "H2" (expected a line "0x0002 PORT" in its block)` {
		t.Errorf("missing entry: %v", err)
	}
	_, err = ReadLFT(strings.NewReader(strings.Replace(text, "(S2)", "(S9)", 1)), "x.lft", net, 1)
	if err == nil || !strings.Contains(err.Error(), "x.lft:9:") {
		t.Errorf("unknown switch: %v, want an error at x.lft:9", err)
	}
}

func lidLine(lid, port int, info string) string {
	return "0x" + strings.Repeat("0", 3) + string(rune('0'+lid)) + " " + "00" + string(rune('0'+port)) + " : (" + info + ")\n"
}

func TestFileRoutingErrors(t *testing.T) {
	net := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 3, HostsPerSwitch: 1})
	for _, tc := range []struct {
		spec Spec
		want string
	}{
		{Spec{Algorithm: "file", VLs: 1}, "path: missing"},
		{Spec{Algorithm: "file", Path: "x.txt", Format: "csv", VLs: 1}, "format: unknown"},
		{Spec{Algorithm: "file", Path: filepath.Join(t.TempDir(), "none.lft"), VLs: 1}, "path:"},
		{Spec{Algorithm: "sssp", Path: "x.lft", VLs: 1}, "path: only algorithm"},
		{Spec{Algorithm: "dmodk", VLs: 1}, "tree families"},
	} {
		if _, err := New(tc.spec, net); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.spec, err, tc.want)
		}
	}
}

// ringLFT is the LFT text of minhop on a ring of 3 switches with one host
// each: port 1 of switch Sk leads to Hk, port 2 to the next switch, port 3
// to the previous one; H1–H3 have LIDs 1–3 and S1–S3 LIDs 4–6.
var ringLFT = []string{
	"Unicast lids [0x1-0x3] of switch Lid 4 guid 0x0002c90300000001 ('S1'):", // line 1
	"0x0001 001 : (Channel Adapter portguid 0x0002c90400000001: 'H1')",
	"0x0002 002 : (Channel Adapter portguid 0x0002c90400000002: 'H2')",
	"0x0003 003 : (Channel Adapter portguid 0x0002c90400000003: 'H3')",
	"Unicast lids [0x1-0x3] of switch Lid 5 guid 0x0002c90300000002 ('S2'):", // line 5
	"0x0001 003 : (Channel Adapter portguid 0x0002c90400000001: 'H1')",
	"0x0002 001 : (Channel Adapter portguid 0x0002c90400000002: 'H2')",
	"0x0003 002 : (Channel Adapter portguid 0x0002c90400000003: 'H3')",
	"Unicast lids [0x1-0x3] of switch Lid 6 guid 0x0002c90300000003 ('S3'):", // line 9
	"0x0001 002 : (Channel Adapter portguid 0x0002c90400000001: 'H1')",
	"0x0002 003 : (Channel Adapter portguid 0x0002c90400000002: 'H2')",
	"0x0003 001 : (Channel Adapter portguid 0x0002c90400000003: 'H3')",
}

// bareRing is ringLFT without the names of the destinations.
var bareRing = func() []string {
	lines := slices.Clone(ringLFT)
	for i, l := range lines {
		lines[i], _, _ = strings.Cut(l, " : ")
	}
	return lines
}()

// ringSL is an SL block per switch of ringLFT, from line 13 on.
var ringSL = []string{
	"SL of paths from switch Lid 4 guid 0x0002c90300000001 ('S1'):", // line 13
	"0x0001 000", "0x0002 000", "0x0003 001",
	"SL of paths from switch Lid 5 guid 0x0002c90300000002 ('S2'):", // line 17
	"0x0001 001", "0x0002 000", "0x0003 000",
	"SL of paths from switch Lid 6 guid 0x0002c90300000003 ('S3'):", // line 21
	"0x0001 000", "0x0002 001", "0x0003 000",
}

// editLines returns lines joined, with line n (from 1) replaced by
// edits[n]; an empty edit deletes the line.
func editLines(lines []string, edits map[int]string) string {
	var b strings.Builder
	for i, l := range lines {
		if e, ok := edits[i+1]; ok {
			l = e
			if l == "" {
				continue
			}
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// TestReadLFTErrors: every contradiction in LFT text is an error naming
// the file, the line and what was expected.
func TestReadLFTErrors(t *testing.T) {
	net := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 3, HostsPerSwitch: 1})
	withSL := append(slices.Clone(ringLFT), ringSL...)
	for _, tc := range []struct {
		name  string
		lines []string
		edits map[int]string
		want  string
	}{
		{"duplicate LID", ringLFT, map[int]string{3: ringLFT[2] + "\n0x0002 003"},
			`x.lft:4: second line for LID 0x0002 in the "Unicast lids" block of switch "S1" (expected one line per LID; the first is at line 3)`},
		{"duplicate switch LID", ringLFT, map[int]string{4: ringLFT[3] + "\n0x0004 000\n0x0004 000"},
			`x.lft:6: second line for LID 0x0004 in the "Unicast lids" block of switch "S1" (expected one line per LID; the first is at line 5)`},
		{"duplicate SL", withSL, map[int]string{15: "0x0002 000\n0x0002 001"},
			`x.lft:16: second line for LID 0x0002 in the "SL of paths from" block of switch "S1" (expected one line per LID; the first is at line 15)`},
		{"repeated block", ringLFT, map[int]string{12: ringLFT[11] + "\n" + ringLFT[0]},
			`x.lft:13: second "Unicast lids" block for switch "S1" (expected one per switch; the first is at line 1)`},
		{"repeated SL block", withSL, map[int]string{24: ringSL[11] + "\n" + ringSL[4]},
			`x.lft:25: second "SL of paths from" block for switch "S2" (expected one per switch; the first is at line 17)`},
		{"host with two LIDs", ringLFT, map[int]string{4: "0x0009 003 : (Channel Adapter portguid 0x0002c90400000003: 'H3')"},
			`x.lft:8: host "H3" has LID 0x0003 here, but 0x0009 at line 4 (expected one LID per node)`},
		{"LID of two hosts", ringLFT, map[int]string{10: "0x0001 002 : (Channel Adapter portguid 0x0002c90400000002: 'H2')"},
			`x.lft:10: LID 0x0001 is host "H2" here, but host "H1" at line 2 (expected one node per LID)`},
		{"switch with two LIDs", ringLFT, map[int]string{4: ringLFT[3] + "\n0x0005 002 : (Switch portguid 0x0002c90300000001: 'S1')"},
			`x.lft:5: switch "S1" has LID 0x0005 here, but 0x0004 at line 1 (expected one LID per node)`},
		{"header Lid after an entry", ringLFT, map[int]string{4: ringLFT[3] + "\n0x0007 002 : (Switch portguid 0x0002c90300000002: 'S2')"},
			`x.lft:6: switch "S2" has LID 0x0005 here, but 0x0007 at line 5 (expected one LID per node)`},
		{"LID of a host and a switch", ringLFT, map[int]string{4: ringLFT[3] + "\n0x0003 002 : (Switch portguid 0x0002c90300000002: 'S2')"},
			`x.lft:5: second line for LID 0x0003 in the "Unicast lids" block of switch "S1" (expected one line per LID; the first is at line 4)`},
		{"host LID of a switch", ringLFT, map[int]string{4: "0x0003 003 : (Switch portguid 0x0002c90300000003: 'S3')"},
			`x.lft:8: LID 0x0003 is host "H3" here, but switch "S3" at line 4 (expected one node per LID)`},
		{"unknown LID", ringLFT, map[int]string{4: "0x0009 003"},
			`x.lft:4: LID 0x0009 names no node (expected a line of the file to name it, or netsim's numbering in a file without names)`},
		{"unknown LID without names", bareRing, map[int]string{4: "0x0009 003"},
			`x.lft:4: LID 0x0009 names no node (expected a line of the file to name it, or netsim's numbering in a file without names)`},
		{"header Lid against netsim's numbering", bareRing, map[int]string{1: strings.Replace(bareRing[0], "Lid 4", "Lid 9", 1), 4: bareRing[3] + "\n0x0004 000"},
			`x.lft:5: switch "S1" has LID 0x0004 here, but 0x0009 at line 1 (expected one LID per node)`},
		{"header Lid of a host without names", bareRing, map[int]string{5: strings.Replace(bareRing[4], "Lid 5", "Lid 1", 1)},
			`x.lft:6: switch "S2" sends its own LID 0x0001 to port 3 (expected port 0)`},
		{"line too long", ringLFT, map[int]string{4: "0x0003 003 : (Channel Adapter portguid 0x0002c90400000003: '" + strings.Repeat("H", 1<<20) + "')"},
			`x.lft:4: bufio.Scanner: token too long (a line may hold at most 1 MiB)`},
		{"LID 0", ringLFT, map[int]string{4: "0x0000 003"},
			`x.lft:4: LID 0x0000 is out of range (expected 0x0001-0xffff)`},
		{"LID beyond 16 bits", ringLFT, map[int]string{4: "0x10000 003"},
			`x.lft:4: LID 0x10000 is out of range (expected 0x0001-0xffff)`},
		{"header Lid 0", ringLFT, map[int]string{5: strings.Replace(ringLFT[4], "Lid 5", "Lid 0", 1)},
			`x.lft:5: Lid 0 is out of range (expected 1-65535)`},
		{"unknown host", ringLFT, map[int]string{4: "0x0003 003 : (Channel Adapter portguid 0x0002c90400000003: 'H9')"},
			`x.lft:4: host "H9" is not in the network (expected the name of a host of the network)`},
		{"unknown switch in an entry", ringLFT, map[int]string{4: ringLFT[3] + "\n0x0005 002 : (Switch portguid 0x0002c90300000009: 'S9')"},
			`x.lft:5: switch "S9" is not in the network (expected the name of a switch of the network)`},
		{"unknown switch", ringLFT, map[int]string{5: strings.Replace(ringLFT[4], "'S2'", "'S7'", 1)},
			`x.lft:5: switch "S7" is not in the network (expected the name of a switch of the network)`},
		{"header Lid", ringLFT, map[int]string{5: strings.Replace(ringLFT[4], "Lid 5", "Lid 4", 1)},
			`x.lft:5: LID 0x0004 is switch "S2" here, but switch "S1" at line 1 (expected one node per LID)`},
		{"port 0", ringLFT, map[int]string{3: "0x0002 000"},
			`x.lft:3: switch "S1" has no connected port 0 toward host "H2" (expected a connected port 1-3)`},
		{"port beyond", ringLFT, map[int]string{3: "0x0002 004"},
			`x.lft:3: switch "S1" has no connected port 4 toward host "H2" (expected a connected port 1-3)`},
		{"own LID", ringLFT, map[int]string{4: ringLFT[3] + "\n0x0004 001"},
			`x.lft:5: switch "S1" sends its own LID 0x0004 to port 1 (expected port 0)`},
		{"switch LID on port 0", ringLFT, map[int]string{4: ringLFT[3] + "\n0x0005 000"},
			`x.lft:5: switch "S1" has no connected port 0 toward switch "S2" (expected a connected port 1-3)`},
		{"switch LID beyond", ringLFT, map[int]string{4: ringLFT[3] + "\n0x0006 007 : (Switch portguid 0x0002c90300000003: 'S3')"},
			`x.lft:5: switch "S1" has no connected port 7 toward switch "S3" (expected a connected port 1-3)`},
		{"SL too large", withSL, map[int]string{14: "0x0001 016"},
			`x.lft:14: SL 16 exceeds 15 (expected an SL 0-15)`},
		{"entry first", ringLFT, map[int]string{1: ""},
			`x.lft:1: entry before any switch header (expected a header "Unicast lids [...] of switch ... ('NAME'):" or "dump_ucast_routes: Switch 0xGUID" first)`},
		{"garbage", ringLFT, map[int]string{2: "0x0001 → 1"},
			`x.lft:2: expected a switch header or a line "0xLID PORT ...", got "0x0001 → 1"`},
		{"missing block", ringLFT, map[int]string{9: "", 10: "", 11: "", 12: ""},
			`x.lft: switch "S3" has no "Unicast lids" block (expected one per switch)`},
		{"missing SL block", withSL, map[int]string{21: "", 22: "", 23: "", 24: ""},
			`x.lft: switch "S3" has no "SL of paths from" block (expected one per switch when any switch has one)`},
		{"missing SL line", withSL, map[int]string{19: ""},
			`x.lft:17: the "SL of paths from" block of switch "S2" has no line for host "H2" (expected a line "0x0002 SL")`},
		{"missing entry", ringLFT, map[int]string{8: ""},
			`x.lft:5: switch "S2" has no port for host "H3" (expected a line "0x0003 PORT" in its block)`},
		{"host named nowhere", ringLFT, map[int]string{4: "", 8: "", 12: ""},
			`x.lft:1: switch "S1" has no port for host "H3" (expected a line "0xLID PORT : (Channel Adapter portguid 0xGUID: 'H3')" in its block)`},
		{"own host elsewhere", ringLFT, map[int]string{2: "0x0001 002"},
			`x.lft:2: switch "S1" sends host "H1" to port 2, but "H1" is at its port 1 (expected port 1)`},
		{"port to another host", ringLFT, map[int]string{6: "0x0001 001"},
			`x.lft:6: switch "S2" sends host "H1" to port 1, which leads to host "H2" (expected a port toward switch "S1" of "H1")`},
		{"loop", ringLFT, map[int]string{6: "0x0001 002", 10: "0x0001 003"},
			`x.lft:6: switch "S2" sends host "H1" to port 2, into the loop "S2" → "S3" → "S2" (expected a path to switch "S1" of "H1")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadLFT(strings.NewReader(editLines(tc.lines, tc.edits)), "x.lft", net, 2)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error\n%v\nwant\n%s", err, tc.want)
			}
			var fe *topologies.FileError
			if !errors.As(err, &fe) || fe.File != "x.lft" {
				t.Errorf("error %T, want a *topologies.FileError for x.lft", err)
			}
		})
	}
	// The unedited texts are read, with their SLs, and so are texts
	// without names, with nameless lines named by later ones, with other
	// LIDs, and with lines for switches and unknown nodes.
	want, err := ReadLFT(strings.NewReader(editLines(ringLFT, nil)), "x.lft", net, 2)
	if err != nil {
		t.Fatal(err)
	}
	otherLIDs := strings.NewReplacer("Lid 4 ", "Lid 33 ", "Lid 5 ", "Lid 32 ", "Lid 6 ", "Lid 31 ",
		"0x0001 ", "0x0102 ", "0x0002 ", "0x0101 ", "0x0003 ", "0x0100 ")
	for _, tc := range []struct {
		name   string
		lines  []string
		edits  map[int]string
		layers int
	}{
		{"named", ringLFT, nil, 1},
		{"named with SLs", withSL, nil, 2},
		{"without names", bareRing, nil, 1},
		{"without names with SLs", append(slices.Clone(bareRing), ringSL...), nil, 2},
		{"without names or header LIDs", bareRing, map[int]string{1: "Unicast lids [0x1-0x3] of switch (S1):", 5: "Unicast lids [0x1-0x3] of switch (S2):"}, 1},
		{"named later", ringLFT, map[int]string{2: bareRing[1], 3: bareRing[2], 4: bareRing[3]}, 1},
		{"switches and unknown nodes", ringLFT, map[int]string{
			4: ringLFT[3] + "\n0x0004 000\n0x0005 002 : (Switch portguid 0x0002c90300000002: 'S2')\n0x0006 003\n0x0007 002 : (unknown node and type)",
			8: ringLFT[7] + "\n0x0004 003 : (Switch portguid 0x0002c90300000001: 'S1')\n0x0005 000 : (Switch portguid 0x0002c90300000002: 'S2')"}, 1},
		{"other LIDs", strings.Split(otherLIDs.Replace(editLines(withSL, nil)), "\n"), nil, 2},
		{"other LIDs named later", strings.Split(otherLIDs.Replace(editLines(withSL, map[int]string{2: bareRing[1], 3: bareRing[2], 4: bareRing[3]})), "\n"), nil, 2},
	} {
		tab, err := ReadLFT(strings.NewReader(editLines(tc.lines, tc.edits)), "x.lft", net, 2)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !slices.Equal(tab.lft, want.lft) {
			t.Errorf("%s: tables %v, want %v", tc.name, tab.lft, want.lft)
		}
		if tab.Layers() != tc.layers || tab.Layer(1, 0) != tc.layers-1 {
			t.Errorf("%s: %d layers, layer of S2 → H1 %d; want %d and %d", tc.name, tab.Layers(), tab.Layer(1, 0), tc.layers, tc.layers-1)
		}
	}
}

// realDump is t for net as OpenSM's opensm-lfts.dump gives it on a subnet
// where switch s has LID s+1 and host h LID 0x10+switches+hosts−1−h:
// blocks in reverse switch order, the first without the names of its
// destinations (later blocks name them), a line for every switch's LID
// (port 0 for the switch itself), and SL blocks, without names, when t has
// several layers.
func realDump(t *Tables, net *topologies.Network) string {
	swNames, hostNames := net.DisplayNames()
	hosts, sws := len(net.Hosts), len(net.Switches)
	hostLID := func(h int) int { return 0x10 + sws + hosts - 1 - h }
	var b strings.Builder
	for i := range sws {
		s := sws - 1 - i
		fmt.Fprintf(&b, "Unicast lids [0-%d] of switch Lid %d guid 0xe41d2d03000000%02x ('%s'):\n", hostLID(0), s+1, s, swNames[s])
		toSwitch := slices.IndexFunc(net.Switches[s].Ports, func(p topologies.Port) bool { return p.Kind == topologies.SwitchPort }) + 1
		for d := range sws {
			port := toSwitch
			if d == s {
				port = 0
			}
			fmt.Fprintf(&b, "0x%04x %03d # Switch portguid 0xe41d2d03000000%02x: '%s'\n", d+1, port, d, swNames[d])
		}
		for h := hosts - 1; h >= 0; h-- {
			fmt.Fprintf(&b, "0x%04x %03d", hostLID(h), t.Port(s, int32(h))+1)
			if i > 0 {
				fmt.Fprintf(&b, " # Channel Adapter portguid 0x7cfe900300%06x: '%s'", h, hostNames[h])
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%d lids dumped\n", hostLID(0))
	}
	if t.layer != nil {
		for s := range sws {
			fmt.Fprintf(&b, "SL of paths from switch Lid %d guid 0xe41d2d03000000%02x ('%s'):\n", s+1, s, swNames[s])
			for h := range hosts {
				fmt.Fprintf(&b, "0x%04x %03d\n", hostLID(h), t.Layer(s, h))
			}
		}
	}
	return b.String()
}

// TestReadLFTRealLIDs: tables dumped by a subnet manager with its own LIDs
// are read as the same tables written by WriteLFT, and a nameless line
// for a LID no line names is an error.
func TestReadLFTRealLIDs(t *testing.T) {
	for _, tc := range tableCases()[:2] {
		net, tables := tc.build(t)
		r := Routing(tables)
		var lft bytes.Buffer
		if err := WriteLFT(&lft, r.(*Tables), net); err != nil {
			t.Fatal(err)
		}
		own, err := ReadLFT(&lft, "t.lft", net, 4)
		if err != nil {
			t.Fatal(err)
		}
		dump := realDump(r.(*Tables), net)
		got, err := ReadLFT(strings.NewReader(dump), "opensm-lfts.dump", net, 4)
		if err != nil {
			t.Fatalf("%s: %v in\n%s", tc.alg, err, dump)
		}
		if !slices.Equal(got.lft, own.lft) || got.Layers() != own.Layers() || !slices.Equal(got.layer, own.layer) {
			t.Errorf("%s: the dump's tables differ from WriteLFT's", tc.alg)
		}
		for src := range net.Hosts {
			for dst := range net.Hosts {
				dlid, sl, vl := got.Source(src, dst)
				if dlid2, sl2, vl2 := own.Source(src, dst); dlid != dlid2 || sl != sl2 || vl != vl2 {
					t.Fatalf("%s: Source(%d, %d) = %d, %d, %d from the dump, %d, %d, %d from WriteLFT's text", tc.alg, src, dst, dlid, sl, vl, dlid2, sl2, vl2)
				}
			}
		}
		_, err = ReadLFT(strings.NewReader(strings.Replace(dump, "\n", "\n0x0100 001\n", 1)), "opensm-lfts.dump", net, 4)
		if want := `opensm-lfts.dump:2: LID 0x0100 names no node (expected a line of the file to name it, or netsim's numbering in a file without names)`; err == nil || err.Error() != want {
			t.Errorf("%s: error %v, want %s", tc.alg, err, want)
		}
	}
}

// ringDot is the ORCS dot of minhop on the network of ringLFT.
const ringDot = `digraph network {
	"S1" -> "H1" [ comment = "H1", srcport = 1 ];
	"S1" -> "S2" [ comment = "H2", srcport = 2, dstport = 3 ];
	"S1" -> "S3" [ comment = "H3", srcport = 3, dstport = 2 ];
	"S2" -> "H2" [ comment = "H2", srcport = 1 ];
	"S2" -> "S3" [ comment = "H3", srcport = 2, dstport = 3 ];
	"S2" -> "S1" [ comment = "H1", srcport = 3, dstport = 2 ];
	"S3" -> "H3" [ comment = "H3", srcport = 1 ];
	"S3" -> "S1" [ comment = "H1", srcport = 2, dstport = 3 ];
	"S3" -> "S2" [ comment = "H2", srcport = 3, dstport = 2 ];
	"H1" -> "S1" [ comment = "*", dstport = 1 ];
	"H2" -> "S2" [ comment = "*", dstport = 1 ];
	"H3" -> "S3" [ comment = "*", dstport = 1 ];
}
`

// TestTablesFromDotErrors: a dot file whose network is not the simulated
// one, or whose routing comments contradict it, is an error naming the
// file, the switch and host names and ports from 1; an error about the
// routing comments is a *topologies.FileError naming the line of the
// comment at fault (of the switch's first edge when no comment lists the
// host).
func TestTablesFromDotErrors(t *testing.T) {
	net := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 3, HostsPerSwitch: 1})
	for _, tc := range []struct {
		name  string
		net   *topologies.Network
		edits []string // old, new pairs for strings.Replace once each
		want  string   // starts with x.dot:LINE: when the error has a line
	}{
		{"other size", mustBuild(t, topologies.Spec{Kind: "ring", Switches: 4, HostsPerSwitch: 1}), nil,
			`x.dot: the dot file has 3 switches and 3 hosts (expected the network's 4 and 4)`},
		{"switch name", net, []string{`"S3"`, `"X3"`, `"S3"`, `"X3"`, `"S3"`, `"X3"`, `"S3"`, `"X3"`, `"S3"`, `"X3"`, `"S3"`, `"X3"`},
			`x.dot: switch 3 of the dot file is "X3" (expected the network's switch 3, "S3")`},
		{"host order", net, []string{`"H1", srcport = 1`, `"H1,H2", srcport = 1`, `"S1" -> "H1"`, `"S1" -> "H2"`, `"S2" -> "H2"`, `"S2" -> "H1"`,
			`"H1" -> "S1"`, `"H2" -> "S1"`, `"H2" -> "S2"`, `"H1" -> "S2"`},
			`x.dot: host 1 of the dot file is "H2" (expected the network's host 1, "H1")`},
		{"other links", net, []string{`"S1" -> "S2" [ comment = "H2", srcport = 2, dstport = 3 ]`, `"S1" -> "S2" [ comment = "H2", srcport = 3, dstport = 3 ]`,
			`"S1" -> "S3" [ comment = "H3", srcport = 3, dstport = 2 ]`, `"S1" -> "S3" [ comment = "H3", srcport = 2, dstport = 2 ]`,
			`"S2" -> "S1" [ comment = "H1", srcport = 3, dstport = 2 ]`, `"S2" -> "S1" [ comment = "H1", srcport = 3, dstport = 3 ]`,
			`"S3" -> "S1" [ comment = "H1", srcport = 2, dstport = 3 ]`, `"S3" -> "S1" [ comment = "H1", srcport = 2, dstport = 2 ]`},
			`x.dot: port 2 of switch "S1" leads to switch "S3" in the dot file (expected the network's link, to switch "S2")`},
		{"no port", net, []string{`comment = "H3", srcport = 2, dstport = 3`, `comment = "", srcport = 2, dstport = 3`},
			`x.dot:5: switch "S2" routes host "H3" on no port (expected the comment of one of its edges to list "H3" or be "*")`},
		{"several ports", net, []string{`comment = "H3", srcport = 2, dstport = 3`, `comment = "H3,H1", srcport = 2, dstport = 3`},
			`x.dot:7: switch "S2" routes host "H1" on several ports (3 here and 2 on line 6; expected one)`},
		{"several ports on one line", net, []string{"comment = \"H3\", srcport = 2, dstport = 3 ];\n\t\"S2\" -> \"S1\" [ comment = \"H1\"", "comment = \"H1,H3\", srcport = 2, dstport = 3 ]; \"S2\" -> \"S1\" [ comment = \"H1\""},
			`x.dot:6: switch "S2" routes host "H1" on several ports (2 and 3, both on this line; expected one)`},
		{"several ports, comment below its edge", net, []string{`"S2" -> "S1" [ comment = "H1",`, "\"S2\" -> \"S1\" [\n\t\tcomment = \"H1,H3\","},
			`x.dot:8: switch "S2" routes host "H3" on several ports (3 here and 2 on line 6; expected one)`},
		{"several ports, higher port first in the file", net, []string{"\t\"S2\" -> \"S1\" [ comment = \"H1\", srcport = 3, dstport = 2 ];\n", "",
			`"S2" -> "S3" [`, "\"S2\" -> \"S1\" [ comment = \"H1,H3\", srcport = 3, dstport = 2 ];\n\t\"S2\" -> \"S3\" ["},
			`x.dot:7: switch "S2" routes host "H3" on several ports (2 here and 3 on line 6; expected one)`},
		{"own host elsewhere", net, []string{`comment = "H1", srcport = 1`, `comment = "", srcport = 1`, `comment = "H2", srcport = 2`, `comment = "H1,H2", srcport = 2`},
			`x.dot:3: switch "S1" sends host "H1" to port 2, but "H1" is at its port 1 (expected port 1)`},
		{"port to another host", net, []string{`comment = "H2", srcport = 1`, `comment = "H1,H2", srcport = 1`, `comment = "H1", srcport = 3, dstport = 2`, `comment = "", srcport = 3, dstport = 2`},
			`x.dot:5: switch "S2" sends host "H1" to port 1, which leads to host "H2" (expected a port toward switch "S1" of "H1")`},
		{"loop", net, []string{`"S2" -> "S3" [ comment = "H3"`, `"S2" -> "S3" [ comment = "H1,H3"`, `"S2" -> "S1" [ comment = "H1"`, `"S2" -> "S1" [ comment = ""`,
			`"S3" -> "S1" [ comment = "H1"`, `"S3" -> "S1" [ comment = ""`, `"S3" -> "S2" [ comment = "H2"`, `"S3" -> "S2" [ comment = "H1,H2"`},
			`x.dot:6: switch "S2" sends host "H1" to port 2, into the loop "S2" → "S3" → "S2" (expected a path to switch "S1" of "H1")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := ringDot
			for i := 0; i < len(tc.edits); i += 2 {
				if !strings.Contains(text, tc.edits[i]) {
					t.Fatalf("edit %q: not in the text", tc.edits[i])
				}
				text = strings.Replace(text, tc.edits[i], tc.edits[i+1], 1)
			}
			dotNet, routes, err := topologies.ReadDot(strings.NewReader(text), "x.dot")
			if err != nil {
				t.Fatal(err)
			}
			_, err = TablesFromDot(routes, dotNet, tc.net, "x.dot", 1)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error\n%v\nwant\n%s", err, tc.want)
			}
			var fe *topologies.FileError
			if line, ok := strings.CutPrefix(tc.want, "x.dot:"); ok && line[0] != ' ' {
				if !errors.As(err, &fe) || fe.File != "x.dot" || !strings.HasPrefix(line, strconv.Itoa(fe.Line)+":") {
					t.Errorf("error %#v is not a *topologies.FileError for the line of x.dot in %q", err, tc.want)
				}
			}
		})
	}
	dotNet, routes, err := topologies.ReadDot(strings.NewReader(ringDot), "x.dot")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TablesFromDot(routes, dotNet, net, "x.dot", 1); err != nil {
		t.Fatal(err)
	}
}
