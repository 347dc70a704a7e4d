package routing

import (
	"bytes"
	"strings"
	"testing"

	"netsim/topologies"
)

// FuzzReadLFT: no dump, however malformed, makes the LFT reader panic;
// it returns tables or an error, never both or neither, on a 3-switch
// ring with and without partial tables.
func FuzzReadLFT(f *testing.F) {
	net := mustBuild(f, topologies.Spec{Kind: "ring", Switches: 3, HostsPerSwitch: 1})
	for _, lines := range [][]string{ringLFT, bareRing, append(append([]string(nil), ringLFT...), ringSL...)} {
		f.Add([]byte(strings.Join(lines, "\n") + "\n"))
	}
	f.Add([]byte("Unicast lids [0x0-0x3] of switch Lid 4 guid 0x0002c90300000001 (S1):\n0x0001 001 : (Channel Adapter portguid 0x0002c90400000001: 'H1')\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, partial := range []bool{false, true} {
			tab, err := readLFT(bytes.NewReader(data), "fuzz.lft", net, 1, partial)
			if (tab == nil) == (err == nil) {
				t.Fatalf("partial %v: tables %v and error %v", partial, tab, err)
			}
		}
	})
}
