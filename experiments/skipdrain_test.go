package experiments

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"netsim/fabric"
)

// TestUnstablePointSkipsDrain checks that runPoint ends an unstable point
// with its measurement window and drains a stable one, that the verdict
// and the window's measurements are those of a fully drained run, and that
// the skip survives a results file round trip.
func TestUnstablePointSkipsDrain(t *testing.T) {
	e := mustParse(t, "small.toml", edit(t, "loads = [0.25, 0.5]", "loads = [0.3, 0.95]"))
	// drained is the simulation without the skip.
	drained := func(ctx context.Context, c fabric.Config) (fabric.Stats, error) {
		c.SkipDrain = nil
		return fabric.Run(ctx, c)
	}
	for _, load := range []float64{0.3, 0.95} {
		got, err := runPoint(context.Background(), fabric.Run, e, 0, load)
		if err != nil || got.Kind != KindPoint {
			t.Fatalf("load %v: %v %v", load, got.Kind, err)
		}
		want, err := runPoint(context.Background(), drained, e, 0, load)
		if err != nil || want.Kind != KindPoint {
			t.Fatalf("load %v drained: %v %v", load, want.Kind, err)
		}
		if stable := load < 0.5; got.Stable != stable || want.Stable != stable {
			t.Fatalf("load %v: stable %v (drained %v), want %v: the test needs a stable and an unstable load",
				load, got.Stable, want.Stable, stable)
		}
		g, w := got.Stats, want.Stats
		if g.Generated != w.Generated || g.Accepted != w.Accepted || g.QueueStart != w.QueueStart ||
			g.QueueEnd != w.QueueEnd || g.MeasuredPackets != w.MeasuredPackets {
			t.Errorf("load %v: window differs from the drained run's:\n%+v\n%+v", load, g, w)
		}
		end := e.Sim.Warmup + e.Sim.Measure
		if got.Stable {
			if !reflect.DeepEqual(g, w) {
				t.Errorf("load %v: stable point differs from the drained run:\n%+v\n%+v", load, g, w)
			}
			continue
		}
		if !g.DrainSkipped || g.Cycles != end || w.Cycles <= end || g.Delivered >= w.Delivered {
			t.Errorf("load %v: drain skipped %v after %d cycles, %d delivered; drained run: %d cycles, %d delivered",
				load, g.DrainSkipped, g.Cycles, g.Delivered, w.Cycles, w.Delivered)
		}
		var b bytes.Buffer
		if err := WriteJSON(&b, got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b.Bytes(), []byte(`"drain_skipped":true`)) {
			t.Errorf("load %v: line without drain_skipped: %s", load, b.Bytes())
		}
		l, err := parseResultLine(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
		if err != nil {
			t.Fatal(err)
		}
		var again bytes.Buffer
		if err := WriteJSON(&again, l.record(e)); err != nil {
			t.Fatal(err)
		}
		if again.String() != b.String() {
			t.Errorf("load %v: read back and written again:\n%s\nwant\n%s", load, again.Bytes(), b.Bytes())
		}
	}
}
