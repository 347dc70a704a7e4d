package routing

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"netsim/topologies"
)

// checkFileTables checks tables t read from file for net: each host's
// switch sends it to the host's port, and every other switch sends it
// along switches that reach the host's switch. With partial, a switch
// whose path to a host meets a missing entry does not reach it: such
// pairs are recorded in t (unreach) instead of refused; loops and ports
// that lead nowhere are still errors. line(s, d) is the line of switch
// s's entry for host d (0 when unknown). Errors are *topologies.FileError
// values that name switches and hosts by their names and ports from 1.
func checkFileTables(t *Tables, net *topologies.Network, file string, partial bool, line func(s, d int) int) error {
	swNames, hostNames := net.DisplayNames()
	errorf := func(s, d int, format string, args ...any) error {
		return topologies.FileErrorf(file, line(s, d), format, args...)
	}
	// state[s] is 0 before switch s is seen, 1 while on the current walk,
	// 2 once it is known to reach the destination and 3 once it is known
	// not to (partial tables).
	state := make([]uint8, t.sws)
	var unreach []uint64
	if partial {
		unreach = make([]uint64, (len(t.lft)+63)/64)
	}
	hostsOn := make([]int64, t.sws)
	for _, h := range net.Hosts {
		hostsOn[h.Switch]++
	}
	pairs := int64(0)
	var walk []int
	for d, h := range net.Hosts {
		at := int(h.Switch)
		if p := t.lft[at*t.hosts+d]; p != uint16(h.Port) {
			return errorf(at, d, "switch %q sends host %q to port %d, but %q is at its port %d (expected port %d)",
				swNames[at], hostNames[d], int(p)+1, hostNames[d], h.Port+1, h.Port+1)
		}
		clear(state)
		state[at] = 2
		for s := range state {
			walk = walk[:0]
			u := s
			for state[u] == 0 {
				state[u] = 1
				walk = append(walk, u)
				p := t.lft[u*t.hosts+d]
				if p == noPort && partial {
					state[u] = 3
					break
				}
				if p == noPort {
					return errorf(u, d, "switch %q has no port for host %q", swNames[u], hostNames[d])
				}
				port := net.Switches[u].Ports[p]
				if port.Kind != topologies.SwitchPort {
					to := "no link"
					if port.Kind == topologies.HostPort {
						to = fmt.Sprintf("host %q", hostNames[port.Peer])
					}
					return errorf(u, d, "switch %q sends host %q to port %d, which leads to %s (expected a port toward switch %q of %q)",
						swNames[u], hostNames[d], p+1, to, swNames[at], hostNames[d])
				}
				u = int(port.Peer)
			}
			if state[u] == 1 {
				loop := walk[slices.Index(walk, u):]
				names := make([]string, 0, len(loop)+1)
				for _, w := range append(loop, u) {
					names = append(names, strconv.Quote(swNames[w]))
				}
				return errorf(u, d, "switch %q sends host %q to port %d, into the loop %s (expected a path to switch %q of %q)",
					swNames[u], hostNames[d], t.lft[u*t.hosts+d]+1, strings.Join(names, " → "), swNames[at], hostNames[d])
			}
			end := state[u]
			for _, w := range walk {
				state[w] = end
				if end == 3 {
					i := w*t.hosts + d
					unreach[i/64] |= 1 << (i % 64)
					pairs += hostsOn[w]
				}
			}
		}
	}
	if pairs > 0 {
		t.unreach, t.unreachPairs = unreach, pairs
	}
	return nil
}
