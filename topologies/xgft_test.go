package topologies

import (
	"fmt"
	"testing"
)

// TestXGFTTableI builds the XGFTs of seed 002's Table I, switch topologies
// of 36-port switches with the endpoints spread over the level-0 switches:
// N_i = m_{i+1}·…·m_h · w_1·…·w_i switches at level i, Σ N_i·w_{i+1} links.
func TestXGFTTableI(t *testing.T) {
	tests := []struct {
		m, w   []int
		hosts  int
		levels []int
		links  int
		radix  int // max(⌈hosts/N_0⌉ + w_1, m_i + w_{i+1}, m_h)
	}{
		{[]int{6}, []int{3}, 64, []int{6, 3}, 18, 14},
		{[]int{10}, []int{5}, 128, []int{10, 5}, 50, 18},
		{[]int{16}, []int{8}, 256, []int{16, 8}, 128, 24},
		{[]int{6, 6}, []int{3, 3}, 512, []int{36, 18, 9}, 162, 18},
		{[]int{10, 10}, []int{5, 5}, 1024, []int{100, 50, 25}, 750, 16},
		{[]int{14, 14}, []int{7, 7}, 2048, []int{196, 98, 49}, 2058, 21},
		{[]int{18, 18}, []int{9, 9}, 4096, []int{324, 162, 81}, 4374, 27},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("XGFT(%d;%v;%v) %d hosts", len(tc.m), tc.m, tc.w, tc.hosts), func(t *testing.T) {
			net, err := Build(Spec{Kind: "xgft", M: tc.m, W: tc.w, Hosts: tc.hosts})
			if err != nil {
				t.Fatal(err)
			}
			h := len(tc.m)
			want := treeWant{levels: tc.levels, down: make([]int, h+1), up: make([]int, h+1), par: make([]int, h+1),
				hosts: tc.hosts, links: tc.links, radix: tc.radix}
			want.down[0] = -1 // hosts vary by one between leaves
			for i := range h {
				want.down[i+1] = tc.m[i]
				want.up[i] = tc.w[i]
				want.par[i] = 1
			}
			checkTree(t, net, want)
			if net.Radix() > 36 {
				t.Errorf("radix %d, but Table I assumes 36-port switches", net.Radix())
			}
			// Hosts spread as evenly as possible, the first leaves taking one more.
			leaves := tc.levels[0]
			per := make([]int, leaves)
			for _, a := range net.Hosts {
				per[a.Switch]++
			}
			for l, n := range per {
				if want := tc.hosts/leaves + map[bool]int{true: 1}[l < tc.hosts%leaves]; n != want {
					t.Fatalf("leaf %d has %d hosts, want %d", l, n, want)
				}
			}
			if wantC := map[bool]int{true: tc.hosts / leaves}[tc.hosts%leaves == 0]; net.HostsPerSwitch != wantC {
				t.Errorf("HostsPerSwitch %d, want %d", net.HostsPerSwitch, wantC)
			}
		})
	}
}

// TestXGFTLabels checks the XGFT adjacency rule on every pair of adjacent
// levels of an irregular XGFT, from labels built independently of the
// builder: nodes at levels i and i+1 are joined iff their labels agree in
// every digit but digit i+1.
func TestXGFTLabels(t *testing.T) {
	m, w := []int{2, 3, 2}, []int{3, 1, 2}
	net, err := XGFT(m, w, 12)
	if err != nil {
		t.Fatal(err)
	}
	h := len(m)
	// label returns the digits (x_1 … x_h) of the index-th node of level
	// i: digit j (1-based) ranges over w_j for j ≤ i and m_j above, x_1
	// varying fastest.
	label := func(i, index int) []int {
		x := make([]int, h)
		for j := range h {
			r := m[j]
			if j < i {
				r = w[j]
			}
			x[j], index = index%r, index/r
		}
		return x
	}
	start := 0
	for i := range h {
		n, next := 0, 0
		for _, s := range net.Switches {
			switch s.Coord[0] {
			case int32(i):
				n++
			case int32(i + 1):
				next++
			}
		}
		for a := range n {
			for b := range next {
				la, lb := label(i, a), label(i+1, b)
				joined := true
				for j := range h {
					if j != i && la[j] != lb[j] {
						joined = false
					}
				}
				links := 0
				for _, p := range net.Switches[start+a].Ports {
					if p.Kind == SwitchPort && int(p.Peer) == start+n+b {
						links++
					}
				}
				if links != map[bool]int{true: 1}[joined] {
					t.Fatalf("level %d node %v and level %d node %v share %d links, want joined = %v", i, la, i+1, lb, links, joined)
				}
			}
		}
		start += n
	}
}

// TestXGFTCanonical checks the reading with hosts as the level-0 nodes
// against the families it contains.
func TestXGFTCanonical(t *testing.T) {
	tests := []struct {
		name string
		m, w []int
		same func() (*Network, error)
	}{
		{"4-ary 3-tree", []int{4, 4, 4}, []int{1, 4, 4}, func() (*Network, error) { return FatTree(4, 3, "") }},
		{"3:1 fat tree", []int{6, 4, 4}, []int{1, 2, 4}, func() (*Network, error) { return FatTree(4, 3, "3:1") }},
		{"myrinet 512", []int{16, 32}, []int{1, 16}, func() (*Network, error) { return Clos(32, 512, "") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := XGFT(tc.m, tc.w, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := got.Validate(); err != nil {
				t.Fatal(err)
			}
			want, err := tc.same()
			if err != nil {
				t.Fatal(err)
			}
			sameNetwork(t, got, want)
		})
	}
	// XGFT(1; 5; 1) is one switch with 5 hosts.
	net, err := XGFT([]int{5}, []int{1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkTree(t, net, treeWant{levels: []int{1}, down: []int{5}, up: []int{0}, par: []int{0}, hosts: 5, links: 0, radix: 5})
}
