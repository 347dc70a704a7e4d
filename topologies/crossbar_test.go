package topologies

import "testing"

func TestCrossbar(t *testing.T) {
	for _, n := range []int{1, 2, 17} {
		net, err := Build(Spec{Kind: "crossbar", Hosts: n})
		if err != nil {
			t.Fatal(err)
		}
		if err := net.Validate(); err != nil {
			t.Fatal(err)
		}
		if net.Kind != "crossbar" || len(net.Switches) != 1 || net.HostsPerSwitch != n ||
			net.Dims != nil || net.Widths != nil || net.Switches[0].Coord != nil {
			t.Fatalf("n=%d: kind %q switches %d C %d dims %v widths %v",
				n, net.Kind, len(net.Switches), net.HostsPerSwitch, net.Dims, net.Widths)
		}
		if net.Radix() != n || net.Links() != 0 {
			t.Errorf("n=%d: radix %d links %d, want %d and 0", n, net.Radix(), net.Links(), n)
		}
		checkHosts(t, net, n)
	}
	if _, err := Crossbar(0); err == nil {
		t.Error("Crossbar(0) succeeded")
	}
}
