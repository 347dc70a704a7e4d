package routing

import (
	"sync"
	"testing"

	"netsim/topologies"
)

// mustBuild builds a network for a test.
func mustBuild(t testing.TB, s topologies.Spec) *topologies.Network {
	t.Helper()
	net, err := topologies.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

func TestNewErrors(t *testing.T) {
	ff := mustBuild(t, topologies.Spec{Kind: "flatfly", Dims: []int{2, 2}, HostsPerSwitch: 1})
	xb := mustBuild(t, topologies.Spec{Kind: "crossbar", Hosts: 2})
	ring := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 3, HostsPerSwitch: 1})
	other := &topologies.Network{Kind: "kautz"}
	cube := mustBuild(t, topologies.Spec{Kind: "hypercube", Dimension: 2, HostsPerSwitch: 1})
	torus := mustBuild(t, topologies.Spec{Kind: "torus", Dims: []int{3, 3}, HostsPerSwitch: 1})
	tests := []struct {
		name string
		spec Spec
		net  *topologies.Network
		want string
	}{
		{"nil network", Spec{Algorithm: "dor", VLs: 1}, nil, "routing: no network to route on"},
		{"zero vls", Spec{Algorithm: "dor", VLs: 0}, ff, "vls: need at least 1 virtual lane, got 0"},
		{"negative vls", Spec{Algorithm: "dor", VLs: -2}, ff, "vls: need at least 1 virtual lane, got -2"},
		{"too many vls", Spec{Algorithm: "dor", VLs: MaxVLs + 1}, ff, "vls: 17 exceeds the limit of 16 virtual lanes"},
		{"unknown on flatfly", Spec{Algorithm: "xyz", VLs: 1}, ff, `algorithm: unknown routing "xyz" for topology flatfly (known: dor, mixed-dor, twisted-dor, twisted-mixed-dor, ador, mixed-ador, twisted-ador, twisted-mixed-ador, distance, distance+E, deflection+E, minhop, updn, dnup, sssp, p2sssp, dfsssp, lash, nue, torus-2QoS, file)`},
		{"missing on flatfly", Spec{VLs: 1}, ff, "algorithm: missing routing name for topology flatfly (known: dor, mixed-dor, twisted-dor, twisted-mixed-dor, ador, mixed-ador, twisted-ador, twisted-mixed-ador, distance, distance+E, deflection+E, minhop, updn, dnup, sssp, p2sssp, dfsssp, lash, nue, torus-2QoS, file)"},
		{"nodateline on flatfly", Spec{Algorithm: "dor-nodateline", VLs: 1}, ff, `algorithm: unknown routing "dor-nodateline" for topology flatfly (known: dor, mixed-dor, twisted-dor, twisted-mixed-dor, ador, mixed-ador, twisted-ador, twisted-mixed-ador, distance, distance+E, deflection+E, minhop, updn, dnup, sssp, p2sssp, dfsssp, lash, nue, torus-2QoS, file)`},
		{"unknown on crossbar", Spec{Algorithm: "valiant", VLs: 1}, xb, `algorithm: unknown routing "valiant" for topology crossbar (known: dor, distance, distance+E, deflection+E, minhop, updn, dnup, sssp, p2sssp, dfsssp, lash, nue, torus-2QoS, file)`},
		{"unknown on ring", Spec{Algorithm: "dor-dateline", VLs: 1}, ring, `algorithm: unknown routing "dor-dateline" for topology ring (known: dor, dor-nodateline, distance, distance+E, deflection+E, minhop, updn, dnup, sssp, p2sssp, dfsssp, lash, nue, torus-2QoS, file)`},
		{"unknown topology", Spec{Algorithm: "mixed-dor", VLs: 1}, other, `algorithm: unknown routing "mixed-dor" for topology kautz (known: dor, distance, distance+E, deflection+E, minhop, updn, dnup, sssp, p2sssp, dfsssp, lash, nue, torus-2QoS, file)`},
		{"distance on empty network", Spec{Algorithm: "distance", VLs: 1}, other, `routing distance: network "kautz" has no switches`},
		{"deflection+1 on ring", Spec{Algorithm: "deflection+1", VLs: 1}, ring, `algorithm: "deflection+1": deflection needs E ≥ 2 extra hops, got 1`},
		{"unknown on hypercube", Spec{Algorithm: "valiant", VLs: 1}, cube, `algorithm: unknown routing "valiant" for topology hypercube (known: dor, mixed-dor, negative-first, abo-negative-first, abo-positive-last, distance, distance+E, deflection+E, minhop, updn, dnup, sssp, p2sssp, dfsssp, lash, nue, torus-2QoS, file)`},
		{"nodateline on torus", Spec{Algorithm: "dor-nodateline", VLs: 1}, torus, `algorithm: unknown routing "dor-nodateline" for topology torus (known: dor, distance, distance+E, deflection+E, minhop, updn, dnup, sssp, p2sssp, dfsssp, lash, nue, torus-2QoS, file)`},
		{"mixed-dor on torus", Spec{Algorithm: "mixed-dor", VLs: 4}, torus, `algorithm: unknown routing "mixed-dor" for topology torus (known: dor, distance, distance+E, deflection+E, minhop, updn, dnup, sssp, p2sssp, dfsssp, lash, nue, torus-2QoS, file)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := New(tc.spec, tc.net)
			if err == nil {
				t.Fatalf("New returned %s, want error %q", r.Name(), tc.want)
			}
			if err.Error() != tc.want {
				t.Fatalf("error\n got %q\nwant %q", err, tc.want)
			}
		})
	}
}

// routings returns one routing of every implemented kind, each with 6 VLs.
func routings(t testing.TB) map[string]Routing {
	t.Helper()
	nets := map[string]struct {
		spec topologies.Spec
		alg  string
	}{
		"flatfly":              {topologies.Spec{Kind: "flatfly", Dims: []int{3, 4}, Widths: []int{1, 2}, HostsPerSwitch: 2}, "dor"},
		"crossbar":             {topologies.Spec{Kind: "crossbar", Hosts: 4}, "dor"},
		"ring":                 {topologies.Spec{Kind: "ring", Switches: 5, Widths: []int{2}, HostsPerSwitch: 2}, "dor-nodateline"},
		"flatfly deflection+2": {topologies.Spec{Kind: "flatfly", Dims: []int{3, 4}, Widths: []int{1, 2}, HostsPerSwitch: 2}, "deflection+2"},
		"ring distance+1":      {topologies.Spec{Kind: "ring", Switches: 5, Widths: []int{2}, HostsPerSwitch: 2}, "distance+1"},
		"hypercube":            {topologies.Spec{Kind: "hypercube", Dimension: 2, Width: 2, HostsPerSwitch: 2}, "dor"},
		"hypercube mixed-dor":  {topologies.Spec{Kind: "hypercube", Dimension: 2, Width: 2, HostsPerSwitch: 2}, "mixed-dor"},
		"hypercube abo-nf":     {topologies.Spec{Kind: "hypercube", Dimension: 3, HostsPerSwitch: 3}, "abo-negative-first"},
		"torus":                {topologies.Spec{Kind: "torus", Dims: []int{4, 3}, Widths: []int{2, 1}, HostsPerSwitch: 2}, "dor"},
		"ring dor":             {topologies.Spec{Kind: "ring", Switches: 6, HostsPerSwitch: 4}, "dor"},
		"dragonfly static":     {topologies.Spec{Kind: "dragonfly", GroupSize: 2, GlobalPerSwitch: 1, HostsPerSwitch: 2}, "static"},
		"dragonfly GSID":       {topologies.Spec{Kind: "dragonfly", GroupSize: 3, GlobalPerSwitch: 1, HostsPerSwitch: 2}, "GSID"},
		"slimfly":              {topologies.Spec{Kind: "slimfly", Q: 3, HostsPerSwitch: 1}, "minimal"},
	}
	out := map[string]Routing{}
	for name, n := range nets {
		r, err := New(Spec{Algorithm: n.alg, VLs: 6}, mustBuild(t, n.spec))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = r
	}
	return out
}

func TestBadArgumentsDoNotPanic(t *testing.T) {
	for name, r := range routings(t) {
		for _, dst := range []int{-1, 1 << 40, 24} {
			if dlid, sl, vl := r.Source(0, dst); dlid != -1 || sl != 0 || vl != 0 {
				t.Errorf("%s: Source(0,%d) = %d,%d,%d, want -1,0,0", name, dst, dlid, sl, vl)
			}
		}
		for _, c := range []struct {
			sw   int
			dlid int32
		}{{-1, 0}, {1 << 40, 0}, {99, 0}, {0, -1}, {0, 1 << 30}} {
			if got := r.Route(c.sw, 0, 0, 0, c.dlid, nil); len(got) != 0 {
				t.Errorf("%s: Route(sw %d, dlid %d) = %v, want none", name, c.sw, c.dlid, got)
			}
		}
	}
}

func TestRouteDoesNotAllocate(t *testing.T) {
	for name, r := range routings(t) {
		out := make([]Candidate, 0, 8)
		allocs := testing.AllocsPerRun(100, func() {
			for dst := range 4 {
				dlid, sl, vl := r.Source(0, dst)
				out = r.Route(0, 0, vl, sl, dlid, out[:0])
				_ = r.OutVL(0, 0, vl, sl, int(out[0].Port))
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, allocs)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	// Routings are read-only after New; run with -race to check.
	for name, r := range routings(t) {
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				out := make([]Candidate, 0, 8)
				for dst := range 4 {
					dlid, sl, vl := r.Source(0, dst)
					if out = r.Route(0, 0, vl, sl, dlid, out[:0]); len(out) == 0 {
						t.Errorf("%s: no candidates", name)
					}
				}
			})
		}
		wg.Wait()
	}
}

func BenchmarkFlatFlyDORRouteSeed004(b *testing.B) {
	net := mustBuild(b, topologies.Spec{Kind: "flatfly", Dims: []int{4, 8, 8, 8}, Widths: []int{2, 1, 1, 1}, HostsPerSwitch: 8})
	r, err := New(Spec{Algorithm: "dor", VLs: 8}, net)
	if err != nil {
		b.Fatal(err)
	}
	out := make([]Candidate, 0, 8)
	nh, ns := len(net.Hosts), len(net.Switches)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		dlid, sl, vl := r.Source(0, i*7919%nh)
		out = r.Route(i*31%ns, 0, vl, sl, dlid, out[:0])
		i++
	}
}

func BenchmarkNewFlatFlyDORSeed004(b *testing.B) {
	net := mustBuild(b, topologies.Spec{Kind: "flatfly", Dims: []int{4, 8, 8, 8}, Widths: []int{2, 1, 1, 1}, HostsPerSwitch: 8})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(Spec{Algorithm: "dor", VLs: 8}, net); err != nil {
			b.Fatal(err)
		}
	}
}
