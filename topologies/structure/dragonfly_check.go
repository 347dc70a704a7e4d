package structure

import "fmt"

// Check reports the first way d breaks an invariant of a Dragonfly with
// the shape of d.Model on the link list g: a group label out of range, a
// group of more than K switches, more groups than the shape has, two
// groups sharing two or more links (two groups share one global link;
// parallel links count once), a switch with more than G links to other
// groups, or a link marked local whose ends are in different groups, or
// the other way round. Faults do not make a correct mapping fail Check,
// as long as the shape is right.
func (d *Dragonfly) Check(g *Graph) error {
	if len(d.Group) != g.Switches() || len(d.Local) != len(g.Links) {
		return fmt.Errorf("mapping of %d switches and %d links for a graph of %d and %d", len(d.Group), len(d.Local), g.Switches(), len(g.Links))
	}
	m := d.Model
	size := make([]int, d.Groups)
	for s, grp := range d.Group {
		if grp >= d.Groups {
			return fmt.Errorf("switch %s: group %d of %d", g.Names[s], grp, d.Groups)
		}
		if grp >= 0 {
			size[grp]++
		}
	}
	if d.Groups > m.Groups {
		return fmt.Errorf("%d groups, more than the %d of a Dragonfly with K = %d, G = %d", d.Groups, m.Groups, m.GroupSize, m.GlobalPerSwitch)
	}
	for grp, n := range size {
		if n > m.GroupSize {
			return fmt.Errorf("group %d has %d switches, more than K = %d", grp, n, m.GroupSize)
		}
	}
	type pair struct{ a, b int }
	edges := make(map[pair]bool)        // pairs of adjacent switches
	shared := make(map[pair]pair)       // pair of groups → the first pair of switches joining them
	global := make([]int, len(d.Group)) // links to other groups
	for i, l := range g.Links {
		ga, gb := d.Group[l.A], d.Group[l.B]
		if ga < 0 || gb < 0 {
			if ga >= 0 || gb >= 0 {
				return fmt.Errorf("link %s–%s joins a mapped switch to an unmapped one", g.Names[l.A], g.Names[l.B])
			}
			continue
		}
		if d.Local[i] != (ga == gb) {
			return fmt.Errorf("link %s–%s: local %v, groups %d and %d", g.Names[l.A], g.Names[l.B], d.Local[i], ga, gb)
		}
		e := pair{min(l.A, l.B), max(l.A, l.B)}
		if ga == gb || edges[e] {
			continue
		}
		edges[e] = true
		global[l.A]++
		global[l.B]++
		p := pair{min(ga, gb), max(ga, gb)}
		if first, ok := shared[p]; ok {
			return fmt.Errorf("groups %d and %d share two links, %s–%s and %s–%s", p.a, p.b,
				g.Names[first.a], g.Names[first.b], g.Names[e.a], g.Names[e.b])
		}
		shared[p] = e
	}
	for s, n := range global {
		if n > m.GlobalPerSwitch {
			return fmt.Errorf("switch %s has %d global links, more than G = %d", g.Names[s], n, m.GlobalPerSwitch)
		}
	}
	return nil
}
