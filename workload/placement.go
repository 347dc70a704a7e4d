package workload

import (
	"fmt"
	"strconv"
	"strings"

	"netsim/kernel"
	"netsim/topologies"
)

// Placements of ranks on hosts, as experiment files name them.
const (
	// PlaceLinear puts rank r on host r.
	PlaceLinear = "linear"
	// PlaceRandom puts the ranks on hosts drawn at random, without
	// repetition, from the experiment's seed.
	PlaceRandom = "random"
	// PlaceBySwitch deals the ranks to the switches round robin (rank 0
	// on the first host of the first switch with hosts, rank 1 on the
	// first host of the next, …), so neighbouring ranks sit on different
	// switches.
	PlaceBySwitch = "by_switch"
	// PlaceFile reads each rank's host from a file, one host (a name or
	// an index) per line, rank 0 first.
	PlaceFile = "file"
)

// Placements returns the placement names.
func Placements() []string { return []string{PlaceLinear, PlaceRandom, PlaceBySwitch, PlaceFile} }

// Place returns the host of each of ranks ranks on net by the placement
// kind; seed draws a random placement, and data (from file) is the host
// list of PlaceFile.
func Place(kind string, ranks int, net *topologies.Network, seed uint64, data []byte, file string) ([]int, error) {
	hosts := len(net.Hosts)
	if ranks < 1 || ranks > hosts {
		return nil, fmt.Errorf("ranks: %d ranks on %d hosts (expected 1 to %d)", ranks, hosts, hosts)
	}
	at := make([]int, ranks)
	switch kind {
	case PlaceLinear:
		for r := range at {
			at[r] = r
		}
	case PlaceRandom:
		rng := kernel.NewRNG(seed, 5)
		perm := make([]int, hosts)
		for i := range perm {
			perm[i] = i
		}
		for i := range ranks { // a partial Fisher–Yates shuffle
			j := i + rng.IntN(hosts-i)
			perm[i], perm[j] = perm[j], perm[i]
		}
		copy(at, perm)
	case PlaceBySwitch:
		per := make([][]int, len(net.Switches))
		for h, x := range net.Hosts {
			per[x.Switch] = append(per[x.Switch], h)
		}
		r := 0
		for round := 0; r < ranks; round++ {
			for _, hs := range per {
				if round < len(hs) && r < ranks {
					at[r] = hs[round]
					r++
				}
			}
		}
	case PlaceFile:
		return placeFile(ranks, net, data, file)
	default:
		return nil, fmt.Errorf("placement: unknown placement %q (known: %s)", kind, strings.Join(Placements(), ", "))
	}
	return at, nil
}

// placeFile reads a placement file: one host per line, by name or index
// (topologies.ReadNodeList), a line per rank.
func placeFile(ranks int, net *topologies.Network, data []byte, file string) ([]int, error) {
	_, names := net.DisplayNames()
	byName := topologies.IndexNames(names)
	at, err := topologies.ReadNodeList(data, file, "host", "no hosts (expected one host, a name or an index, per rank)", func(word string) (int, string) {
		if h, ok := byName[word]; ok {
			return h, ""
		}
		if v, err := strconv.Atoi(word); err == nil && v >= 0 && v < len(net.Hosts) {
			return v, ""
		}
		return 0, fmt.Sprintf("%q is not a host of the network (expected a host name or an index 0 to %d)", word, len(net.Hosts)-1)
	})
	if err != nil {
		return nil, err
	}
	if len(at) != ranks {
		return nil, topologies.FileErrorf(file, 0, "%d hosts for %d ranks (expected one per rank)", len(at), ranks)
	}
	return at, nil
}
