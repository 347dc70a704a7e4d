package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"netsim/results"

	"netsim/internal/batchmeans"
)

// Values a table can hold (Spec.Value).
const (
	ValueSaturation = "saturation"  // saturation results: highest stable load
	ValueAccepted   = "accepted"    // points: accepted load
	ValueLatencyAvg = "latency_avg" // points: mean latency
	ValueLatencyP99 = "latency_p99" // points: 99th-percentile latency
	ValueHops       = "hops_avg"    // points: mean switches per packet
	ValueHopsMedium = "hops_medium" // points: mean sideways (Medium priority) hops per packet
	ValueHopsLow    = "hops_low"    // points: mean deflection (Low priority) hops per packet
	ValueEBBAvg     = "avg"         // exchanges: mean effective bisection bandwidth over the patterns
	ValueEBBMin     = "min"         // exchanges: the lowest pattern's
	ValueEBBMax     = "max"         // exchanges: the highest pattern's
	// ValueCompletion and ValueCompletionUS are a workload's completion
	// time in cycles and µs, ValueBandwidth its effective bandwidth and
	// ValueEfficiency a collective's bound over its completion.
	ValueCompletion   = "completion"
	ValueCompletionUS = "completion_us"
	ValueBandwidth    = "bandwidth"
	ValueEfficiency   = "efficiency"
)

// Values returns the values a Spec may name, in order.
func Values() []string { return results.Values() }

// valueKind returns the kind of result value is read from.
func valueKind(value string) (string, bool) {
	f, ok := results.FieldNamed(value)
	if !ok || f.Value == 0 {
		return "", false
	}
	return f.Kinds[0], true
}

// DefaultValue is the value a table shows when none is chosen: saturation
// when results holds saturation results, else accepted load when it holds
// points, else the average EBB when it holds exchange results.
func DefaultValue(results []Result) string {
	has := map[string]bool{}
	for _, r := range results {
		has[r.Kind] = true
	}
	switch {
	case has[KindSaturation]:
		return ValueSaturation
	case !has[KindPoint] && has[KindEBB]:
		return ValueEBBAvg
	case !has[KindPoint] && has[KindWorkload]:
		return ValueCompletionUS
	}
	return ValueAccepted
}

// Spec chooses what a pivot table shows.
type Spec struct {
	// Value is the field shown in the cells (one of Values); "" chooses
	// DefaultValue.
	Value string
	// Rows are the fields whose values make a row, in order; nil chooses
	// topology, routing and (for points) pattern and offered, less Cols;
	// for exchanges pattern and dispersion, and threshold when the
	// results hold one host count and several probabilities (seed 001's
	// parameter study).
	Rows []string
	// Cols is the field whose values make the columns; "" chooses pattern
	// for saturation, offered for points, and for exchanges hosts, or
	// probability for a parameter study (see Rows). "load" means offered.
	Cols string
	// Extend adds fields to Rows while results that differ in them fall in
	// one cell (for example two experiments that differ only in vls): the
	// first that differs of flow_control, switching, vls, packet_flits,
	// resolution, tolerance, any other field in alphabetical order (but
	// variant only among the variants of one experiment), and experiment. Without Extend such results are an error.
	Extend bool
}

// Table is a pivot table: one row per distinct combination of the row
// fields' values, one column per value of the column field.
type Table struct {
	// Value is the field in the cells.
	Value string
	// RowKeys are the fields that make a row; ColKey the column field.
	RowKeys []string
	ColKey  string
	// Cols are the column field's values, in order.
	Cols []string
	// Rows are the rows, in order.
	Rows []Row
}

// Row is one row of a Table.
type Row struct {
	// Keys are the values of the table's RowKeys.
	Keys []string
	// Cells hold one cell per column.
	Cells []Cell
}

// Cell is one value of a Table; OK is false for an empty cell. Unstable
// marks the value of a point that did not sustain its load (its stable
// field is false): past saturation its latencies count only the packets
// delivered, so charts draw it apart.
//
// A cell of results that differ only in their replication ([sim]
// replications) and seed holds their mean: N counts them (0 or 1 for a
// cell of one result) and Half is the half-width of the 95 % confidence
// interval of the mean, t(N−1)·s/√N (NaN for N < 2); Unstable is set if
// any of them was.
type Cell struct {
	Value    float64
	OK       bool
	Unstable bool
	N        int
	Half     float64
}

// isMeasured reports whether field k is a measurement or an outcome, or a
// key derived from the fields that identify a result (point, config; params
// says what variant says), so not itself shown as part of what identifies
// it (results.Field.Outcome).
func isMeasured(k string) bool {
	f, ok := results.FieldNamed(k)
	return ok && f.Outcome
}

// Pivot arranges results in a table as spec says. Results of the other
// kind than the value's are ignored. Two results in one cell with the same
// value and the same fields apart from measurements count once. Errors:
// an unknown value or field, no result of the value's kind, and results
// that fall in one cell but differ (see Spec.Extend).
func Pivot(results []Result, spec Spec) (*Table, error) {
	value := spec.Value
	if value == "" {
		value = DefaultValue(results)
	}
	kind, ok := valueKind(value)
	if !ok {
		return nil, fmt.Errorf("value %q: unknown (expected one of %s)", value, strings.Join(Values(), ", "))
	}
	var sel []Result
	for _, r := range results {
		if r.Kind == kind {
			sel = append(sel, r)
		}
	}
	if len(sel) == 0 {
		return nil, fmt.Errorf("no %s results to tabulate", kind)
	}
	cols, rows, err := axes(sel, kind, spec)
	if err != nil {
		return nil, err
	}
	for {
		t, conflicts := build(sel, value, rows, cols)
		if len(conflicts) == 0 {
			return t, nil
		}
		if spec.Extend {
			if f := extension(conflicts); f != "" {
				rows = append(rows, f)
				continue
			}
		}
		return nil, conflicts[0].err(value)
	}
}

// axes resolves and checks the row and column fields of spec.
func axes(sel []Result, kind string, spec Spec) (cols string, rows []string, err error) {
	all := []string{"topology", "routing", "pattern"}
	cols = "pattern"
	switch kind {
	case KindPoint:
		all = append(all, "offered")
		cols = "offered"
	case KindEBB:
		all, cols = []string{"pattern", "dispersion"}, "hosts"
		if distinct(sel, "hosts") == 1 && distinct(sel, "probability") > 1 {
			all, cols = append(all, "threshold"), "probability"
		}
	case KindWorkload:
		all, cols = []string{"pattern", "topology", "routing"}, workloadAxis(sel)
	}
	if spec.Cols != "" {
		cols = alias(spec.Cols)
	}
	if spec.Rows == nil {
		for _, k := range all {
			if k != cols {
				rows = append(rows, k)
			}
		}
	} else {
		for _, k := range spec.Rows {
			rows = append(rows, alias(k))
		}
	}
	if len(rows) == 0 {
		return "", nil, fmt.Errorf("rows: no field given")
	}
	for i, k := range rows {
		if k == "" {
			return "", nil, fmt.Errorf("rows: field %d is empty (expected comma-separated field names)", i+1)
		}
		if k == cols {
			return "", nil, fmt.Errorf("rows: %q is also the column field", k)
		}
		if slices.Contains(rows[:i], k) {
			return "", nil, fmt.Errorf("rows: %q given twice", k)
		}
	}
	for _, k := range append(slices.Clone(rows), cols) {
		if !slices.ContainsFunc(sel, func(r Result) bool { return r.has(k) }) {
			return "", nil, fmt.Errorf("field %q: no %s result has it (fields: %s)", k, kind, strings.Join(fieldNames(sel), ", "))
		}
	}
	return cols, rows, nil
}

// distinct returns the number of distinct values of field k among rs.
func distinct(rs []Result, k string) int {
	seen := map[string]bool{}
	for _, r := range rs {
		if v, ok := r.Text(k); ok {
			seen[v] = true
		}
	}
	return len(seen)
}

// alias maps alternative field names to the results' names.
func alias(k string) string {
	if k == "load" {
		return "offered"
	}
	return k
}

// fieldNames returns the fields of the results, sorted.
func fieldNames(rs []Result) []string {
	var names []string
	for _, r := range rs {
		for _, k := range r.keys() {
			if !slices.Contains(names, k) {
				names = append(names, k)
			}
		}
	}
	slices.Sort(names)
	return names
}

// conflict is two results that fall in one cell.
type conflict struct {
	a, b  Result
	where string   // the cell, as "field value, ..."
	diff  []string // fields other than measurements in which they differ
}

// err describes the conflict.
func (c conflict) err(value string) error {
	if len(c.diff) == 0 {
		va, _ := c.a.Text(value)
		vb, _ := c.b.Text(value)
		return fmt.Errorf("%s and %s: different %s (%s, %s) for the same result (%s)", c.a.Source, c.b.Source, value, va, vb, c.where)
	}
	return fmt.Errorf("%s and %s fall in one cell (%s) but differ in %s: add one of these fields to the rows",
		c.a.Source, c.b.Source, c.where, strings.Join(c.diff, ", "))
}

// extension returns the field to add to the rows for the conflicts, or ""
// if none helps.
func extension(conflicts []conflict) string {
	var diff []string
	for _, c := range conflicts {
		for _, f := range c.diff {
			if f != "seed" && !slices.Contains(diff, f) {
				diff = append(diff, f)
			}
		}
	}
	// These first, in order; then the others alphabetically, then
	// experiment. seed is never tried: a point's seed differs from load
	// to load.
	for _, f := range []string{"flow_control", "switching", "selection", "vls", "packet_flits", "resolution", "tolerance"} {
		if slices.Contains(diff, f) {
			return f
		}
	}
	slices.Sort(diff)
	for _, f := range diff {
		// Results of two experiments differ in variant too: the
		// experiment tells them apart with fewer rows.
		if f != "experiment" && (f != "variant" || !slices.Contains(diff, "experiment")) {
			return f
		}
	}
	if slices.Contains(diff, "experiment") {
		return "experiment"
	}
	return ""
}

// build fills the table, and returns the conflicts found instead if any.
func build(sel []Result, value string, rowKeys []string, colKey string) (*Table, []conflict) {
	t := &Table{Value: value, RowKeys: rowKeys, ColKey: colKey}
	cells := map[string][]Result{} // the results of each cell: one, or its replications
	rowIndex := map[string]int{}
	var rowVals [][]string
	var conflicts []conflict
	for _, r := range sel {
		keys := make([]string, len(rowKeys))
		for i, k := range rowKeys {
			keys[i], _ = r.Text(k)
		}
		col, _ := r.Text(colKey)
		rk := strings.Join(keys, "\x00")
		ck := rk + "\x01" + col
		if in, ok := cells[ck]; ok {
			first := in[0]
			if j := sameReplication(in, r); j >= 0 {
				first = in[j] // a line read twice is compared with itself
			}
			diff := differ(first, r)
			if replicates(in, r, diff) {
				cells[ck] = append(in, r)
				continue
			}
			va, oka := first.Measure(value)
			vb, okb := r.Measure(value)
			if len(diff) > 0 || oka != okb || va != vb {
				conflicts = append(conflicts, conflict{a: first, b: r, where: describe(rowKeys, keys, colKey, col), diff: diff})
			}
			continue
		}
		cells[ck] = []Result{r}
		if _, ok := rowIndex[rk]; !ok {
			rowIndex[rk] = len(rowVals)
			rowVals = append(rowVals, keys)
		}
		if !slices.Contains(t.Cols, col) {
			t.Cols = append(t.Cols, col)
		}
	}
	if len(conflicts) > 0 {
		return nil, conflicts
	}
	slices.SortFunc(t.Cols, func(a, b string) int { return compareValues(colKey, a, b) })
	slices.SortFunc(rowVals, func(a, b []string) int { return compareRows(rowKeys, a, b) })
	for _, keys := range rowVals {
		row := Row{Keys: keys, Cells: make([]Cell, len(t.Cols))}
		rk := strings.Join(keys, "\x00")
		for j, col := range t.Cols {
			if in, ok := cells[rk+"\x01"+col]; ok {
				row.Cells[j] = cellOf(in, value)
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// replicates reports whether r, which differs from the results in of a
// cell in diff, is another replication of them: they differ in their
// replication and seed only, and none of them is r's replication.
func replicates(in []Result, r Result, diff []string) bool {
	if !slices.Contains(diff, "replication") || slices.ContainsFunc(diff, func(f string) bool { return f != "replication" && f != "seed" }) {
		return false
	}
	rep, _ := r.Number("replication")
	return !slices.ContainsFunc(in, func(x Result) bool { n, _ := x.Number("replication"); return n == rep })
}

// sameReplication returns the index in in of the result of r's
// replication, or −1.
func sameReplication(in []Result, r Result) int {
	rep, _ := r.Number("replication")
	return slices.IndexFunc(in, func(x Result) bool { n, _ := x.Number("replication"); return n == rep })
}

// cellOf returns the cell of the results in, one or the replications of
// one result, for value.
func cellOf(in []Result, value string) Cell {
	unstable := slices.ContainsFunc(in, func(r Result) bool {
		stable, _ := r.Text("stable")
		return r.Kind == KindPoint && stable == "false"
	})
	if len(in) == 1 {
		v, ok := in[0].Measure(value)
		return Cell{Value: v, OK: ok, Unstable: unstable, N: 1, Half: math.NaN()}
	}
	var vs []float64
	for _, r := range in {
		if v, ok := r.Measure(value); ok {
			vs = append(vs, v)
		}
	}
	mean, half := batchmeans.Mean(vs)
	return Cell{Value: mean, OK: len(vs) > 0, Unstable: unstable, N: len(vs), Half: half}
}

// differ returns the fields, other than measurements, in which a and b
// differ, sorted.
func differ(a, b Result) []string {
	var diff []string
	for _, k := range fieldNames([]Result{a, b}) {
		if isMeasured(k) {
			continue
		}
		va, oka := a.Text(k)
		vb, okb := b.Text(k)
		if oka != okb || va != vb {
			diff = append(diff, k)
		}
	}
	return diff
}

// describe names a cell: "field value, ...".
func describe(rowKeys, keys []string, colKey, col string) string {
	parts := make([]string, 0, len(keys)+1)
	for i, k := range rowKeys {
		parts = append(parts, k+" "+keys[i])
	}
	return strings.Join(append(parts, colKey+" "+col), ", ")
}
