package workload

import (
	"slices"
	"strings"
	"testing"

	"netsim/topologies"
)

func TestPlace(t *testing.T) {
	net, err := topologies.Build(topologies.Spec{Kind: "ring", Switches: 3, HostsPerSwitch: 2})
	if err != nil {
		t.Fatal(err)
	}
	_, names := net.DisplayNames()
	for _, tc := range []struct {
		kind, file string
		ranks      int
		want       []int
		err        string
	}{
		{PlaceLinear, "", 4, []int{0, 1, 2, 3}, ""},
		{PlaceBySwitch, "", 5, []int{0, 2, 4, 1, 3}, ""},
		{PlaceFile, "5\n" + names[0] + " # a name\n\n3\n", 3, []int{5, 0, 3}, ""},
		{PlaceFile, "5\n5\n", 2, nil, "p.txt:2: host 5 is listed twice (first at line 1)"},
		{PlaceFile, "9\n", 1, nil, "p.txt:1: \"9\" is not a host of the network"},
		{PlaceFile, "1\n2\n", 3, nil, "p.txt: 2 hosts for 3 ranks"},
		{PlaceLinear, "", 7, nil, "ranks: 7 ranks on 6 hosts"},
		{"spread", "", 2, nil, "unknown placement \"spread\""},
	} {
		at, err := Place(tc.kind, tc.ranks, net, 1, []byte(tc.file), "p.txt")
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s %q: err %v, want %q", tc.kind, tc.file, err, tc.err)
		case tc.err == "" && (err != nil || !slices.Equal(at, tc.want)):
			t.Errorf("%s %q: %v, %v; want %v", tc.kind, tc.file, at, err, tc.want)
		}
	}
	// Random: a permutation of distinct hosts, the same for a seed.
	a, _ := Place(PlaceRandom, 6, net, 3, nil, "")
	b, _ := Place(PlaceRandom, 6, net, 3, nil, "")
	sorted := slices.Sorted(slices.Values(a))
	if !slices.Equal(a, b) || !slices.Equal(sorted, []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("random placement %v, again %v", a, b)
	}
}
