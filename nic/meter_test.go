package nic

import (
	"reflect"
	"testing"
	"unsafe"

	"netsim/flit"
)

func TestLatencyQuantile(t *testing.T) {
	m := &Meter{From: 0, To: 1000}
	// 150 measured packets with latencies 1..150.
	for lat := 1; lat <= 150; lat++ {
		p := &flit.Packet{Created: 0, Measured: true}
		m.delivered(p, int64(lat))
	}
	for _, c := range []struct {
		q    float64
		want float64
	}{{0.5, 75}, {0.99, 149}, {1, 150}, {0.001, 1}} {
		if got := m.LatencyQuantile(c.q); got != c.want {
			t.Errorf("quantile %v = %v, want %v (nearest rank)", c.q, got, c.want)
		}
	}
	if got := m.LatencyAvg(); got != 75.5 {
		t.Errorf("average %v, want 75.5", got)
	}
}

// TestEjectedSplitsRunsAtWindow: a run's flits count in the measurement
// window [100, 200) exactly when each arrives in it.
func TestEjectedSplitsRunsAtWindow(t *testing.T) {
	for _, c := range []struct {
		at       int64
		k        int
		inWindow int64
		whole    int64
	}{
		{80, 10, 0, 10},   // 80..89: before
		{95, 10, 5, 10},   // 95..104: the last 5
		{100, 16, 16, 16}, // inside
		{195, 10, 5, 10},  // 195..204: the first 5
		{90, 200, 100, 200},
		{200, 3, 0, 3}, // the window's end is excluded
		{99, 1, 0, 1},
	} {
		m := &Meter{From: 100, To: 200}
		m.ejected(c.at, c.k)
		if m.EjectedFlits != c.inWindow || m.Ejected != c.whole {
			t.Errorf("run of %d from %d: %d in the window of %d, want %d of %d", c.k, c.at, m.EjectedFlits, m.Ejected, c.inWindow, c.whole)
		}
	}
}

// TestGather: Gather sums every count of the meters (every int64 field,
// the bins, the timeline and the latency histogram) and keeps the
// first's window and bin settings; a field added to Meter must be added
// to Gather (the test counts them).
func TestGather(t *testing.T) {
	settings := map[string]bool{"From": true, "To": true, "timelineCycles": true, "binCycles": true, "perBins": true, "lastLo": true, "lastHi": true}
	mk := func(base int64) *Meter {
		m := &Meter{}
		m.SetBins(100, 4, 8)
		m.SetTimeline(50, 3)
		v := reflect.ValueOf(m).Elem()
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			if f.Kind() == reflect.Int64 && !settings[v.Type().Field(i).Name] {
				reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().SetInt(base + int64(i))
			}
		}
		for i := range m.Bins {
			m.Bins[i] = Bin{base, 2 * base, 3 * base, 4 * base}
		}
		for i := range m.Timeline {
			m.Timeline[i] = TimelineWindow{base, 5 * base}
		}
		m.latency = make([]int64, base)
		for i := range m.latency {
			m.latency[i] = base
		}
		return m
	}
	a, b := mk(10), mk(3)
	var m Meter
	m.Gather([]*Meter{a, b})
	v, va, vb := reflect.ValueOf(m), reflect.ValueOf(*a), reflect.ValueOf(*b)
	counts := 0
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Name
		if v.Field(i).Kind() != reflect.Int64 {
			continue
		}
		want := va.Field(i).Int()
		if !settings[name] {
			want += vb.Field(i).Int()
			counts++
		}
		if got := v.Field(i).Int(); got != want {
			t.Errorf("%s = %d, want %d", name, got, want)
		}
	}
	if counts != 17 {
		t.Errorf("Meter has %d counts, Gather sums 17: update it and this test", counts)
	}
	for i, bin := range m.Bins {
		if bin != (Bin{13, 26, 39, 52}) {
			t.Errorf("bin %d = %+v", i, bin)
		}
	}
	for i, w := range m.Timeline {
		if w != (TimelineWindow{13, 65}) {
			t.Errorf("timeline window %d = %+v", i, w)
		}
	}
	if len(m.latency) != 10 || m.latency[0] != 13 || m.latency[5] != 10 {
		t.Errorf("latency histogram %v", m.latency)
	}
	if a.latency[0] != 10 || a.Bins[0].GeneratedFlits != 10 {
		t.Error("Gather changed its first meter")
	}
}
