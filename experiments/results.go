package experiments

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"netsim/fabric"
	"netsim/results"
)

// ResultLine is one line of a results file (JSON lines, as WriteJSON
// writes them) read back.
type ResultLine struct {
	// Source and Line locate the line: the file's name and the 1-based
	// line number.
	Source string
	Line   int
	// Text is the line without its newline.
	Text []byte
	// Kind, Experiment, Variant, Pattern, Point and Config are the line's
	// fields of the same names.
	Kind, Experiment, Variant, Pattern, Point, Config string
	// Offered is the offered load of a point or failed point.
	Offered float64
	// Replication is the line's field replication (0 when absent).
	Replication int

	v results.Line
}

// ReadResults reads the results lines of r, called name in messages. The
// last line is torn when it has no final newline or is not valid JSON — a
// write cut short by a crash: it is left out, and torn is the byte offset
// where it starts (−1 when there is none). Blank lines are skipped. Any
// other line that is not a results line (a JSON object with kind, point,
// experiment and topology) is an error naming the file and line.
func ReadResults(r io.Reader, name string) (lines []ResultLine, torn int64, err error) {
	br := bufio.NewReader(r)
	var offset int64
	for n := 1; ; n++ {
		text, err := br.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, -1, fmt.Errorf("%s: %w", name, err)
		}
		if len(text) == 0 {
			return lines, -1, nil
		}
		complete := text[len(text)-1] == '\n'
		body := bytes.TrimRight(text, "\r\n")
		l, perr := parseResultLine(body)
		switch {
		case !complete && len(bytes.TrimSpace(body)) > 0 || perr != nil && isLast(br):
			return lines, offset, nil
		case perr != nil:
			return nil, -1, &InputError{File: name, Line: n, Msg: perr.Error()}
		}
		if l != nil {
			l.Source, l.Line = name, n
			lines = append(lines, *l)
		}
		offset += int64(len(text))
		if !complete {
			return lines, -1, nil
		}
	}
}

// isLast reports whether br has nothing left to read.
func isLast(br *bufio.Reader) bool {
	_, err := br.Peek(1)
	return err != nil
}

// parseResultLine decodes one line; nil for a blank line.
func parseResultLine(text []byte) (*ResultLine, error) {
	if len(bytes.TrimSpace(text)) == 0 {
		return nil, nil
	}
	v, err := results.Decode(text)
	if err != nil {
		return nil, fmt.Errorf("not a results line: %v", err)
	}
	if v.Point == "" || v.Experiment == "" {
		return nil, errors.New("not a results line: no point or experiment field (written by an older netsim?)")
	}
	if v.Timeline != nil {
		var tl results.Timeline
		if err := json.Unmarshal(v.Timeline, &tl); err != nil || tl.Window < 1 || len(tl.Accepted) != len(tl.Generated) {
			return nil, fmt.Errorf("not a results line: field timeline: expected {\"window\": CYCLES ≥ 1, \"warmup\": …, \"end\": …, \"generated\": […], \"accepted\": […]} with as many of each, got %s", v.Timeline)
		}
	}
	offered := v.Offered
	if v.Kind == KindError && !strings.HasSuffix(v.Point, keySep+KindEBB) && !strings.HasSuffix(v.Point, keySep+KindWorkload) && math.IsNaN(offered) {
		return nil, fmt.Errorf("not a results line: %s without offered load", v.Kind)
	}
	if math.IsNaN(offered) {
		offered = 0
	}
	return &ResultLine{Text: bytes.Clone(text), Kind: v.Kind, Experiment: v.Experiment, Variant: v.Variant,
		Pattern: v.Pattern, Point: v.Point, Config: v.Config, Offered: offered, Replication: v.Replication, v: v}, nil
}

// record rebuilds the record of l for experiment e. Values come back as
// they were written (rounded as WriteJSON rounds them), so writing the
// record again gives the same line.
func (l *ResultLine) record(e *Experiment) Record {
	v := l.v
	r := Record{Kind: v.Kind, Experiment: e, Pattern: v.Pattern, Seed: v.Seed, Resumed: true}
	switch v.Kind {
	case KindPoint:
		r.Offered = l.Offered
		r.Stable = v.Stable
		r.Hosts, r.Sources, r.Unreachable = v.Hosts, v.Sources, v.Unreachable
		r.Verdict = v.Verdict
		r.Stats = fabric.Stats{Offered: l.Offered, Measures: v.Measures, DrainSkipped: v.DrainSkipped}
		if v.RTTAvg != nil {
			r.Stats.RTTAvg = *v.RTTAvg
		}
		if v.Timeline != nil {
			var tl results.Timeline
			_ = json.Unmarshal(v.Timeline, &tl) // checked by parseResultLine
			r.Stats.Timeline = &tl
		}
		if d := v.Distribution; d.LatencyCDF != nil {
			r.Stats.Distribution = &d
		}
	case KindError:
		r.Offered = l.Offered
		r.Err = &storedError{msg: v.Error, deadlock: v.Deadlock}
	case KindSaturation:
		r.Saturation = v.Saturation
		r.Hosts, r.Sources, r.Unreachable = v.Hosts, v.Sources, v.Unreachable
		r.Undecided, r.Contrary = v.Undecided, v.Contrary
		if v.Bound != nil {
			r.Bound = *v.Bound
		}
	case KindEBB:
		r.EBB = v.Exchange
	case KindWorkload:
		r.Workload = v.Workload
		r.EBB = results.Exchange{Packets: v.Packets, RouteChanges: v.RouteChanges, Probes: v.Probes}
	}
	return r
}

// storedError is the error of a failed point read back from a results
// file.
type storedError struct {
	msg      string
	deadlock bool
}

// Error returns the message as it was written.
func (e *storedError) Error() string { return e.msg }

// Store holds results read back, by point key, for a run to resume from:
// the points it holds are not simulated again.
type Store struct {
	mu    sync.Mutex
	lines []ResultLine
	used  []bool
	byKey map[string]int
	exps  map[string]*Experiment // by name and variant
}

// variantID identifies an experiment variant among those of a run.
func variantID(name, variant string, replication int) string {
	return name + keySep + variant + keySep + strconv.Itoa(replication)
}

// id returns e's identity among the experiments of a run (variantID).
func (e *Experiment) id() string { return variantID(e.Name, e.Variant, e.Replication) }

// id returns the identity of the experiment l belongs to (variantID).
func (l *ResultLine) id() string { return variantID(l.Experiment, l.Variant, l.Replication) }

// NewStore indexes lines for resuming a run of exps. A line of a variant
// of exps whose configuration hash differs from the variant's (the
// experiment changed since the line was written) is an error, and so is a
// point found twice with different lines; a point found twice with the
// same line is kept once. Lines of other experiments are kept, unused.
// Every problem is reported, each naming the file and line.
func NewStore(exps []*Experiment, lines []ResultLine) (*Store, error) {
	s := &Store{byKey: map[string]int{}, exps: map[string]*Experiment{}}
	for _, e := range exps {
		s.exps[e.id()] = e
	}
	var errs []error
	stale := map[string]int{} // variant → lines computed with another configuration
	var staleOrder []ResultLine
	for _, l := range lines {
		if i, dup := s.byKey[l.Point]; dup {
			if !bytes.Equal(s.lines[i].Text, l.Text) {
				errs = append(errs, &InputError{File: l.Source, Line: l.Line,
					Msg: fmt.Sprintf("point %s differs from its line %d", l.Point, s.lines[i].Line)})
			}
			continue
		}
		if e, ok := s.exps[l.id()]; ok && l.Config != e.config {
			id := l.id()
			if stale[id] == 0 {
				staleOrder = append(staleOrder, l)
			}
			stale[id]++
			continue
		}
		s.byKey[l.Point] = len(s.lines)
		s.lines = append(s.lines, l)
	}
	for _, l := range staleOrder {
		e := s.exps[l.id()]
		errs = append(errs, &InputError{File: l.Source, Line: l.Line,
			Msg: fmt.Sprintf("%d result(s) of %s, from point %s on, were computed with another configuration (config %s, the experiment's is %s: %s changed since); remove them, or write to another directory",
				stale[l.id()], e.DisplayName(), l.Point, l.Config, e.config, e.File)})
	}
	s.used = make([]bool, len(s.lines))
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return s, nil
}

// Len returns the number of distinct results the store holds.
func (s *Store) Len() int { return len(s.lines) }

// Describe says what the store holds, as a run counts it: "26 points and
// 1 saturation result" (failed points count as points), "" when empty.
func (s *Store) Describe() string {
	counts := map[string]int{}
	for _, l := range s.lines {
		k := l.Kind
		if k == KindError {
			k = KindPoint
		}
		counts[k]++
	}
	var parts []string
	for _, k := range []struct{ kind, one, many string }{
		{KindPoint, "point", "points"}, {KindSaturation, "saturation result", "saturation results"},
		{KindEBB, "exchange", "exchanges"}, {KindWorkload, "workload", "workloads"},
	} {
		switch n := counts[k.kind]; {
		case n == 1:
			parts = append(parts, "1 "+k.one)
		case n > 1:
			parts = append(parts, fmt.Sprintf("%d %s", n, k.many))
		}
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// Has reports whether the store holds a result under key.
func (s *Store) Has(key string) bool {
	if s == nil {
		return false
	}
	_, ok := s.byKey[key]
	return ok
}

// take returns the record stored under key for e, marking it used.
func (s *Store) take(e *Experiment, key string) (Record, bool) {
	if s == nil {
		return Record{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i, ok := s.byKey[key]
	if !ok || s.exps[s.lines[i].id()] != e {
		return Record{}, false
	}
	s.used[i] = true
	return s.lines[i].record(e), true
}

// takeSearch returns the saturation result of e for pattern and the
// points of the pattern the store holds for e, except those at the loads
// skip (the listed loads, taken one by one), marking them used; ok is
// false, and nothing is taken, when the store lacks the result.
func (s *Store) takeSearch(e *Experiment, pattern string, skip []float64) (sat Record, points []Record, ok bool) {
	if s == nil {
		return Record{}, nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i, ok := s.byKey[e.saturationKey(pattern)]
	if !ok || s.exps[s.lines[i].id()] != e {
		return Record{}, nil, false
	}
	s.used[i] = true
	for j := range s.lines {
		l := &s.lines[j]
		if (l.Kind == KindPoint || l.Kind == KindError) && l.id() == e.id() &&
			l.Pattern == pattern && !slices.Contains(skip, l.Offered) {
			s.used[j] = true
			points = append(points, l.record(e))
		}
	}
	return s.lines[i].record(e), points, true
}

// Unused returns the lines no run has taken, in order: results of other
// experiments, variants, loads or shards.
func (s *Store) Unused() []ResultLine {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []ResultLine
	for i, l := range s.lines {
		if !s.used[i] {
			out = append(out, l)
		}
	}
	return out
}
