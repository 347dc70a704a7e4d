package topologies

import (
	"bytes"
	"math"
	"strconv"
	"strings"
)

// Floorplan places a network's switches in space, so that the cable of a
// link between two switches has a length: the Manhattan distance between
// their positions, as cables run along rows and up and down racks.
type Floorplan struct {
	// Pos holds each switch's position in meters (x, y, z).
	Pos [][3]float64
	// CyclesPerMeter is the propagation delay of a meter of cable, in
	// cycles.
	CyclesPerMeter float64
}

// MaxFloorplanMeters bounds a coordinate of a floorplan.
const MaxFloorplanMeters = 1e6

// Meters returns the length of the cable between switches a and b.
func (f *Floorplan) Meters(a, b int) float64 {
	p, q := f.Pos[a], f.Pos[b]
	return math.Abs(p[0]-q[0]) + math.Abs(p[1]-q[1]) + math.Abs(p[2]-q[2])
}

// Cable returns the cycles the cable between switches a and b adds to
// their link's latency: its length times CyclesPerMeter, rounded up; 0
// for a nil floorplan.
func (f *Floorplan) Cable(a, b int) int {
	if f == nil {
		return 0
	}
	return int(math.Ceil(f.Meters(a, b)*f.CyclesPerMeter - 1e-9))
}

// ReadFloorplan reads the positions of net's switches from a CSV file of
// switch,x,y[,z] lines (a switch by name, as DisplayNames gives it, or by
// index; meters; '#' starts a comment; an optional header line
// switch,x,y,z), with CyclesPerMeter cycles per meter. Every switch must
// be placed once. Errors name file and line.
func ReadFloorplan(data []byte, file string, net *Network, cyclesPerMeter float64) (*Floorplan, error) {
	names, _ := net.DisplayNames()
	byName := IndexNames(names)
	f := &Floorplan{Pos: make([][3]float64, len(net.Switches)), CyclesPerMeter: cyclesPerMeter}
	at := make([]int, len(net.Switches)) // the line that placed each switch
	line := 0                            // the last line read
	err := EachLine(bytes.NewReader(data), file, 1<<20, func(l int, text string) error {
		line = l
		fs := strings.Split(text, ",")
		for i := range fs {
			fs[i] = strings.TrimSpace(fs[i])
		}
		if strings.EqualFold(fs[0], "switch") && len(fs) >= 3 && strings.EqualFold(fs[1], "x") {
			return nil // header
		}
		if len(fs) != 3 && len(fs) != 4 {
			return FileErrorf(file, line, "expected switch,x,y or switch,x,y,z, got %d fields", len(fs))
		}
		s, ok := byName[fs[0]]
		if !ok {
			v, err := strconv.Atoi(fs[0])
			if err != nil || v < 0 || v >= len(net.Switches) {
				return FileErrorf(file, line, "%q is not a switch of the network (expected a switch name or an index 0 to %d)", fs[0], len(net.Switches)-1)
			}
			s = v
		}
		if at[s] != 0 {
			return FileErrorf(file, line, "switch %s placed again (first at line %d)", fs[0], at[s])
		}
		at[s] = line
		for k, word := range fs[1:] {
			x, err := strconv.ParseFloat(word, 64)
			if err != nil || math.IsNaN(x) || math.Abs(x) > MaxFloorplanMeters {
				return FileErrorf(file, line, "bad coordinate %q (expected meters, at most %g in size)", word, MaxFloorplanMeters)
			}
			f.Pos[s][k] = x
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for s, l := range at {
		if l == 0 {
			return nil, FileErrorf(file, line, "switch %s (index %d) has no position (every switch needs one)", names[s], s)
		}
	}
	return f, nil
}
