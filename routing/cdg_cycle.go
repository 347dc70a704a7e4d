package routing

import (
	"math/bits"

	"netsim/topologies"
)

// DFS colours of the cycle search.
const (
	white = iota // not reached yet
	grey         // on the DFS stack
	black        // done: no cycle through it
)

// dfsFrame is one state on the DFS stack and the column of its row where
// the scan for the next successor resumes.
type dfsFrame struct {
	state int
	col   int
}

// findCycle returns the states of one cycle among the switch-to-switch
// channels of g, in dependency order, or nil when there is none. The
// depth-first search keeps its own stack, so its depth is bounded by
// memory, not by the goroutine stack; it visits states in index order, so
// the cycle found depends only on the graph.
func (g *cdg) findCycle() []int {
	n := len(g.kind) * g.vls
	color := make([]uint8, n)
	var stack []dfsFrame
	for root := range n {
		if color[root] != white || g.kind[root/g.vls] != topologies.SwitchPort {
			continue
		}
		color[root] = grey
		stack = append(stack[:0], dfsFrame{state: root})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			next, col := g.successor(top.state, top.col)
			if next < 0 {
				color[top.state] = black
				stack = stack[:len(stack)-1]
				continue
			}
			top.col = col + 1
			switch color[next] {
			case grey:
				i := len(stack) - 1
				for stack[i].state != next {
					i--
				}
				cycle := make([]int, 0, len(stack)-i)
				for _, f := range stack[i:] {
					cycle = append(cycle, f.state)
				}
				return cycle
			case white:
				color[next] = grey
				stack = append(stack, dfsFrame{state: next})
			}
		}
	}
	return nil
}

// successor returns the first switch-to-switch channel (as a state) that
// state st depends on at column col or later of its row, and that column;
// next is -1 when there is none. Ejection channels are skipped: nothing
// depends on them.
func (g *cdg) successor(st, col int) (next, at int) {
	row := g.row(st)
	sw := int(g.portSw[st/g.vls])
	base := int(g.portStart[sw])
	for w := col / 64; w < len(row); w++ {
		word := row[w].Load()
		if w == col/64 {
			word &^= 1<<(col%64) - 1
		}
		for word != 0 {
			c := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			op := base + c/g.vls
			if g.kind[op] == topologies.SwitchPort {
				return int(g.next[op])*g.vls + c%g.vls, c
			}
		}
	}
	return -1, 0
}
