package routing

import (
	"fmt"
	"testing"

	"netsim/topologies"
)

// sourcePath follows route r of "source" from src to dst and returns the
// ports taken (switch·1000 + port), failing on a dead end or a loop.
func sourcePath(t *testing.T, net *topologies.Network, r *sourceRoute, src, dst, route int) []int {
	t.Helper()
	dlid, sl, _ := r.SourceRoute(src, dst, route)
	if dlid < 0 {
		t.Fatalf("SourceRoute(%d, %d, %d) = −1", src, dst, route)
	}
	sw := int(net.Hosts[src].Switch)
	var path []int
	buf := make([]Candidate, 0, 4)
	for hops := 0; ; hops++ {
		if hops > 2*len(r.upCount) {
			t.Fatalf("%d→%d route %d: loops: %v", src, dst, route, path)
		}
		c := r.Route(sw, 0, 0, sl, dlid, buf[:0])
		if len(c) != 1 {
			t.Fatalf("%d→%d route %d at switch %d: %d candidates, want 1", src, dst, route, sw, len(c))
		}
		path = append(path, sw*1000+int(c[0].Port))
		port := net.Switches[sw].Ports[c[0].Port]
		if port.Kind == topologies.HostPort {
			if int(port.Peer) != dst {
				t.Fatalf("%d→%d route %d reaches host %d", src, dst, route, port.Peer)
			}
			return path
		}
		sw = int(port.Peer)
	}
}

func TestSourceRoutes(t *testing.T) {
	cases := []struct {
		spec topologies.Spec
		// far is the number of routes between hosts on the first and the
		// last leaf, hops their path length in switches.
		far, hops int
	}{
		{topologies.Spec{Kind: "clos", Ports: 32, Hosts: 512}, 16, 3},
		{topologies.Spec{Kind: "clos", Ports: 32, Hosts: 128}, 16, 3},
		{topologies.Spec{Kind: "clos", Ports: 16, Hosts: 64}, 8, 3},
		{topologies.Spec{Kind: "fattree", K: 4, N: 3}, 16, 5},
		{topologies.Spec{Kind: "xgft", M: []int{4, 3}, W: []int{1, 2}}, 2, 3},
		{topologies.Spec{Kind: "xgft", M: []int{2, 2, 2}, W: []int{1, 2, 2}}, 4, 5},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.spec.Kind, tc.spec.Ports, tc.spec.Hosts, tc.spec.K, tc.spec.N), func(t *testing.T) {
			net, err := topologies.Build(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			rr, err := New(Spec{Algorithm: "source", VLs: 1}, net)
			if err != nil {
				t.Fatal(err)
			}
			r := rr.(*sourceRoute)
			h := len(net.Hosts)
			if got := r.Routes(0, 1); got != 1 {
				t.Errorf("Routes on one leaf = %d, want 1", got)
			}
			if got := r.Routes(0, h-1); got != tc.far {
				t.Errorf("Routes(0, %d) = %d, want %d", h-1, got, tc.far)
			}
			// Every route of every pair from a few sources arrives, the
			// routes of a pair are distinct, far ones have the full length,
			// and the links up from the source leaf are used evenly.
			for _, src := range []int{0, h / 2, h - 1} {
				for dst := 0; dst < h; dst++ {
					n := r.Routes(src, dst)
					seen := map[string]bool{}
					for k := 0; k < n; k++ {
						p := sourcePath(t, net, r, src, dst, k)
						key := fmt.Sprint(p)
						if seen[key] {
							t.Fatalf("%d→%d: route %d repeats %v", src, dst, k, p)
						}
						seen[key] = true
						if n == tc.far && len(p) != tc.hops {
							t.Fatalf("%d→%d route %d: %d switches, want %d", src, dst, k, len(p), tc.hops)
						}
					}
				}
			}
			static, _, _ := r.Source(0, h-1)
			if static>>r.hostBits >= int32(tc.far) || static&r.mask != int32(h-1) {
				t.Errorf("Source(0, %d) = %#x: bad route or destination", h-1, static)
			}
			if n := testing.AllocsPerRun(100, func() {
				dlid, sl, _ := r.SourceRoute(0, h-1, tc.far-1)
				r.Route(0, 0, 0, sl, dlid, make([]Candidate, 0)[:0:0])
			}); n > 1 {
				t.Errorf("Route allocates %v times", n)
			}
		})
	}
}

// TestSourceRouteDownLinks checks that on a Clos with parallel links the
// routes from one leaf to another spread evenly over the links into the
// destination leaf.
func TestSourceRouteDownLinks(t *testing.T) {
	net, err := topologies.Build(topologies.Spec{Kind: "clos", Ports: 32, Hosts: 128})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := New(Spec{Algorithm: "source", VLs: 1}, net)
	if err != nil {
		t.Fatal(err)
	}
	r := rr.(*sourceRoute)
	use := map[int]int{}
	for k := 0; k < 16; k++ {
		p := sourcePath(t, net, r, 0, 127, k)
		use[p[1]]++ // the spine's port down to the last leaf
	}
	if len(use) != 16 {
		t.Errorf("16 routes use %d distinct down links, want 16: %v", len(use), use)
	}
}

func TestSourceRouteErrors(t *testing.T) {
	net, err := topologies.Build(topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(Spec{Algorithm: "source", VLs: 1}, net); err == nil {
		t.Error("source on a torus: no error")
	}
}
