package routing

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

func TestTablesRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		alg  string
		spec topologies.Spec
	}{
		{"dfsssp", topologies.Spec{Kind: "ring", Switches: 5, HostsPerSwitch: 2}},
		{"updn", topologies.Spec{Kind: "random", Switches: 10, HostsPerSwitch: 2, Links: 16, Seed: 5}},
		{"dmodk", topologies.Spec{Kind: "fattree", K: 4, N: 2}},
	} {
		net := mustBuild(t, tc.spec)
		r, err := New(Spec{Algorithm: tc.alg, VLs: 4}, net)
		if err != nil {
			t.Fatal(err)
		}
		orig := r.(*Tables)
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
	opensm := strings.NewReplacer(" : (", " # ", ")\n", "\n", "(S1):", "('S1'):", "(S2):", "('S2'):",
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
	if err == nil || !strings.Contains(err.Error(), "x.lft: routing file: switch 0 has no route to host 1") {
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
