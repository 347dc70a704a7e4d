package routing

import (
	"context"
	"testing"

	"netsim/topologies"
)

// noDatelineSL is torus dor with the dateline mask taken out of the SL
// (and the source VL set to the copy's first): every packet then rides
// VL 0 of its copy, as if it crossed no dateline.
type noDatelineSL struct{ *torusDOR }

func (r noDatelineSL) Source(src, dst int) (int32, int, int) {
	dlid, sl, _ := r.torusDOR.Source(src, dst)
	sl &^= int(r.masks) - 1
	return dlid, sl, r.vl(sl, -1)
}

// TestTorusDORServiceLevels checks seed 004 §3.2: torus dor keeps the
// dateline crossings in the SL, so a 4-D torus needs 2 VLs and all 16
// SLs, and its channel dependency graph is acyclic on those 2 VLs; on a
// ring, the same routing without the dateline bit in the SL, or
// dor-nodateline, has a cycle.
func TestTorusDORServiceLevels(t *testing.T) {
	torus4d := mustBuild(t, topologies.Spec{Kind: "torus", Dims: []int{4, 4, 4, 4}, HostsPerSwitch: 1})
	ring := mustBuild(t, topologies.Spec{Kind: "ring", Switches: 8, HostsPerSwitch: 4})
	dor := func(net *topologies.Network, vls int) Routing {
		r, err := New(Spec{Algorithm: "dor", VLs: vls}, net)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	nodateline, err := New(Spec{Algorithm: "dor-nodateline", VLs: 1}, ring)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		net       *topologies.Network
		r         Routing
		vls, sls  int // VLs() and SLs(), and the distinct SLs of Source
		usedVLs   int // the VLs the channels use: CheckDeadlock with only these
		channels  int
		acyclic   bool
		cycleVLs0 bool // the cycle is on VL 0
	}{
		// In a dimension of size 4 (paths of ≤ 2 hops, a tie +1 from an
		// even coordinate), the +1 way's VL 0 carries the links 0→1, 1→2,
		// 2→3 and VL 1 the crossing paths 3→0 and 2→3→0: 3 + 2 of the 4
		// links' 8 channels, likewise −1. 256 switches × 8 links out × 2
		// VLs · 5/8.
		{"dor 4-D torus 4x4x4x4, 8 VLs configured", torus4d, dor(torus4d, 8), 2, 16, 2, 256 * 8 * 2 * 5 / 8, true, false},
		// Ring of 8 (≤ 4 hops): per way, VL 0 on the 7 links but the
		// dateline, VL 1 on the links of crossing paths, 4→…→7→0→1 and
		// 6→7→0→1: 6 links. Copies: 2 masks × min(16/2, 8/2) = 4 copies
		// of the 2 VLs, one per destination local index mod 4.
		{"dor ring 8, 8 VLs", ring, dor(ring, 8), 2, 8, 8, 4 * 2 * (7 + 6), true, false},
		{"dor ring 8, 2 VLs", ring, dor(ring, 2), 2, 2, 2, 2 * (7 + 6), true, false},
		{"dor ring 8 without the dateline SL", ring, noDatelineSL{dor(ring, 2).(*torusDOR)}, 2, 2, 2, 8 * 2, false, true},
		{"dor-nodateline ring 8", ring, nodateline, 1, 1, 1, 8 * 2, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.r.VLs() != tc.vls || tc.r.SLs() != tc.sls {
				t.Fatalf("VLs %d SLs %d, want %d and %d", tc.r.VLs(), tc.r.SLs(), tc.vls, tc.sls)
			}
			if _, ok := tc.r.(noDatelineSL); !ok {
				seen := map[int]bool{}
				for src := range tc.net.Hosts {
					for dst := range tc.net.Hosts {
						_, sl, _ := tc.r.Source(src, dst)
						seen[sl] = true
					}
				}
				if len(seen) != tc.sls {
					t.Fatalf("Source gives %d distinct SLs, want %d", len(seen), tc.sls)
				}
			}
			rep, err := CheckDeadlock(context.Background(), tc.r, tc.net, CheckOptions{VLs: tc.usedVLs, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Acyclic() != tc.acyclic || rep.Channels != tc.channels {
				t.Fatalf("acyclic %v with %d channels, want %v and %d (cycle %v)", rep.Acyclic(), rep.Channels, tc.acyclic, tc.channels, rep.Cycle)
			}
			for _, c := range rep.Cycle {
				if tc.cycleVLs0 && c.VL != 0 {
					t.Fatalf("cycle %v leaves VL 0", rep.Cycle)
				}
			}
		})
	}
}
