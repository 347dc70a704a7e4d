package structure

// unionFind is a disjoint-set forest with path halving and union by size
// (the union-find algorithm the seed cites).
type unionFind struct {
	parent []int32
	size   []int32
}

// newUnionFind returns n singleton sets 0..n-1.
func newUnionFind(n int) *unionFind {
	u := &unionFind{parent: make([]int32, n), size: make([]int32, n)}
	for i := range u.parent {
		u.parent[i] = int32(i)
		u.size[i] = 1
	}
	return u
}

// find returns the representative of x's set.
func (u *unionFind) find(x int) int {
	p := u.parent
	for int(p[x]) != x {
		p[x] = p[p[x]]
		x = int(p[x])
	}
	return x
}

// union merges the sets of x and y.
func (u *unionFind) union(x, y int) {
	x, y = u.find(x), u.find(y)
	if x == y {
		return
	}
	if u.size[x] < u.size[y] {
		x, y = y, x
	}
	u.parent[y] = int32(x)
	u.size[x] += u.size[y]
}

// labels numbers the sets 0, 1, … in order of their first member among
// the elements with keep[i] (all when keep is nil) and returns the label of
// every element (-1 for the others) and the number of labels.
func (u *unionFind) labels(keep []bool) ([]int, int) {
	lab := make([]int, len(u.parent))
	byRoot := make([]int, len(u.parent))
	for i := range byRoot {
		byRoot[i] = -1
	}
	n := 0
	for i := range lab {
		if keep != nil && !keep[i] {
			lab[i] = -1
			continue
		}
		r := u.find(i)
		if byRoot[r] < 0 {
			byRoot[r] = n
			n++
		}
		lab[i] = byRoot[r]
	}
	return lab, n
}
