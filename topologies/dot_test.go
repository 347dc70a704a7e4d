package topologies

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

// sameGraph fails the test unless a and b have the same switches, hosts,
// ports (kind, peer, peer port; Dim is not exported) and links.
func sameGraph(t *testing.T, a, b *Network) {
	t.Helper()
	if len(a.Switches) != len(b.Switches) || len(a.Hosts) != len(b.Hosts) {
		t.Fatalf("%d switches %d hosts, want %d switches %d hosts", len(b.Switches), len(b.Hosts), len(a.Switches), len(a.Hosts))
	}
	if a.Links() != b.Links() || a.Radix() != b.Radix() {
		t.Fatalf("links %d radix %d, want links %d radix %d", b.Links(), b.Radix(), a.Links(), a.Radix())
	}
	for s := range a.Switches {
		// Trailing unused ports are not written to dot files.
		pa, pb := trimUnused(a.Switches[s].Ports), trimUnused(b.Switches[s].Ports)
		if len(pa) != len(pb) {
			t.Fatalf("switch %d has %d ports, want %d", s, len(pb), len(pa))
		}
		for p := range pa {
			x, y := pa[p], pb[p]
			if x.Kind != y.Kind || x.Peer != y.Peer || (x.Kind == SwitchPort && x.PeerPort != y.PeerPort) {
				t.Fatalf("switch %d port %d = %+v, want %+v", s, p, y, x)
			}
		}
	}
	if !slices.Equal(a.Hosts, b.Hosts) {
		t.Fatalf("hosts %v, want %v", b.Hosts, a.Hosts)
	}
}

// trimUnused returns ports without its trailing unused ports.
func trimUnused(ports []Port) []Port {
	for len(ports) > 0 && ports[len(ports)-1].Kind == Unused {
		ports = ports[:len(ports)-1]
	}
	return ports
}

// exportDot returns WriteDot's output, failing the test on error.
func exportDot(t *testing.T, net *Network, routes SwitchRoutes) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteDot(&b, net, routes); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// importDot returns ReadDot's result for text, failing the test on error.
func importDot(t *testing.T, text string) (*Network, *DotRoutes) {
	t.Helper()
	net, routes, err := ReadDot(strings.NewReader(text), "test.dot")
	if err != nil {
		t.Fatal(err)
	}
	return net, routes
}

func TestDotRoundTrip(t *testing.T) {
	ib := readSample(t)
	tests := []struct {
		name string
		spec Spec
		net  *Network
	}{
		{"flatfly 3x4 widths 2,1 c2", Spec{Kind: "flatfly", Dims: []int{3, 4}, Widths: []int{2, 1}, HostsPerSwitch: 2}, nil},
		{"ring 5 width 2 c3", Spec{Kind: "ring", Switches: 5, Widths: []int{2}, HostsPerSwitch: 3}, nil},
		{"crossbar 7", Spec{Kind: "crossbar", Hosts: 7}, nil},
		{"ibnetdiscover sample", Spec{}, ib},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net := tc.net
			if net == nil {
				var err error
				if net, err = Build(tc.spec); err != nil {
					t.Fatal(err)
				}
			}
			text := exportDot(t, net, nil)
			back, routes := importDot(t, text)
			if routes != nil {
				t.Errorf("routes %v from a file without comments", routes)
			}
			sameGraph(t, net, back)
			if back.Kind != "file" || back.Switches[0].Coord != nil || back.Dims != nil {
				t.Errorf("kind %q with coordinates, want kind file without", back.Kind)
			}
			if back.HostsPerSwitch != net.HostsPerSwitch {
				t.Errorf("hosts per switch %d, want %d", back.HostsPerSwitch, net.HostsPerSwitch)
			}
			if net.Names != nil && !slices.Equal(back.Names.Hosts, net.Names.Hosts) {
				t.Errorf("host names %v, want %v", back.Names.Hosts, net.Names.Hosts)
			}
			if again := exportDot(t, back, nil); again != text {
				t.Errorf("second export differs:\n%s\nfirst:\n%s", again, text)
			}
			// Without port attributes, the order of the file gives the same
			// network for built families (no gaps, uncrossed parallel links).
			if net.Names == nil {
				plain := stripPorts(text)
				back, _ := importDot(t, plain)
				sameGraph(t, net, back)
			}
		})
	}
}

// stripPorts removes the srcport and dstport attributes from a WriteDot
// output, leaving the plain ORCS form.
func stripPorts(text string) string {
	var b strings.Builder
	for line := range strings.SplitAfterSeq(text, "\n") {
		if i := strings.Index(line, " [ "); i >= 0 {
			line = line[:i] + ";\n"
		}
		b.WriteString(line)
	}
	return b.String()
}

func TestWriteDotText(t *testing.T) {
	xbar, err := Crossbar(2)
	if err != nil {
		t.Fatal(err)
	}
	want := `digraph network {
	"S1" -> "H1" [ srcport = 1 ];
	"S1" -> "H2" [ srcport = 2 ];
	"H1" -> "S1" [ dstport = 1 ];
	"H2" -> "S1" [ dstport = 2 ];
}
`
	if got := exportDot(t, xbar, nil); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	// A ring of 3 switches with 1 host each: ports 0 host, 1 to +1, 2 to −1.
	// Routes: at switch s, host s on port 0, host s+1 on port 1, host s−1
	// on port 2.
	ring, err := Ring(3, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	routes := func(s int) [][]int32 {
		return [][]int32{{int32(s)}, {int32((s + 1) % 3)}, {int32((s + 2) % 3)}}
	}
	got := exportDot(t, ring, routes)
	for _, line := range []string{
		"\t\"S1\" -> \"H1\" [ comment = \"H1\", srcport = 1 ];\n",
		"\t\"S1\" -> \"S2\" [ comment = \"H2\", srcport = 2, dstport = 3 ];\n",
		"\t\"S1\" -> \"S3\" [ comment = \"H3\", srcport = 3, dstport = 2 ];\n",
		"\t\"S3\" -> \"S1\" [ comment = \"H1\", srcport = 2, dstport = 3 ];\n",
		"\t\"H2\" -> \"S2\" [ comment = \"*\", dstport = 1 ];\n",
	} {
		if !strings.Contains(got, line) {
			t.Errorf("output lacks %q:\n%s", line, got)
		}
	}
	if n := strings.Count(got, "->"); n != 2*3+2*3 {
		t.Errorf("%d edges, want 12 (2 per link, 2 per host)", n)
	}

	// "*" for every host, "" for none, sorted and deduplicated lists.
	all := func(s int) [][]int32 { return [][]int32{{2, 0, 1, 1}, nil, {2, 0, 2}} }
	got = exportDot(t, ring, all)
	for _, want := range []string{`"S1" -> "H1" [ comment = "*"`, `"S1" -> "S2" [ comment = ""`, `"S1" -> "S3" [ comment = "H1,H3"`} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	bad := func(s int) [][]int32 { return [][]int32{{3}} }
	if err := WriteDot(&bytes.Buffer{}, ring, bad); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("host 3 of 3: error %v, want out of range", err)
	}
}

func TestWriteDotNames(t *testing.T) {
	xbar, err := Crossbar(2)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		names Names
		want  string
	}{
		{Names{Switches: []string{"leaf"}, Hosts: []string{"Ha", "Hb"}}, ""},
		{Names{Switches: []string{"leaf"}, Hosts: []string{"Ha"}}, "1 host names for"},
		{Names{Switches: []string{"Hub"}, Hosts: []string{"Ha", "Hb"}}, `switch name "Hub" starts with H`},
		{Names{Switches: []string{"leaf"}, Hosts: []string{"Ha", "node"}}, `host name "node" does not start with H`},
		{Names{Switches: []string{"leaf"}, Hosts: []string{"Ha", "Ha"}}, `"Ha" names two nodes`},
		{Names{Switches: []string{`le"af`}, Hosts: []string{"Ha", "Hb"}}, "quote"},
		{Names{Switches: []string{"leaf"}, Hosts: []string{"Ha", "H,b"}}, "comma"},
	}
	for _, tc := range tests {
		xbar.Names = &tc.names
		var b bytes.Buffer
		err := WriteDot(&b, xbar, nil)
		if tc.want == "" {
			if err != nil || !strings.Contains(b.String(), `"leaf" -> "Hb" [ srcport = 2 ]`) {
				t.Errorf("%v: error %v, output\n%s", tc.names, err, b.String())
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.names, err, tc.want)
		}
	}
}

// seedListing is Listing 1 of seed 003 completed with the leaf switches S11
// and S12, their hosts H5..H8 and the routes back, so that every name in a
// comment exists.
const seedListing = `digraph network {
"S1" -> "H1" [ comment = "H1" ];
"S1" -> "H2" [ comment = "H2" ];
"S1" -> "H3" [ comment = "H3" ];
"S1" -> "H4" [ comment = "H4" ];

"H1" -> "S1" [ comment = "*" ];
"H2" -> "S1" [ comment = "*" ];
"H3" -> "S1" [ comment = "*" ];
"H4" -> "S1" [ comment = "*" ];

"S1" -> "S11" [ comment = "H5" ];
"S1" -> "S11" [ comment = "H6" ];
"S1" -> "S12" [ comment = "H7" ];
"S1" -> "S12" [ comment = "H8" ];

"S11" -> "S1" [ comment = "H1,H2" ];
"S11" -> "S1" [ comment = "H3,H4" ];
"S12" -> "S1" [ comment = "H1,H2" ];
"S12" -> "S1" [ comment = "H3,H4" ];

"S11" -> "H5" [ comment = "H5" ];
"S11" -> "H6" [ comment = "H6" ];
"S12" -> "H7" [ comment = "H7" ];
"S12" -> "H8" [ comment = "H8" ];
"H5" -> "S11" [ comment = "*" ];
"H6" -> "S11" [ comment = "*" ];
"H7" -> "S12" [ comment = "*" ];
"H8" -> "S12" [ comment = "*" ];
}
`

func TestReadDotSeedListing(t *testing.T) {
	net, routes := importDot(t, seedListing)
	if !slices.Equal(net.Names.Switches, []string{"S1", "S11", "S12"}) {
		t.Fatalf("switches %v, want S1 S11 S12", net.Names.Switches)
	}
	if !slices.Equal(net.Names.Hosts, []string{"H1", "H2", "H3", "H4", "H5", "H6", "H7", "H8"}) {
		t.Fatalf("hosts %v", net.Names.Hosts)
	}
	if net.Links() != 4 || len(net.Switches[0].Ports) != 8 || len(net.Switches[1].Ports) != 4 {
		t.Fatalf("links %d, S1 %d ports, S11 %d ports; want 4, 8, 4", net.Links(), len(net.Switches[0].Ports), len(net.Switches[1].Ports))
	}
	// S1: ports 0-3 hosts, 4-5 to S11 ports 0-1, 6-7 to S12 ports 0-1;
	// S11: ports 0-1 to S1, 2-3 hosts H5, H6.
	want := []Port{
		{Kind: SwitchPort, Peer: 1, PeerPort: 0}, {Kind: SwitchPort, Peer: 1, PeerPort: 1},
		{Kind: SwitchPort, Peer: 2, PeerPort: 0}, {Kind: SwitchPort, Peer: 2, PeerPort: 1},
	}
	for i, w := range want {
		if p := net.Switches[0].Ports[4+i]; p.Kind != w.Kind || p.Peer != w.Peer || p.PeerPort != w.PeerPort {
			t.Errorf("S1 port %d = %+v, want %+v", 4+i, p, w)
		}
	}
	if h := net.Hosts[5]; h != (Host{Switch: 1, Port: 3}) {
		t.Errorf("H6 at %+v, want S11 port 3", h)
	}
	if net.HostsPerSwitch != 0 {
		t.Errorf("hosts per switch %d, want 0 (4, 2, 2)", net.HostsPerSwitch)
	}
	// Routes: S11 sends H1,H2 on port 0 and H3,H4 on port 1; S1 sends H6
	// on port 5.
	if r := routes.Ports[1][1]; !r.Given || r.All || !slices.Equal(r.Hosts, []int32{2, 3}) || r.Line != 18 {
		t.Errorf("S11 port 1 route %+v, want H3,H4 on line 18", r)
	}
	table := routes.Table(0, len(net.Hosts))
	for h, ports := range [][]int32{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}} {
		if !slices.Equal(table[h], ports) {
			t.Errorf("S1 table: host %d on ports %v, want %v", h, table[h], ports)
		}
	}
	if table := routes.Table(1, len(net.Hosts)); !slices.Equal(table[0], []int32{0}) || !slices.Equal(table[3], []int32{1}) || !slices.Equal(table[5], []int32{3}) || table[6] != nil {
		t.Errorf("S11 table %v", table)
	}
	// Export with these routes writes the same comments back.
	text := exportDot(t, net, func(s int) [][]int32 {
		out := make([][]int32, len(net.Switches[s].Ports))
		for p, r := range routes.Ports[s] {
			out[p] = r.Hosts
		}
		return out
	})
	for _, w := range []string{`"S11" -> "S1" [ comment = "H1,H2", srcport = 1, dstport = 5 ]`, `"S1" -> "S12" [ comment = "H8", srcport = 8, dstport = 2 ]`} {
		if !strings.Contains(text, w) {
			t.Errorf("export lacks %q:\n%s", w, text)
		}
	}
}

func TestReadDotSyntax(t *testing.T) {
	// Comments, a strict digraph without quotes or semicolons, attribute
	// statements, a graph attribute, an edge chain and node statements.
	text := `/* two switches */ strict digraph G {
	rankdir = LR
	node [shape=box]; edge [color="red"]
# preprocessor line
	A -> B -> A [comment="H1", color=blue]  // chain: A->B and B->A
	A -> H1 ; H1 -> A
	"B" -> "Hx y" [comment = " * "]
	"Hx y" -> B [ comment = "*" ]
	C
	C -> A; A -> C
}
`
	net, routes := importDot(t, text)
	if !slices.Equal(net.Names.Switches, []string{"A", "B", "C"}) || !slices.Equal(net.Names.Hosts, []string{"H1", "Hx y"}) {
		t.Fatalf("names %v", net.Names)
	}
	if net.Links() != 2 || net.HostsPerSwitch != 0 {
		t.Errorf("links %d hosts per switch %d, want 2 and 0", net.Links(), net.HostsPerSwitch)
	}
	if r := routes.Ports[1][1]; !r.All || r.Line != 7 {
		t.Errorf("B port 1 route %+v, want all on line 7", r)
	}
	if r := routes.Ports[0][0]; !slices.Equal(r.Hosts, []int32{0}) || r.Line != 5 {
		t.Errorf("A port 0 route %+v, want H1 on line 5", r)
	}
	if r := routes.Ports[0][2]; r.Given || r.Line != 10 {
		t.Errorf("A port 2 route %+v, want none given, the edge on line 10", r)
	}
	// B: port 0 (to A, from the chain) lists H1, port 1 is "*".
	table := routes.Table(1, len(net.Hosts))
	if !slices.Equal(table[0], []int32{0, 1}) || !slices.Equal(table[1], []int32{1}) {
		t.Errorf("B table %v, want [[0 1] [1]]", table)
	}
}

func TestReadDotPairing(t *testing.T) {
	// Two parallel links that cross: S1 port 1 ↔ S2 port 2 and S1 port 2 ↔
	// S2 port 1. With dstport the pairing is exact.
	crossed := `digraph {
	"S1" -> "S2" [ srcport = 1, dstport = 2 ];
	"S1" -> "S2" [ srcport = 2, dstport = 1 ];
	"S2" -> "S1" [ srcport = 1, dstport = 2 ];
	"S2" -> "S1" [ srcport = 2, dstport = 1 ];
	"S1" -> "H1" [ srcport = 3 ]; "H1" -> "S1"
}`
	net, _ := importDot(t, crossed)
	if p := net.Switches[0].Ports[0]; p.Peer != 1 || p.PeerPort != 1 {
		t.Errorf("S1 port 0 = %+v, want S2 port 1", p)
	}
	if p := net.Switches[1].Ports[0]; p.Peer != 0 || p.PeerPort != 1 {
		t.Errorf("S2 port 0 = %+v, want S1 port 1", p)
	}
	// Gaps: ports 3 and 5 used, host on 4; ports 1, 2 unused.
	gaps := `digraph {
	"S1" -> "S2" [ srcport = 5, dstport = 1 ];
	"S1" -> "H1" [ srcport = 4 ];
	"S1" -> "S2" [ srcport = 3, dstport = 2 ];
	"S2" -> "S1" [ srcport = 2, dstport = 3 ];
	"S2" -> "S1" [ srcport = 1, dstport = 5 ];
	"H1" -> "S1" [ dstport = 4 ];
}`
	net, _ = importDot(t, gaps)
	ports := net.Switches[0].Ports
	if len(ports) != 5 || ports[0].Kind != Unused || ports[1].Kind != Unused || ports[3].Kind != HostPort ||
		ports[2].Peer != 1 || ports[2].PeerPort != 1 || ports[4].PeerPort != 0 {
		t.Errorf("S1 ports %+v", ports)
	}
	if net.Hosts[0] != (Host{Switch: 0, Port: 3}) {
		t.Errorf("H1 at %+v, want S1 port 3", net.Hosts[0])
	}
}

func TestReadDotErrors(t *testing.T) {
	const ok = "\"S1\" -> \"H1\";\n\"H1\" -> \"S1\";\n"
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "test.dot:1: expected 'digraph', got end of file"},
		{"undirected", "graph { a -- b }", "test.dot:1: an undirected graph"},
		{"no brace", "digraph x y", "test.dot:1: expected '{', got 'y'"},
		{"unclosed", "digraph {\n" + ok, "test.dot:4: expected '}' to close the digraph opened on line 1"},
		{"trailing", "digraph {\n" + ok + "}\n}", "test.dot:5: expected end of file"},
		{"undirected edge", "digraph {\n" + ok + "S1 -- S2\n}", "test.dot:4: undirected edge"},
		{"subgraph", "digraph {\n{ S1 }\n}", "test.dot:2: subgraphs are not supported"},
		{"port syntax", "digraph {\nS1:p1 -> H1\n}", "test.dot:2: node ports"},
		{"html", "digraph {\n<b> -> H1\n}", "test.dot:2: HTML strings"},
		{"bad char", "digraph {\nS1 -> H1 @\n}", "test.dot:2: unexpected character '@'"},
		{"unterminated string", "digraph {\n\"S1 -> H1\n}", "test.dot:2: unterminated quoted string"},
		{"unterminated comment", "digraph {\n/* x\n}", "test.dot:2: unterminated comment"},
		{"missing head", "digraph {\nS1 -> ;\n}", "test.dot:2: expected a node name after '->', got ';'"},
		{"attr without =", "digraph {\n" + ok + "S1 -> S2 [comment \"x\"]\n}", "test.dot:4: expected '=', got \"x\""},
		{"attr without value", "digraph {\nS1 -> S2 [comment = ]\n}", "test.dot:2: expected a value for attribute comment, got ']'"},
		{"bad srcport", "digraph {\n" + ok + "S1 -> S2 [srcport = 0]\n}", "test.dot:4: srcport: expected a port number from 1 to 65536, got '0'"},
		{"huge dstport", "digraph {\nS1 -> S2 [dstport = \"99999999\"]\n}", "test.dot:2: dstport: expected a port number"},
		{"malformed number", "digraph {\nS1 -> -\n}", "test.dot:2: malformed number"},
		{"no switches", "digraph {\nH1\n}", "test.dot: no switches"},
		{"loop", "digraph {\n" + ok + "S1 -> S1\n}", "test.dot:4: edge \"S1\" -> \"S1\" is a loop"},
		{"host to host", "digraph {\n" + ok + "H1 -> H2\nH2 -> H1\n}", "test.dot:4: edge \"H1\" -> \"H2\" joins two hosts"},
		{"one direction", "digraph {\n" + ok + "S1 -> S2\n}", "test.dot:4: node \"S2\" has no edge leaving it"},
		{"missing reverse", "digraph {\n" + ok + "S1 -> S2\nS1 -> S2\nS2 -> S1\n}", "test.dot:5: edge \"S1\" -> \"S2\" has no reverse edge \"S2\" -> \"S1\" (there are 2 edges S1 -> S2 and 1 back"},
		{"host twice", "digraph {\n" + ok + "S2 -> H1\nH1 -> S2\n}", "test.dot:4: host \"H1\" has a second link (the first is on line 2"},
		{"host without link", "digraph {\n" + ok + "H2\n}", "test.dot:4: host \"H2\" has no link"},
		{"host only in", "digraph {\nS1 -> H1\nS1 -> S2\nS2 -> S1\n}", "test.dot:2: node \"H1\" has no edge leaving it"},
		{"host declared, only in", "digraph {\nS1 -> H1\nH1\n}", "test.dot:2: host \"H1\" has no edge to switch \"S1\""},
		{"host only out", "digraph {\n" + ok + "H2 -> S1\n}", "test.dot:4: host \"H2\" has no edge from switch \"S1\""},
		{"host back elsewhere", "digraph {\nS1 -> H1\nS1 -> S2\nS2 -> S1\nH1 -> S2\n}", "test.dot:5: host \"H1\" links to switch \"S2\" but switch \"S1\" links to it on line 2"},
		{"srcport mixed", "digraph {\n" + ok + "S1 -> S2 [srcport = 2]\nS2 -> S1\n}", "test.dot:2: srcport: edge \"S1\" -> \"H1\" has none but the edge on line 4"},
		{"srcport twice", "digraph {\nS1 -> H1 [srcport = 1]\nH1 -> S1\nS1 -> S2 [srcport = 1]\nS2 -> S1\n}", "test.dot:4: srcport: port 1 of switch \"S1\" is also used on line 2"},
		{"srcport on host", "digraph {\nS1 -> H1\nH1 -> S1 [srcport = 1]\n}", "test.dot:3: srcport: host \"H1\" has a single"},
		{"dstport on host", "digraph {\nS1 -> H1 [dstport = 1]\nH1 -> S1\n}", "test.dot:2: dstport: host \"H1\" has a single"},
		{"dstport mixed", "digraph {\n" + ok + "S1 -> S2 [dstport = 1]\nS2 -> S1\n}", "test.dot:5: dstport: edge \"S2\" -> \"S1\" has none"},
		{"dstport mismatch", "digraph {\n" + ok + "S1 -> S2 [dstport = 2]\nS2 -> S1 [dstport = 2]\n}", "test.dot:4: edge \"S1\" -> \"S2\" (port 2 to port 2) has no reverse edge \"S2\" -> \"S1\" with srcport 2 and dstport 2"},
		{"host dstport wrong", "digraph {\nS1 -> H1\nH1 -> S1 [dstport = 2]\n}", "test.dot:3: dstport: host \"H1\" reaches port 2 of switch \"S1\", but the edge on line 2 leaves port 1"},
		{"comment unknown host", "digraph {\nS1 -> H1 [comment = \"H1,H9\"]\nH1 -> S1\n}", "test.dot:2: comment: unknown host \"H9\""},
		{"comment names switch", "digraph {\nS1 -> H1 [comment = \"S1\"]\nH1 -> S1\n}", "test.dot:2: comment: \"S1\" is a switch"},
		{"comment host twice", "digraph {\nS1 -> H1 [comment = \"H1, H1\"]\nH1 -> S1\n}", "test.dot:2: comment: host \"H1\" is listed twice (expected each host once)"},
		{"comment empty name", "digraph {\nS1 -> H1\nH1 -> S1 [comment = \"H1,\"]\n}", "test.dot:3: comment: empty host name"},
		{"comment below its edge", "digraph {\nS1 -> H1 [\n\tsrcport = 1,\n\tcomment = \"H9\"\n]\nH1 -> S1\n}", "test.dot:4: comment: unknown host \"H9\""},
		{"comment of a chain", "digraph {\nS1 -> H1 -> S1\n[comment = \"S1\"]\n}", "test.dot:3: comment: \"S1\" is a switch"},
		{"bad host name", "digraph {\nS1 -> \"H,1\"\n\"H,1\" -> S1\n}", "test.dot:3: host name \"H,1\" contains a comma"},
		{"quote in name", "digraph {\nS1 -> \"H\\\"1\"\n\"H\\\"1\" -> S1\n}", "test.dot:3: node name \"H\\\"1\" contains a quote"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ReadDot(strings.NewReader(tc.text), "test.dot")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			var fe *FileError
			if !errors.As(err, &fe) || fe.File != "test.dot" {
				t.Errorf("error %#v is not a *FileError for test.dot", err)
			}
		})
	}
}

func FuzzReadDot(f *testing.F) {
	f.Add(seedListing)
	f.Add("digraph {\n\"S1\" -> \"H1\" [ srcport = 1 ];\n\"H1\" -> \"S1\" [ dstport = 1 ];\n}\n")
	f.Add("digraph { A -> B -> A [srcport=2, dstport=1]; A -> H [comment=\"*\"]; H -> A }")
	if data, err := os.ReadFile("testdata/fabric.ibnetdiscover"); err == nil {
		if net, _, err := ReadIBNetDiscover(bytes.NewReader(data), "f"); err == nil {
			var b bytes.Buffer
			if WriteDot(&b, net, nil) == nil {
				f.Add(b.String())
			}
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		net, routes, err := ReadDot(strings.NewReader(text), "fuzz.dot")
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
		if routes != nil && len(routes.Ports) != len(net.Switches) {
			t.Fatalf("routes for %d switches, network has %d", len(routes.Ports), len(net.Switches))
		}
		var b bytes.Buffer
		if err := WriteDot(&b, net, nil); err != nil {
			t.Fatal(err)
		}
		back, _, err := ReadDot(&b, "again.dot")
		if err != nil {
			t.Fatalf("re-import: %v\n%s", err, b.String())
		}
		sameGraph(t, net, back)
	})
}
