package routing

import (
	"fmt"
	"strings"
	"testing"
)

// sl2vlDump writes SL2VL tables for net in the format of OpenSM's
// opensm-sl2vl.dump, VL = vl(in, out, sl) for switches (in 0 is the
// switch itself) and vl(0, 0, sl) for CA ports.
func sl2vlDump(t *testing.T, vl func(in, out, sl int) int) string {
	net, _ := readOpenSM2sw(t)
	var b strings.Builder
	row := func(in, out int) {
		fmt.Fprintf(&b, "%d   %d   :", in, out)
		for sl := range 16 {
			fmt.Fprintf(&b, " %d ", vl(in, out, sl))
		}
		b.WriteString("\n")
	}
	for s, sw := range net.Switches {
		fmt.Fprintf(&b, "Switch 0x%s, base LID %d, %q\n#in out : 0 1 …\n", net.IB.Switches[s].GUID, net.IB.Switches[s].LID, net.IB.Switches[s].Desc)
		for out := 1; out <= len(sw.Ports); out++ {
			for in := 0; in <= len(sw.Ports); in++ {
				row(in, out)
			}
		}
		b.WriteString("#---\n\n")
	}
	for _, h := range net.IB.Hosts {
		fmt.Fprintf(&b, "Channel Adapter 0x%s, base LID %d, %q\n", h.PortGUID, h.LID, h.Desc)
		row(0, 0)
	}
	return b.String()
}

// TestSL2VLTables reads SL2VL tables that map each SL to a VL depending
// on both ports, and checks that the tables' OutVL and Source take the VL
// of the right row and column: InfiniBand port numbers are netsim's + 1.
func TestSL2VLTables(t *testing.T) {
	net, dumps := readOpenSM2sw(t)
	vl := func(in, out, sl int) int { return (sl + 3*in + out) % 8 }
	m, err := ReadSL2VL(strings.NewReader(sl2vlDump(t, vl)), "sl2vl", net)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := ReadLFT(strings.NewReader(dumps["opensm-lfts.dump"]), "lfts", net, 8)
	if err != nil {
		t.Fatal(err)
	}
	tab.sl2vl = m
	for s, sw := range net.Switches {
		for in := range sw.Ports {
			for out := range sw.Ports {
				for sl := range 4 {
					if got, want := tab.OutVL(s, in, 0, sl, out), vl(in+1, out+1, sl); got != want {
						t.Fatalf("switch %d, ports %d → %d (from 0), SL %d: VL %d, want %d", s, in, out, sl, got, want)
					}
				}
			}
		}
	}
	tab.layer = make([]uint8, len(tab.lft))
	for i := range tab.layer {
		tab.layer[i] = uint8(i % 3)
	}
	tab.layers = 3
	for src := range net.Hosts {
		for dst := range net.Hosts {
			_, sl, got := tab.Source(src, dst)
			if want := vl(0, 0, sl); got != want {
				t.Fatalf("host %d to %d: SL %d on VL %d, want the CA's VL %d", src, dst, sl, got, want)
			}
		}
	}
	dump := sl2vlDump(t, vl)
	second := strings.Index(dump, "\n2   1   :") + 1 // the row in 2, out 1 of the first switch
	for _, c := range []struct{ name, text, want string }{
		{"VL 15", strings.Replace(dump, "0   1   : 1 ", "0   1   : 15 ", 1), `sl2vl:3: VL "15" for SL 0 (expected a data VL 0-14`},
		{"15 VLs", strings.Replace(dump, "0   1   : 1  2 ", "0   1   : 12 ", 1), `sl2vl:3: expected an SL2VL block header`},
		{"twice", strings.Replace(dump, "1   1   :", "0   1   :", 1), "sl2vl:4: a second SL2VL row for ports in 0, out 1 of the block at line 1"},
		{"missing", dump[:second] + dump[strings.Index(dump[second:], "\n")+second+1:], "no SL2VL row for input port 2, output port 1"},
		{"unknown GUID", strings.Replace(dump, "Switch 0x0000000000200001", "Switch 0x0000000000200009", 1), "switch GUID 0x0000000000200009"},
	} {
		if _, err := ReadSL2VL(strings.NewReader(c.text), "sl2vl", net); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
