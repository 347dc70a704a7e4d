package routing

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"netsim/topologies"
)

// readOpenSM2sw reads testdata/opensm-2sw: what ibnetdiscover and OpenSM
// 3.3's minhop dumped (opensm-lfts.dump, opensm.fdbs) for ibsim's example
// fabric of two switches joined by two links, four HCAs. The dumps name
// nodes by their descriptions ('Switch1', 'Hca1'); the import names them
// S-<guid> and H-<guid>.
func readOpenSM2sw(t *testing.T) (*topologies.Network, map[string]string) {
	t.Helper()
	dir := filepath.Join("testdata", "opensm-2sw")
	text, err := os.ReadFile(filepath.Join(dir, "fabric.ibnetdiscover"))
	if err != nil {
		t.Fatal(err)
	}
	net, _, err := topologies.ReadIBNetDiscover(bytes.NewReader(text), "fabric.ibnetdiscover")
	if err != nil {
		t.Fatal(err)
	}
	dumps := map[string]string{}
	for _, name := range []string{"opensm-lfts.dump", "opensm.fdbs"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		dumps[name] = string(b)
	}
	return net, dumps
}

// TestReadLFTByGUID reads real OpenSM dumps onto an ibnetdiscover import,
// matched by GUID and LID, and checks the errors for dumps of another
// fabric.
func TestReadLFTByGUID(t *testing.T) {
	net, dumps := readOpenSM2sw(t)
	var tables []*Tables
	for _, name := range []string{"opensm-lfts.dump", "opensm.fdbs"} {
		tab, err := ReadLFT(strings.NewReader(dumps[name]), name, net, 1)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tables = append(tables, tab)
	}
	if err := sameEntries(net, tables[0], tables[1]); err != nil {
		t.Error(err)
	}
	// Switch1 (S-…200000) sends Hca1 (LID 2) to port 1 and Hca4 (LID 6) to
	// port 5, one of the two links to Switch2.
	s1, hca1, hca4 := -1, -1, -1
	for s, n := range net.IB.Switches {
		if n.Desc == "Switch1" {
			s1 = s
		}
	}
	for h, n := range net.IB.Hosts {
		switch n.Desc {
		case "Hca1":
			hca1 = h
		case "Hca4":
			hca4 = h
		}
	}
	if p1, p4 := tables[0].Port(s1, int32(hca1)), tables[0].Port(s1, int32(hca4)); p1 != 0 || p4 != 4 {
		t.Errorf("Switch1's ports to Hca1 and Hca4: %d and %d (from 0), want 0 and 4", p1, p4)
	}

	lfts, fdbs := dumps["opensm-lfts.dump"], dumps["opensm.fdbs"]
	for _, c := range []struct{ name, file, text, want string }{
		{"unknown switch GUID", "l.dump", strings.Replace(lfts, "guid 0x0000000000200000", "guid 0x0000000000200099", 1),
			"l.dump:1: switch GUID 0x0000000000200099 ('Switch1', LID 0x0001) is not in the network (expected the node GUID of a Switch block of the topology file)"},
		{"unknown port GUID", "l.dump", strings.Replace(lfts, "portguid 0x0000000000100001", "portguid 0x0000000000100077", 1),
			"l.dump:3: port GUID 0x0000000000100077 ('Hca1', LID 0x0002) is not in the network (expected the port GUID of a CA port of the topology file)"},
		{"LID of another node", "l.dump", strings.Replace(lfts, "0x0002 001 # Channel Adapter portguid 0x0000000000100001", "0x0004 001 # Channel Adapter portguid 0x0000000000100001", 1),
			`l.dump:3: LID 0x0004 is host "Hca1" (GUID 0x0000000000100001, LID 2) here, but host "Hca2" (GUID 0x0000000000100004, LID 4) in the topology file (expected one node per LID)`},
		{"fdbs unknown switch", "f.fdbs", strings.Replace(fdbs, "Switch 0x0000000000200001", "Switch 0x0000000000200005", 1),
			"f.fdbs:9: switch GUID 0x0000000000200005 ('') is not in the network (expected the node GUID of a Switch block of the topology file)"},
		{"fdbs unreachable", "f.fdbs", strings.Replace(fdbs, "0x0004 : 003  : 02   : yes", "0x0004 : UNREACHABLE", 1),
			`f.fdbs:1: switch "Switch1" (GUID 0x0000000000200000, LID 1) has no port for host "Hca2" (GUID 0x0000000000100004, LID 4) (expected a line "0x0004 PORT" in its block)`},
	} {
		_, err := ReadLFT(strings.NewReader(c.text), c.file, net, 1)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error\n%v\nwant\n%s", c.name, err, c.want)
		}
	}
	// Without the import's identities, opensm.fdbs cannot be matched.
	plain := *net
	plain.IB = nil
	if _, err := ReadLFT(strings.NewReader(fdbs), "f.fdbs", &plain, 1); err == nil || !strings.Contains(err.Error(), "names its switch by GUID only") {
		t.Errorf("fdbs without GUIDs: %v", err)
	}
}

// TestReadLFTPartial reads a dump without Switch1's entry for Hca2 with
// unreachable pairs accepted: the two hosts of Switch1 do not reach Hca2,
// every other pair is reachable, and the deadlock check skips the pair.
func TestReadLFTPartial(t *testing.T) {
	net, dumps := readOpenSM2sw(t)
	text := strings.Replace(dumps["opensm-lfts.dump"], "0x0004 003 # Channel Adapter portguid 0x0000000000100004: 'Hca2'\n", "", 1)
	if text == dumps["opensm-lfts.dump"] {
		t.Fatal("the entry to drop is not in the dump")
	}
	if _, err := ReadLFT(strings.NewReader(text), "p.dump", net, 1); err == nil || !strings.Contains(err.Error(), `has no port for host "Hca2"`) {
		t.Fatalf("without unreachable = skip: %v", err)
	}
	tab, err := readLFT(strings.NewReader(text), "p.dump", net, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	if tab.UnreachablePairs() != 2 {
		t.Errorf("%d unreachable pairs, want 2", tab.UnreachablePairs())
	}
	for src := range net.Hosts {
		for dst := range net.Hosts {
			want := !(net.IB.Hosts[dst].Desc == "Hca2" && net.IB.Switches[net.Hosts[src].Switch].Desc == "Switch1")
			if got := tab.Reachable(src, dst); got != want {
				t.Errorf("%s → %s reachable %v, want %v", net.IB.Hosts[src].Desc, net.IB.Hosts[dst].Desc, got, want)
			}
		}
	}
	pairs, ex := Unreachable(tab, len(net.Hosts), 5)
	if pairs != 2 || len(ex) != 2 {
		t.Errorf("Unreachable: %d pairs, examples %v", pairs, ex)
	}
	rep, err := CheckDeadlock(t.Context(), tab, net, CheckOptions{VLs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Acyclic() {
		t.Errorf("two switches: cycle %v", rep.Cycle)
	}
}

// TestWriteLFTImport writes the tables of an engine on an ibnetdiscover
// import and reads them back: the text carries the fabric's GUIDs and
// LIDs, by which ReadLFT matches an import, so the tables come back the
// same.
func TestWriteLFTImport(t *testing.T) {
	net, _ := readOpenSM2sw(t)
	r, err := New(Spec{Algorithm: "minhop", VLs: 1}, net)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteLFT(&buf, r.(*Tables), net); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "guid 0x0000000000200001 ('S-0000000000200001')") || !strings.Contains(buf.String(), "portguid 0x0000000000100004") {
		t.Errorf("the text lacks the fabric's GUIDs:\n%s", buf.String())
	}
	back, err := ReadLFT(&buf, "t.lft", net, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameEntries(net, r.(*Tables), back); err != nil {
		t.Error(err)
	}
}
