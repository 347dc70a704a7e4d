package fabric

import (
	"context"
	"math"
	"reflect"
	"testing"
)

// TestLinkStats: with LinkStats every link's flits and stalls over the
// window are measured without changing the point; each switch sends what
// it receives (up to what its buffers hold), no link carries more than a
// flit per cycle, a host's link out of the network carries the load the
// host accepted, and flow control holds links back under overload and
// not at a light load.
func TestLinkStats(t *testing.T) {
	for _, load := range []float64{0.05, 0.95} {
		cfg := testConfig(t, flatfly4x4, "dor", "uniform", 2)
		cfg.Load, cfg.Warmup, cfg.Measure, cfg.Drain = load, 500, 2000, 2000
		off, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.LinkStats = true
		on, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		ls := on.Links
		on.Links = nil
		if ls == nil || !reflect.DeepEqual(on, off) {
			t.Fatalf("load %v: link stats %v; the point changed:\n%+v\n%+v", load, ls != nil, on, off)
		}
		if ls.Window != on.Window || ls.Samples != (on.Window+LinkSampleCycles-1)/LinkSampleCycles || ls.VLs != 2 {
			t.Errorf("load %v: window %d, %d samples, %d VLs", load, ls.Window, ls.Samples, ls.VLs)
		}
		net := cfg.Net
		ports := 0
		for _, s := range net.Switches {
			ports += len(s.Ports)
		}
		if len(ls.Links) != ports+len(net.Hosts) {
			t.Fatalf("load %v: %d links, want %d switch ports and %d hosts", load, len(ls.Links), ports, len(net.Hosts))
		}
		in, out := make([]int64, len(net.Switches)), make([]int64, len(net.Switches))
		var stalled, ejected int64
		for i := range ls.Links {
			l := &ls.Links[i]
			if u := l.Utilisation(ls.Window, -1); u > 1+float64(cfg.PacketFlits)/float64(ls.Window) {
				t.Errorf("load %v: link %+v carried %v flits per cycle", load, l, u)
			}
			var f int64
			for _, n := range l.Flits {
				f += n
			}
			if l.From.Switch >= 0 {
				out[l.From.Switch] += f
			}
			if l.To.Switch >= 0 {
				in[l.To.Switch] += f
			}
			if l.To.Host >= 0 {
				ejected += f
			}
			stalled += l.Blocked
		}
		for s := range in {
			if d := in[s] - out[s]; d < 0 && -d > int64(len(net.Switches[s].Ports)*2*cfg.BufferFlits) || d > int64(len(net.Switches[s].Ports)*2*cfg.BufferFlits) {
				t.Errorf("load %v: switch %d received %d flits, sent %d", load, s, in[s], out[s])
			}
		}
		if acc := float64(ejected) / float64(len(net.Hosts)) / float64(ls.Window); math.Abs(acc-on.Accepted) > 0.02 {
			t.Errorf("load %v: the hosts' links carried %v flits/host/cycle, accepted %v", load, acc, on.Accepted)
		}
		if load > 0.5 && stalled == 0 || load < 0.1 && stalled > ls.Samples {
			t.Errorf("load %v: %d stalled samples over the links", load, stalled)
		}
	}
}
