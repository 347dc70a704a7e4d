package experiments

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// seed004Table is a saturation table as netsim table writes it in
// markdown: by topology (the file's, seed004Topology), routing and
// pattern, in %.
type seed004Table map[string]map[string]map[string]float64

// seed004Topology names the seed-004 file a topology label of netsim
// table comes from, at either scale.
func seed004Topology(label string) string {
	switch {
	case strings.HasPrefix(label, "torus"):
		return "torus"
	case strings.HasPrefix(label, "product[slimfly q4 w2; flatfly 8x8"), strings.HasPrefix(label, "product[slimfly q4 w1; flatfly 2x2"):
		return "sfxff1"
	case strings.HasPrefix(label, "product["):
		return "sfxff2"
	}
	kind, _, _ := strings.Cut(label, " ")
	return kind
}

// readSeed004Table reads the table of a markdown file netsim table wrote.
func readSeed004Table(t *testing.T, path string) seed004Table {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tab := seed004Table{}
	var cols []string
	for _, line := range strings.Split(string(b), "\n") {
		cells := mdRow(line)
		switch {
		case len(cells) < 3:
		case cells[0] == "topology":
			cols = cells[2:]
		case strings.HasPrefix(cells[0], "---"):
		default:
			topo := seed004Topology(cells[0])
			if tab[topo] == nil {
				tab[topo] = map[string]map[string]float64{}
			}
			row := map[string]float64{}
			for i, c := range cols {
				if v, err := strconv.ParseFloat(cells[2+i], 64); err == nil {
					row[c] = v
				} else {
					t.Fatalf("%s: %s %s %s is %q", path, cells[0], cells[1], c, cells[2+i])
				}
			}
			tab[topo][cells[1]] = row
		}
	}
	if len(tab) != 6 { // the two tori share "torus"
		t.Fatalf("%s: %d topologies, want 6", path, len(tab))
	}
	return tab
}

var seed004BitPatterns = []string{"complement", "reverse", "rotation", "shuffle", "transpose"}

// mean returns the mean of row over patterns.
func mean(row map[string]float64, patterns []string) float64 {
	s := 0.0
	for _, p := range patterns {
		s += row[p]
	}
	return s / float64(len(patterns))
}

// best returns the highest value of pattern among the rows of topo.
func (tab seed004Table) best(topo, pattern string) float64 {
	b := 0.0
	for _, row := range tab[topo] {
		b = max(b, row[pattern])
	}
	return b
}

// seed004Conclusions are the seed's statements of §4–§6 that a
// saturation table can check, each as a test of the table; the
// README's "Seed 004's conclusions" table says which hold where.
var seed004Conclusions = []struct {
	name  string
	holds func(tab seed004Table) bool
}{
	{"tori and hypercube below the other topologies on uniform", func(tab seed004Table) bool {
		low := max(tab.best("torus", "uniform"), tab.best("hypercube", "uniform"))
		for _, topo := range []string{"flatfly", "dragonfly", "sfxff1", "sfxff2"} {
			if tab.best(topo, "uniform") <= low {
				return false
			}
		}
		return true
	}},
	{"FlatFly: Distance Based +4 the best routing (highest mean over the six patterns)", func(tab seed004Table) bool {
		d4 := mean(tab["flatfly"]["distance+4"], seed004Patterns)
		for _, row := range tab["flatfly"] {
			if mean(row, seed004Patterns) > d4 {
				return false
			}
		}
		return true
	}},
	{"FlatFly: adaptive routing needed for the bandwidth (Distance Based +4 above DOR on uniform)", func(tab seed004Table) bool {
		return tab["flatfly"]["distance+4"]["uniform"] > tab["flatfly"]["dor"]["uniform"]
	}},
	{"hypercube: the turn-model routings far below DOR (half its mean or less)", func(tab seed004Table) bool {
		dor := mean(tab["hypercube"]["dor"], seed004Patterns)
		for _, r := range []string{"negative-first", "abo-negative-first", "abo-positive-last"} {
			if mean(tab["hypercube"][r], seed004Patterns) > dor/2 {
				return false
			}
		}
		return true
	}},
	{"Dragonfly: GID or GSD the best on the bit patterns (mean), below the best on uniform", func(tab seed004Table) bool {
		df := tab["dragonfly"]
		top := 0.0
		for _, row := range df {
			top = max(top, mean(row, seed004BitPatterns))
		}
		g := max(mean(df["GID"], seed004BitPatterns), mean(df["GSD"], seed004BitPatterns))
		return g == top && min(df["GID"]["uniform"], df["GSD"]["uniform"]) < tab.best("dragonfly", "uniform")
	}},
	{"Dragonfly: Distance Based and Deflection below the specialised routings (best mean)", func(tab seed004Table) bool {
		var special, generic float64
		for r, row := range tab["dragonfly"] {
			if strings.HasPrefix(r, "distance") || strings.HasPrefix(r, "deflection") {
				generic = max(generic, mean(row, seed004Patterns))
			} else {
				special = max(special, mean(row, seed004Patterns))
			}
		}
		return generic < special
	}},
	{"SF×FF-1 better than SF×FF-2 (best mean)", func(tab seed004Table) bool {
		m := func(topo string) float64 {
			b := 0.0
			for _, row := range tab[topo] {
				b = max(b, mean(row, seed004Patterns))
			}
			return b
		}
		return m("sfxff1") > m("sfxff2")
	}},
	{"SF×FF-1: Deflection above 12.5 % on three bit patterns where the DOR family is not", func(tab seed004Table) bool {
		n := 0
		for _, p := range seed004BitPatterns {
			dor := 0.0
			for r, row := range tab["sfxff1"] {
				if strings.HasSuffix(r, "dor") {
					dor = max(dor, row[p])
				}
			}
			if dor <= 12.5 && max(tab["sfxff1"]["deflection+3"][p], tab["sfxff1"]["deflection+4"][p]) > 12.5 {
				n++
			}
		}
		return n >= 3
	}},
	{"SF×FF-1: Deflection +4 the best on almost all patterns (5 of 6, ties counted)", func(tab seed004Table) bool {
		n := 0
		for _, p := range seed004Patterns {
			if tab["sfxff1"]["deflection+4"][p] == tab.best("sfxff1", p) {
				n++
			}
		}
		return n >= 5
	}},
}

// TestSeed004Conclusions checks the README's table of the seed's
// conclusions against the saturation tables it names: each cell says
// whether the conclusion holds in that table.
func TestSeed004Conclusions(t *testing.T) {
	readme, err := os.ReadFile(studyPath("seed004", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	header, rows := readmeTable(t, string(readme), "## Seed 004's conclusions under each buffer organisation")
	tables := make([]seed004Table, len(header))
	for i, h := range header[1:] {
		// A column's header names its table, as `scaled/table.md`.
		path := strings.Trim(h, "`")
		if !strings.HasSuffix(path, "table.md") {
			t.Fatalf("README conclusions: column %q does not name a table.md", h)
		}
		tables[1+i] = readSeed004Table(t, studyPath(append([]string{"seed004"}, strings.Split(path, "/")...)...))
	}
	if len(rows) != len(seed004Conclusions) {
		t.Errorf("README conclusions: %d rows, want %d", len(rows), len(seed004Conclusions))
	}
	for i, c := range seed004Conclusions {
		if i >= len(rows) {
			break
		}
		if rows[i][0] != c.name {
			t.Errorf("README conclusions row %d is %q, want %q", i+1, rows[i][0], c.name)
		}
		for j := 1; j < len(header) && j < len(rows[i]); j++ {
			want := "no"
			if c.holds(tables[j]) {
				want = "yes"
			}
			if got, _, _ := strings.Cut(rows[i][j], " "); got != want {
				t.Errorf("README conclusions: %q under %s is %q, the table says %s", c.name, header[j], rows[i][j], want)
			}
		}
	}
}
