package traffic

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"netsim/kernel"
	"netsim/topologies"
)

// MaxMessageFlits bounds a message's length.
const MaxMessageFlits = 1 << 24

// MessageSizes is a distribution of message lengths in flits, from which
// a host draws each message it creates; the message is split into
// packets of the packet length, the last one shorter.
type MessageSizes struct {
	spec  string    // canonical text, for hashing and reports
	sizes []int     // the lengths
	cum   []float64 // cumulative probabilities, cum[len−1] = 1
	mean  float64
}

// ParseMessageSizes parses a message size distribution, lengths in flits:
//
//	fixed N           every message N flits
//	uniform A B       uniform on A..B
//	bimodal S L P     S flits with probability P, else L
//	histogram FILE    "flits,weight" lines of FILE (read by read)
//
// Errors name what is wrong; those of a histogram file, its line.
func ParseMessageSizes(spec string, read func(path string) ([]byte, error)) (*MessageSizes, error) {
	f := strings.Fields(spec)
	bad := func(format string, args ...any) error {
		return fmt.Errorf("message sizes %q: %s (expected \"fixed N\", \"uniform A B\", \"bimodal S L P\" or \"histogram FILE\")", spec, fmt.Sprintf(format, args...))
	}
	num := func(s string) (int, error) {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 || v > MaxMessageFlits {
			return 0, bad("%q is not a length from 1 to %d flits", s, MaxMessageFlits)
		}
		return v, nil
	}
	if len(f) == 0 {
		return nil, bad("empty")
	}
	m := &MessageSizes{}
	switch f[0] {
	case "fixed":
		if len(f) != 2 {
			return nil, bad("fixed takes one length")
		}
		n, err := num(f[1])
		if err != nil {
			return nil, err
		}
		m.set([]int{n}, []float64{1})
	case "uniform":
		if len(f) != 3 {
			return nil, bad("uniform takes two lengths")
		}
		a, err := num(f[1])
		if err != nil {
			return nil, err
		}
		b, err := num(f[2])
		if err != nil {
			return nil, err
		}
		if a > b || b-a > 1<<16 {
			return nil, bad("uniform needs A ≤ B and at most 65,536 lengths")
		}
		var sizes []int
		var w []float64
		for x := a; x <= b; x++ {
			sizes, w = append(sizes, x), append(w, 1)
		}
		m.set(sizes, w)
	case "bimodal":
		if len(f) != 4 {
			return nil, bad("bimodal takes two lengths and a probability")
		}
		s, err := num(f[1])
		if err != nil {
			return nil, err
		}
		l, err := num(f[2])
		if err != nil {
			return nil, err
		}
		p, err := strconv.ParseFloat(f[3], 64)
		if err != nil || !(p >= 0 && p <= 1) {
			return nil, bad("%q is not a probability", f[3])
		}
		m.set([]int{s, l}, []float64{p, 1 - p})
	case "histogram":
		if len(f) != 2 {
			return nil, bad("histogram takes one file")
		}
		data, err := read(f[1])
		if err != nil {
			return nil, fmt.Errorf("message sizes: %w", err)
		}
		if err := m.readHistogram(data, f[1]); err != nil {
			return nil, err
		}
	default:
		return nil, bad("unknown distribution %q", f[0])
	}
	m.spec = strings.Join(f, " ")
	return m, nil
}

// readHistogram reads "flits,weight" lines.
func (m *MessageSizes) readHistogram(data []byte, file string) error {
	var sizes []int
	var w []float64
	seen := map[int]int{}
	err := topologies.EachLine(bytes.NewReader(data), file, 1<<20, func(line int, text string) error {
		f := strings.Split(text, ",")
		if len(f) != 2 {
			return topologies.FileErrorf(file, line, "expected flits,weight (2 fields), got %d", len(f))
		}
		n, err := strconv.Atoi(strings.TrimSpace(f[0]))
		if err != nil || n < 1 || n > MaxMessageFlits {
			if len(sizes) == 0 && strings.EqualFold(strings.TrimSpace(f[0]), "flits") {
				return nil // header
			}
			return topologies.FileErrorf(file, line, "bad length %q (expected 1 to %d flits)", strings.TrimSpace(f[0]), MaxMessageFlits)
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(f[1]), 64)
		if err != nil || !(x > 0) || math.IsInf(x, 0) {
			return topologies.FileErrorf(file, line, "bad weight %q (expected a positive number)", strings.TrimSpace(f[1]))
		}
		if first, dup := seen[n]; dup {
			return topologies.FileErrorf(file, line, "length %d given twice (first at line %d)", n, first)
		}
		seen[n] = line
		sizes, w = append(sizes, n), append(w, x)
		if len(sizes) > 1<<20 {
			return topologies.FileErrorf(file, line, "more than %d lengths", 1<<20)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(sizes) == 0 {
		return topologies.FileErrorf(file, 0, "no lengths (expected flits,weight lines)")
	}
	m.set(sizes, w)
	return nil
}

// set makes the distribution of sizes with weights w.
func (m *MessageSizes) set(sizes []int, w []float64) {
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	m.sizes, m.cum, m.mean = sizes, make([]float64, len(sizes)), 0
	acc := 0.0
	for i, x := range w {
		acc += x / sum
		m.cum[i] = acc
		m.mean += float64(sizes[i]) * x / sum
	}
	m.cum[len(m.cum)-1] = 1
}

// Draw returns a message length drawn with at most one value of rng.
func (m *MessageSizes) Draw(rng *kernel.RNG) int {
	if len(m.sizes) == 1 {
		return m.sizes[0]
	}
	u := rng.Float64()
	i, _ := slices.BinarySearch(m.cum, u)
	return m.sizes[min(i, len(m.sizes)-1)]
}

// Mean returns the mean message length in flits.
func (m *MessageSizes) Mean() float64 { return m.mean }

// Max returns the longest message.
func (m *MessageSizes) Max() int { return slices.Max(m.sizes) }

// ShortestPacket returns the shortest packet messages of these lengths
// make when split into packets of flits: a message's last packet.
func (m *MessageSizes) ShortestPacket(flits int) int {
	s := flits
	for _, n := range m.sizes {
		if r := n % flits; r != 0 {
			s = min(s, r)
		} else {
			s = min(s, flits)
		}
	}
	return s
}

// String returns the distribution as parsed, canonical.
func (m *MessageSizes) String() string { return m.spec }
