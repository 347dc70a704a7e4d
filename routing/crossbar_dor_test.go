package routing

import (
	"testing"

	"netsim/topologies"
)

func TestCrossbarDOR(t *testing.T) {
	for _, tc := range []struct{ hosts, vls int }{{1, 1}, {5, 1}, {7, 3}} {
		net, err := topologies.Build(topologies.Spec{Kind: "crossbar", Hosts: tc.hosts})
		if err != nil {
			t.Fatal(err)
		}
		r, err := New(Spec{Algorithm: "dor", VLs: tc.vls}, net)
		if err != nil {
			t.Fatal(err)
		}
		if r.Name() != "dor" || r.VLs() != 1 {
			t.Fatalf("Name %q VLs %d", r.Name(), r.VLs())
		}
		for src := range tc.hosts {
			for dst := range tc.hosts {
				if hops := walk(t, net, r, tc.vls, src, dst, 0, 0); len(hops) != 0 {
					t.Fatalf("%d→%d: %d switch hops, want 0", src, dst, len(hops))
				}
			}
		}
	}
}

func TestCrossbarDORRejectsBrokenNetworks(t *testing.T) {
	ff, err := topologies.Build(topologies.Spec{Kind: "flatfly", Dims: []int{2}, HostsPerSwitch: 1})
	if err != nil {
		t.Fatal(err)
	}
	ff.Kind = "crossbar"
	_, err = New(Spec{Algorithm: "dor", VLs: 1}, ff)
	const want = "routing dor: a crossbar has one switch, network has 2"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
	xb, err := topologies.Build(topologies.Spec{Kind: "crossbar", Hosts: 3})
	if err != nil {
		t.Fatal(err)
	}
	xb.Hosts[1].Port = 2
	if _, err := New(Spec{Algorithm: "dor", VLs: 1}, xb); err == nil {
		t.Fatal("New accepted a crossbar whose host table does not match its ports")
	}
}
