package congestion

import (
	"reflect"
	"strings"
	"testing"

	"netsim/routing"
	"netsim/topologies"
)

// byInPort routes on twoLeaves(c, 2) by the input port: a host on an even port
// takes the first link, one on an odd port the second, so hosts of one
// switch have different paths. loop makes it bounce between the leaves.
type byInPort struct {
	net  *topologies.Network
	loop bool
}

func (r byInPort) Name() string                            { return "byinport" }
func (r byInPort) VLs() int                                { return 1 }
func (r byInPort) SLs() int                                { return 1 }
func (r byInPort) Source(src, dst int) (int32, int, int)   { return int32(dst), 0, 0 }
func (r byInPort) OutVL(sw, inPort, inVL, sl, out int) int { return inVL }
func (r byInPort) Route(sw, inPort, inVL, sl int, dlid int32, out []routing.Candidate) []routing.Candidate {
	c := r.net.HostsPerSwitch
	a := r.net.Hosts[dlid]
	if int(a.Switch) == sw && !r.loop {
		return append(out, routing.Candidate{Port: a.Port, Priority: routing.High})
	}
	return append(out, routing.Candidate{Port: int32(c + inPort%2), Priority: routing.High})
}

func TestExtractPerHostPaths(t *testing.T) {
	net := twoLeaves(4, 2)
	p, err := Extract(byInPort{net: net}, net, PolicyFirst, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Channels: hosts 0..7, switch 0 ports 8..13, switch 1 ports 14..19.
	for _, tt := range []struct {
		src, dst int
		want     []int32
	}{
		{0, 6, []int32{0, 12, 14 + 2}},
		{1, 6, []int32{1, 13, 14 + 2}},
		{3, 4, []int32{3, 13, 14}},
		{5, 1, []int32{5, 19, 9}},
	} {
		if got := p.Path(nil, tt.src, tt.dst); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("path %d→%d = %v, want %v", tt.src, tt.dst, got, tt.want)
		}
	}
	// Each link carries the routes of 2 hosts to 4 destinations.
	if p.ForwardingIndex() != 8 || p.Load(12) != 8 || p.Load(13) != 8 || p.Load(18) != 8 {
		t.Errorf("π = %d, loads %d %d %d, want 8", p.ForwardingIndex(), p.Load(12), p.Load(13), p.Load(18))
	}
}

func TestExtractErrors(t *testing.T) {
	net := twoLeaves(2, 2)
	_, err := Extract(byInPort{net: net, loop: true}, net, PolicyFirst, 1)
	if err == nil || !strings.Contains(err.Error(), "routing loop") {
		t.Errorf("loop: %v", err)
	}
	if _, err := Extract(byInPort{net: net}, net, "random", 1); err == nil {
		t.Error("unknown policy accepted")
	}
}

// TestPolicyDest checks d-mod-k spreading over the candidates of distance
// on two parallel links: even destinations take the first.
func TestPolicyDest(t *testing.T) {
	net := twoLeaves(4, 2)
	p := extract(t, net, "distance", PolicyDest)
	if got := p.Path(nil, 0, 4); got[1] != 12 {
		t.Errorf("0→4 leaves on channel %d, want 12", got[1])
	}
	if got := p.Path(nil, 0, 5); got[1] != 13 {
		t.Errorf("0→5 leaves on channel %d, want 13", got[1])
	}
	first := extract(t, net, "distance", PolicyFirst)
	if first.ForwardingIndex() != 16 || p.ForwardingIndex() != 8 {
		t.Errorf("π first %d (want 16), dest %d (want 8)", first.ForwardingIndex(), p.ForwardingIndex())
	}
}
