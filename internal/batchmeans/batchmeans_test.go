package batchmeans

import (
	"math"
	"testing"
)

func TestT975(t *testing.T) {
	// Exact quantiles (e.g. R's qt(0.975, df)).
	for _, tc := range []struct {
		df   int
		want float64
	}{
		{1, 12.706205}, {2, 4.302653}, {3, 3.182446}, {4, 2.776445}, {5, 2.570582},
		{8, 2.306004}, {10, 2.228139}, {15, 2.131450}, {16, 2.119905}, {30, 2.042272},
		{31, 2.039513}, {100, 1.983972}, {1000, 1.962339},
	} {
		tol := 1e-4
		if tc.df < 10 {
			tol = 1e-3
		}
		if got := T975(tc.df); math.Abs(got-tc.want) > tol*tc.want {
			t.Errorf("T975(%d) = %.6f, want %.6f", tc.df, got, tc.want)
		}
	}
	if !math.IsNaN(T975(0)) {
		t.Error("T975(0) is a number")
	}
}

func TestMean(t *testing.T) {
	tests := []struct {
		name       string
		xs         []float64
		mean, half float64
	}{
		{"constant", []float64{2, 2, 2, 2}, 2, 0},
		// s = √(10/3)... for 1..4: mean 2.5, s² = 5/3, half = t(3)·√(5/12).
		{"one to four", []float64{1, 2, 3, 4}, 2.5, 3.182446 * math.Sqrt(5.0/12)},
		{"one value", []float64{7}, 7, math.NaN()},
	}
	for _, tc := range tests {
		m, h := Mean(tc.xs)
		if math.Abs(m-tc.mean) > 1e-12 || !(math.Abs(h-tc.half) < 1e-5 || math.IsNaN(h) && math.IsNaN(tc.half)) {
			t.Errorf("%s: Mean = %v ± %v, want %v ± %v", tc.name, m, h, tc.mean, tc.half)
		}
	}
}

func TestSlope(t *testing.T) {
	ts := []float64{0, 1, 2, 3, 4, 5}
	// A line: the slope exactly, no interval.
	s, h := Slope(ts, []float64{1, 3, 5, 7, 9, 11})
	if s != 2 || h != 0 {
		t.Errorf("line: Slope = %v ± %v, want 2 ± 0", s, h)
	}
	// Alternating residuals are negatively correlated: no widening, the
	// textbook interval. y = (0, 1, 0, 1, 0, 1): slope 3/35 (Σ(t−t̄)(y−ȳ) =
	// 1.5 over Σ(t−t̄)² = 17.5), residual sum of squares 1.5 − 1.5²/17.5.
	s, h = Slope(ts, []float64{0, 1, 0, 1, 0, 1})
	ss := 1.5 - 1.5*1.5/17.5
	want := T975(4) * math.Sqrt(ss/4/17.5)
	if math.Abs(s-3.0/35) > 1e-12 || math.Abs(h-want) > 1e-12 {
		t.Errorf("alternating: Slope = %v ± %v, want %v ± %v", s, h, 3.0/35, want)
	}
	// A slow drift around a line is correlated: the interval is wider
	// than the textbook one by up to √19.
	ys := []float64{0, 1, 2, 2, 1, 0}
	s, h = Slope(ts, ys)
	var ym float64
	for _, y := range ys {
		ym += y / 6
	}
	var sty, ssy float64
	for i := range ts {
		sty += (ts[i] - 2.5) * (ys[i] - ym)
		ssy += (ys[i] - ym) * (ys[i] - ym)
	}
	plain := T975(4) * math.Sqrt((ssy-sty*sty/17.5)/4/17.5)
	if s != sty/17.5 || !(h > plain && h <= plain*math.Sqrt(19)+1e-12) {
		t.Errorf("drift: Slope = %v ± %v, want %v ± more than %v", s, h, sty/17.5, plain)
	}
	if s, h := Slope(ts[:2], ts[:2]); !math.IsNaN(s) || !math.IsNaN(h) {
		t.Errorf("two points: Slope = %v ± %v, want NaN", s, h)
	}
}

// TestT: exact quantiles (R's qt(p, df)) at the levels the verdict's
// interim looks and the final one use, and T975 within its stated error
// of T(0.975, ·).
func TestT(t *testing.T) {
	for _, tc := range []struct {
		p    float64
		df   int
		want float64
	}{
		{0.975, 1, 12.706205}, {0.975, 2, 4.302653}, {0.975, 10, 2.228139}, {0.975, 100, 1.983972},
		{0.9995, 1, 636.619249}, {0.9995, 2, 31.599055}, {0.9995, 3, 12.923979}, {0.9995, 6, 5.958816},
		{0.9995, 14, 4.140454}, {0.9995, 30, 3.645959}, {0.9995, 1000, 3.300283},
		{0.5, 5, 0}, {0.95, 4, 2.131847},
		// Far tails and many degrees of freedom: t(1) is Cauchy,
		// cot(π(1 − p)) (1 − p as the floating-point p has it); t(3)'s
		// tail has a closed form (t3); large df is the normal quantile
		// z plus (z³ + z)/(4·df).
		{1 - 1e-12, 1, cauchy(1 - 1e-12)}, {1 - 1e-9, 3, t3(1 - 1e-9)},
		{0.9995, 1000000, 3.2905267 + (3.2905267*3.2905267*3.2905267+3.2905267)/4e6},
		{0.6, 1, math.Tan(math.Pi * 0.1)}, {0.6, 1000000, 0.2533471},
	} {
		if got := T(tc.p, tc.df); math.Abs(got-tc.want) > 1e-6*max(1, tc.want) {
			t.Errorf("T(%v, %d) = %.6f, want %.6f", tc.p, tc.df, got, tc.want)
		}
	}
	for df := 1; df <= 200; df++ {
		tol := 1e-4
		if df < 10 {
			tol = 1e-3
		}
		if e, a := T(0.975, df), T975(df); math.Abs(a-e) > tol*e {
			t.Errorf("T975(%d) = %.6f, T(0.975) = %.6f", df, a, e)
		}
	}
	for _, bad := range []struct {
		p  float64
		df int
	}{{0.4, 3}, {1, 3}, {0.9, 0}, {math.NaN(), 2}} {
		if !math.IsNaN(T(bad.p, bad.df)) {
			t.Errorf("T(%v, %d) is a number", bad.p, bad.df)
		}
	}
}

// TestSlopeSE: Slope's half-width is T975(df) times SlopeSE's error.
func TestSlopeSE(t *testing.T) {
	ts := []float64{0, 1, 2, 3, 4, 5, 6}
	ys := []float64{0, 1.5, 1.7, 3.9, 3.8, 6.1, 5.7}
	s, h := Slope(ts, ys)
	s2, se, df := SlopeSE(ts, ys)
	if s != s2 || df != 5 || math.Abs(h-T975(5)*se) > 1e-15 {
		t.Errorf("Slope = %v ± %v, SlopeSE = %v, %v, %d", s, h, s2, se, df)
	}
	if _, se, df := SlopeSE(ts[:2], ys[:2]); !math.IsNaN(se) || df != 0 {
		t.Errorf("two points: se %v, df %d", se, df)
	}
}

// cauchy returns the p quantile of Student's t with 1 degree of freedom,
// cot(π(1 − p)), 1 − p computed in floating point as T computes it.
func cauchy(p float64) float64 { return 1 / math.Tan(math.Pi*(1-p)) }

// t3 returns the p quantile of Student's t with 3 degrees of freedom,
// by bisection on its closed-form tail ½ − (atan(u) + u/(1+u²))/π, u =
// t/√3, at q = 1 − p computed in floating point.
func t3(p float64) float64 {
	q := 1 - p
	tail := func(t float64) float64 {
		u := t / math.Sqrt(3)
		return (math.Pi/2 - math.Atan(u) - u/(1+u*u)) / math.Pi
	}
	lo, hi := 0.0, 1e7
	for range 300 {
		if mid := (lo + hi) / 2; tail(mid) > q {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
