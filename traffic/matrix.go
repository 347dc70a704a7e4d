package traffic

import (
	"bufio"
	"bytes"
	"math"
	"strconv"
	"strings"

	"netsim/topologies"
)

// MaxMatrixEntries bounds the lines of a traffic matrix file.
const MaxMatrixEntries = 1 << 24

// ReadMatrix reads a traffic matrix for net from a CSV file: one line
// "src,dst,weight" per pair, hosts by index (0-based) or by name, weight a
// positive number (the share of src's packets, relative to its other
// lines); a permutation is one line per source with any weight. Blank
// lines and lines starting with '#' are skipped, and a first line
// "src,dst,weight" is taken as a header. A bad line, an unknown host, a
// repeated pair or an empty matrix is an error naming the file and line.
func ReadMatrix(data []byte, file string, net *topologies.Network) (*Matrix, error) {
	_, names := net.DisplayNames()
	byName := make(map[string]int, len(names))
	for i, n := range names {
		byName[n] = i
	}
	hosts := len(net.Hosts)
	host := func(word string) (int, bool) {
		if h, ok := byName[word]; ok {
			return h, true
		}
		if v, err := strconv.Atoi(word); err == nil && v >= 0 && v < hosts {
			return v, true
		}
		return 0, false
	}
	rows := make([][]int32, hosts)
	w := make([][]float64, hosts)
	seen := map[[2]int]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	line, entries := 0, 0
	errorf := func(format string, args ...any) error { return topologies.FileErrorf(file, line, format, args...) }
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		f := strings.Split(text, ",")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		if entries == 0 && len(f) == 3 && strings.EqualFold(f[0], "src") && strings.EqualFold(f[1], "dst") {
			continue // header
		}
		if len(f) != 3 {
			return nil, errorf("expected src,dst,weight (3 fields), got %d", len(f))
		}
		src, ok := host(f[0])
		if !ok {
			return nil, errorf("source %q is not a host of the network (expected a host name or an index 0 to %d)", f[0], hosts-1)
		}
		dst, ok := host(f[1])
		if !ok {
			return nil, errorf("destination %q is not a host of the network (expected a host name or an index 0 to %d)", f[1], hosts-1)
		}
		x, err := strconv.ParseFloat(f[2], 64)
		if err != nil || !(x > 0) || math.IsInf(x, 0) {
			return nil, errorf("bad weight %q (expected a positive number)", f[2])
		}
		if first, dup := seen[[2]int{src, dst}]; dup {
			return nil, errorf("pair %s,%s given twice (first at line %d)", f[0], f[1], first)
		}
		seen[[2]int{src, dst}] = line
		entries++
		if entries > MaxMatrixEntries {
			return nil, errorf("more than %d entries", MaxMatrixEntries)
		}
		rows[src] = append(rows[src], int32(dst))
		w[src] = append(w[src], x)
	}
	if err := sc.Err(); err != nil {
		return nil, topologies.FileErrorf(file, line+1, "%v", err)
	}
	if entries == 0 {
		return nil, topologies.FileErrorf(file, 0, "no entries (expected lines src,dst,weight)")
	}
	return newMatrix(hosts, rows, w), nil
}
