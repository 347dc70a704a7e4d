package experiments

import (
	"context"
	"math"
	"testing"
)

// saturations runs the experiment in text and returns its saturation per
// pattern, failing the test on any error record.
func saturations(t *testing.T, text string) map[string]float64 {
	t.Helper()
	e, err := Parse("validation.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	err = Runner{Jobs: 2}.Run(context.Background(), []*Experiment{e}, func(r Record) error {
		switch r.Kind {
		case KindError:
			t.Errorf("pattern %s load %v: %v", r.Pattern, r.Offered, r.Err)
		case KindSaturation:
			got[r.Pattern] = r.Saturation
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestSaturationHeadOfLine: a 32×32 crossbar with one FIFO per input (1 VL),
// 1-flit packets and uniform traffic saturates at the input-queueing limit
// 2 − √2 ≈ 0.586 that seed 001 cites.
func TestSaturationHeadOfLine(t *testing.T) {
	got := saturations(t, `
name = "hol"
[topology]
kind = "crossbar"
hosts = 32
[routing]
algorithm = "dor"
[flow_control]
vls = 1
buffer_flits = 16
[traffic]
patterns = ["uniform"]
packet_flits = 1
[sim]
warmup = 2000
measure = 10000
drain = 2000
[sweep]
mode = "saturation"
resolution = 128
`)
	if want := 2 - math.Sqrt2; math.Abs(got["uniform"]-want) > 0.03 {
		t.Errorf("saturation %.4f, want %.3f ± 0.03", got["uniform"], want)
	}
	t.Logf("32×32 FIFO crossbar saturation: %.4f", got["uniform"])
}

// TestSaturationFlatFly: on the 8×8 FlatFly (C = 8, DOR, 2 VLs),
// bit complement sends the 8 hosts of a switch over one first-dimension
// link, so it saturates at 1/8; uniform traffic is limited by head-of-line
// blocking in the per-VL FIFOs (each link only carries load λ under DOR,
// so the network itself would allow 1.0) and must exceed 0.55.
func TestSaturationFlatFly(t *testing.T) {
	got := saturations(t, `
name = "ff8x8-dor"
seed = 1
[topology]
kind = "flatfly"
dims = [8, 8]
widths = [1, 1]
hosts_per_switch = 8
[routing]
algorithm = "dor"
[flow_control]
kind = "credit"
vls = 2
buffer_flits = 64
[traffic]
patterns = ["uniform", "complement"]
packet_flits = 16
[sim]
warmup = 2000
measure = 10000
[sweep]
mode = "saturation"
resolution = 128
`)
	if c := got["complement"]; math.Abs(c-1.0/8) > 1.0/64 {
		t.Errorf("complement saturation %.4f, want 1/8 ± 1/64", c)
	}
	if u := got["uniform"]; u <= 0.55 || u > 0.8 {
		t.Errorf("uniform saturation %.4f, want above 0.55 (and well below the 1.0 of an ideal switch)", u)
	}
	t.Logf("ff8x8-dor saturation: uniform %.4f, complement %.4f", got["uniform"], got["complement"])
}
