package routing

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"netsim/topologies"
)

// switchAt returns the name of net's switch at coord.
func switchAt(t *testing.T, net *topologies.Network, coord ...int32) string {
	t.Helper()
	names, _ := net.DisplayNames()
	for s, sw := range net.Switches {
		if slices.Equal(sw.Coord, coord) {
			return names[s]
		}
	}
	t.Fatalf("no switch at %v", coord)
	return ""
}

// writeConf writes a torus-2QoS.conf into a test directory.
func writeConf(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "torus-2QoS.conf")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTorus2QoS builds torus-2QoS on rings and tori, from their own
// coordinates and from a torus-2QoS.conf seeded by switch names (also
// away from the origin, with datelines), and checks that the routes are
// minimal and the channel dependency graph acyclic with the engine's
// SL2VL tables, and that the same tables on one VL are not (the datelines
// are what makes them deadlock-free).
func TestTorus2QoS(t *testing.T) {
	cases := []struct {
		name string
		spec topologies.Spec
		conf func(net *topologies.Network) string // "" for the built coordinates
	}{
		{"ring 6", topologies.Spec{Kind: "ring", Switches: 6, HostsPerSwitch: 2}, nil},
		{"torus 4x4", topologies.Spec{Kind: "torus", Dims: []int{4, 4}, HostsPerSwitch: 1}, nil},
		{"torus 5x3x2", topologies.Spec{Kind: "torus", Dims: []int{5, 3, 2}, HostsPerSwitch: 1}, nil},
		{"torus 5x3x2 conf", topologies.Spec{Kind: "torus", Dims: []int{5, 3, 2}, HostsPerSwitch: 1}, func(net *topologies.Network) string {
			return "torus 5 3 2\nxp_link " + switchAt(t, net, 0, 0, 0) + " " + switchAt(t, net, 1, 0, 0) +
				"\nyp_link " + switchAt(t, net, 0, 0, 0) + " " + switchAt(t, net, 0, 1, 0) +
				"\nzp_link " + switchAt(t, net, 0, 0, 0) + " " + switchAt(t, net, 0, 0, 1) + "\n"
		}},
		{"torus 4x6 conf moved", topologies.Spec{Kind: "torus", Dims: []int{4, 6}, HostsPerSwitch: 1, Widths: []int{2, 1}}, func(net *topologies.Network) string {
			// Seeded at (2,3), dateline so that it is (2,3) again; the
			// −x link given as xm, the +y link backwards as ym of (2,4).
			return "# moved seed\ntorus 4 6 1\nnext_seed\nxp_link 0x0000000000000042 0x0000000000000043\nnext_seed\n" +
				"xp_link " + switchAt(t, net, 2, 3) + " " + switchAt(t, net, 3, 3) +
				"\nxm_link " + switchAt(t, net, 2, 3) + " " + switchAt(t, net, 1, 3) +
				"\nym_link " + switchAt(t, net, 2, 3) + " " + switchAt(t, net, 2, 2) +
				"\nx_dateline -2\ny_dateline 3\n"
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			net := mustBuild(t, c.spec)
			s := Spec{Algorithm: "torus-2QoS", VLs: 2}
			if c.conf != nil {
				s.TorusConfig = writeConf(t, c.conf(net))
			}
			r, err := New(s, net)
			if err != nil {
				t.Fatal(err)
			}
			tab, _ := asTables(r)
			if err := minimal(net, tab); err != nil {
				t.Error(err)
			}
			if c.conf != nil {
				// The coordinates found are the built ones.
				built, err := New(Spec{Algorithm: "torus-2QoS", VLs: 2}, net)
				if err != nil {
					t.Fatal(err)
				}
				bt, _ := asTables(built)
				if !slices.Equal(bt.lft, tab.lft) || !slices.Equal(bt.layer, tab.layer) {
					t.Error("the tables from the torus-2QoS.conf differ from those of the built coordinates")
				}
			}
			rep, err := CheckDeadlock(context.Background(), r, net, CheckOptions{VLs: 2})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Acyclic() {
				t.Errorf("torus-2QoS is reported cyclic: %v", rep.Cycle)
			}
			if r.VLs() != 2 {
				t.Errorf("VLs() = %d, want 2", r.VLs())
			}
			// The same tables on one SL: a ring of 5 or more closes (on a ring
			// of 4, ties going the direct way leave it open).
			if slices.Max(net.Dims) < 5 && net.Kind != "ring" {
				return
			}
			flat := *tab
			flat.sl2vl, flat.layer, flat.layers, flat.vlsNeeded = nil, nil, 1, 0
			if rep, err = CheckDeadlock(context.Background(), &flat, net, CheckOptions{VLs: 2}); err != nil || rep.Acyclic() {
				t.Errorf("torus-2QoS's tables on one VL: acyclic %v, %v (want a cycle)", rep != nil && rep.Acyclic(), err)
			}
		})
	}
}

// TestTorus2QoSErrors checks what torus-2QoS refuses: 1 VL on a torus,
// a network without coordinates and no torus-2QoS.conf, and bad
// torus-2QoS.conf files, each error naming the key or the file and line.
func TestTorus2QoSErrors(t *testing.T) {
	net := mustBuild(t, topologies.Spec{Kind: "torus", Dims: []int{4, 5}, HostsPerSwitch: 1})
	o, x, y, xm := switchAt(t, net, 0, 0), switchAt(t, net, 1, 0), switchAt(t, net, 0, 1), switchAt(t, net, 3, 0)
	far := switchAt(t, net, 2, 2)
	seeds := "xp_link " + o + " " + x + "\nxm_link " + o + " " + xm + "\nyp_link " + o + " " + y + "\n"
	cases := []struct{ name, conf, want string }{
		{"unknown keyword", "torus 4 5 1\n" + seeds + "zz_link a b\n", `:5: unknown keyword "zz_link"`},
		{"bad radix", "torus 4 x 1\n" + seeds, `:1: bad radix "x" for dimension y`},
		{"two size lines", "torus 4 5 1\nmesh 4 5 1\n" + seeds, ":2: a second size line (the first is line 1)"},
		{"no size", seeds, "no size line"},
		{"no seed", "torus 4 5 1\n", "no seed links"},
		{"radix 4 one link", "torus 4 5 1\nxp_link " + o + " " + x + "\nyp_link " + o + " " + y + "\n", "radix 4: the seed needs both xp_link and xm_link"},
		{"no y link", "torus 4 5 1\nxp_link " + o + " " + x + "\nxm_link " + o + " " + xm + "\n", "no link in dimension y"},
		{"not linked", "torus 4 5 1\nxp_link " + o + " " + x + "\nxm_link " + o + " " + xm + "\nyp_link " + o + " " + far + "\n", "yp_link: the switches are not linked"},
		{"two origins", "torus 4 5 1\nxp_link " + o + " " + x + "\nyp_link " + x + " " + y + "\n", ":3: yp_link starts at"},
		{"twice", "torus 4 5 1\n" + seeds + "xp_link " + o + " " + x + "\n", ":5: xp_link given twice"},
		{"unknown switch", "torus 4 5 1\nxp_link nosuch " + x + "\n", `no seed of`},
		{"bad GUID", "torus 4 5 1\nxp_link 0xZZ " + x + "\n", `:2: xp_link: bad GUID "0xZZ"`},
		{"dateline", "torus 4 5 1\n" + seeds + "y_dateline 5\n", ":5: y_dateline 5 is outside"},
		{"wrong size", "torus 5 4 1\n" + strings.ReplaceAll(seeds, "xm_link", "ym_link"), "not a complete 5×4×1 torus"},
		{"wrong count", "torus 4 4 1\n" + seeds + "ym_link " + o + " " + switchAt(t, net, 0, 4) + "\n", "has 16 switch positions, the network 20 switches"},
		{"mesh", "mesh 4 5 1\n" + seeds, "xm_link leads off the mesh"},
		{"mesh seed inside", "mesh 4 5 1\nxp_link " + x + " " + switchAt(t, net, 2, 0) + "\nyp_link " + x + " " + switchAt(t, net, 1, 1) + "\n", "not a complete 4×5×1 mesh"},
		{"port_order", "torus 4 5 1\n" + seeds + "port_order 1 0\n", `bad port "0" in port_order`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(Spec{Algorithm: "torus-2QoS", VLs: 2, TorusConfig: writeConf(t, c.conf)}, net)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "torus-2QoS.conf") {
				t.Errorf("error %v, want the file and %q", err, c.want)
			}
		})
	}
	for _, c := range []struct {
		name string
		spec Spec
		net  topologies.Spec
		want string
	}{
		{"one VL", Spec{Algorithm: "torus-2QoS", VLs: 1}, topologies.Spec{Kind: "torus", Dims: []int{4, 5}, HostsPerSwitch: 1}, "vls: routing torus-2QoS needs 2"},
		{"no conf", Spec{Algorithm: "torus-2QoS", VLs: 2}, topologies.Spec{Kind: "fattree", K: 4, N: 2}, "torus_config: routing torus-2QoS on a fattree"},
		{"four dims", Spec{Algorithm: "torus-2QoS", VLs: 2}, topologies.Spec{Kind: "torus", Dims: []int{3, 3, 3, 3}, HostsPerSwitch: 1}, "at most 3 dimensions"},
		{"conf elsewhere", Spec{Algorithm: "minhop", VLs: 2, TorusConfig: "x.conf"}, topologies.Spec{Kind: "torus", Dims: []int{4, 5}, HostsPerSwitch: 1}, "torus_config: only algorithm"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(c.spec, mustBuild(t, c.net))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

// TestTorus2QoSExtraLink: a link between switches that are not torus
// neighbours (here the ends of two seed links) is refused, not routed
// around.
func TestTorus2QoSExtraLink(t *testing.T) {
	net := mustBuild(t, topologies.Spec{Kind: "torus", Dims: []int{5, 5}, HostsPerSwitch: 1})
	var a, b int32 = -1, -1
	for s, sw := range net.Switches {
		switch {
		case slices.Equal(sw.Coord, []int32{1, 0}):
			a = int32(s)
		case slices.Equal(sw.Coord, []int32{0, 1}):
			b = int32(s)
		}
	}
	pa, pb := int32(len(net.Switches[a].Ports)), int32(len(net.Switches[b].Ports))
	net.Switches[a].Ports = append(net.Switches[a].Ports, topologies.Port{Kind: topologies.SwitchPort, Peer: b, PeerPort: pb, Dim: -1})
	net.Switches[b].Ports = append(net.Switches[b].Ports, topologies.Port{Kind: topologies.SwitchPort, Peer: a, PeerPort: pa, Dim: -1})
	if _, err := New(Spec{Algorithm: "torus-2QoS", VLs: 2}, net); err == nil || !strings.Contains(err.Error(), "joins no neighbours of the torus") {
		t.Errorf("error %v, want the extra link refused", err)
	}
}
