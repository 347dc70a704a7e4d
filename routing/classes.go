package routing

import "fmt"

// Classes maps the VLs a routing sees, its VL classes, onto the VLs of the
// links under dynamic VL choice: the routing is built with the VLs its
// deadlock argument needs (Routing.VLs, no copies), class c owns the link
// VLs Range(c) — the configured VLs split into that many contiguous
// ranges as evenly as possible (class k from ⌊k·V/N⌋, so sizes differ by
// at most one: 5 classes over 8 VLs get 1, 2, 1, 2, 2) — and a packet of
// class c may take any VL of the range at
// each hop (as BookSim allocates an output VC from a range). The routing
// is asked with the class of the VL a packet arrived on and answers with
// a class.
//
// A channel dependency graph over (link, class) is acyclic if and only if
// the one over (link, VL) is, where a VL of class c depends on every VL of
// each class c depends on: a cycle of VLs is a cycle of their classes, and
// a cycle of classes gives one of their ranges' first VLs. So the check of
// the class routing (CheckDeadlock on the routing built with its own VLs)
// is exact for the dynamic choice.
type Classes struct {
	of []uint8 // of[vl]: the class of link VL vl
	lo []uint8 // lo[c] ≤ vl < lo[c+1]: the VLs of class c
}

// NewClasses maps classes VL classes onto vls link VLs, 1 ≤ classes ≤
// vls ≤ MaxVLs.
func NewClasses(classes, vls int) (*Classes, error) {
	if classes < 1 || vls < classes || vls > MaxVLs {
		return nil, fmt.Errorf("routing: cannot map %d VL classes onto %d VLs (1 ≤ classes ≤ VLs ≤ %d)", classes, vls, MaxVLs)
	}
	c := &Classes{of: make([]uint8, vls), lo: make([]uint8, classes+1)}
	for k := range classes + 1 {
		// Class k starts at ⌊k·V/N⌋: with V = N·q + r, r of the classes
		// get q+1 VLs, spread among the others.
		c.lo[k] = uint8(k * vls / classes)
	}
	for k := range classes {
		for v := c.lo[k]; v < c.lo[k+1]; v++ {
			c.of[v] = uint8(k)
		}
	}
	return c, nil
}

// Len returns the number of classes.
func (c *Classes) Len() int { return len(c.lo) - 1 }

// VLs returns the number of link VLs.
func (c *Classes) VLs() int { return len(c.of) }

// Of returns the class of link VL vl, which must be below VLs().
func (c *Classes) Of(vl int) int { return int(c.of[vl]) }

// Range returns the link VLs of class k, which must be below Len():
// lo ≤ vl < hi.
func (c *Classes) Range(k int) (lo, hi int) { return int(c.lo[k]), int(c.lo[k+1]) }

// Mask returns the link VLs of class k as a bit mask (bit vl).
func (c *Classes) Mask(k int) uint16 {
	lo, hi := c.Range(k)
	return uint16(1<<hi - 1<<lo)
}
