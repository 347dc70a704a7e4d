package traffic

import (
	"netsim/kernel"
	"netsim/keyerr"
)

// RandomBisection draws a random bisection pattern as in seed 001 §5.2:
// the hosts are split at random into two halves and each host of one half
// is paired with a host of the other. It returns each host's partner (−1
// for the odd one out when hosts is odd).
func RandomBisection(hosts int, rng *kernel.RNG) ([]int, error) {
	if hosts < 2 {
		return nil, keyerr.New("pattern", "a bisection needs at least 2 hosts, got %d", hosts)
	}
	perm := make([]int, hosts)
	for i := range perm {
		perm[i] = i
	}
	for i := hosts - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		perm[i], perm[j] = perm[j], perm[i]
	}
	partner := make([]int, hosts)
	for i := range partner {
		partner[i] = -1
	}
	half := hosts / 2
	for i := 0; i < half; i++ {
		a, b := perm[i], perm[half+i]
		partner[a], partner[b] = b, a
	}
	return partner, nil
}

// Bridge returns the bridge pattern of seed 001 §5.4: the hosts of leaf
// switch 2i (perLeaf hosts each, numbered leaf-major) are paired one to
// one with those of leaf 2i+1. Hosts of a last, unpaired leaf sit out (−1).
func Bridge(hosts, perLeaf int) ([]int, error) {
	if perLeaf < 1 || hosts < 2*perLeaf {
		return nil, keyerr.New("pattern", "bridge needs at least two leaves of %d hosts, got %d hosts", perLeaf, hosts)
	}
	partner := make([]int, hosts)
	for h := range partner {
		partner[h] = -1
	}
	for h := 0; h+perLeaf < hosts; h++ {
		if h/perLeaf%2 == 0 {
			partner[h], partner[h+perLeaf] = h+perLeaf, h
		}
	}
	return partner, nil
}
