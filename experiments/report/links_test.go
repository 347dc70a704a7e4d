package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"netsim/fabric"
	"netsim/topologies"
)

// linksOf returns LinkStats for net over a window of 100 cycles in which
// every link out of switch s into another switch carried 10·(s+1) flits
// on VL 0, and host links nothing.
func linksOf(net *topologies.Network) *fabric.LinkStats {
	ls := &fabric.LinkStats{Window: 100, Samples: 2, VLs: 1}
	for s, sw := range net.Switches {
		for p, port := range sw.Ports {
			l := fabric.LinkStat{From: fabric.LinkEnd{Switch: int32(s), Port: int32(p), Host: -1}, Dim: port.Dim,
				Flits: []int64{0}, Stalled: []int64{0}}
			if port.Kind == topologies.SwitchPort {
				l.To = fabric.LinkEnd{Switch: port.Peer, Port: port.PeerPort, Host: -1}
				l.Flits[0], l.Stalled[0], l.Blocked = int64(10*(s+1)), 1, 1
			} else {
				l.To = fabric.LinkEnd{Switch: -1, Port: -1, Host: port.Peer}
			}
			ls.Links = append(ls.Links, l)
		}
	}
	return ls
}

// TestLinkCharts: the heatmap holds each switch's mean utilisation at its
// first two coordinates, the sorted chart every link highest first, and
// the CSV and graph every link.
func TestLinkCharts(t *testing.T) {
	net, err := topologies.Build(topologies.Spec{Kind: "flatfly", Dims: []int{2, 3}, HostsPerSwitch: 1})
	if err != nil {
		t.Fatal(err)
	}
	ls := linksOf(net)
	if f := linkHeatmap("x", "t", net, ls); f == nil || f.Plot.X.Max != 1.5 || f.Plot.Y.Max != 2.5 {
		t.Fatalf("heatmap of a 2×3 FlatFly: %v", f)
	}
	g, hi, ok := switchGrid(net, ls)
	if !ok || hi != 0.6 {
		t.Fatalf("grid %+v, highest %v", g, hi)
	}
	for s, sw := range net.Switches {
		if got, want := g.Z(int(sw.Coord[0]), int(sw.Coord[1])), float64(10*(s+1))/100; math.Abs(got-want) > 1e-12 {
			t.Errorf("switch %d at %v: %v, want %v", s, sw.Coord, got, want)
		}
	}
	sorted := sortedLinks("x", "t", ls)
	if s := sorted.Series[0]; s.Name != "links between switches" || s.Y[0] != 0.6 || s.Y[len(s.Y)-1] != 0.1 {
		t.Errorf("sorted: %+v", s)
	}
	var csv, dot bytes.Buffer
	if err := writeLinksCSV(&csv, ls); err != nil {
		t.Fatal(err)
	}
	if err := writeLinksDot(&dot, "t", net, ls); err != nil {
		t.Fatal(err)
	}
	// Switch 5's links to switches: 60 flits on VL 0, stalled at 1 of 2
	// samples; one row for the VL and one for all.
	if !strings.Contains(csv.String(), ",0,60,0.6000,0.5000\nswitch 5,") || strings.Count(csv.String(), "\n") != 1+2*len(ls.Links) {
		t.Errorf("CSV:\n%s", csv.String())
	}
	if n := strings.Count(dot.String(), " -> "); n != 6*3 {
		t.Errorf("graph with %d links, want 18", n)
	}
	if linkHeatmap("x", "t", &topologies.Network{Switches: []topologies.Switch{{}}}, ls) != nil {
		t.Error("heatmap of switches without coordinates")
	}
}
