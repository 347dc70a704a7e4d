// Package batchmeans computes the confidence intervals of a simulation's
// output from its batches: the mean of a series of batch values and the
// trend of a series sampled at batch boundaries, each with the half-width
// of its 95 % confidence interval by Student's t.
package batchmeans

import "math"

// T975 returns the 97.5 % quantile of Student's t distribution with df
// degrees of freedom (df ≥ 1): the factor of a two-sided 95 % interval.
// It uses the Cornish–Fisher expansion of Abramowitz and Stegun 26.7.5
// (within 0.1 % of the exact value from df = 4 on, and 0.01 % from 10),
// and the exact values below 4.
func T975(df int) float64 {
	switch {
	case df < 1:
		return math.NaN()
	case df <= 3:
		return [...]float64{12.706205, 4.302653, 3.182446}[df-1]
	}
	const z = 1.959963984540054 // the normal 97.5 % quantile
	z2 := z * z
	g1 := z * (z2 + 1) / 4
	g2 := z * ((5*z2+16)*z2 + 3) / 96
	g3 := z * (((3*z2+19)*z2+17)*z2 - 15) / 384
	g4 := z * ((((79*z2+776)*z2+1482)*z2-1920)*z2 - 945) / 92160
	v := float64(df)
	return z + g1/v + g2/(v*v) + g3/(v*v*v) + g4/(v*v*v*v)
}

// Mean returns the mean of xs and the half-width of its 95 % confidence
// interval, treating the values as independent, as batch means of
// batches longer than the series' correlation are: t(n−1)·s/√n. The
// half-width is NaN for fewer than 2 values.
func Mean(xs []float64) (mean, half float64) {
	n := float64(len(xs))
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if len(xs) < 2 {
		return mean, math.NaN()
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, T975(len(xs)-1) * math.Sqrt(ss/(n-1)/n)
}

// Slope returns the least-squares slope of ys against ts (at least 3
// points, ts not all equal) and the half-width of its 95 % confidence
// interval. The residuals of a queue's length sampled at batch
// boundaries are correlated when the batches are not much longer than
// the queue's relaxation time, which would make the textbook interval,
// t(n−2)·σ̂/√Σ(t−t̄)², too narrow; the interval is widened by the factor
// √((1+ρ)/(1−ρ)) of an AR(1) series, ρ the residuals' lag-1
// autocorrelation (0 if negative, at most MaxRho).
func Slope(ts, ys []float64) (slope, half float64) {
	n := len(ts)
	if n < 3 || len(ys) != n {
		return math.NaN(), math.NaN()
	}
	var tm, ym float64
	for i := range ts {
		tm += ts[i]
		ym += ys[i]
	}
	tm /= float64(n)
	ym /= float64(n)
	var stt, sty float64
	for i := range ts {
		stt += (ts[i] - tm) * (ts[i] - tm)
		sty += (ts[i] - tm) * (ys[i] - ym)
	}
	if stt == 0 {
		return math.NaN(), math.NaN()
	}
	slope = sty / stt
	var ss, lag float64
	prev := 0.0
	for i := range ts {
		r := ys[i] - ym - slope*(ts[i]-tm)
		ss += r * r
		if i > 0 {
			lag += r * prev
		}
		prev = r
	}
	rho := 0.0
	if ss > 0 {
		rho = min(max(lag/ss, 0), MaxRho)
	}
	se := math.Sqrt(ss / float64(n-2) / stt)
	return slope, T975(n-2) * se * math.Sqrt((1+rho)/(1-rho))
}

// MaxRho caps the lag-1 autocorrelation Slope corrects for: a series more
// correlated than that (its residuals a slow drift) widens the interval
// by at most √((1+MaxRho)/(1−MaxRho)) ≈ 4.4.
const MaxRho = 0.9
