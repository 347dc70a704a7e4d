package topologies

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

const samplePath = "testdata/fabric.ibnetdiscover"

// readSample reads testdata/fabric.ibnetdiscover: two 24-port switches
// joined by three links (A[13]–B[13], A[14]–B[14], A[15]–B[16]) and four
// CAs: node01 on A[1] (its port 2 unconnected), node02 dual-homed on A[2]
// and B[3], node03 on B[1], node04 on B[2] (port 2 unconnected).
func readSample(t *testing.T) *Network {
	t.Helper()
	net, _ := readSampleInfo(t)
	return net
}

// readSampleInfo is readSample with the InfiniBand details.
func readSampleInfo(t *testing.T) (*Network, *IBInfo) {
	t.Helper()
	f, err := os.Open(samplePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	net, info, err := ReadIBNetDiscover(f, samplePath)
	if err != nil {
		t.Fatal(err)
	}
	return net, info
}

func TestReadIBNetDiscoverSample(t *testing.T) {
	net, info := readSampleInfo(t)
	if net.Kind != "file" || len(net.Switches) != 2 || len(net.Hosts) != 5 || net.Links() != 3 {
		t.Fatalf("kind %q, %d switches, %d hosts, %d links; want file, 2, 5, 3", net.Kind, len(net.Switches), len(net.Hosts), net.Links())
	}
	if err := net.Validate(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(net.Names.Switches, []string{"S-0002c90200421e6a", "S-0002c90200421f10"}) {
		t.Errorf("switch names %v", net.Names.Switches)
	}
	wantHosts := []string{"H-0002c9030001d6b0", "H-0002c9030001d6c4[1]", "H-0002c9030001d7a0", "H-0002c9030001d7b8", "H-0002c9030001d6c4[2]"}
	if !slices.Equal(net.Names.Hosts, wantHosts) {
		t.Errorf("host names %v, want %v", net.Names.Hosts, wantHosts)
	}
	// InfiniBand port p is position p-1; 24 ports each, most unused.
	for s, sw := range net.Switches {
		if len(sw.Ports) != 24 {
			t.Errorf("switch %d has %d ports, want 24", s, len(sw.Ports))
		}
	}
	a, b := net.Switches[0].Ports, net.Switches[1].Ports
	links := []struct{ pa, pb int }{{13, 13}, {14, 14}, {15, 16}}
	for _, l := range links {
		if p := a[l.pa-1]; p.Kind != SwitchPort || p.Peer != 1 || int(p.PeerPort) != l.pb-1 {
			t.Errorf("A port %d = %+v, want B port %d", l.pa, p, l.pb)
		}
		if p := b[l.pb-1]; p.Kind != SwitchPort || p.Peer != 0 || int(p.PeerPort) != l.pa-1 {
			t.Errorf("B port %d = %+v, want A port %d", l.pb, p, l.pa)
		}
	}
	if a[15].Kind != Unused || a[2].Kind != Unused || b[14].Kind != Unused {
		t.Errorf("A ports 16, 3 and B port 15 should be unused: %+v %+v %+v", a[15], a[2], b[14])
	}
	// Hosts switch-major: A[1], A[2], B[1], B[2], B[3].
	wantAt := []Host{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2}}
	if !slices.Equal(net.Hosts, wantAt) {
		t.Errorf("hosts at %v, want %v", net.Hosts, wantAt)
	}
	if net.HostsPerSwitch != 0 || net.Radix() != 6 {
		t.Errorf("hosts per switch %d radix %d, want 0 (2 and 3) and 6", net.HostsPerSwitch, net.Radix())
	}
	// LIDs and descriptions.
	if s := info.Switches[1]; s != (IBNode{GUID: "0002c90200421f10", LID: 4, Desc: "MT47396 Infiniscale-III Mellanox Technologies"}) {
		t.Errorf("switch B info %+v", s)
	}
	wantInfo := []IBNode{
		{GUID: "0002c9030001d6b0", PortGUID: "0002c9030001d6b1", Port: 1, LID: 5, Desc: "node01 HCA-1"},
		{GUID: "0002c9030001d6c4", PortGUID: "0002c9030001d6c5", Port: 1, LID: 6, Desc: "node02 HCA-1"},
		{GUID: "0002c9030001d7a0", PortGUID: "0002c9030001d7a1", Port: 1, LID: 8, Desc: "node03 HCA-1"},
		{GUID: "0002c9030001d7b8", PortGUID: "0002c9030001d7b9", Port: 1, LID: 9, Desc: "node04 HCA-1"},
		{GUID: "0002c9030001d6c4", PortGUID: "0002c9030001d6c6", Port: 2, LID: 7, Desc: "node02 HCA-1"},
	}
	if !slices.Equal(info.Hosts, wantInfo) {
		t.Errorf("host info %+v, want %+v", info.Hosts, wantInfo)
	}
}

func TestReadIBNetDiscoverVariants(t *testing.T) {
	// One switch and a one-port CA, with grouping (-g) decorations, a
	// chassis line, no key=value lines, and the CA's LID known only from the
	// switch's side.
	text := `Non-Chassis Nodes

Switch	8 "S-0008f10400410015"		# "SW-6IB4 Voltaire" enhanced port 0 lid 3 lmc 0
[6][ext 6]	"H-0008f10403960984"[1](8f10403960985) 		# "host A" lid 16 4xSDR
ISR9288 Chassis 1 (guid 0x8f10400050304)
Ca	1 "H-0008f10403960984"		# "host A"
[1](8f10403960985) 	"S-0008f10400410015"[6]		# "SW-6IB4 Voltaire" lid 3 4xSDR
`
	net, info, err := ReadIBNetDiscover(strings.NewReader(text), "v.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(net.Switches[0].Ports) != 8 || net.Hosts[0] != (Host{0, 5}) || net.HostsPerSwitch != 1 {
		t.Errorf("ports %d, host at %+v, C %d; want 8, switch 0 port 5, 1", len(net.Switches[0].Ports), net.Hosts[0], net.HostsPerSwitch)
	}
	if info.Hosts[0].LID != 16 || info.Switches[0].LID != 3 || net.Names.Hosts[0] != "H-0008f10403960984" || info.Hosts[0].PortGUID != "0008f10403960985" {
		t.Errorf("info %+v, names %v", info, net.Names)
	}
}

func TestReadIBNetDiscoverErrors(t *testing.T) {
	sw := "Switch 8 \"S-01\" # \"a\" base port 0 lid 1 lmc 0\n"
	ca := "Ca 1 \"H-02\" # \"h\"\n[1](3) \"S-01\"[1] # lid 2 lmc 0 \"a\" lid 1 4xQDR\n"
	swToCA := "[1] \"H-02\"[1](3) # \"h\" lid 2 4xQDR\n"
	tests := []struct {
		name, text, want string
	}{
		{"empty", "# nothing\n", "ib.txt: no Switch or Ca blocks"},
		{"garbage", "hello world\n", "ib.txt:1: expected a node header"},
		{"port before header", "[1] \"S-01\"[1]\n", "ib.txt:1: port line before any node header"},
		{"router", "Rt 2 \"R-05\" # \"r\"\n", "ib.txt:1: routers (Rt) are not supported"},
		{"bad type", "Switchboard 2 \"S-05\"\n", "ib.txt:1: unknown node type \"Switchboard\""},
		{"bad port count", "Switch 300 \"S-01\"\n", "ib.txt:1: Switch: expected a port count from 1 to 255"},
		{"bad name", "Switch 8 \"H-01\"\n", "ib.txt:1: Switch: expected a quoted node name \"S-<guid>\""},
		{"only CAs", ca, "ib.txt: no Switch blocks"},
		{"port out of range", sw + "[9] \"H-02\"[1]\n", "ib.txt:2: port [9] out of range: S-01 has ports 1 to 8"},
		{"port zero", sw + "[0] \"H-02\"[1]\n", "ib.txt:2: port [0] out of range"},
		{"port twice", sw + swToCA + swToCA, "ib.txt:3: port [1] of S-01 is already listed on line 2"},
		{"no peer", sw + "[1]\n", "ib.txt:2: expected the quoted peer node"},
		{"router peer", sw + "[1] \"R-09\"[1]\n", "ib.txt:2: links to routers are not supported"},
		{"odd peer", sw + "[1] \"X-09\"[1]\n", "ib.txt:2: peer \"X-09\": expected a name starting with S- (switch) or H- (CA)"},
		{"no peer port", sw + "[1] \"H-02\" # \"h\"\n", "ib.txt:2: expected the peer's port number"},
		{"junk after", sw + "[1] \"H-02\"[1] junk\n", "ib.txt:2: unexpected \"junk\""},
		{"unterminated desc", sw + "[1] \"H-02\"[1] # \"h lid 2\n", "ib.txt:2: unterminated quoted description"},
		{"unknown peer", sw + swToCA, "ib.txt:2: peer \"H-02\" is not described in the file"},
		{"duplicate node", sw + swToCA + ca + sw, "ib.txt:5: node \"S-01\" is already described on line 1"},
		{"one-sided", sw + "[2] \"H-02\"[1]\n" + ca, "ib.txt:2: S-01[2] links to H-02[1], but line 4 links H-02[1] to S-01[1]"},
		{"not listed back", sw + swToCA + "Ca 1 \"H-02\" # \"h\"\n", "ib.txt:2: S-01[1] links to H-02[1], but the block of H-02 (line 3) does not list port [1]"},
		{"peer port range", sw + "[1] \"H-02\"[2]\n" + ca, "ib.txt:2: peer port [2] out of range: H-02 (line 3) has ports 1 to 1"},
		{"loop", sw + "[1] \"S-01\"[2]\n[2] \"S-01\"[1]\n", "ib.txt:2: S-01[1] links to its own port [2] (expected a link between two different nodes)"},
		{"CA to CA", sw + swToCA + ca + "Ca 1 \"H-07\"\n[1] \"H-08\"[1]\nCa 1 \"H-08\"\n[1] \"H-07\"[1]\n", "ib.txt:6: link between two CAs H-07 and H-08"},
		{"long line", sw + "[1] \"H-02\"[1] # " + strings.Repeat("x", 1<<20) + "\n", "ib.txt:2: bufio.Scanner: token too long"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ReadIBNetDiscover(strings.NewReader(tc.text), "ib.txt")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Errorf("error %#v is not a *FileError", err)
			}
		})
	}
	// The well-formed pieces above make a valid fabric.
	net, _, err := ReadIBNetDiscover(strings.NewReader(sw+swToCA+ca), "ib.txt")
	if err != nil || len(net.Hosts) != 1 {
		t.Fatalf("valid fabric: %v", err)
	}
}

func FuzzReadIBNetDiscover(f *testing.F) {
	if data, err := os.ReadFile(samplePath); err == nil {
		f.Add(string(data))
	}
	f.Add("Switch 4 \"S-1\"\n[1] \"S-2\"[1]\n[2] \"H-3\"[1]\nSwitch 4 \"S-2\"\n[1] \"S-1\"[1]\nCa 1 \"H-3\"\n[1](4) \"S-1\"[2] # lid 1 lmc 0 \"x\" lid 2\n")
	f.Fuzz(func(t *testing.T, text string) {
		net, info, err := ReadIBNetDiscover(strings.NewReader(text), "fuzz.txt")
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *FileError", err)
			}
			return
		}
		if err := net.Validate(); err != nil {
			t.Fatal(err)
		}
		if len(info.Hosts) != len(net.Hosts) || len(info.Switches) != len(net.Switches) {
			t.Fatalf("info for %d switches %d hosts, network has %d and %d", len(info.Switches), len(info.Hosts), len(net.Switches), len(net.Hosts))
		}
		if _, _, err := dotNames(net); err != nil {
			t.Fatalf("names not exportable: %v", err)
		}
	})
}
