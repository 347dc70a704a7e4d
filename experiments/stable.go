package experiments

import (
	"fmt"

	"netsim/fabric"
	"netsim/internal/batchmeans"
	"netsim/results"
)

// judge returns the verdict of a point from the bins of its window
// (fabric.Stats.Bins) and its basis, at stability tolerance tol for
// hosts hosts and [sim] measure cycles:
//
//   - the bins are grouped into batches of equal length, as many as there
//     are bins per measure cycles (fabric.BinsPerMeasure, or measure if
//     fewer), so a window extended to m times measure has batches m
//     times longer;
//   - accepted load and latency get the 95 % confidence intervals of batch
//     means: the mean of the batches' values ± t(b−1)·s/√b, latency per
//     batch over the packets created in it;
//   - the backlog, the flits generated and not yet delivered (in the
//     source queues and the network), is sampled at the batch boundaries
//     of the window's
//     second half (the first half is left to the warm-up's transient) and
//     its least-squares slope is the growth, with a 95 % interval widened
//     for the residuals' autocorrelation (batchmeans.Slope);
//   - the growth limit is tol times the load generated: stable if the
//     interval lies below it, unstable if above, undecided if it holds
//     it. A stable point must also have delivered MinVerdictPackets
//     measured packets, or it is undecided.
//
// A window cut short at an interim look ([sim] stop_early: fewer bins
// than one measure cycles have) has a batch per bin.
func judge(s fabric.Stats, tol float64, hosts int, measure int64) results.Verdict {
	v := results.NoVerdict()
	v.Outcome = results.VerdictUndecided
	w, ok := batchSeries(s, hosts, measure)
	if !ok {
		return v // a window of 3 cycles or fewer tells nothing
	}
	v.Batches = w.batches
	_, v.AcceptedCI = batchmeans.Mean(w.accepted)
	_, v.LatencyCI = batchmeans.Mean(w.latency)
	v.Growth, v.GrowthCI = batchmeans.Slope(w.growthSeries())
	v.GrowthLimit = tol * s.Generated
	switch {
	case v.Growth-v.GrowthCI > v.GrowthLimit:
		v.Outcome = results.VerdictUnstable
	case v.Growth+v.GrowthCI <= v.GrowthLimit && s.Delivered >= MinVerdictPackets:
		v.Outcome = results.VerdictStable
	}
	return v
}

// series is what judge reads of a window: per batch the accepted load and
// (where packets were delivered) the latency, and the backlog sampled at
// the batch boundaries (ts, from 0).
type series struct {
	batches           int
	accepted, latency []float64
	ts, backlog       []float64
}

// growthSeries returns the backlog samples of the window's second half,
// whose slope is the growth.
func (w series) growthSeries() (ts, backlog []float64) {
	return w.ts[w.batches/2:], w.backlog[w.batches/2:]
}

// batchSeries groups the bins of window s into judge's batches and
// returns their series, or false if the window has fewer than 4.
func batchSeries(s fabric.Stats, hosts int, measure int64) (series, bool) {
	bins := s.Bins
	nb := int(min(measure, fabric.BinsPerMeasure))
	if len(bins) < nb {
		nb = len(bins) // cut short at an interim look
	}
	if nb < 4 || len(bins) == 0 || len(bins)%nb != 0 {
		return series{}, false
	}
	per := len(bins) / nb
	h := float64(hosts)
	w := series{batches: nb, ts: make([]float64, 1, nb+1), backlog: make([]float64, 1, nb+1)}
	var t, b float64
	for j := range nb {
		var g, a, c, d, l float64
		for _, x := range bins[j*per : (j+1)*per] {
			g += float64(x.GeneratedFlits)
			a += float64(x.EjectedFlits)
			c += float64(x.Cycles)
			d += float64(x.Delivered)
			l += float64(x.LatencySum)
		}
		w.accepted = append(w.accepted, a/h/c)
		if d > 0 {
			w.latency = append(w.latency, l/d)
		}
		t += c
		b += (g - a) / h
		w.ts, w.backlog = append(w.ts, t), append(w.backlog, b)
	}
	return w, true
}

// InterimQuantile and InterimMargin are what an interim look ([sim]
// stop_early) needs to end a window unstable: the growth's two-sided
// 99.9 % interval (t quantile 0.9995, as in a Haybittle–Peto
// group-sequential design, six looks at that level before the final one
// at 95 %) above InterimMargin times the limit. The level alone would
// do for batches of independent noise; a backlog is not that: in the
// scaled seed-004 table, 10 of 759 points ended at a look with the
// level alone (growth 1.1 to 2.8 times the limit over the part of the
// window seen) were stable or undecided over the whole window, under
// deflection routings, whose backlog swings over thousands of cycles, and
// after the warm-up's last shifts of adaptive routings; none of those
// whose growth was above 3 times the limit was. The margin of 4 keeps
// the points far past saturation, whose backlog grows at many times the
// limit (16 times at half the load of a network saturating at a
// quarter), and leaves the others their whole window.
const (
	InterimQuantile = 0.9995
	InterimMargin   = 4
)

// clearlyUnstable reports whether the window so far, s, ends at an
// interim look ([sim] stop_early): its growth, over the second half of
// judge's batches, exceeds InterimMargin times the limit by more than its
// interval at InterimQuantile. judge then calls it unstable too (its 95 %
// interval is narrower, its limit lower). Stable verdicts are never
// taken at a look.
func clearlyUnstable(s fabric.Stats, tol float64, hosts int, measure int64) bool {
	w, ok := batchSeries(s, hosts, measure)
	if !ok {
		return false
	}
	growth, se, df := batchmeans.SlopeSE(w.growthSeries())
	return growth-batchmeans.T(InterimQuantile, df)*se > InterimMargin*tol*s.Generated
}

// MinVerdictPackets is the fewest measured packets a point must deliver
// for the verdict stable: with fewer, a handful of packets would decide
// it (each one more than 1 % of the sample), and a window in which no
// packet was created or none arrived would be stable by default. A point
// that would be stable with fewer is undecided, and its window grows;
// if it still has too few at [sim] max_measure it is a failed point
// (FewPacketsError). One that is unstable stays so, as its backlog
// says.
const MinVerdictPackets = 100

// FewPacketsError is why a point has no verdict: it delivered fewer than
// MinVerdictPackets measured packets.
type FewPacketsError struct {
	// Delivered and Measured are the measured packets delivered and
	// created in the window of Window cycles.
	Delivered, Measured, Window int64
}

// Error implements the error interface.
func (e *FewPacketsError) Error() string {
	return fmt.Sprintf("no verdict: %d measured packets delivered (%d created in the %d-cycle window), a verdict needs at least %d: lengthen [sim] measure, raise the load or shorten [traffic] packet_flits",
		e.Delivered, e.Measured, e.Window, MinVerdictPackets)
}
