package structure

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"netsim/topologies"
)

func TestLinkListRoundTrip(t *testing.T) {
	net := build(t, topologies.Spec{Kind: "flatfly", Dims: []int{3, 4}, Widths: []int{2, 1}, HostsPerSwitch: 3})
	g := FromNetwork(net)
	var buf bytes.Buffer
	if err := WriteLinkList(&buf, g); err != nil {
		t.Fatal(err)
	}
	back, err := ReadLinkList(&buf, "ff.links")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, g) {
		t.Errorf("read back %+v, want %+v", back, g)
	}
	if len(g.Links) != net.Links() || g.Hosts[5] != 3 {
		t.Errorf("%d links, %d hosts on s5; want %d, 3", len(g.Links), g.Hosts[5], net.Links())
	}
}

func TestReadLinkList(t *testing.T) {
	text := `# a triangle and a pendant switch
a 1 b 1   # ports given
b c
c 7 a 2
hosts a 4

hosts d 2
d 0 a 0
`
	g, err := ReadLinkList(strings.NewReader(text), "t.links")
	if err != nil {
		t.Fatal(err)
	}
	want := &Graph{
		Names: []string{"a", "b", "c", "d"},
		Hosts: []int{4, 0, 0, 2},
		Links: []Link{{0, 1, 1, 1}, {1, 2, -1, -1}, {2, 0, 7, 2}, {3, 0, 0, 0}},
	}
	if !reflect.DeepEqual(g, want) {
		t.Errorf("got %+v, want %+v", g, want)
	}
}

func TestReadLinkListErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"a b\na 1 b\n", "x.links:2: want \"SWITCH PORT SWITCH PORT\""},
		{"a x b 1\n", "x.links:1: switch a: port \"x\" is not an integer ≥ 0"},
		{"a 1 b -3\n", "x.links:1: switch b: port \"-3\""},
		{"a 1 a 2\n", "x.links:1: link from switch a to itself"},
		{"a 1 b 1\n\nc 2 a 1\n", "x.links:3: port 1 of switch a already carries the link on line 1"},
		{"a b\nhosts a\n", "x.links:2: hosts: want \"hosts SWITCH COUNT\""},
		{"a b\nhosts a -1\n", "x.links:2: hosts: count \"-1\""},
		{"a b\nhosts a 1\nhosts a 2\n", "x.links:3: hosts: switch a already given hosts on line 2"},
		{"a hosts\n", "x.links:1: \"hosts\" is a keyword"},
		{"# nothing\n", "x.links: no links"},
	}
	for _, tc := range tests {
		_, err := ReadLinkList(strings.NewReader(tc.text), "x.links")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
}

func TestGraphValidate(t *testing.T) {
	names := []string{"a", "b", "c"}
	tests := []struct {
		g    Graph
		want string
	}{
		{Graph{Names: names, Links: []Link{{0, 3, -1, -1}}}, "link 0: switch out of range"},
		{Graph{Names: names, Links: []Link{{1, 1, -1, -1}}}, "link 0: joins switch b to itself"},
		{Graph{Names: names, Links: []Link{{0, 1, 2, 0}, {2, 0, 1, 2}}}, "link 1: switch a port 2 already carries link 0"},
		{Graph{Names: names, Links: []Link{{0, 1, -2, 0}}}, "link 0: switch a port -2 is negative"},
		{Graph{Names: names, Hosts: []int{1, 2}}, "hosts: 2 entries for 3 switches"},
		{Graph{Names: names, Hosts: []int{1, -2, 0}}, "hosts: switch b has -2 hosts"},
	}
	for _, tc := range tests {
		_, ferr := MapFlatFly(&tc.g)
		_, derr := MapDragonfly(&tc.g)
		for _, err := range []error{ferr, derr} {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%+v: error %v, want %q", tc.g, err, tc.want)
			}
		}
	}
}

// TestMapDegenerate maps graphs with no switches or no links: nothing to
// recover, but no panic and an empty structure.
func TestMapDegenerate(t *testing.T) {
	for _, g := range []*Graph{{}, {Names: []string{"a", "b"}}} {
		f, err := MapFlatFly(g)
		if err != nil || len(f.Dims) != 0 || f.Mapped != min(1, g.Switches()) {
			t.Errorf("%d switches: FlatFly %+v, %v", g.Switches(), f, err)
		}
		d, err := MapDragonfly(g)
		if err != nil || d.Groups != min(1, g.Switches()) || d.GroupSize != d.Groups {
			t.Errorf("%d switches: Dragonfly %+v, %v", g.Switches(), d, err)
		}
	}
}
