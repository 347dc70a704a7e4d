package traffic

import "netsim/kernel"

// Restrict returns p restricted to the pairs of hosts a routing connects,
// for tables that leave some unreachable: class[h] is host h's class (its
// switch: reachability depends on the source's switch only) and
// reachable(c, d) reports whether sources of class c reach host d.
//
// A fixed map (every pattern but uniform) keeps its pairs; a source whose
// destination is unreachable does not send, and active[src] is false for
// it. Uniform draws each destination uniformly among those its source
// reaches (its own host always is), so every source stays active: by
// rejection when a class reaches at least a quarter of the hosts, from a
// list of them otherwise. The returned pattern's Dest never returns an
// unreachable destination for an active source; it is read-only and safe
// for concurrent use, like p.
func Restrict(p Pattern, class []int32, reachable func(c int32, dst int) bool) (Pattern, []bool) {
	hosts := len(class)
	active := make([]bool, hosts)
	if _, ok := p.(uniform); !ok {
		for src := range active {
			active[src] = reachable(class[src], p.Dest(src, nil))
		}
		return p, active
	}
	classes := int32(0)
	for _, c := range class {
		classes = max(classes, c+1)
	}
	r := &reachableUniform{class: class, reachable: reachable, lists: make([][]int32, classes), hosts: hosts}
	counted := make([]bool, classes)
	for src, c := range class {
		active[src] = true
		if counted[c] {
			continue
		}
		counted[c] = true
		var list []int32
		for d := range hosts {
			if reachable(c, d) {
				list = append(list, int32(d))
			}
		}
		if 4*len(list) < hosts {
			r.lists[c] = list // few: draw from the list
		}
	}
	return r, active
}

// reachableUniform is uniform over the destinations each source reaches.
type reachableUniform struct {
	class     []int32
	reachable func(c int32, dst int) bool
	lists     [][]int32 // per class, the destinations it reaches when few; nil: draw by rejection
	hosts     int
}

// Name returns "uniform": the pattern is uniform traffic, over the pairs
// the routing connects.
func (u *reachableUniform) Name() string { return nameUniform }

// Dest draws a destination src reaches, uniformly: from the class's list,
// or uniform draws until one is reachable (at most four expected).
func (u *reachableUniform) Dest(src int, rng *kernel.RNG) int {
	c := u.class[src]
	if l := u.lists[c]; l != nil {
		return int(l[rng.IntN(len(l))])
	}
	for {
		if d := rng.IntN(u.hosts); u.reachable(c, d) {
			return d
		}
	}
}
