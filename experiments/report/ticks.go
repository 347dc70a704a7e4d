package report

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// logTicks marks a log axis: labels at 1, 2 and 5 times powers of ten
// (at every digit when the range holds fewer than three of those), minor
// ticks at the other digits. gonum's LogTicks labels powers of ten only,
// so a range such as 30..300 cycles would get a single label.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) || math.IsInf(max, 0) {
		return nil
	}
	var all []float64
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		p := math.Pow(10, e)
		for d := 1.0; d <= 9; d++ {
			if v := d * p; v >= min*(1-1e-9) && v <= max*(1+1e-9) {
				all = append(all, v)
			}
		}
	}
	major := func(v float64) bool {
		d := v / math.Pow(10, math.Floor(math.Log10(v)+1e-9))
		d = math.Round(d)
		return d == 1 || d == 2 || d == 5
	}
	n := 0
	for _, v := range all {
		if major(v) {
			n++
		}
	}
	ticks := make([]plot.Tick, 0, len(all))
	for _, v := range all {
		t := plot.Tick{Value: v}
		if n < 3 || major(v) {
			t.Label = strconv.FormatFloat(v, 'g', -1, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// linearTicks marks a linear axis with about five to ten labels at
// multiples of 1, 2 or 5 times a power of ten, and a minor tick between
// labels; labels have just the decimals the step needs.
type linearTicks struct{}

// Ticks implements plot.Ticker.
func (linearTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(min, 0) || math.IsInf(max, 0) {
		return nil
	}
	step := niceCeil((max - min) / 8)
	decimals := max0(-int(math.Floor(math.Log10(step) + 1e-9)))
	var ticks []plot.Tick
	first := math.Ceil(min/step*(1-1e-12)) * step
	for k := 0; ; k++ {
		v := first + float64(k)*step
		if v > max*(1+1e-12)+1e-12 {
			break
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
		if half := v + step/2; half <= max {
			ticks = append(ticks, plot.Tick{Value: half})
		}
		if k == 0 && v-step/2 >= min {
			ticks = append(ticks, plot.Tick{Value: v - step/2})
		}
	}
	return ticks
}

func max0(n int) int {
	if n < 0 {
		return 0
	}
	return n
}

// niceCeil rounds v > 0 up to 1, 2 or 5 times a power of ten; it returns
// 1 for v ≤ 0.
func niceCeil(v float64) float64 {
	if !(v > 0) || math.IsInf(v, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5} {
		if m*p >= v*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}
