package structure

import (
	"fmt"
	"strings"
)

// The families of networks that Detect tells apart, as netsim topo
// recover names them.
const (
	FamilyFlatFly   = "flatfly"
	FamilyDragonfly = "dragonfly"
)

// minFill is the least Fill and NeighbourFill of a FlatFly mapping that
// Detect takes for a FlatFly.
const minFill = 0.5

// Detection is the family of a network found by Detect, with its mapping.
type Detection struct {
	// Family is FamilyFlatFly or FamilyDragonfly.
	Family string
	// FlatFly is the mapping of a FlatFly, nil for a Dragonfly.
	FlatFly *FlatFly
	// Dragonfly is the mapping of a Dragonfly, nil for a FlatFly.
	Dragonfly *Dragonfly
}

// Detect tells the family of the network g from its link list, and maps
// it. It is a FlatFly (hypercubes included) when the mapping of MapFlatFly
// is consistent (FlatFly.Check) and has at least half the switches of the
// complete FlatFly (FlatFly.Fill) and, on average, half of their
// neighbours in it (FlatFly.NeighbourFill): a sparser one could be
// anything. Otherwise it is a Dragonfly when the mapping of
// MapDragonflyShape, knowing shape, is consistent (Dragonfly.Check) and
// finds groups of more than one switch: local links and at least two
// groups.
//
// The error tells why neither family fits, or is that of
// MapDragonflyShape.
func Detect(g *Graph, shape DragonflyShape) (*Detection, error) {
	f, ffErr := MapFlatFly(g)
	if ffErr == nil {
		ffErr = f.Check(g)
	}
	if ffErr == nil {
		fill, nfill := f.Fill(), f.NeighbourFill(g)
		if fill >= minFill && nfill >= minFill {
			return &Detection{Family: FamilyFlatFly, FlatFly: f}, nil
		}
		dims := make([]string, len(f.Dims))
		for i, k := range f.Dims {
			dims[i] = fmt.Sprint(k)
		}
		ffErr = fmt.Errorf("the mapping covers %.0f %% of the switches of the complete FlatFly %s and %.0f %% of their neighbours (need 50 %%)",
			100*fill, strings.Join(dims, " × "), 100*nfill)
	}
	d, err := MapDragonflyShape(g, shape)
	if err != nil {
		return nil, err
	}
	if err := d.Check(g); err != nil {
		return nil, fmt.Errorf("not recognised: not a FlatFly (%v), and not a Dragonfly (%v)", ffErr, err)
	}
	if d.LocalLinks() == 0 || d.Groups < 2 {
		return nil, fmt.Errorf("not recognised: not a FlatFly (%v), and no Dragonfly groups found", ffErr)
	}
	return &Detection{Family: FamilyDragonfly, Dragonfly: d}, nil
}

// Fill returns the fraction of the switches of the complete FlatFly,
// Π K_n, that f maps.
func (f *FlatFly) Fill() float64 {
	complete := 1.0
	for _, k := range f.Dims {
		complete *= float64(k)
	}
	return float64(f.Mapped) / complete
}

// NeighbourFill returns the mean, over the switches f maps of the graph g
// it was made from, of their neighbours divided by Σ (K_n − 1), their
// neighbours in the complete FlatFly; 0 when nothing is mapped.
func (f *FlatFly) NeighbourFill(g *Graph) float64 {
	neighbours := 0
	for _, k := range f.Dims {
		neighbours += k - 1
	}
	pairs := make(map[[2]int]bool)
	for _, l := range g.Links {
		if f.Coord[l.A] != nil {
			pairs[[2]int{min(l.A, l.B), max(l.A, l.B)}] = true
		}
	}
	if f.Mapped == 0 || neighbours == 0 {
		return 0
	}
	return float64(2*len(pairs)) / float64(f.Mapped*neighbours)
}

// LocalLinks returns the number of links of the graph that d finds local
// (inside a group).
func (d *Dragonfly) LocalLinks() int {
	n := 0
	for _, local := range d.Local {
		if local {
			n++
		}
	}
	return n
}
