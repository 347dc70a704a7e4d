package structure

import (
	"slices"
	"testing"

	"netsim/topologies"
)

// build builds a network for a test, failing it on error.
func build(t *testing.T, s topologies.Spec) *topologies.Network {
	t.Helper()
	net, err := topologies.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// identity returns 0, 1, …, n-1.
func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

func TestMapFlatFlyComplete(t *testing.T) {
	tests := []struct {
		name         string
		dims, widths []int
		wantD, wantW []int
	}{
		{"K4", []int{4}, nil, []int{4}, []int{1}},
		{"3x4", []int{3, 4}, []int{1, 2}, []int{3, 4}, []int{1, 2}},
		{"2x3x5", []int{2, 3, 5}, []int{3, 1, 2}, []int{2, 3, 5}, []int{3, 1, 2}},
		{"hypercube 5", []int{2, 2, 2, 2, 2}, nil, []int{2, 2, 2, 2, 2}, []int{1, 1, 1, 1, 1}},
		{"size-1 dimension", []int{3, 1, 4}, nil, []int{3, 4}, []int{1, 1}},
		{"4x8x8x8 seed 004", []int{4, 8, 8, 8}, []int{2, 1, 1, 1}, []int{4, 8, 8, 8}, []int{2, 1, 1, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net := build(t, topologies.Spec{Kind: "flatfly", Dims: tc.dims, Widths: tc.widths, HostsPerSwitch: 2})
			g := FromNetwork(net)
			f, err := MapFlatFly(g)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(f.Dims, tc.wantD) || !slices.Equal(f.Widths, tc.wantW) {
				t.Errorf("K = %v, L = %v; want %v, %v", f.Dims, f.Widths, tc.wantD, tc.wantW)
			}
			if err := checkFlatFly(f, g, identity(len(net.Switches)), net); err != nil {
				t.Error(err)
			}
			if err := f.Check(g); err != nil {
				t.Error(err)
			}
		})
	}
}
