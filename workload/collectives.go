package workload

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// Collective names, as experiment files give them.
const (
	// AllToAllName: every rank sends bytes to every other, in n − 1
	// steps of a pairwise exchange (step k: to rank r + k, from r − k).
	AllToAllName = "alltoall"
	// AllreduceRingName: a ring allreduce of a vector of bytes:
	// reduce-scatter then allgather, 2(n − 1) steps, each passing one
	// n-th of the vector to the next rank.
	AllreduceRingName = "allreduce-ring"
	// AllreduceDoublingName: an allreduce by recursive doubling, log₂ n
	// steps exchanging the whole vector with the rank whose number
	// differs in one bit; with n not a power of two, the first 2·rem
	// ranks (rem = n − 2^⌊log₂ n⌋) first fold in pairs and the odd one of
	// each pair gets the result at the end, as MPICH does.
	AllreduceDoublingName = "allreduce-rd"
	// BroadcastName: a binomial-tree broadcast of bytes from rank 0.
	BroadcastName = "bcast"
	// Halo3DName: every rank of a px × py × pz periodic grid exchanges
	// bytes with its neighbours in the six directions at once.
	Halo3DName = "halo3d"
)

// Collectives returns the names of the collectives, in order.
func Collectives() []string {
	return []string{AllToAllName, AllreduceRingName, AllreduceDoublingName, BroadcastName, Halo3DName}
}

// Collective builds the collective name for n ranks and messages of
// bytes bytes; grid is the process grid of halo3d (nil: the most cubic
// one).
func Collective(name string, n int, bytes int64, grid []int) (*Workload, error) {
	if n < 1 || n > MaxRanks {
		return nil, fmt.Errorf("%s: %d ranks (expected 1 to %d)", name, n, MaxRanks)
	}
	if bytes < 0 || bytes > MaxBytes {
		return nil, fmt.Errorf("%s: %d bytes (expected 0 to %d)", name, bytes, int64(MaxBytes))
	}
	if ops := int64(n) * collectiveOps(name, n); ops > MaxOps {
		return nil, fmt.Errorf("%s on %d ranks makes %d operations, more than the %d a workload may have", name, n, ops, MaxOps)
	}
	var build func(c *coll)
	switch name {
	case AllToAllName:
		build = (*coll).allToAll
	case AllreduceRingName:
		build = (*coll).allreduceRing
	case AllreduceDoublingName:
		build = (*coll).allreduceDoubling
	case BroadcastName:
		build = (*coll).broadcast
	case Halo3DName:
		if grid == nil {
			grid = Grid3(n)
		}
		if len(grid) != 3 || grid[0] < 1 || grid[1] < 1 || grid[2] < 1 || grid[0]*grid[1]*grid[2] != n {
			return nil, fmt.Errorf("%s: grid %v is not 3 dimensions whose product is the %d ranks", name, grid, n)
		}
		build = func(c *coll) { c.halo3D(grid) }
	default:
		return nil, fmt.Errorf("unknown collective %q (known: %s)", name, strings.Join(Collectives(), ", "))
	}
	w := &Workload{Name: name, Ranks: make([][]Op, n)}
	for r := range n {
		c := coll{r: r, n: n, bytes: bytes}
		build(&c)
		w.Ranks[r] = slices.Clip(c.prog)
		if w.Ranks[r] == nil {
			w.Ranks[r] = []Op{}
		}
	}
	return w, nil
}

// collectiveOps returns the most operations one rank of a collective or
// a trace's collective op on n ranks has.
func collectiveOps(name string, n int) int64 {
	steps := int64(bits.Len(uint(n))) + 2 // ⌈log₂ n⌉ and a fold and unfold
	switch name {
	case AllToAllName, "alltoallv", "allgather":
		return 3 * int64(n)
	case AllreduceRingName:
		return 6 * int64(n)
	case Halo3DName:
		return 13
	}
	return 3 * steps
}

// coll builds the operations of one rank of a collective: rank r of n,
// bytes its message size (a vector's, a block's), root its root; its
// requests are numbered from base.
type coll struct {
	r, n, root int
	bytes      int64
	base       int32
	comm       int32
	prog       []Op
}

// step appends one step: a receive of rb bytes from from and a send of sb
// bytes to to, both at once, then a wait for them; from or to −1 leaves
// that side out. Steps number their requests in order.
func (c *coll) step(to int, sb int64, from int, rb int64) {
	var reqs []int32
	if from >= 0 {
		c.prog = append(c.prog, Op{Kind: Irecv, Peer: int32(from), Bytes: rb, Req: c.base, Comm: c.comm})
		reqs = append(reqs, c.base)
		c.base++
	}
	if to >= 0 {
		c.prog = append(c.prog, Op{Kind: Isend, Peer: int32(to), Bytes: sb, Req: c.base, Comm: c.comm})
		reqs = append(reqs, c.base)
		c.base++
	}
	if len(reqs) > 0 {
		c.prog = append(c.prog, Op{Kind: Wait, Reqs: reqs})
	}
}

func (c *coll) allToAll() {
	for k := 1; k < c.n; k++ {
		c.step((c.r+k)%c.n, c.bytes, (c.r-k+c.n)%c.n, c.bytes)
	}
}

// allToAllV is allToAll with per-destination sizes; receives take any
// size up to MaxBytes.
func (c *coll) allToAllV(sizes []int64) {
	for k := 1; k < c.n; k++ {
		c.step((c.r+k)%c.n, sizes[(c.r+k)%c.n], (c.r-k+c.n)%c.n, MaxBytes)
	}
}

// chunk returns the size of chunk i of a vector of bytes cut in n.
func chunk(bytes int64, n, i int) int64 {
	i = ((i % n) + n) % n
	return bytes*int64(i+1)/int64(n) - bytes*int64(i)/int64(n)
}

func (c *coll) allreduceRing() {
	n, r := c.n, c.r
	if n == 1 {
		return
	}
	right, left := (r+1)%n, (r-1+n)%n
	// Reduce-scatter: step s sends chunk r − s, receives chunk r − s − 1;
	// allgather: step s sends chunk r + 1 − s, receives chunk r − s.
	for s := range n - 1 {
		c.step(right, chunk(c.bytes, n, r-s), left, chunk(c.bytes, n, r-s-1))
	}
	for s := range n - 1 {
		c.step(right, chunk(c.bytes, n, r+1-s), left, chunk(c.bytes, n, r-s))
	}
}

// allgatherRing passes every rank's block of bytes round the ring, n − 1
// steps.
func (c *coll) allgatherRing() {
	for range c.n - 1 {
		c.step((c.r+1)%c.n, c.bytes, (c.r-1+c.n)%c.n, c.bytes)
	}
}

func (c *coll) allreduceDoubling() {
	n, r, b := c.n, c.r, c.bytes
	p := 1 << (bits.Len(uint(n)) - 1) // largest power of two ≤ n
	rem := n - p
	// Fold: among the first 2·rem ranks, each even one gives its vector
	// to the odd one after it and sits out until the result comes back.
	vr := r - rem // rank among the p that take part
	if r < 2*rem {
		if r%2 == 0 {
			c.step(r+1, b, -1, 0)
			c.step(-1, 0, r+1, b)
			return
		}
		c.step(-1, 0, r-1, b)
		vr = r / 2
	}
	real := func(v int) int { // the rank of participant v
		if v < rem {
			return 2*v + 1
		}
		return v + rem
	}
	for mask := 1; mask < p; mask <<= 1 {
		peer := real(vr ^ mask)
		c.step(peer, b, peer, b)
	}
	if r < 2*rem {
		c.step(r-1, b, -1, 0)
	}
}

// broadcast sends bytes from the root down a binomial tree: a rank
// receives from its parent, then sends to its children, farthest first.
func (c *coll) broadcast() {
	n := c.n
	v := (c.r - c.root + n) % n // rank relative to the root
	abs := func(u int) int32 { return int32((u + c.root) % n) }
	mask := 1
	for ; mask < n; mask <<= 1 {
		if v&mask != 0 {
			c.prog = append(c.prog, Op{Kind: Recv, Peer: abs(v - mask), Bytes: c.bytes, Comm: c.comm})
			break
		}
	}
	for mask >>= 1; mask > 0; mask >>= 1 {
		if v+mask < n {
			c.prog = append(c.prog, Op{Kind: Send, Peer: abs(v + mask), Bytes: c.bytes, Comm: c.comm})
		}
	}
}

// reduce is broadcast reversed: a rank receives from its children,
// nearest first, then sends to its parent.
func (c *coll) reduce() {
	n := c.n
	v := (c.r - c.root + n) % n
	abs := func(u int) int32 { return int32((u + c.root) % n) }
	mask := 1
	for ; mask < n; mask <<= 1 {
		if v&mask != 0 {
			break
		}
		if v+mask < n {
			c.prog = append(c.prog, Op{Kind: Recv, Peer: abs(v + mask), Bytes: c.bytes, Comm: c.comm})
		}
	}
	if v != 0 {
		c.prog = append(c.prog, Op{Kind: Send, Peer: abs(v - mask), Bytes: c.bytes, Comm: c.comm})
	}
}

// barrier is a dissemination barrier: ⌈log₂ n⌉ rounds of empty messages,
// round k to rank r + 2^k, from r − 2^k.
func (c *coll) barrier() {
	for d := 1; d < c.n; d <<= 1 {
		c.step((c.r+d)%c.n, 0, (c.r-d+c.n)%c.n, 0)
	}
}

// Grid3 returns the most cubic px × py × pz = n, px ≥ py ≥ pz.
func Grid3(n int) []int {
	best := []int{n, 1, 1}
	for z := 1; z*z*z <= n; z++ {
		if n%z != 0 {
			continue
		}
		for y := z; y*y <= n/z; y++ {
			if (n/z)%y == 0 {
				x := n / z / y
				if x-z < best[0]-best[2] {
					best = []int{x, y, z}
				}
			}
		}
	}
	return best
}

// halo3D exchanges bytes with the neighbours in the six directions of a
// periodic grid at once. Direction 2d is +1 along d, 2d+1 is −1; a
// message going in direction k carries tag k, so a rank's two neighbours
// along a dimension of 2 are told apart.
func (c *coll) halo3D(grid []int) {
	r := c.r
	stride := []int{1, grid[0], grid[0] * grid[1]}
	coord := []int{r % grid[0], r / grid[0] % grid[1], r / stride[2]}
	neighbour := func(d, dir int) int32 {
		x := (coord[d] + dir + grid[d]) % grid[d]
		return int32(r + (x-coord[d])*stride[d])
	}
	var reqs []int32
	for _, send := range []bool{false, true} {
		for d := range 3 {
			if grid[d] == 1 {
				continue
			}
			for k, dir := range []int{1, -1} {
				op := Op{Kind: Irecv, Peer: neighbour(d, -dir), Tag: int32(2*d + k), Bytes: c.bytes, Req: c.base, Comm: c.comm}
				if send {
					op.Kind, op.Peer = Isend, neighbour(d, dir)
				}
				c.prog = append(c.prog, op)
				reqs = append(reqs, c.base)
				c.base++
			}
		}
	}
	if len(reqs) > 0 {
		c.prog = append(c.prog, Op{Kind: Wait, Reqs: reqs})
	}
}

// Bound returns the least cycles the collective name on n ranks with
// messages of bytes bytes can take on a network whose every host sends
// and receives one flit per cycle, flits(b) being the flits of a message
// of b bytes (its packets' flits together): the flits the busiest rank
// must send or receive one after another, step after step, ignoring the
// network's latency. It is 0 for a workload it does not know.
func Bound(name string, n int, bytes int64, grid []int, flits func(int64) int64) int64 {
	if n <= 1 {
		return 0
	}
	switch name {
	case AllToAllName:
		return int64(n-1) * flits(bytes)
	case AllreduceRingName:
		// Rank r sends every chunk but r + 1 in the reduce-scatter and
		// every chunk but r + 2 in the allgather, one step after the
		// other.
		var total int64
		for i := range n {
			total += flits(chunk(bytes, n, i))
		}
		var b int64
		for r := range n {
			b = max(b, 2*total-flits(chunk(bytes, n, r+1))-flits(chunk(bytes, n, r+2)))
		}
		return b
	case AllreduceDoublingName:
		steps := int64(bits.Len(uint(n)) - 1)
		if n&(n-1) != 0 {
			steps += 2
		}
		return steps * flits(bytes)
	case BroadcastName:
		return int64(bits.Len(uint(n-1))) * flits(bytes)
	case Halo3DName:
		if grid == nil {
			grid = Grid3(n)
		}
		dirs := 0
		for _, g := range grid {
			if g > 1 {
				dirs += 2
			}
		}
		return int64(dirs) * flits(bytes)
	}
	return 0
}
