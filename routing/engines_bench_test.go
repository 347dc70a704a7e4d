package routing

import (
	"testing"

	"netsim/topologies"
)

// benchEngine builds engine alg on spec b.N times and reports the layers.
func benchEngine(b *testing.B, spec topologies.Spec, alg string) {
	net := mustBuild(b, spec)
	b.ResetTimer()
	for range b.N {
		r, err := New(Spec{Algorithm: alg, VLs: 15}, net)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.VLs()), "layers")
	}
}

// 4,096 hosts: FlatFly 8×8×8 with 8 hosts per switch (512 switches).
func ff4096() topologies.Spec {
	return topologies.Spec{Kind: "flatfly", Dims: []int{8, 8, 8}, HostsPerSwitch: 8}
}

func BenchmarkMinHopFlatFly4096(b *testing.B) { benchEngine(b, ff4096(), "minhop") }
func BenchmarkUpDownFlatFly4096(b *testing.B) { benchEngine(b, ff4096(), "updn") }
func BenchmarkSSSPFlatFly4096(b *testing.B)   { benchEngine(b, ff4096(), "sssp") }
func BenchmarkDFSSSPFlatFly4096(b *testing.B) { benchEngine(b, ff4096(), "dfsssp") }
func BenchmarkLASHFlatFly4096(b *testing.B)   { benchEngine(b, ff4096(), "lash") }

// BenchmarkDFSSSPFlatFly16384 routes the 16,384-host FlatFly preset with
// all the layers it needs (more than the 16 VLs New allows) to count
// them.
func BenchmarkDFSSSPFlatFly16384(b *testing.B) { benchLayers(b, "dfsssp") }

// BenchmarkLASHFlatFly16384 is BenchmarkDFSSSPFlatFly16384 for lash.
func BenchmarkLASHFlatFly16384(b *testing.B) { benchLayers(b, "lash") }

// benchLayers builds engine alg (dfsssp or lash) on the 16,384-host
// FlatFly preset with up to maxLayers layers and reports the layers used.
func benchLayers(b *testing.B, alg string) {
	net := mustBuild(b, topologies.Spec{Preset: "flatfly"})
	b.ResetTimer()
	for range b.N {
		t, err := newLayered(alg, net, maxLayers)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(t.Layers()), "layers")
	}
}

// BenchmarkSSSPFlatFly16384 builds P-SSSP on the 16,384-host FlatFly preset.
func BenchmarkSSSPFlatFly16384(b *testing.B) {
	benchEngine(b, topologies.Spec{Preset: "flatfly"}, "sssp")
}

// BenchmarkNueFlatFly4096 builds Nue on 15 layers.
func BenchmarkNueFlatFly4096(b *testing.B) { benchEngine(b, ff4096(), "nue") }

// BenchmarkNueTorus4096 builds Nue on a 16×16×4 torus, 4 hosts a switch,
// on 2 layers: the case Nue is for, a torus within few VLs.
func BenchmarkNueTorus4096(b *testing.B) {
	net := mustBuild(b, topologies.Spec{Kind: "torus", Dims: []int{16, 16, 4}, HostsPerSwitch: 4})
	b.ResetTimer()
	for range b.N {
		if _, err := New(Spec{Algorithm: "nue", VLs: 2}, net); err != nil {
			b.Fatal(err)
		}
	}
}
