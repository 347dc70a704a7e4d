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
	slope, se, widen, df := slopeParts(ts, ys)
	if df < 1 {
		return slope, se
	}
	return slope, T975(df) * se * widen
}

// SlopeSE returns what Slope computes before its quantile: the slope, its
// standard error widened for the residuals' autocorrelation, and the
// degrees of freedom (len(ts) − 2) of the t quantile an interval at any
// level multiplies the error by (T). Slope's half-width is T975(df)·se.
// For fewer than 3 points or ts all equal, slope and se are NaN and df 0.
func SlopeSE(ts, ys []float64) (slope, se float64, df int) {
	slope, se, widen, df := slopeParts(ts, ys)
	return slope, se * widen, df
}

// slopeParts returns the slope, its textbook standard error, the factor
// widening it for autocorrelation and the degrees of freedom, kept apart
// so that Slope multiplies them in the order it always has (its
// intervals to the last bit).
func slopeParts(ts, ys []float64) (slope, se, widen float64, df int) {
	n := len(ts)
	if n < 3 || len(ys) != n {
		return math.NaN(), math.NaN(), math.NaN(), 0
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
		return math.NaN(), math.NaN(), math.NaN(), 0
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
	return slope, math.Sqrt(ss / float64(n-2) / stt), math.Sqrt((1 + rho) / (1 - rho)), n - 2
}

// T returns the p quantile of Student's t distribution with df ≥ 1
// degrees of freedom, for 0.5 ≤ p < 1: the factor of a two-sided
// interval at level 2p − 1 (T(0.9995, df) for 99.9 %). It inverts the
// upper tail, computed from the regularized incomplete beta function,
// by bisection: to 1e-6 relative or better from p = 0.6 to 1 − 1e-12
// and df up to 10⁶ (TestT), which covers the levels netsim uses; T975
// is a faster approximation of T(0.975, df) that Slope and Mean keep so
// their intervals do not move. NaN outside that domain.
func T(p float64, df int) float64 {
	if df < 1 || !(p >= 0.5 && p < 1) {
		return math.NaN()
	}
	q := 1 - p
	lo, hi := 0.0, 1.0
	for tTail(hi, df) > q {
		lo, hi = hi, 2*hi
	}
	for range 200 {
		mid := (lo + hi) / 2
		if tTail(mid, df) > q {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo <= 1e-13*hi {
			break
		}
	}
	return (lo + hi) / 2
}

// tTail is the upper tail of Student's t distribution at t ≥ 0 for df
// degrees of freedom, P(T > t) = I_x(df/2, 1/2)/2 with x = df/(df + t²),
// computed without the cancellation of 1 minus the distribution function.
func tTail(t float64, df int) float64 {
	v := float64(df)
	return betaInc(v/2, 0.5, v/(v+t*t)) / 2
}

// betaInc is the regularized incomplete beta function I_x(a, b), by its
// continued fraction (Lentz's method), for a, b > 0 and x in [0, 1].
func betaInc(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log1p(-x))
	if x > (a+1)/(a+b+2) {
		return 1 - front*betaFraction(b, a, 1-x)/b
	}
	return front * betaFraction(a, b, x) / a
}

// betaFraction evaluates the continued fraction of betaInc.
func betaFraction(a, b, x float64) float64 {
	const tiny, eps = 1e-300, 1e-15
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	f := d
	for m := 1; m <= 1000; m++ {
		fm := float64(m)
		for _, num := range [2]float64{
			fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm)),
			-(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1)),
		} {
			d = 1 + num*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + num/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			f *= c * d
		}
		if math.Abs(c*d-1) < eps {
			break
		}
	}
	return f
}

// MaxRho caps the lag-1 autocorrelation Slope corrects for: a series more
// correlated than that (its residuals a slow drift) widens the interval
// by at most √((1+MaxRho)/(1−MaxRho)) ≈ 4.4.
const MaxRho = 0.9
